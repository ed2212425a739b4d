import { mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { startVitest } from 'vitest/node'
import { REDACTED } from '../../core/redact.ts'
import { stubMpcbenchScriptedEnv } from '../../testing/mpcbench-scripted-env.ts'
import { scriptedText, startScriptedServer } from '../../testing/scripted-server.ts'
import { SummarySchema } from '../summary/summary.ts'
import MpcbenchReporter from '../vitest/reporter.ts'
import { scaledMs } from '../../testing/time-scale.ts'
import { outputRecorder } from '../../testing/output-recorder.ts'

const repo = fileURLToPath(new URL('../../../', import.meta.url))

/** Every file under `dir`, recursively. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    return statSync(path).isDirectory() ? filesUnder(path) : [path]
  })
}

afterEach(() => {
  vi.unstubAllEnvs()
})

describe('no key in anything an MPCBench run writes', () => {
  it(
    'redacts a letters-only key and a short one, echoed by the agent model, in run logs, judge results, the summary and its history copy, and the console',
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'mpc-redaction-'))
      // Scripted replies that quote the keys, not a model's output.
      await using server = await startScriptedServer(() =>
        scriptedText(JSON.stringify({ final_answer: 'scripted reply with localsecretkey and ollama', rationale: 'key localsecretkey' })),
      )
      stubMpcbenchScriptedEnv({ dir, baseURL: server.baseURL })
      vi.stubEnv('OPENAI_API_KEY', 'localsecretkey')
      vi.stubEnv('LOCAL_LLM_TOKEN', 'ollama')
      vi.stubEnv('BENCH_HISTORY_DIR', join(dir, 'history'))
      // Records what Vitest prints even after a worker's exit ends the stream it pipes into (see outputRecorder).
      const output = outputRecorder()
      const vitest = await startVitest(
        'test',
        ['bench/email_reply/email_reply.eval.ts'],
        {
          config: join(repo, 'fixtures/mpcbench-e2e/vitest.config.ts'),
          watch: false,
          reporters: ['default', new MpcbenchReporter({ outputFile: join(dir, 'summary.json') })],
        },
        {},
        { stdout: output.stream, stderr: output.stream },
      )
      await vitest.close()
      expect(server.requests[0]?.headers.authorization).toBe('Bearer localsecretkey')
      const written = filesUnder(dir).filter((file) => !file.includes(`${join(dir, 'data')}`))
      expect(written.some((file) => file.includes('history'))).toBe(true)
      expect(written.some((file) => file.endsWith('_run.json'))).toBe(true)
      const leaks = written.filter((file) => /localsecretkey|\bollama\b/.test(readFileSync(file, 'latin1'))).map((file) => relative(dir, file))
      expect(leaks).toEqual([])
      // The console check means something only if the reporter's table was printed (and recorded).
      const printed = output.text()
      expect(printed).toContain('MPCBench: mean scores')
      expect(printed).not.toMatch(/localsecretkey|\bollama\b/)
      SummarySchema.parse(JSON.parse(readFileSync(join(dir, 'summary.json'), 'utf8')))
      const runLog = written.find((file) => file.endsWith('_run.json')) ?? ''
      expect(readFileSync(runLog, 'utf8')).toContain(`scripted reply with ${REDACTED} and ${REDACTED}`)
    },
    scaledMs(120_000),
  )
})
