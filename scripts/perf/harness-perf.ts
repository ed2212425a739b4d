/**
 * Harness overhead and memory (issue 17), side by side in one run, printed as numbers and ratios (asserts nothing):
 * - `script`: a plain Node script (openai SDK + a limiter + `EmailStore` search, `harness-plain-task.ts`);
 * - `vitest`: the same task as plain Vitest `test.concurrent.for` tests (no config file, a silent reporter);
 * - `vitest-heap`: `vitest` with the harness's heap policy (`BENCH_HEAP_GROWING_PERCENT`, set by its test file as the
 *   harness sets it), so the harness can also be read against plain Vitest held to the same memory;
 * - `evals`: the same task as vitest-evals tests (`describeEval` over a `createHarness` harness, its `it.concurrent.for`;
 *   a dev dependency used by this script only), run like `vitest`;
 * - `harness`: our ART-E bench tests (`bench/arte/arte.eval.ts` via `startVitest`, project `bench`, the ART-E
 *   reporter), the model being `openai/...` pointed at the scripted server, with the environment `agent-bench arte`
 *   sets (`MIMALLOC_ARENA_EAGER_COMMIT=0`, see src/arte/vitest/native-memory.ts; `BENCH_ONLY=arte`);
 * - `cli`: the same tests as a user runs them, `agent-bench arte` (bin/agent-bench.js, so the compiled CLI, which in
 *   this checkout runs the bench from `dist/` when it is current: `npm run build` first) with its default reporters
 *   (Vitest's `default`, the ART-E reporter, the HTML report). Its 1-task run is the harness's fixed start-up, printed
 *   against the 2 s target and plain Vitest's 1-task run;
 * - `package`: `cli` from an installed package, when `PERF_HARNESS_PACKAGE=DIR` names a project folder with the
 *   package installed (e.g. `npm pack`, then `npm install ./vitest-agent-bench-*.tgz` in DIR), run in DIR.
 * Each task makes 2 calls (search, then the final answer) to the scripted OpenAI-compatible server of `src/testing`
 * on 127.0.0.1, run in this process. Each variant runs in its own child process, measured from outside:
 * CPU = user + system time of the child and the descendants it waited for (this process's `cutime + cstime` from
 * `/proc/self/stat`), peak RSS = the largest sum of RSS over the child's process tree (sampled every 200 ms).
 * Per task = (N-task run - 1-task run) / (N - 1), so start-up is left out. Then wall time with 200 ms per call, and the
 * CPU per task of those runs (the Vitest worker then waits on the network instead of being busy all the time).
 *
 * Per-task figures vary by several percent from run to run on a shared machine: `PERF_HARNESS_ROUNDS=3` repeats the
 * interleaved 1-task and N-task runs and prints medians, with each variant's spread and the median of each round's
 * ratios (paired within a round, so a load that slows a whole round cancels out).
 * From 10,000 tasks up, the harness also runs at `PERF_HARNESS_SLOPE_TASKS` (default twice the size; 0 skips it; once per round) for the
 * memory growth per extra 1,000 tasks beyond N (the MB-per-1K column is the average from 1 task to N, start-up included).
 * Sizes: `PERF_HARNESS_TASKS` (default 1000; 10000 for the memory target), `PERF_HARNESS_CONCURRENCY` (default 50),
 * `PERF_HARNESS_LATENCY_MS` (default 200; 0 skips the latency runs), `PERF_HARNESS_VARIANTS` (e.g. `harness`; default all).
 * What a setting costs: `PERF_HARNESS_ENV='{"BENCH_LLM_LOG_DIR":"off"}'` (a JSON object of variables set for every run).
 * Before / after in one run: `PERF_HARNESS_BEFORE=DIR` adds a `before` row, the harness of another checkout (e.g.
 * `git worktree add DIR main`, with a `node_modules`), measured interleaved with the others.
 * `PERF_HARNESS_REPORT=1` adds the HTML report's reporter to the harness rows, as `agent-bench arte` runs it (its trace
 * budget, `BENCH_REPORT_TRACES_MB`, bounds what building the page costs at the end of a large run).
 * What a setting costs, interleaved: `PERF_HARNESS_BEFORE=. PERF_HARNESS_BEFORE_ENV='{"ARTE_TOOL_TIMEOUT_MS":"0"}'`
 * (variables of the `before` row only, after `PERF_HARNESS_ENV`; `PERF_HARNESS_BEFORE_NODE_ARGS`: node flags of the
 * `before` row only, e.g. V8 flags that `NODE_OPTIONS` refuses). The settings measured so far: the tool time budget
 * (`ARTE_TOOL_TIMEOUT_MS=0`), the call log (`BENCH_LLM_LOG_DIR=off`) and the heap policy (`BENCH_HEAP_GROWING_PERCENT=0`,
 * V8's default; docs/internals.md).
 * To profile: `PERF_HARNESS_NODE_ARGS='--cpu-prof --cpu-prof-dir=DIR' PERF_HARNESS_POOL=threads` (node flags of each
 * variant's process; Vitest's workers as threads of it, so they are profiled too). Where the GC time goes:
 * `PERF_HARNESS_NODE_ARGS=--trace-gc-nvp PERF_HARNESS_STDOUT_DIR=DIR` keeps each run's standard output (one line per GC
 * of each isolate, the worker threads' included; add `PERF_HARNESS_POOL=threads` for the plain Vitest rows, whose forked
 * workers write elsewhere) in `DIR/{variant}-{time}.out`.
 * Where the CPU goes by thread: `PERF_HARNESS_THREADS=1` prints each run's CPU by thread (`/proc/PID/task/TID/stat`,
 * sampled every 50 ms): each process's main thread, Node's worker threads (the test worker, the store worker) and V8's
 * helper threads (concurrent marking, parallel scavenges: what the GC costs beyond its pauses), as `p0:main`, `p0:node`.
 * What a task allocates (what the GC's work follows; it varies far less from run to run than CPU time):
 * `PERF_HARNESS_ALLOC_DIR=DIR` adds an untimed 1-task and N-task run of each Vitest variant that samples the test
 * worker's allocations (alloc-profile.ts), prints KB per task and the origins where the harness allocates more than
 * plain Vitest (and than `before`), and keeps the profiles in DIR.
 * Run alone: `npx tsx scripts/perf/harness-perf.ts` (or `npm run perf -- harness`).
 */
