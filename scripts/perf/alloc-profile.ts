/**
 * What a Vitest variant of the harness perf allocates per task (`PERF_HARNESS_ALLOC_DIR`, see `harness-perf.ts`): a
 * setup file samples the test worker's allocations with V8's sampling heap profiler, objects the GC has already
 * collected included, so the profile counts what was allocated, not what is still live (which `--heap-prof` shows).
 * Allocation is what the scavenges and the heap policy's full GCs follow, and unlike CPU time it barely varies from run
 * to run, so a change of a few KB per task can be read from one run.
 */
import { readFileSync, readdirSync } from 'node:fs'
import { isAbsolute, join, relative, sep } from 'node:path'

/** Where the setup file writes its profiles (one `.heapprofile` per test file). */
export const ALLOC_OUT_VARIABLE = 'PERF_ALLOC_OUT'

/** Bytes between two samples: small enough for a few KB per task over 1,000 tasks, large enough to stay cheap. */
export const ALLOC_SAMPLING_INTERVAL = 4096

/**
 * The setup file added to each Vitest variant's project for the allocation runs: sampling runs from the first
 * `beforeAll` of the test file to its last `afterAll` (module loading before it is left out), in the worker's isolate.
 */
export const ALLOC_SETUP_SOURCE = `// Written by scripts/perf/harness-perf.ts (PERF_HARNESS_ALLOC_DIR): samples what this test file allocates.
import { writeFileSync } from 'node:fs'
import { Session } from 'node:inspector/promises'
import { join } from 'node:path'
import { threadId } from 'node:worker_threads'
import { afterAll, beforeAll } from 'vitest'

const session = new Session()
session.connect()
beforeAll(async () => {
  await session.post('HeapProfiler.enable')
  await session.post('HeapProfiler.startSampling', { samplingInterval: ${ALLOC_SAMPLING_INTERVAL}, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true })
})
afterAll(async () => {
  const { profile } = await session.post('HeapProfiler.stopSampling')
  session.disconnect()
  writeFileSync(join(process.env.${ALLOC_OUT_VARIABLE}, \`\${process.pid}-\${threadId}-\${Date.now()}.heapprofile\`), JSON.stringify(profile))
})
`

/** A node of V8's sampling heap profile (`HeapProfiler.SamplingHeapProfileNode`), the fields read here. */
export interface SamplingNode {
  callFrame: { functionName: string; url: string }
  selfSize: number
  children: SamplingNode[]
}

/** Bytes allocated in the profiles of one run, in all and by origin (see {@link originOf}). */
export interface Allocation {
  bytes: number
  byOrigin: Map<string, number>
}

/**
 * The origin of a frame's allocations, by its script: a package (`openai`, `@vitest/runner`), a part of Node
 * (`node:undici`, `node:webstreams`), a folder of the project (`src/llm`), or undefined for V8's own functions
 * (`JSON.stringify`, `replaceAll`), whose allocations count for the function that called them.
 */
export function originOf(url: string, root: string): string | undefined {
  if (url === '') return undefined
  const path = url.startsWith('file://') ? decodeURIComponent(new URL(url).pathname) : url
  const inPackage = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(path)
  if (inPackage !== null) return inPackage[1]
  if (path.startsWith('node:')) {
    const parts = path.slice('node:'.length).split('/')
    if (parts[0] !== 'internal') return `node:${parts[0]}`
    return parts[1] === 'deps' ? `node:${parts[2] ?? 'deps'}` : `node:${parts[1] ?? 'internal'}`
  }
  if (!isAbsolute(path)) return path
  const inside = relative(root, path)
  if (inside.startsWith('..') || isAbsolute(inside)) return path
  const parts = inside.split(sep)
  return parts.length > 2 ? `${parts[0]}/${parts[1]}` : parts.length === 2 ? (parts[0] as string) : '.'
}

/** Adds the allocations of one profile to `into`, V8's own functions counted for their caller. */
export function addProfile(into: Allocation, head: SamplingNode, root: string): Allocation {
  const walk = (node: SamplingNode, inherited: string): void => {
    const origin = originOf(node.callFrame.url, root) ?? inherited
    into.bytes += node.selfSize
    into.byOrigin.set(origin, (into.byOrigin.get(origin) ?? 0) + node.selfSize)
    for (const child of node.children) walk(child, origin)
  }
  walk(head, '(V8)')
  return into
}

/** The allocations of every `.heapprofile` in `dir` (one run's test files). */
export function readAllocation(dir: string, root: string): Allocation {
  const allocation: Allocation = { bytes: 0, byOrigin: new Map() }
  for (const name of readdirSync(dir).filter((file) => file.endsWith('.heapprofile'))) {
    const profile = JSON.parse(readFileSync(join(dir, name), 'utf8')) as { head: SamplingNode }
    addProfile(allocation, profile.head, root)
  }
  return allocation
}

/** Bytes per task of the N-task run beyond the 1-task run, in all and by origin. */
export function perTask(one: Allocation, many: Allocation, tasks: number): Allocation {
  const byOrigin = new Map<string, number>()
  for (const origin of new Set([...one.byOrigin.keys(), ...many.byOrigin.keys()])) {
    byOrigin.set(origin, ((many.byOrigin.get(origin) ?? 0) - (one.byOrigin.get(origin) ?? 0)) / (tasks - 1))
  }
  return { bytes: (many.bytes - one.bytes) / (tasks - 1), byOrigin }
}

/** The origins where `mine` allocates most more (or less) than `theirs`, largest difference first. */
export function largestDifferences(mine: Allocation, theirs: Allocation, count: number): Array<{ origin: string; bytes: number }> {
  const origins = new Set([...mine.byOrigin.keys(), ...theirs.byOrigin.keys()])
  return [...origins]
    .map((origin) => ({ origin, bytes: (mine.byOrigin.get(origin) ?? 0) - (theirs.byOrigin.get(origin) ?? 0) }))
    .sort((a, b) => Math.abs(b.bytes) - Math.abs(a.bytes))
    .slice(0, count)
}
