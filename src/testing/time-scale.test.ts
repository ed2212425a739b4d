import { afterEach, describe, expect, it, vi } from 'vitest'
import { DEFAULT_TEST_TIME_SCALE, scaledMs, testTimeScale } from './time-scale.ts'

afterEach(() => {
  vi.unstubAllEnvs()
})

describe('BENCH_TEST_TIME_SCALE', () => {
  it('multiplies idle-machine milliseconds; unset or blank is the default, decimals are allowed', () => {
    expect(testTimeScale({})).toBe(DEFAULT_TEST_TIME_SCALE)
    expect(testTimeScale({ BENCH_TEST_TIME_SCALE: ' ' })).toBe(DEFAULT_TEST_TIME_SCALE)
    expect(scaledMs(1_000, { BENCH_TEST_TIME_SCALE: '1' })).toBe(1_000)
    expect(scaledMs(1_000, { BENCH_TEST_TIME_SCALE: '2.5' })).toBe(2_500)
    expect(scaledMs(333, { BENCH_TEST_TIME_SCALE: '0.5' })).toBe(167)
  })

  it('refuses a value that is not a number > 0, naming the variable and the fix', () => {
    for (const bad of ['0', '-1', 'fast', '1x']) {
      expect(() => testTimeScale({ BENCH_TEST_TIME_SCALE: bad })).toThrow(
        `Invalid BENCH_TEST_TIME_SCALE="${bad}": expected a number > 0.\n  Fix: Set BENCH_TEST_TIME_SCALE`,
      )
    }
  })

  it('scales the unit and package projects of vitest.config.ts, not the bench project', async () => {
    const projectTimeouts = async () => {
      vi.resetModules()
      const config = (await import('../../vitest.config.ts')).default as {
        test: { projects: Array<{ test: { name: string; testTimeout: number; hookTimeout: number } }> }
      }
      return Object.fromEntries(config.test.projects.map((project) => [project.test.name, [project.test.testTimeout, project.test.hookTimeout]]))
    }
    vi.stubEnv('BENCH_TEST_TIMEOUT_MS', '')
    vi.stubEnv('BENCH_TEST_TIME_SCALE', '1')
    const idle = await projectTimeouts()
    vi.stubEnv('BENCH_TEST_TIME_SCALE', '4')
    const busy = await projectTimeouts()
    for (const name of ['unit', 'package']) {
      expect(busy[name]).toEqual(idle[name]?.map((ms) => ms * 4))
    }
    expect(busy.bench).toEqual(idle.bench)
  })
})