import { spawn } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { createRequire } from 'node:module'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { loadArteDataset } from '../../src/arte/dataset/load-dataset.ts'
import { prepareArteDb } from '../../src/arte/vitest/demo-db.ts'
import { MIMALLOC_EAGER_COMMIT_VARIABLE } from '../../src/arte/vitest/native-memory.ts'
import { BENCH_ONLY_VARIABLE } from '../../src/core/bench-only.ts'
import { staleReason } from '../../src/core/dist-freshness.ts'
import { quantile } from '../../src/stats/bootstrap.ts'
import {
  type ReceivedRequest,
  type ScriptedServer,
  lastUserText,
  scriptedToolCalls,
  startScriptedServer,
  toolResults,
} from '../../src/testing/scripted-server.ts'
import { ALLOC_OUT_VARIABLE, ALLOC_SETUP_SOURCE, type Allocation, largestDifferences, perTask as allocationPerTask, readAllocation } from './alloc-profile.ts'
import { createPlainTask, limiter, type PlainRow } from './harness-plain-task.ts'

const ROOT = fileURLToPath(new URL('../../', import.meta.url))
const SELF = fileURLToPath(import.meta.url)
const DEMO_ROWS = join(ROOT, 'data/arte-demo-questions.jsonl')
const DEMO_MAILDIR = join(ROOT, 'data/demo-mailbox/maildir')
const PLAIN_TEST_DIR = join(ROOT, '.tmp/perf-harness')
const VITEST_RUNNER = join(PLAIN_TEST_DIR, 'run-vitest.mjs')
const CLI_RUNNER = join(PLAIN_TEST_DIR, 'run-cli.mjs')
const VARIANTS = ['script', 'vitest', 'vitest-heap', 'evals', 'harness', 'cli', 'package', 'before'] as const
type Variant = (typeof VARIANTS)[number]
// Issue 41's targets: CPU per task and peak RSS at 10,000 tasks against plain Vitest's, growth beyond 10,000 tasks.
const TARGET = { cpuVsVitest: 1.15, rssVsVitest: 1.2, mbPerExtra1k: 10, latencyWallVsScript: 1.3 } as const
const CLOCK_TICKS = 100

function envInt(name: string, fallback: number): number {
  const parsed = Number(process.env[name])
  return Number.isInteger(parsed) && parsed >= 0 && process.env[name] !== '' && process.env[name] !== undefined ? parsed : fallback
}

// ---------- child side ----------

function readRows(file: string): PlainRow[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as PlainRow)
}

async function runChild(variant: Variant): Promise<void> {
  const env = process.env
  const baseURL = env.PERF_BASE_URL ?? ''
  const db = env.ARTE_DB ?? ''
  const concurrency = Number(env.BENCH_CONCURRENCY)
  if (variant === 'script') {
    const rows = readRows(env.ARTE_DATASET ?? '')
    const task = createPlainTask(baseURL, db)
    const limit = limiter(concurrency)
    const results = await Promise.all(rows.map((row) => limit(() => task.run(row))))
    task.close()
    console.log(`perf-result ${JSON.stringify({ tasks: results.length, exact: results.filter(Boolean).length })}`)
    return
  }
  throw new Error(`--variant ${variant}: the Vitest variants run from ${VITEST_RUNNER}`)
}

/**
 * The Vitest variants run from this plain ES module (written next to the plain test file), not under tsx, so Vitest
 * and its workers load as they do for a user (tsx would add its loader to every worker).
 */
const VITEST_RUNNER_SOURCE = `// Written by scripts/perf/harness-perf.ts: runs one Vitest variant of the harness perf via startVitest.
import { createVitest, startVitest } from 'vitest/node'

const [variant, root, include] = process.argv.slice(2)
const concurrency = Number(process.env.BENCH_CONCURRENCY)
// PERF_HARNESS_POOL=threads runs the tests in worker threads of this process (e.g. to profile them with --cpu-prof).
// Worker threads refuse V8 flags, so the bench project's execArgv (BENCH_WORKER_SEMI_SPACE_MB) is left out with them.
if (process.env.PERF_HARNESS_POOL) process.env.BENCH_WORKER_SEMI_SPACE_MB = '0'
const workerArgv = process.env.PERF_HARNESS_POOL ? { pool: process.env.PERF_HARNESS_POOL, execArgv: [] } : {}
const [filters, options] =
  variant === 'vitest' || variant === 'vitest-heap' || variant === 'evals'
    ? [[], { config: false, root, include: [include], maxConcurrency: concurrency, watch: false, reporters: [{ onInit() {} }], ...workerArgv }]
    : [[include], { root, project: 'bench', watch: false, reporters: ['./reporters/arte.ts', ...(process.env.PERF_HARNESS_REPORT === '1' ? ['./reporters/report.ts'] : [])], ...workerArgv }]
// The allocation runs (PERF_HARNESS_ALLOC_DIR) add a setup file to every project, which the options of startVitest
// cannot do for the projects of a config file.
const setup = process.env.PERF_ALLOC_SETUP
let vitest
if (setup) {
  vitest = await createVitest('test', options)
  for (const project of vitest.projects) project.config.setupFiles = [...project.config.setupFiles, setup]
  await vitest.start(filters)
} else {
  vitest = await startVitest('test', filters, options)
}
// 'before' is the harness of another checkout (PERF_HARNESS_BEFORE): same command, its root.
let passed = 0
let total = 0
let firstError
for (const testModule of vitest.state.getTestModules()) {
  firstError ??= testModule.errors()[0]?.message
  for (const testCase of testModule.children.allTests()) {
    total++
    if (testCase.result().state === 'passed') passed++
    else firstError ??= testCase.result().errors?.[0]?.message
  }
}
await vitest.close()
// A failed test is a broken variant, not a measurement: its first error shows in the result column.
console.log('perf-result ' + JSON.stringify({ tasks: total, passed, ...(firstError === undefined ? {} : { firstError: String(firstError).slice(0, 300) }) }))
process.exit(0)
`

