import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { ConfigError } from '../core/errors.ts'
import { mpcbenchSettingsFromEnv, writableMpcbenchLogDir } from './settings.ts'

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

describe('writableMpcbenchLogDir', () => {
  it('accepts a folder that exists or can be created, creating nothing', () => {
    const root = mkdtempSync(join(tmpdir(), 'mpc-logdir-'))
    expect(writableMpcbenchLogDir({}, root)).toBe(join(root, 'evaluation/logs'))
    expect(writableMpcbenchLogDir({ MPCBENCH_LOG_DIR: 'out/deep/logs' }, root)).toBe(join(root, 'out/deep/logs'))
    mkdirSync(join(root, 'logs'))
    expect(writableMpcbenchLogDir({ MPCBENCH_LOG_DIR: join(root, 'logs') }, root)).toBe(join(root, 'logs'))
  })

  it('refuses a log folder under a file, naming MPCBENCH_LOG_DIR and the fix', () => {
    const root = mkdtempSync(join(tmpdir(), 'mpc-logdir-'))
    writeFileSync(join(root, 'a-file'), 'x')
    expect(() => writableMpcbenchLogDir({ MPCBENCH_LOG_DIR: '/dev/null/logs' }, root)).toThrow(ConfigError)
    expect(() => writableMpcbenchLogDir({ MPCBENCH_LOG_DIR: '/dev/null/logs' }, root)).toThrow(
      'Cannot write MPCBench logs to /dev/null/logs (MPCBENCH_LOG_DIR=/dev/null/logs): /dev/null is not a folder.\n  Fix: Set MPCBENCH_LOG_DIR to a folder you can write',
    )
    expect(() => writableMpcbenchLogDir({ MPCBENCH_LOG_DIR: 'a-file/logs' }, root)).toThrow(`${join(root, 'a-file')} is not a folder`)
  })
})
