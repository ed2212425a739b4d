import { describe, expect, it } from 'vitest'
import { ConfigError } from '../core/errors.ts'
import { mpcbenchSettingsFromEnv } from './settings.ts'

describe('mpcbenchSettingsFromEnv', () => {
  it('reads BENCH_TRIALS, default 1, empty = unset', () => {
    expect(mpcbenchSettingsFromEnv({})).toMatchObject({ trials: 1 })
    expect(mpcbenchSettingsFromEnv({ BENCH_TRIALS: ' ' })).toMatchObject({ trials: 1 })
    expect(mpcbenchSettingsFromEnv({ BENCH_TRIALS: '3' })).toMatchObject({ trials: 3 })
  })

  it('rejects a bad BENCH_TRIALS, naming the variable and the fix', () => {
    for (const bad of ['0', '-1', '2.5', 'three']) {
      expect(() => mpcbenchSettingsFromEnv({ BENCH_TRIALS: bad })).toThrow(ConfigError)
      expect(() => mpcbenchSettingsFromEnv({ BENCH_TRIALS: bad })).toThrow(`Invalid BENCH_TRIALS="${bad}"`)
    }
  })
})