/**
 * The `cli` variant: `agent-bench arte` run as `bin/agent-bench.js` runs it (this module only sets its command line),
 * then one line of what it did, from the results file it wrote (the command's exit code is the tests' verdict).
 */
const CLI_RUNNER_SOURCE = `// Written by scripts/perf/harness-perf.ts: runs \`agent-bench arte\` (bin/agent-bench.js) as a user runs it.
import { readFileSync } from 'node:fs'
import { pathToFileURL } from 'node:url'

const [bin] = process.argv.slice(2)
process.argv = [process.argv[0], bin, 'arte']
await import(pathToFileURL(bin).href)
const code = Number(process.exitCode ?? 0)
let results = {}
try {
  results = JSON.parse(readFileSync(process.env.ARTE_OUTPUT ?? '', 'utf8'))
} catch (error) {
  results = { firstError: String(error).slice(0, 300) }
}
const summary = { tasks: results.totalTasks, passed: results.completedTasks, ...(code === 0 ? {} : { exitCode: code }), ...(results.firstError ? { firstError: results.firstError } : {}) }
console.log('perf-result ' + JSON.stringify(summary))
process.exit(0)
`

/** The start-up target: CPU of a 1-task run through `agent-bench arte` (issue 41). */
const STARTUP_TARGET_CPU_MS = 2000

/**
 * Prints the fixed start-up: CPU (user + system of the process tree) of each variant's 1-task run (median, and with
 * several rounds the min-max), and the target row: the `cli` variant (and `package`) against
 * {@link STARTUP_TARGET_CPU_MS} and against plain Vitest's 1-task run (the median of each round's ratio).
 */
function printStartup(oneRuns: ReadonlyMap<Variant, ReadonlyArray<{ one: { cpuMs: number } }>>): void {
  const values = (variant: Variant): number[] => (oneRuns.get(variant) ?? []).map((run) => run.one.cpuMs)
  const middle = (list: number[]): number =>
    quantile(
      [...list].sort((a, b) => a - b),
      0.5,
    )
  const cpu = (variant: Variant): number => middle(values(variant))
  const seconds = (ms: number): string => fmt(ms / 1000)
  const rounds = values([...oneRuns.keys()][0] as Variant).length
  const rows = [...oneRuns.keys()].map((variant) => {
    const spread = rounds > 1 ? ` (${seconds(Math.min(...values(variant)))}-${seconds(Math.max(...values(variant)))})` : ''
    return `${variant} ${seconds(cpu(variant))} s${spread}`
  })
  console.log(`  start-up, CPU of a 1-task run (user + system, process tree${rounds > 1 ? `, median of ${rounds} rounds (min-max)` : ''}): ${rows.join(', ')}`)
  const stale = staleReason(ROOT)
  const launch = stale === undefined ? 'dist/ current: the bench ran from dist/' : `dist/ not current (${stale}): the bench ran from the sources`
  for (const variant of ['cli', 'package'] as const) {
    if (!oneRuns.has(variant)) continue
    const ratios = values(variant).map((value, round) => value / (values('vitest')[round] ?? Number.NaN))
    const plain = oneRuns.has('vitest')
      ? `; plain Vitest's 1-task run ${seconds(cpu('vitest'))} s, the harness ${fmt(middle(ratios))}x it (each round's ratio: ${ratios.map((ratio) => fmt(ratio)).join(', ')})`
      : ''
    const how = variant === 'cli' ? `agent-bench arte in this checkout (${launch})` : 'agent-bench arte from the installed package'
    console.log(
      `  target: harness start-up, a 1-task run of ${how} <= ${seconds(STARTUP_TARGET_CPU_MS)} s CPU: ` +
        `${seconds(cpu(variant))} s (ratio to target ${fmt(cpu(variant) / STARTUP_TARGET_CPU_MS)})${plain}`,
    )
  }
}

// ---------- parent side ----------

/** One measured child run. */
interface Measurement {
  wallMs: number
  cpuMs: number
  peakRssMb: number
  result: string
}

function childrenCpuMs(): number {
  const stat = readFileSync('/proc/self/stat', 'utf8')
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  return ((Number(fields[13]) + Number(fields[14])) * 1000) / CLOCK_TICKS
}

/** Sum of RSS (MB) of `root` and its descendants, from `/proc`. */
function treeRssMb(root: number): number {
  const children = new Map<number, number[]>()
  const rss = new Map<number, number>()
  for (const name of readdirSync('/proc')) {
    if (name.charCodeAt(0) < 48 || name.charCodeAt(0) > 57) continue
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8')
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
      const pid = Number(name)
      const ppid = Number(fields[1])
      rss.set(pid, Number(fields[21]) * 4096)
      const list = children.get(ppid)
      if (list === undefined) children.set(ppid, [pid])
      else list.push(pid)
    } catch {
      // The process ended while we listed it.
    }
  }
  let total = 0
  const stack = [root]
  while (stack.length > 0) {
    const pid = stack.pop() as number
    total += rss.get(pid) ?? 0
    stack.push(...(children.get(pid) ?? []))
  }
  return total / 1024 / 1024
}

/**
 * CPU (user + system, ms) of each thread of `root`'s process tree so far, by `pid/tid`, with the thread's name (`comm`:
 * `node` for a process's main thread and Node's worker threads, `V8 DefaultWorke` for V8's GC and compiler helpers,
 * `libuv-worker` for libuv's pool). Read from `/proc/PID/task/TID/stat`.
 */
