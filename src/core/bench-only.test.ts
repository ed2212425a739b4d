import { describe, expect, it } from 'vitest'
import { BENCH_ONLY_VARIABLE, benchIncluded, benchLeftOut, benchLeftOutHint, notPreparedHint, runOnlyBench } from './bench-only.ts'

describe('BENCH_ONLY', () => {
  it('includes every benchmark when unset or empty, and only the listed ones otherwise', () => {
    expect(benchIncluded('mpcbench', {})).toBe(true)
    expect(benchIncluded('arte', { BENCH_ONLY: ' ' })).toBe(true)
    expect(benchIncluded('arte', { BENCH_ONLY: 'arte' })).toBe(true)
    expect(benchIncluded('mpcbench', { BENCH_ONLY: 'arte' })).toBe(false)
    expect(benchIncluded('mpcbench', { BENCH_ONLY: 'ARTE, mpcbench' })).toBe(true)
  })

  it('names the variable, the unknown name and the valid ones for a name it does not know', () => {
    expect(() => benchIncluded('arte', { BENCH_ONLY: 'arte,swe' })).toThrow(/BENCH_ONLY=arte,swe names "swe", which is not a benchmark/)
    try {
      benchIncluded('arte', { BENCH_ONLY: 'swe' })
    } catch (error) {
      expect((error as { hint?: string }).hint).toMatch(/arte, mpcbench/)
    }
  })

  it('is set by a one-benchmark command unless the user set it, and says why a benchmark is left out', () => {
    const env: Record<string, string | undefined> = {}
    expect(runOnlyBench('arte', env)).toBe(true)
    expect(env[BENCH_ONLY_VARIABLE]).toBe('arte')
    const chosen: Record<string, string | undefined> = { BENCH_ONLY: 'arte,mpcbench' }
    expect(runOnlyBench('arte', chosen)).toBe(false)
    expect(chosen.BENCH_ONLY).toBe('arte,mpcbench')
    expect(benchLeftOut('mpcbench', env)).toBe('BENCH_ONLY=arte leaves mpcbench out of this run, so its globalSetup prepared nothing')
  })
})

describe('notPreparedHint', () => {
  it('points at BENCH_ONLY only when BENCH_ONLY left the benchmark out, else at the setup error', () => {
    expect(notPreparedHint('arte', 'BENCH_ONLY=mpcbench leaves arte out of this run, so its globalSetup prepared nothing')).toBe(benchLeftOutHint('arte'))
    expect(notPreparedHint('arte', 'its globalSetup failed: ARTE_DB /x does not exist (fix: pass an existing file)')).toMatch(
      /^Fix what the arte setup error says/,
    )
  })
})
