/** Test meta of one ART-E test (placeholder; owned by the ART-E Vitest integration). */
export interface ArteTestMeta {
  taskId: string
}