function threadCpu(root: number, into: Map<string, { name: string; ms: number; main: boolean; pid: number }>): void {
  const children = new Map<number, number[]>()
  for (const name of readdirSync('/proc')) {
    if (name.charCodeAt(0) < 48 || name.charCodeAt(0) > 57) continue
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8')
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1])
      const list = children.get(ppid)
      if (list === undefined) children.set(ppid, [Number(name)])
      else list.push(Number(name))
    } catch {
      // The process ended while we listed it.
    }
  }
  const stack = [root]
  while (stack.length > 0) {
    const pid = stack.pop() as number
    stack.push(...(children.get(pid) ?? []))
    let tids: string[] = []
    try {
      tids = readdirSync(`/proc/${pid}/task`)
    } catch {
      continue
    }
    for (const tid of tids) {
      try {
        const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8')
        const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'))
        const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
        const ms = ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS
        const proc = pid === root ? 'p0' : `p${[...into.values()].filter((thread) => thread.main && thread.pid !== pid).length}`
        const known = into.get(`${pid}/${tid}`)
        into.set(`${pid}/${tid}`, {
          name: known?.name ?? `${proc}:${tid === String(pid) ? 'main' : name}`,
          ms: Math.max(ms, known?.ms ?? 0),
          main: tid === String(pid),
          pid,
        })
      } catch {
        // The thread ended while we read it.
      }
    }
  }
}

/** The project root a variant runs in: `PERF_HARNESS_BEFORE` for `before`, else this checkout. */
function rootOf(variant: Variant): string {
  if (variant === 'package') return process.env.PERF_HARNESS_PACKAGE ?? ROOT
  return variant === 'before' ? (process.env.PERF_HARNESS_BEFORE ?? ROOT) : ROOT
}

async function measure(variant: Variant, env: Record<string, string>, beforeEnv: Record<string, string>): Promise<Measurement> {
  const cpuBefore = childrenCpuMs()
  const started = performance.now()
  const nodeArgs = [
    ...(process.env.PERF_HARNESS_NODE_ARGS ?? '').split(' '),
    ...(variant === 'before' ? (process.env.PERF_HARNESS_BEFORE_NODE_ARGS ?? '').split(' ') : []),
  ].filter((arg) => arg !== '')
  const args = [
    ...nodeArgs,
    ...(variant === 'script'
      ? ['--import', 'tsx', SELF, '--variant', variant]
      : variant === 'cli' || variant === 'package'
        ? [CLI_RUNNER, variant === 'cli' ? join(ROOT, 'bin/agent-bench.js') : join(rootOf(variant), 'node_modules/vitest-agent-bench/bin/agent-bench.js')]
        : [VITEST_RUNNER, variant, rootOf(variant), testsOf(variant)]),
  ]
  const child = spawn(process.execPath, args, {
    cwd: rootOf(variant),
    // The harness (and the `before` harness) runs as `agent-bench arte` launches Vitest: with Vite's native allocator kept
    // lean (native-memory.ts), and for ART-E only (BENCH_ONLY=arte: the MPCBench globalSetup prepares nothing).
    env: {
      ...process.env,
      ...env,
      ...(variant === 'harness' || variant === 'before' ? { [MIMALLOC_EAGER_COMMIT_VARIABLE]: '0', [BENCH_ONLY_VARIABLE]: 'arte' } : {}),
      ...(variant === 'before' ? beforeEnv : {}),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let out = ''
  let err = ''
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')))
  child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString('utf8')))
  let peak = 0
  const threads = process.env.PERF_HARNESS_THREADS === '1' ? new Map<string, { name: string; ms: number; main: boolean; pid: number }>() : undefined
  const sampler = setInterval(
    () => {
      if (child.pid !== undefined) peak = Math.max(peak, treeRssMb(child.pid))
      if (child.pid !== undefined && threads !== undefined) threadCpu(child.pid, threads)
    },
    threads === undefined ? 200 : 50,
  )
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve))
  clearInterval(sampler)
  if (threads !== undefined) {
    // The main thread and every thread above 50 ms on its own; the rest of each process's threads summed.
    const byName = new Map<string, number>()
    for (const { name, ms, main } of threads.values()) {
      const key = main || ms >= 50 ? `${name}#${byName.size}` : `${name.split(':')[0]}:other`
      byName.set(key, (byName.get(key) ?? 0) + ms)
    }
    const size = /rows-(\d+)/.exec(env.ARTE_DATASET ?? '')?.[1] ?? '?'
    console.log(
      `  threads of ${variant} (${size} tasks), CPU ms by thread name (sampled every 50 ms, so a little is missed): ${[...byName].map(([name, ms]) => `${name} ${Math.round(ms)}`).join(', ')}`,
    )
  }
  const wallMs = performance.now() - started
  const stdoutDir = process.env.PERF_HARNESS_STDOUT_DIR
  if (stdoutDir) writeFileSync(join(stdoutDir, `${variant}-${Date.now()}.out`), out)
  const result = /perf-result (.*)/.exec(out)?.[1] ?? ''
  if (code !== 0 || result === '') {
    throw new Error(`harness perf: the ${variant} run exited with ${code}:\n${out.slice(-2000)}\n${err.slice(-2000)}`)
  }
  return { wallMs, cpuMs: childrenCpuMs() - cpuBefore, peakRssMb: peak, result }
}

function writeRows(file: string, demo: ReadonlyArray<PlainRow & { split: string }>, count: number): void {
  const lines: string[] = []
  for (let i = 0; i < count; i++) {
    const row = demo[i % demo.length] as PlainRow & { split: string }
    lines.push(JSON.stringify({ ...row, id: `perf-${i + 1}` }))
  }
  writeFileSync(file, `${lines.join('\n')}\n`)
}

