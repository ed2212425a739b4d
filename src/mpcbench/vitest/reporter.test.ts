import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { type Reporter, startVitest } from 'vitest/node'
import { SummarySchema } from '../summary.ts'
import type { Summary } from '../summary.ts'
import MpcbenchReporter from './reporter.ts'
import { outputRecorder } from '../../testing/output-recorder.ts'
import { takeRunOutput } from '../../core/run-outputs.ts'

const root = fileURLToPath(new URL('../../../fixtures/mpcbench-reporter/', import.meta.url))

async function run(options: Record<string, unknown>, stdout = outputRecorder()) {
  const vitest = await startVitest('test', [], { root, watch: false, ...options }, {}, { stdout: stdout.stream, stderr: outputRecorder().stream })
  await vitest.close()
  return stdout.text()
}

const readSummary = (file: string): Summary => SummarySchema.parse(JSON.parse(readFileSync(file, 'utf8')))
const withoutTime = (summary: Summary) => ({ ...summary, generated_at: '' })

describe('MpcbenchReporter end to end (fixtures/mpcbench-reporter)', () => {
  let history = ''
  beforeEach(() => {
    history = mkdtempSync(join(tmpdir(), 'mpc-history-'))
    vi.stubEnv('BENCH_HISTORY_DIR', history)
  })
  afterEach(() => {
    vi.unstubAllEnvs()
  })

  it('prints the agent x judge table and writes the summary, beside the junit reporter', async () => {
    const out = mkdtempSync(join(tmpdir(), 'mpc-reporter-'))
    const printed = await run({
      reporters: [new MpcbenchReporter({ outputFile: join(out, 'summary.json') }), ['junit', { outputFile: join(out, 'junit.xml') }]],
    })
    const summary = readSummary(join(out, 'summary.json'))
    expect(summary.tests).toBe(4)
    const runs = readdirSync(history)
    expect(runs).toHaveLength(1)
    expect(readSummary(join(history, runs[0] ?? '', 'mpcbench-summary.json'))).toEqual(summary)
    expect(summary.rows.map((r) => [r.task_type, r.count, r.scored, r.failures, r.mean_answer_requirements_satisfaction, r.mean_source_grounded_reasoning])).toEqual([
      ['email_reply', 2, 1, 1, 4, 4],
      ['planning', 2, 2, 0, 3.5, 3.5],
    ])
    expect(printed).toContain('MPCBench: mean scores (0-5) per agent x judge x task type, 4 test(s)')
    expect(printed).toMatch(/baseline \(non-LLM\)\s+rules \(non-LLM\)\s+planning\s+3\.50 \[2\.00, 5\.00\]\s+3\.50 \[3\.00, 4\.00\]\s+2\s+0/)
    const junit = readFileSync(join(out, 'junit.xml'), 'utf8')
    expect(junit).toContain('name="fx_plan_1 [agent=baseline]"')
    expect(junit).toContain('fixture judge error')
  })

  it('gives the same summary from two shards merged with --merge-reports', async () => {
    const out = mkdtempSync(join(tmpdir(), 'mpc-shards-'))
    await run({ reporters: [new MpcbenchReporter({ outputFile: join(out, 'full.json'), print: false })] })
    for (const shard of ['1/2', '2/2']) {
      await run({ shard, reporters: [['blob', { outputFile: join(out, 'blobs', `blob-${shard.replace('/', '-')}.json`) }]] })
    }
    expect(readdirSync(join(out, 'blobs'))).toHaveLength(2)
    expect(existsSync(join(out, 'merged.json'))).toBe(false)
    await run({
      mergeReports: join(out, 'blobs'),
      reporters: [new MpcbenchReporter({ outputFile: join(out, 'merged.json'), print: false }), ['junit', { outputFile: join(out, 'junit.xml') }]],
    })
    expect(withoutTime(readSummary(join(out, 'merged.json')))).toEqual(withoutTime(readSummary(join(out, 'full.json'))))
    expect(readFileSync(join(out, 'junit.xml'), 'utf8')).toContain('fx_email_1 [agent=baseline]')
  })

  it('writes nothing when no test carries MPCBench meta', async () => {
    const out = mkdtempSync(join(tmpdir(), 'mpc-none-'))
    const printed = await run({
      testNamePattern: 'without MPCBench meta',
      reporters: [new MpcbenchReporter({ outputFile: join(out, 'summary.json') })],
    })
    expect(existsSync(join(out, 'summary.json'))).toBe(false)
    expect(printed).not.toContain('MPCBench:')
  })
})

