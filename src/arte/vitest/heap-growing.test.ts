import { describe, expect, it } from 'vitest'
import { applyHeapGrowingPercent } from './heap-growing.ts'
import { arteSettingsFromEnv, benchPool, benchWorkerExecArgv, DEFAULT_BENCH_HEAP_GROWING_PERCENT, DEFAULT_BENCH_WORKER_SEMI_SPACE_MB } from '../settings.ts'
import { ConfigError } from '../../core/errors.ts'

describe('BENCH_HEAP_GROWING_PERCENT', () => {
  it('defaults to DEFAULT_BENCH_HEAP_GROWING_PERCENT, 0 turns it off, a bad value names the variable', () => {
    expect(arteSettingsFromEnv({}).heapGrowingPercent).toBe(DEFAULT_BENCH_HEAP_GROWING_PERCENT)
    expect(arteSettingsFromEnv({ BENCH_HEAP_GROWING_PERCENT: '0' }).heapGrowingPercent).toBe(0)
    expect(() => arteSettingsFromEnv({ BENCH_HEAP_GROWING_PERCENT: 'lots' })).toThrow(ConfigError)
    expect(() => arteSettingsFromEnv({ BENCH_HEAP_GROWING_PERCENT: 'lots' })).toThrow(/BENCH_HEAP_GROWING_PERCENT/)
  })

  it('sets the V8 flag once per value and leaves V8 alone for 0', () => {
    expect(applyHeapGrowingPercent(0)).toBe(false)
    expect(applyHeapGrowingPercent(60)).toBe(true)
    expect(applyHeapGrowingPercent(60)).toBe(false)
  })
})

describe('benchWorkerExecArgv', () => {
  it('gives the semi-space flag of BENCH_WORKER_SEMI_SPACE_MB, none for 0, a bad value or a --pool on the command line', () => {
    expect(DEFAULT_BENCH_WORKER_SEMI_SPACE_MB).toBe(0)
    expect(benchWorkerExecArgv({}, [])).toEqual([])
    expect(benchWorkerExecArgv({ BENCH_WORKER_SEMI_SPACE_MB: '64' }, [])).toEqual(['--max-semi-space-size=64'])
    expect(benchWorkerExecArgv({ BENCH_WORKER_SEMI_SPACE_MB: '0' }, [])).toEqual([])
    expect(benchWorkerExecArgv({ BENCH_WORKER_SEMI_SPACE_MB: 'big' }, [])).toEqual([])
    expect(() => arteSettingsFromEnv({ BENCH_WORKER_SEMI_SPACE_MB: 'big' })).toThrow(/BENCH_WORKER_SEMI_SPACE_MB/)
    expect(benchWorkerExecArgv({ BENCH_WORKER_SEMI_SPACE_MB: '32' }, ['vitest', '--pool', 'threads'])).toEqual([])
    expect(benchWorkerExecArgv({ BENCH_WORKER_SEMI_SPACE_MB: '32' }, ['vitest', '--pool=threads'])).toEqual([])
  })
})

describe('benchPool', () => {
  it('runs the bench project in worker threads, in forked workers only when a semi-space flag is asked for', () => {
    expect(benchPool({})).toBe('threads')
    expect(benchPool({ BENCH_WORKER_SEMI_SPACE_MB: '0' })).toBe('threads')
    expect(benchPool({ BENCH_WORKER_SEMI_SPACE_MB: 'big' })).toBe('threads')
    expect(benchPool({ BENCH_WORKER_SEMI_SPACE_MB: '32' })).toBe('forks')
  })
})