/** Scripted replies: a `search_emails` call with words of the question, then the row's answer (scripted, not a model). */
function responder(answers: ReadonlyMap<string, string>, delayMs: number, server: () => ScriptedServer | undefined) {
  return (request: ReceivedRequest) => {
    // Keep no request log in this process: 20K recorded bodies would weigh on the measurement machine.
    server()?.requests.splice(0)
    const options = delayMs > 0 ? { delayMs } : {}
    const question = lastUserText(request)
    if (toolResults(request).length === 0) {
      const keywords = question
        .split(/\W+/)
        .filter((word) => word.length > 4)
        .slice(0, 2)
      return scriptedToolCalls([{ name: 'search_emails', arguments: { keywords } }], options)
    }
    return scriptedToolCalls([{ name: 'return_final_answer', arguments: { answer: answers.get(question) ?? "I don't know", sources: [] } }], options)
  }
}

const PLAIN_TEST = `// Written by scripts/perf/harness-perf.ts: the plain Vitest variant of the harness perf.
import { readFileSync } from 'node:fs'
import { afterAll, expect, test } from 'vitest'
import { createPlainTask } from '../../scripts/perf/harness-plain-task.ts'

const rows = readFileSync(process.env.ARTE_DATASET ?? '', 'utf8').split('\\n').filter((l) => l.trim() !== '').map((l) => JSON.parse(l))
const task = createPlainTask(process.env.PERF_BASE_URL ?? '', process.env.ARTE_DB ?? '')
afterAll(() => task.close())

test.concurrent.for(rows.map((row) => [String(row.id), row]))('%s', async ([, row]) => {
  expect(await task.run(row)).toBe(true)
})
`

const PLAIN_HEAP_TEST = `// Written by scripts/perf/harness-perf.ts: the plain Vitest variant with the harness's heap policy.
import { arteSettingsFromEnv } from '../../src/arte/settings.ts'
import { applyHeapGrowingPercent } from '../../src/arte/vitest/heap-growing.ts'

applyHeapGrowingPercent(arteSettingsFromEnv().heapGrowingPercent)
await import('./plain.perf.ts')
`

/** The test file of each Vitest variant but the harness's, in `PLAIN_TEST_DIR`. */
const PLAIN_TEST_FILES: Partial<Record<Variant, string>> = { vitest: 'plain.perf.ts', 'vitest-heap': 'plain-heap.perf.ts', evals: 'evals.perf.ts' }

/** What a Vitest variant runs: its plain test file, or the ART-E bench tests for the harness rows. */
function testsOf(variant: Variant): string {
  const file = PLAIN_TEST_FILES[variant]
  return file === undefined ? 'bench/arte' : `${relative(ROOT, PLAIN_TEST_DIR)}/${file}`
}

const EVALS_TEST = `// Written by scripts/perf/harness-perf.ts: the vitest-evals variant of the harness perf.
import { readFileSync } from 'node:fs'
import { afterAll, expect } from 'vitest'
import { createHarness, describeEval } from 'vitest-evals'
import { createPlainTask } from '../../scripts/perf/harness-plain-task.ts'

const rows = readFileSync(process.env.ARTE_DATASET ?? '', 'utf8').split('\\n').filter((l) => l.trim() !== '').map((l) => JSON.parse(l))
const task = createPlainTask(process.env.PERF_BASE_URL ?? '', process.env.ARTE_DB ?? '')
afterAll(() => task.close())
// vitest-evals wants a transcript: the question and the outcome, as a user of it would return.
const harness = createHarness({
  name: 'plain-task',
  run: async ({ input }) => {
    const output = await task.run(input)
    return { output, events: [{ type: 'message', role: 'user', content: input.question }, { type: 'message', role: 'assistant', content: String(output) }] }
  },
})

describeEval('harness perf', { harness }, (it) => {
  it.concurrent.for(rows.map((row) => [String(row.id), row]))('%s', async ([, row], { run }) => {
    expect((await run(row)).output).toBe(true)
  })
})
`

/** Whether vitest-evals (a dev dependency of this script) resolves from the checkout; the reason it does not otherwise. */
function evalsMissing(): string | undefined {
  try {
    createRequire(join(ROOT, 'package.json')).resolve('vitest-evals')
    return undefined
  } catch (error) {
    return `vitest-evals does not resolve from ${ROOT} (${(error as Error).message.split('\n')[0]}); \`npm install\` installs it (a dev dependency)`
  }
}

/** `PERF_HARNESS_ENV` or `PERF_HARNESS_BEFORE_ENV`: a JSON object of string variables; anything else is refused with the variable named. */
function perfEnv(name: string): Record<string, string> {
  const raw = process.env[name]
  if (raw === undefined || raw.trim() === '') return {}
  let value: unknown
  try {
    value = JSON.parse(raw)
  } catch (error) {
    throw new Error(`${name} is not JSON (${(error as Error).message}); set it to an object such as '{"BENCH_LLM_LOG_DIR":"off"}'.`)
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value) || Object.values(value).some((item) => typeof item !== 'string')) {
    throw new Error(`${name} must be a JSON object of strings, got ${raw}; e.g. '{"ARTE_TOOL_TIMEOUT_MS":"0"}'.`)
  }
  return value as Record<string, string>
}

const fmt = (n: number, digits = 2): string => (Number.isFinite(n) ? n.toFixed(digits) : 'n/a')

/**
 * `PERF_HARNESS_ALLOC_DIR`: one more 1-task and N-task run of each Vitest variant, untimed, with a setup file that
 * samples the test worker's allocations (alloc-profile.ts); prints the KB allocated per task and where the harness
 * allocates more than plain Vitest (and than `before`). The profiles stay in the folder (Chrome DevTools opens them).
 */
