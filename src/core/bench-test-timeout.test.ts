import { mkdtempSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Writable } from 'node:stream'
import { fileURLToPath } from 'node:url'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { startVitest } from 'vitest/node'
import { ConfigError } from './errors.ts'
import { DEFAULT_BENCH_TEST_TIMEOUT_MS, benchTestTimeoutMs } from './bench-test-timeout.ts'

/** A stream that drops what Vitest prints. */
const quiet = (): Writable => new Writable({ write: (_chunk, _encoding, done) => done() })

describe('benchTestTimeoutMs (BENCH_TEST_TIMEOUT_MS)', () => {
  afterEach(() => {
    vi.unstubAllEnvs()
    vi.resetModules()
  })

  it('defaults to 30 minutes; a whole number of ms sets it, 0 is no limit; anything else is a ConfigError naming the variable', () => {
    expect(DEFAULT_BENCH_TEST_TIMEOUT_MS).toBe(1_800_000)
    expect(benchTestTimeoutMs({})).toBe(DEFAULT_BENCH_TEST_TIMEOUT_MS)
    expect(benchTestTimeoutMs({ BENCH_TEST_TIMEOUT_MS: ' ' })).toBe(DEFAULT_BENCH_TEST_TIMEOUT_MS)
    expect(benchTestTimeoutMs({ BENCH_TEST_TIMEOUT_MS: '600000' })).toBe(600_000)
    expect(benchTestTimeoutMs({ BENCH_TEST_TIMEOUT_MS: '0' })).toBe(0)
    for (const bad of ['5min', '1e6', '-1', '2.5']) {
      expect(() => benchTestTimeoutMs({ BENCH_TEST_TIMEOUT_MS: bad })).toThrow(ConfigError)
      expect(() => benchTestTimeoutMs({ BENCH_TEST_TIMEOUT_MS: bad })).toThrow(`Invalid BENCH_TEST_TIMEOUT_MS="${bad}": expected a whole number >= 0.`)
    }
  })

  it("is the bench project's testTimeout in vitest.config.ts (the unit project keeps its own)", async () => {
    const projectTimeouts = async () => {
      vi.resetModules()
      const config = (await import('../../vitest.config.ts')).default as { test: { projects: Array<{ test: { name: string; testTimeout: number } }> } }
      return Object.fromEntries(config.test.projects.map((project) => [project.test.name, project.test.testTimeout]))
    }
    vi.stubEnv('BENCH_TEST_TIME_SCALE', '1')
    vi.stubEnv('BENCH_TEST_TIMEOUT_MS', '')
    expect(await projectTimeouts()).toMatchObject({ unit: 30_000, bench: DEFAULT_BENCH_TEST_TIMEOUT_MS })
    vi.stubEnv('BENCH_TEST_TIMEOUT_MS', '45000')
    expect(await projectTimeouts()).toMatchObject({ unit: 30_000, bench: 45_000 })
  })

  it("sets a project's test timeout that Vitest's --test-timeout still overrides", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bench-timeout-'))
    const settings = fileURLToPath(new URL('./bench-test-timeout.ts', import.meta.url))
    symlinkSync(fileURLToPath(new URL('../../node_modules', import.meta.url)), join(dir, 'node_modules'))
    writeFileSync(
      join(dir, 'vitest.config.mts'),
      [
        "import { defineConfig } from 'vitest/config'",
        `import { benchTestTimeoutMs } from ${JSON.stringify(settings)}`,
        "export default defineConfig({ test: { projects: [{ extends: true, test: { name: 'bench', include: ['*.eval.ts'], testTimeout: benchTestTimeoutMs() } }] } })",
      ].join('\n'),
    )
    writeFileSync(
      join(dir, 'timeout.eval.ts'),
      "import { expect, test } from 'vitest'\ntest('timeout', (context) => { expect.soft(context.task.timeout).toBe(Number(process.env.EXPECTED_TIMEOUT)) })\n",
    )
    const run = async (expected: number, options: { testTimeout?: number } = {}): Promise<boolean> => {
      vi.stubEnv('EXPECTED_TIMEOUT', String(expected))
      const vitest = await startVitest(
        'test',
        [],
        { root: dir, config: join(dir, 'vitest.config.mts'), watch: false, reporters: [], ...options },
        {},
        { stdout: quiet(), stderr: quiet() },
      )
      await vitest.close()
      return vitest.state.getTestModules().every((module) => module.ok())
    }
    vi.stubEnv('BENCH_TEST_TIMEOUT_MS', '1234')
    expect(await run(1234)).toBe(true)
    expect(await run(4321, { testTimeout: 4321 })).toBe(true)
    expect(await run(1234, { testTimeout: 4321 })).toBe(false)
  })
})
