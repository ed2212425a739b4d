/** Test meta of one MPCBench test (placeholder; owned by the MPCBench evaluation). */
export interface MpcbenchTestMeta {
  taskId: string
}