async function measureAllocation(
  dir: string,
  selected: ReadonlyArray<Variant>,
  tasks: number,
  envFor: (count: number, run: string) => Record<string, string>,
  beforeEnv: Record<string, string>,
): Promise<void> {
  const allocation = new Map<Variant, Allocation>()
  for (const variant of selected.filter((name) => name !== 'script' && name !== 'cli' && name !== 'package')) {
    const setup = join(rootOf(variant), '.tmp/perf-harness/alloc-setup.mjs')
    mkdirSync(join(setup, '..'), { recursive: true })
    writeFileSync(setup, ALLOC_SETUP_SOURCE)
    const runs: Allocation[] = []
    for (const count of [1, tasks]) {
      const out = join(dir, `${variant}-${count}-${Date.now()}`)
      mkdirSync(out, { recursive: true })
      await measure(variant, { ...envFor(count, `${variant}-alloc-${count}`), [ALLOC_OUT_VARIABLE]: out, PERF_ALLOC_SETUP: setup }, beforeEnv)
      runs.push(readAllocation(out, rootOf(variant)))
    }
    allocation.set(variant, allocationPerTask(runs[0] as Allocation, runs[1] as Allocation, tasks))
  }
  const kb = (bytes: number): string => fmt(bytes / 1024, 1)
  const reference = allocation.get('vitest') ?? allocation.get('vitest-heap')
  const referenceName = allocation.has('vitest') ? 'vitest' : 'vitest-heap'
  console.log(`  allocated per task by the test worker (V8's sampling heap profiler, collected objects included; untimed runs; profiles in ${dir}):`)
  for (const [variant, each] of allocation) {
    const ratio = reference === undefined || variant === referenceName ? '' : `   ${fmt(each.bytes / reference.bytes)}x ${referenceName}`
    console.log(`    ${variant.padEnd(11)} ${kb(each.bytes).padStart(7)} KB${ratio}`)
  }
  const differences = (mine: Variant, theirs: Allocation | undefined, name: string): void => {
    const own = allocation.get(mine)
    if (own === undefined || theirs === undefined) return
    const parts = largestDifferences(own, theirs, 10).map(({ origin, bytes }) => `${origin} ${bytes >= 0 ? '+' : ''}${kb(bytes)}`)
    console.log(`  ${mine} minus ${name}, KB per task by origin (largest first): ${parts.join(', ')}`)
  }
  differences('harness', reference, referenceName)
  differences('harness', allocation.get('before'), 'before')
}

