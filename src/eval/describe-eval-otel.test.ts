import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Writable } from 'node:stream'
import { fileURLToPath } from 'node:url'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { type Vitest, startVitest } from 'vitest/node'
import { TEST_ENDED_SETUP, onTestEnded } from '../../fixtures/test-ended/watch.ts'
import { type ReceivedSpan, startOtlpReceiver } from '../testing/otlp-receiver.ts'
import { scaledMs } from '../testing/time-scale.ts'

const root = fileURLToPath(new URL('../../fixtures/describe-eval/', import.meta.url))
const quiet = () => new Writable({ write: (_chunk, _encoding, done) => done() })

afterEach(() => {
  vi.unstubAllEnvs()
})

describe('describeEval with OTEL_EXPORTER_OTLP_ENDPOINT (fixtures/describe-eval)', () => {
  it("sends one trace per case: invoke_agent {suite} with the case name, its scores and the test's pass or fail", async () => {
    await using receiver = await startOtlpReceiver()
    vi.stubEnv('OTEL_EXPORTER_OTLP_ENDPOINT', receiver.endpoint)
    vi.stubEnv('OTEL_EXPORTER_OTLP_TRACES_ENDPOINT', '')
    const vitest = await startVitest('test', [], { root, watch: false, reporters: [] }, {}, { stdout: quiet(), stderr: quiet() })
    await vitest.close()
    const roots = new Map(receiver.spans.filter((span) => span.parentSpanId === '').map((span) => [span.attributes['bench.task.id'], span]))
    expect([...roots.keys()].sort()).toEqual(['1: France', '1: x', '3: Peru', 'japan (wrong expectation)'])
    const france = roots.get('1: France') as ReceivedSpan
    expect(france.name).toBe('invoke_agent capitals')
    expect(france.attributes).toEqual({
      'gen_ai.operation.name': 'invoke_agent',
      'gen_ai.agent.name': 'capitals',
      'bench.benchmark': 'eval',
      'bench.task.id': '1: France',
      'bench.trial': 1,
      'bench.score.exactMatchScorer': 1,
      'bench.score.jaccardScorer': 1,
      'bench.score.short': 1,
      'bench.task.passed': true,
      'bench.task.outcome': 'pass',
    })
    expect(roots.get('3: Peru')?.attributes).toMatchObject({ 'bench.score.exactMatchScorer': 0, 'bench.score.short': 0, 'bench.task.passed': false })
    expect(roots.get('3: Peru')?.status.code).toBe(2)
    expect(roots.get('1: x')?.attributes).toMatchObject({ 'bench.task.passed': false })
  })

  it(
    'a cancelled run (as agent-bench does on SIGINT) still exports the spans of the cases it cut off',
    async () => {
      await using receiver = await startOtlpReceiver()
      vi.stubEnv('OTEL_EXPORTER_OTLP_ENDPOINT', receiver.endpoint)
      vi.stubEnv('OTEL_EXPORTER_OTLP_TRACES_ENDPOINT', '')
      let vitest: Vitest | undefined
      const dir = mkdtempSync(join(tmpdir(), 'describe-eval-otel-cancel-'))
      vi.stubEnv('TEST_ENDED_FILE', join(dir, 'ended.txt'))
      // Cancels once `fast` has ended, while the three slow cases run (fixtures/describe-eval-cancel).
      const stopWatching = onTestEnded(join(dir, 'ended.txt'), 'fast', () => void vitest?.cancelCurrentRun('keyboard-input'))
      try {
        const run = await startVitest(
          'test',
          [],
          {
            root: fileURLToPath(new URL('../../fixtures/describe-eval-cancel/', import.meta.url)),
            watch: false,
            setupFiles: [TEST_ENDED_SETUP],
            reporters: [
              {
                onInit: (instance: Vitest) => {
                  vitest = instance
                },
              },
            ],
          },
          {},
          { stdout: quiet(), stderr: quiet() },
        )
        await run.close()
      } finally {
        stopWatching()
        rmSync(dir, { recursive: true, force: true })
      }
      const roots = receiver.spans.filter((span) => span.parentSpanId === '')
      expect(roots.map((span) => span.attributes['bench.task.id']).sort()).toEqual(['fast', 'slow 1', 'slow 2', 'slow 3'])
      expect(roots.find((span) => span.attributes['bench.task.id'] === 'fast')?.attributes['bench.task.passed']).toBe(true)
      for (const slow of roots.filter((span) => span.attributes['bench.task.id'] !== 'fast'))
        expect(slow.status.code, String(slow.attributes['bench.task.id'])).toBe(2)
    },
    scaledMs(90_000),
  )
})
