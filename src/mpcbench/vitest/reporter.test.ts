import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { startVitest } from 'vitest/node'
import { SummarySchema } from '../summary.ts'
import type { Summary } from '../summary.ts'
import MpcbenchReporter from './reporter.ts'
import { outputRecorder } from '../../testing/output-recorder.ts'

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