/** Runs the fixture project, recording what is printed and the exit code the reporters set (then restored). */
async function runRecorded(options: Record<string, unknown>): Promise<{ stdout: string; stderr: string; exitCode: number; tests: number }> {
  const stdout = outputRecorder()
  const stderr = outputRecorder()
  const saved = process.exitCode
  process.exitCode = undefined
  try {
    const vitest = await startVitest('test', [], { root, watch: false, ...options }, {}, { stdout: stdout.stream, stderr: stderr.stream })
    const tests = vitest.state.getTestModules().flatMap((testModule) => [...testModule.children.allTests()]).length
    await vitest.close()
    return { stdout: stdout.text(), stderr: stderr.text(), exitCode: Number(process.exitCode ?? 0), tests }
  } finally {
    process.exitCode = saved
  }
}

describe('MpcbenchReporter: a run that finished its tasks keeps what it produced', () => {
  afterEach(() => {
    vi.unstubAllEnvs()
  })

  it('a summary that cannot be written at the end: table printed, history copy kept for the report, the run fails naming --outputFile.mpcbench', async () => {
    const out = mkdtempSync(join(tmpdir(), 'mpc-late-'))
    const history = join(out, 'history')
    vi.stubEnv('BENCH_HISTORY_DIR', history)
    const file = join(out, 'summary.json')
    // A folder appears where the summary goes while the run ends (as a disk that fills, or permissions that change).
    const blocker: Reporter = { onTestRunEnd: () => void mkdirSync(file, { recursive: true }) }
    const reporter = new MpcbenchReporter()
    takeRunOutput('mpcbench-summary')
    const run = await runRecorded({ testNamePattern: 'fx_plan', reporters: [blocker, reporter], outputFile: { mpcbench: file } })
    expect(run.stdout).toContain('MPCBench: mean scores (0-5) per agent x judge x task type, 2 test(s)')
    expect(run.stdout).not.toContain('Summary written to')
    expect(run.stderr).toContain(`ERROR: MPCBench summary was not written. Cannot write ${file}: it is a folder.`)
    expect(run.stderr).toContain("Fix: Set another path with --outputFile.mpcbench (Vitest's `outputFile.mpcbench`). Name a file")
    expect(run.exitCode).toBe(1)
    expect(reporter.outputFile).toBeUndefined()
    const [runFolder, ...more] = readdirSync(history)
    expect(more).toEqual([])
    const kept = join(history, runFolder ?? '', 'mpcbench-summary.json')
    expect(readSummary(kept)).toEqual(SummarySchema.parse(JSON.parse(JSON.stringify(reporter.summary))))
    expect(takeRunOutput('mpcbench-summary'), 'the HTML report is built from the history copy').toBe(kept)
    expect(readdirSync(out).sort(), 'no temp file left beside it').toEqual(['history', 'summary.json'])
  })

  it('a history folder that cannot be written is a warning naming BENCH_HISTORY_DIR: the summary is written and the run passes', async () => {
    const out = mkdtempSync(join(tmpdir(), 'mpc-history-warning-'))
    writeFileSync(join(out, 'a-file'), '')
    vi.stubEnv('BENCH_HISTORY_DIR', join(out, 'a-file', 'h'))
    const run = await runRecorded({ testNamePattern: 'fx_plan', reporters: [new MpcbenchReporter({ outputFile: join(out, 'summary.json') })] })
    expect(run.stdout).toContain('MPCBench: mean scores')
    expect(run.stdout).toContain(`Summary written to ${join(out, 'summary.json')}`)
    expect(run.stderr).toMatch(/WARNING: This run was not kept in the history folder \S+ \(BENCH_HISTORY_DIR\): [^\n]* is not a folder\.\n {2}Fix: Set BENCH_HISTORY_DIR/)
    expect(run.exitCode).toBe(0)
    expect(readSummary(join(out, 'summary.json')).tests).toBe(2)
  })

  it('a bad BENCH_HISTORY_KEEP, or a summary path under a file, stops the run before any test runs', async () => {
    const out = mkdtempSync(join(tmpdir(), 'mpc-refused-'))
    writeFileSync(join(out, 'a-file'), '')
    vi.stubEnv('BENCH_HISTORY_DIR', join(out, 'history'))
    vi.stubEnv('BENCH_HISTORY_KEEP', 'abc')
    const badKeep = await runRecorded({ reporters: [new MpcbenchReporter({ outputFile: join(out, 'summary.json') })] })
    expect(badKeep.stderr).toContain('Invalid BENCH_HISTORY_KEEP="abc": expected a whole number >= 0.')
    vi.unstubAllEnvs()
    vi.stubEnv('BENCH_HISTORY_DIR', join(out, 'history'))
    const under = join(out, 'a-file', 'summary.json')
    const badFile = await runRecorded({ reporters: [new MpcbenchReporter()], outputFile: { mpcbench: under } })
    expect(badFile.stderr).toContain(`The MPCBench summary file ${under}, set by --outputFile.mpcbench (Vitest's \`outputFile.mpcbench\`), cannot be written: ${join(out, 'a-file')} is not a folder.`)
    for (const run of [badKeep, badFile]) {
      expect(run.exitCode).toBe(1)
      expect(run.tests).toBe(0)
    }
    expect(readdirSync(out)).toEqual(['a-file'])
  })
})