/** Measures and prints the harness section. */
export async function runHarnessPerf(): Promise<void> {
  const tasks = Math.max(2, envInt('PERF_HARNESS_TASKS', 1000))
  const concurrency = Math.max(1, envInt('PERF_HARNESS_CONCURRENCY', 50))
  const latencyMs = envInt('PERF_HARNESS_LATENCY_MS', 200)
  const rounds = Math.max(1, envInt('PERF_HARNESS_ROUNDS', 1))
  // The memory target is on growth beyond 10,000 tasks: from 10,000 tasks up, one more harness run at twice the size.
  const slopeTasks = envInt('PERF_HARNESS_SLOPE_TASKS', tasks >= 10_000 ? 2 * tasks : 0)
  // A subset, e.g. for profiling one variant: PERF_HARNESS_VARIANTS=harness.
  const wanted = (process.env.PERF_HARNESS_VARIANTS ?? '').split(',').filter((name) => name !== '')
  const before = process.env.PERF_HARNESS_BEFORE ?? ''
  // What a setting costs, e.g. PERF_HARNESS_ENV='{"BENCH_LLM_LOG_DIR":"off"}' (set for every variant, after ours).
  const extraEnv = perfEnv('PERF_HARNESS_ENV')
  const beforeEnv = perfEnv('PERF_HARNESS_BEFORE_ENV')
  const missing = evalsMissing()
  const selected = VARIANTS.filter(
    (variant) =>
      (variant === 'before'
        ? before !== ''
        : variant === 'package'
          ? (process.env.PERF_HARNESS_PACKAGE ?? '') !== ''
          : variant === 'evals'
            ? missing === undefined
            : true) &&
      (wanted.length === 0 || wanted.includes(variant)),
  )
  const dir = mkdtempSync(join(tmpdir(), 'perf-harness-'))
  mkdirSync(PLAIN_TEST_DIR, { recursive: true })
  writeFileSync(join(PLAIN_TEST_DIR, 'plain.perf.ts'), PLAIN_TEST)
  writeFileSync(join(PLAIN_TEST_DIR, 'plain-heap.perf.ts'), PLAIN_HEAP_TEST)
  writeFileSync(join(PLAIN_TEST_DIR, 'evals.perf.ts'), EVALS_TEST)
  writeFileSync(VITEST_RUNNER, VITEST_RUNNER_SOURCE)
  writeFileSync(CLI_RUNNER, CLI_RUNNER_SOURCE)
  const demo = (await loadArteDataset(DEMO_ROWS, { split: 'test' })) as unknown as Array<PlainRow & { split: string }>
  const answers = new Map(demo.map((row) => [row.question, row.answer]))
  const db = join(dir, 'demo.db')
  await prepareArteDb({ db, maildir: DEMO_MAILDIR, dataset: DEMO_ROWS })
  const datasets = new Map<number, string>()
  for (const count of [1, tasks, ...(slopeTasks > tasks ? [slopeTasks] : [])]) {
    const file = join(dir, `rows-${count}.jsonl`)
    writeRows(file, demo, count)
    datasets.set(count, file)
  }
  let zeroServer: ScriptedServer | undefined
  zeroServer = await startScriptedServer(responder(answers, 0, () => zeroServer))
  let slowServer: ScriptedServer | undefined
  slowServer = await startScriptedServer(responder(answers, latencyMs, () => slowServer))
  const envFor = (count: number, server: ScriptedServer, run: string): Record<string, string> => ({
    PERF_BASE_URL: server.baseURL,
    OPENAI_BASE_URL: server.baseURL,
    OPENAI_API_KEY: 'perf-placeholder',
    BENCH_AGENT_MODEL: 'openai/perf-scripted',
    BENCH_CONCURRENCY: String(concurrency),
    BENCH_LLM_MAX_RETRIES: '0',
    BENCH_LLM_LOG_DIR: join(dir, run, 'llm-log'),
    BENCH_HISTORY_KEEP: '0',
    BENCH_HISTORY_DIR: join(dir, run, 'history'),
    ARTE_DATASET: datasets.get(count) ?? '',
    ARTE_DB: db,
    ARTE_LIMIT: '0',
    ARTE_OUTPUT: join(dir, run, 'results.json'),
    ARTE_TRACES_DB: join(dir, run, 'traces.db'),
    BENCH_REPORT: join(dir, run, 'report.html'),
    ...extraEnv,
  })
  const roundsNote = rounds > 1 ? `, medians of ${rounds} interleaved rounds` : ''
  console.log(`harness overhead (${tasks} tasks, 2 calls each, concurrency ${concurrency}, scripted server on 127.0.0.1, node ${process.version}${roundsNote})`)
  if (missing !== undefined) console.log(`  evals (vitest-evals): skipped, ${missing}`)
  try {
    const runs = new Map<Variant, Array<{ one: Measurement; many: Measurement }>>(selected.map((variant) => [variant, []]))
    for (let round = 0; round < rounds; round++) {
      const one = new Map<Variant, Measurement>()
      // Interleaved: each size runs every variant before the next size.
      for (const variant of selected) one.set(variant, await measure(variant, envFor(1, zeroServer, `${variant}-1-${round}`), beforeEnv))
      for (const variant of selected) {
        const many = await measure(variant, envFor(tasks, zeroServer, `${variant}-${tasks}-${round}`), beforeEnv)
        runs.get(variant)?.push({ one: one.get(variant) as Measurement, many })
      }
    }
    const median = (values: number[]): number =>
      quantile(
        [...values].sort((a, b) => a - b),
        0.5,
      )
    const perTaskOf = (variant: Variant, key: 'wallMs' | 'cpuMs'): number[] =>
      (runs.get(variant) ?? []).map((run) => (run.many[key] - run.one[key]) / (tasks - 1))
    const perTask = (variant: Variant, key: 'wallMs' | 'cpuMs'): number => median(perTaskOf(variant, key))
    const medianOf = (variant: Variant, pick: (run: { one: Measurement; many: Measurement }) => number): number => median((runs.get(variant) ?? []).map(pick))
    const one = new Map<Variant, Measurement>(
      selected.map((variant) => [
        variant,
        {
          wallMs: medianOf(variant, (run) => run.one.wallMs),
          cpuMs: medianOf(variant, (run) => run.one.cpuMs),
          peakRssMb: medianOf(variant, (run) => run.one.peakRssMb),
          result: '',
        },
      ]),
    )
    const many = new Map<Variant, Measurement>(
      selected.map((variant) => [
        variant,
        {
          wallMs: Number.NaN,
          cpuMs: Number.NaN,
          peakRssMb: medianOf(variant, (run) => run.many.peakRssMb),
          result: runs.get(variant)?.at(-1)?.many.result ?? '',
        },
      ]),
    )
    console.log('  variant     start-up wall   per task wall   per task CPU   CPU vs script   CPU vs vitest   peak RSS 1 / N tasks   MB per extra 1K   result')
    for (const variant of selected) {
      const first = one.get(variant) as Measurement
      const last = many.get(variant) as Measurement
      const mbPer1k = ((last.peakRssMb - first.peakRssMb) / (tasks - 1)) * 1000
      console.log(
        `  ${variant.padEnd(11)} ${fmt(first.wallMs / 1000).padStart(8)} s   ${fmt(perTask(variant, 'wallMs'), 3).padStart(9)} ms   ${fmt(perTask(variant, 'cpuMs'), 3).padStart(9)} ms   ` +
          `${fmt(perTask(variant, 'cpuMs') / perTask('script', 'cpuMs')).padStart(10)}x   ${fmt(perTask(variant, 'cpuMs') / perTask('vitest', 'cpuMs')).padStart(10)}x   ` +
          `${fmt(first.peakRssMb, 0).padStart(8)} / ${fmt(last.peakRssMb, 0).padStart(5)} MB   ${fmt(mbPer1k, 1).padStart(11)} MB   ${last.result}`,
      )
    }
    if (rounds > 1) {
      const spread = selected.map((variant) => {
        const values = perTaskOf(variant, 'cpuMs')
        return `${variant} ${fmt(Math.min(...values), 3)}-${fmt(Math.max(...values), 3)}`
      })
      console.log(`  spread over the rounds, CPU per task (ms, min-max): ${spread.join(', ')}`)
      // Paired within each round: a load that slows a whole round (another tenant of the machine) cancels out.
      const paired = (variant: Variant, against: Variant): string => {
        const mine = perTaskOf(variant, 'cpuMs')
        const theirs = perTaskOf(against, 'cpuMs')
        const ratios = mine.map((value, round) => value / (theirs[round] ?? Number.NaN)).sort((a, b) => a - b)
        return `${variant} vs ${against} ${fmt(median(ratios))}x (${ratios.map((ratio) => fmt(ratio)).join(', ')})`
      }
      const pairs = [
        ...(selected.includes('vitest')
          ? selected.filter((variant) => variant !== 'vitest' && variant !== 'script').map((variant) => paired(variant, 'vitest'))
          : []),
        ...(selected.includes('vitest-heap') && selected.includes('harness') ? [paired('harness', 'vitest-heap')] : []),
        ...(selected.includes('before') && selected.includes('harness') ? [paired('harness', 'before')] : []),
      ]
      if (pairs.length > 0) console.log(`  CPU per task, the median of each round's ratio (the rounds' ratios): ${pairs.join('; ')}`)
    }
    const harnessCpu = perTask('harness', 'cpuMs') / perTask('vitest', 'cpuMs')
    console.log(
      `  target: harness CPU per task <= ${TARGET.cpuVsVitest}x plain Vitest's: ${fmt(harnessCpu)}x (ratio to target ${fmt(harnessCpu / TARGET.cpuVsVitest)})`,
    )
    if (selected.includes('vitest-heap')) {
      // The harness keeps its memory down with a heap policy plain Vitest does not have: this ratio leaves the policy out.
      const peak = many.get('vitest-heap')?.peakRssMb ?? Number.NaN
      console.log(
        `  harness CPU per task against plain Vitest under the same heap policy (vitest-heap, ${fmt(peak, 0)} MB at ${tasks} tasks): ` +
          `${fmt(perTask('harness', 'cpuMs') / perTask('vitest-heap', 'cpuMs'))}x; the policy costs plain Vitest ${fmt(perTask('vitest-heap', 'cpuMs') / perTask('vitest', 'cpuMs'))}x`,
      )
    }
    if (selected.includes('before')) {
      const peak = (variant: Variant): number => many.get(variant)?.peakRssMb ?? Number.NaN
      console.log(
        `  harness vs before (${before}): CPU per task ${fmt(perTask('harness', 'cpuMs') / perTask('before', 'cpuMs'))}x, ` +
          `CPU vs plain Vitest ${fmt(perTask('harness', 'cpuMs') / perTask('vitest', 'cpuMs'))}x (before ${fmt(perTask('before', 'cpuMs') / perTask('vitest', 'cpuMs'))}x), ` +
          `peak RSS at ${tasks} tasks ${fmt(peak('harness'), 0)} MB (before ${fmt(peak('before'), 0)} MB)`,
      )
    }
    printStartup(runs)
    const allocDir = process.env.PERF_HARNESS_ALLOC_DIR
    if (allocDir) await measureAllocation(allocDir, selected, tasks, (count, run) => envFor(count, zeroServer, run), beforeEnv)
    const rss = many.get('harness')?.peakRssMb ?? Number.NaN
    const rssNote = tasks >= 10_000 ? '' : ` (measured at ${tasks} tasks; PERF_HARNESS_TASKS=10000 for the target)`
    const plainRss = many.get('vitest')?.peakRssMb ?? Number.NaN
    console.log(
      `  target: harness peak RSS <= ${TARGET.rssVsVitest}x plain Vitest's at 10,000 tasks: ${fmt(rss, 0)} MB against ${fmt(plainRss, 0)} MB, ` +
        `${fmt(rss / plainRss)}x (ratio to target ${fmt(rss / plainRss / TARGET.rssVsVitest)})${rssNote}`,
    )
    if (slopeTasks > tasks && selected.includes('harness')) {
      // Growth beyond N: the harness at the larger size, once per round, against the median N-task peak.
      const beyond: Measurement[] = []
      for (let round = 0; round < rounds; round++) beyond.push(await measure('harness', envFor(slopeTasks, zeroServer, `harness-slope-${round}`), beforeEnv))
      const peak = median(beyond.map((run) => run.peakRssMb))
      const perExtra1k = ((peak - rss) / (slopeTasks - tasks)) * 1000
      const spread = rounds > 1 ? `, ${slopeTasks}-task peaks ${beyond.map((run) => fmt(run.peakRssMb, 0)).join(' / ')} MB` : ''
      console.log(
        `  target: harness < ${TARGET.mbPerExtra1k} MB per extra 1,000 tasks beyond ${tasks}: ${fmt(perExtra1k, 1)} MB ` +
          `(peak ${fmt(rss, 0)} MB at ${tasks}, ${fmt(peak, 0)} MB at ${slopeTasks} tasks${spread}; ${beyond.at(-1)?.result ?? ''})`,
      )
    } else if (tasks >= 10_000) {
      console.log('  (PERF_HARNESS_SLOPE_TASKS=0: growth beyond N not measured)')
    }
    if (latencyMs > 0) {
      const slow = new Map<Variant, Measurement>()
      for (const variant of selected) slow.set(variant, await measure(variant, envFor(tasks, slowServer, `${variant}-slow`), beforeEnv))
      const floor = (2 * tasks * latencyMs) / concurrency / 1000
      console.log(
        `  wall at concurrency ${concurrency}, ${latencyMs} ms per call (${tasks} tasks; ${fmt(floor, 1)} s if calls alone set the pace), start-up (1-task run) left out:`,
      )
      const net = (variant: Variant): number => ((slow.get(variant)?.wallMs ?? Number.NaN) - (one.get(variant)?.wallMs ?? Number.NaN)) / 1000
      // CPU per task with the calls waiting on the network (the Vitest worker is no longer busy all the time), a reading
      // beside the zero-latency one the CPU target is stated for.
      const cpuPerTask = (variant: Variant): number => ((slow.get(variant)?.cpuMs ?? Number.NaN) - (one.get(variant)?.cpuMs ?? Number.NaN)) / (tasks - 1)
      for (const variant of selected) {
        console.log(
          `    ${variant.padEnd(11)} ${fmt((slow.get(variant)?.wallMs ?? Number.NaN) / 1000)} s total, ${fmt(net(variant))} s net   vs script ${fmt(net(variant) / net('script'))}x` +
            `   CPU ${fmt(cpuPerTask(variant), 3)} ms per task, vs vitest ${fmt(cpuPerTask(variant) / cpuPerTask('vitest'))}x`,
        )
      }
      console.log(`  target: harness wall within ${TARGET.latencyWallVsScript}x of the script's: ${fmt(net('harness') / net('script'))}x`)
    }
  } finally {
    await zeroServer.close()
    await slowServer.close()
    rmSync(dir, { recursive: true, force: true })
  }
}

const variantFlag = process.argv.indexOf('--variant')
if (variantFlag !== -1) {
  const variant = process.argv[variantFlag + 1] as Variant
  if (!VARIANTS.includes(variant)) throw new Error(`--variant must be one of ${VARIANTS.join(', ')}`)
  await runChild(variant)
} else if (process.argv[1] === SELF) {
  await runHarnessPerf()
}
