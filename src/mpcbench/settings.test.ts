import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { ConfigError } from '../core/errors.ts'
import { packageRoot } from '../core/package-root.ts'
import { dataDirFlag, mpcbenchInputs, mpcbenchSettingsFromEnv, packageInputsLine, writableMpcbenchLogDir } from './settings.ts'

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

describe('BENCH_CONCURRENCY', () => {
  it('is unset by default (the Vitest config decides) and a whole number >= 1 when set', () => {
    expect(mpcbenchSettingsFromEnv({}).concurrency).toBeUndefined()
    expect(mpcbenchSettingsFromEnv({ BENCH_CONCURRENCY: '8' }).concurrency).toBe(8)
    expect(() => mpcbenchSettingsFromEnv({ BENCH_CONCURRENCY: '0' })).toThrow('Invalid BENCH_CONCURRENCY="0"')
  })
})

describe("mpcbenchInputs, mpcbenchConfigs, dataDirFlag: the root's inputs, else the package's", () => {
  const at = (root: string, path: string) => join(root, path)

  it('an empty folder reads every input from the package, and says which', () => {
    const root = mkdtempSync(join(tmpdir(), 'mpc-inputs-'))
    expect(mpcbenchInputs(root, {})).toEqual({
      tasksRoot: resolve(packageRoot),
      scenariosDir: at(packageRoot, 'scenarios'),
      dataDir: at(packageRoot, 'data'),
      configs: {
        promptConfig: at(packageRoot, 'prompt_config.json'),
        modelConfig: at(packageRoot, 'model_config.json'),
        fromPackage: ['prompt_config.json', 'model_config.json'],
      },
      fromPackage: ['tasks/', 'scenarios/', 'data/', 'prompt_config.json', 'model_config.json'],
    })
    expect(dataDirFlag(undefined, root)).toEqual({ path: at(packageRoot, 'data'), fromPackage: ['data/'] })
    expect(dataDirFlag('data', root)).toEqual({ path: at(packageRoot, 'data'), fromPackage: ['data/'] })
    expect(dataDirFlag('./data/', root)).toEqual({ path: at(packageRoot, 'data'), fromPackage: ['data/'] })
    expect(dataDirFlag('mine', root)).toEqual({ path: at(root, 'mine'), fromPackage: [] })
  })

  it("a project's own inputs win, one by one; its own scenarios take its own data/ (generated there, never into the package)", () => {
    const root = mkdtempSync(join(tmpdir(), 'mpc-inputs-'))
    mkdirSync(join(root, 'tasks'))
    writeFileSync(join(root, 'prompt_config.json'), '{}')
    expect(mpcbenchInputs(root, {})).toMatchObject({
      tasksRoot: root,
      scenariosDir: at(packageRoot, 'scenarios'),
      dataDir: at(packageRoot, 'data'),
      configs: { promptConfig: at(root, 'prompt_config.json'), modelConfig: at(packageRoot, 'model_config.json') },
      fromPackage: ['scenarios/', 'data/', 'model_config.json'],
    })
    mkdirSync(join(root, 'scenarios'))
    expect(mpcbenchInputs(root, {})).toMatchObject({ scenariosDir: at(root, 'scenarios'), dataDir: at(root, 'data'), fromPackage: ['model_config.json'] })
    // Data alone (e.g. imported from upstream) is the project's too: the commands read it.
    const dataOnly = mkdtempSync(join(tmpdir(), 'mpc-inputs-'))
    mkdirSync(join(dataOnly, 'data'))
    expect(dataDirFlag(undefined, dataOnly)).toEqual({ path: at(dataOnly, 'data'), fromPackage: [] })
  })

  it("what the environment names is used as named (relative to the root), and is never the package's", () => {
    const root = mkdtempSync(join(tmpdir(), 'mpc-inputs-'))
    const inputs = mpcbenchInputs(root, {
      MPCBENCH_SCENARIOS_DIR: 'sc',
      MPCBENCH_DATA_DIR: 'd',
      MPCBENCH_PROMPT_CONFIG: 'p.json',
      MPCBENCH_MODEL_CONFIG: 'm.json',
    })
    expect(inputs).toMatchObject({ scenariosDir: at(root, 'sc'), dataDir: at(root, 'd'), configs: { fromPackage: [] }, fromPackage: ['tasks/'] })
    expect(inputs.configs).not.toHaveProperty('promptConfig')
    expect(inputs.configs).not.toHaveProperty('modelConfig')
  })

  it("says in one line which inputs are the package's", () => {
    const cwd = mkdtempSync(join(tmpdir(), 'mpc-inputs-'))
    expect(packageInputsLine([], cwd, cwd)).toBeUndefined()
    expect(packageInputsLine(['data/', 'prompt_config.json'], cwd, cwd)).toBe(
      `MPCBench: no data/, prompt_config.json in the current folder: using the package's (${resolve(packageRoot)})`,
    )
    expect(packageInputsLine(['tasks/'], join(cwd, 'sub'), cwd)).toBe(`MPCBench: no tasks/ in sub: using the package's (${resolve(packageRoot)})`)
  })
})
