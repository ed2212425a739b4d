import { accessSync, constants, existsSync, statSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import { z } from 'zod'
import { DEFAULT_AGENT_MAX_RETRIES, DEFAULT_AGENT_TIMEOUT_MS } from '../agent/trace.ts'
import { ConfigError } from '../core/errors.ts'
import { FlagValueError } from '../cli/flag-value-error.ts'
import { defaultInput, packageInputsNote } from '../core/package-root.ts'
import { wholeNumberText } from '../core/whole-number.ts'
import { type HistorySettings, historySettingsFromEnv } from '../core/run-history.ts'
import { DEFAULT_LOG_DIR } from './tasks/file-names.ts'
import type { PrepareDataOptions } from './generate/prepare-data.ts'
import { DEFAULT_TOOL_PROFILE, TOOL_PROFILES, type ToolProfile } from './workplace/tool-profiles.ts'

type Env = Record<string, string | undefined>

/**
 * The turn cap of MPCBench agent runs. Upstream's agent loop has no cap; 50 turns is far above what its runs use,
 * so a capped run (outcome `max-turns`, recorded as such) means a looping agent, not a cut-short one.
 */
export const MPCBENCH_TURN_CAP = 50

/** Sampling temperature of MPCBench agents unless `model_config.json` sets `agent_temperature` (upstream sends 0). */
export const DEFAULT_AGENT_TEMPERATURE = 0

/** A yes/no variable: `1`, `true`, `yes` or `0`, `false`, `no` (any case). */
const Flag = z
  .string()
  .toLowerCase()
  .pipe(z.enum(['0', '1', 'false', 'true', 'no', 'yes']))
  .transform((value) => value === '1' || value === 'true' || value === 'yes')

const wholeNumber = wholeNumberText

/**
 * The MPCBench variables, parsed once (CLI flags override them per command); unset or blank = the default:
 * - `MPCBENCH_TOOLS`: the tool profile, `upstream-v1` (default) or `extended`;
 * - `MPCBENCH_PROMPT_CONFIG` / `MPCBENCH_MODEL_CONFIG`: prompt and model config files (default `prompt_config.json`,
 *   `model_config.json` in the project root); upstream's files work as they are;
 * - `MPCBENCH_LLM_CONTEXT`: a folder of `llm_context/*.md` files for the agent's developer message (default: an
 *   `llm_context/` folder beside the prompt config, else none);
 * - `MPCBENCH_MAX_TURNS`: the agent turn cap (default {@link MPCBENCH_TURN_CAP});
 * - `MPCBENCH_AGENT_URL` (+ `_TIMEOUT_MS`, `_MAX_RETRIES`): an external agent under test, the only agent of the run;
 * - `BENCH_TRIALS`: runs per task x agent (default 1); with more, tests are named `... [trial=j]`;
 * - `BENCH_RESUME=1`: reuse each finished run of the log folder instead of running it again;
 * - `BENCH_CONCURRENCY`: tests of a bench file run at once (unset: the Vitest config's `maxConcurrency`).
 */
export const MpcbenchEnvSchema = z.object({
  MPCBENCH_TOOLS: z.enum(TOOL_PROFILES).default(DEFAULT_TOOL_PROFILE),
  MPCBENCH_PROMPT_CONFIG: z.string().optional(),
  MPCBENCH_MODEL_CONFIG: z.string().optional(),
  MPCBENCH_LLM_CONTEXT: z.string().optional(),
  MPCBENCH_MAX_TURNS: wholeNumber(1).default(MPCBENCH_TURN_CAP),
  MPCBENCH_AGENT_URL: z.url({ protocol: /^https?$/, error: 'expected an http(s) URL' }).optional(),
  MPCBENCH_AGENT_TIMEOUT_MS: wholeNumber(1).default(DEFAULT_AGENT_TIMEOUT_MS),
  MPCBENCH_AGENT_MAX_RETRIES: wholeNumber(0).default(DEFAULT_AGENT_MAX_RETRIES),
  BENCH_TRIALS: wholeNumber(1).default(1),
  /** `BENCH_RESUME=1`: reuse each finished run (answered or max-turns, every judge scored) found in the log folder. */
  BENCH_RESUME: Flag.default(false),
  BENCH_CONCURRENCY: wholeNumber(1).optional(),
})

/** The external agent under test (`MPCBENCH_AGENT_URL`), POSTed `{taskId, userPrompt, tools: {mcpUrl}}` per task. */
export interface MpcbenchAgentSettings {
  url: string
  /** `MPCBENCH_AGENT_TIMEOUT_MS`: bound on one POST. */
  timeoutMs: number
  /** `MPCBENCH_AGENT_MAX_RETRIES`: retries of a POST that failed with a network error, a timeout, 408, 429 or 5xx. */
  maxRetries: number
}

/** MPCBench settings; see {@link MpcbenchEnvSchema}. */
export interface MpcbenchSettings {
  toolProfile: ToolProfile
  promptConfig: string | undefined
  modelConfig: string | undefined
  llmContext: string | undefined
  maxTurns: number
  /** The external agent under test, or undefined to run the models of `BENCH_AGENT_MODEL` / `model_config.json`. */
  agent: MpcbenchAgentSettings | undefined
  /** `BENCH_TRIALS`: runs per task x agent. */
  trials: number
  /** `BENCH_RESUME`: see {@link MpcbenchEnvSchema}. */
  resume: boolean
  /** `BENCH_CONCURRENCY`, or undefined to keep the Vitest config's `maxConcurrency`. */
  concurrency: number | undefined
}

const HINTS: Record<string, string> = {
  MPCBENCH_TOOLS: `Set MPCBENCH_TOOLS to one of ${TOOL_PROFILES.join(', ')}, or unset it for ${DEFAULT_TOOL_PROFILE}.`,
  MPCBENCH_MAX_TURNS: `Set MPCBENCH_MAX_TURNS to a whole number >= 1, or unset it for ${MPCBENCH_TURN_CAP}.`,
  BENCH_TRIALS: 'Set BENCH_TRIALS to a whole number >= 1, or unset it for the default (1).',
  BENCH_RESUME: 'Set BENCH_RESUME=1 to resume, or unset it.',
  BENCH_CONCURRENCY: 'Set BENCH_CONCURRENCY to a whole number >= 1, or unset it for the default (5).',
}

/** Reads {@link MpcbenchSettings} from `env`; a bad value is a `ConfigError` naming the variable and the fix. */
export function mpcbenchSettingsFromEnv(env: Env = process.env): MpcbenchSettings {
  const present: Record<string, string> = {}
  for (const name of Object.keys(MpcbenchEnvSchema.shape)) {
    const value = env[name]?.trim()
    if (value !== undefined && value !== '') present[name] = value
  }
  const parsed = MpcbenchEnvSchema.safeParse(present)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]
    const name = String(issue?.path[0] ?? 'environment')
    throw new ConfigError(`Invalid ${name}=${JSON.stringify(present[name])}: ${issue?.message ?? 'invalid value'}.`, {
      hint: HINTS[name] ?? `Correct ${name}, or unset it for the default.`,
      cause: parsed.error,
    })
  }
  const s = parsed.data
  return {
    toolProfile: s.MPCBENCH_TOOLS,
    promptConfig: s.MPCBENCH_PROMPT_CONFIG,
    modelConfig: s.MPCBENCH_MODEL_CONFIG,
    llmContext: s.MPCBENCH_LLM_CONTEXT,
    maxTurns: s.MPCBENCH_MAX_TURNS,
    agent:
      s.MPCBENCH_AGENT_URL === undefined
        ? undefined
        : { url: s.MPCBENCH_AGENT_URL, timeoutMs: s.MPCBENCH_AGENT_TIMEOUT_MS, maxRetries: s.MPCBENCH_AGENT_MAX_RETRIES },
    trials: s.BENCH_TRIALS,
    resume: s.BENCH_RESUME,
    concurrency: s.BENCH_CONCURRENCY,
  }
}

/** {@link mpcbenchSettingsFromEnv} of the process environment with `overrides` (CLI flags) on top. */
export function mpcbenchSettingsWith(overrides: Env): MpcbenchSettings {
  return mpcbenchSettingsFromEnv({ ...process.env, ...overrides })
}

let fromProcessEnv: MpcbenchSettings | undefined

/** {@link mpcbenchSettingsFromEnv} of `process.env`, parsed once per process. */
export function mpcbenchSettings(): MpcbenchSettings {
  fromProcessEnv ??= mpcbenchSettingsFromEnv(process.env)
  return fromProcessEnv
}

/** A `--tools` flag value (or, when absent, the setting) as a profile; an unknown name is a `ConfigError`. */
export function toolProfileFlag(value: string | undefined, fallback: ToolProfile = mpcbenchSettings().toolProfile): ToolProfile {
  if (value === undefined) return fallback
  if ((TOOL_PROFILES as ReadonlyArray<string>).includes(value)) return value as ToolProfile
  throw new FlagValueError(`Unknown tool profile --tools ${JSON.stringify(value)}`, { hint: `Use --tools ${TOOL_PROFILES.join(' or --tools ')}.` })
}

/** File name of an MPCBench run's summary in its history folder (`evaluation/history/{run id}/`). */
export const MPCBENCH_HISTORY_FILE = 'mpcbench-summary.json'

/** `BENCH_HISTORY_DIR` (default `evaluation/history`, relative to `root`) and `BENCH_HISTORY_KEEP` (default 20, 0 = off). */
export function mpcbenchHistorySettings(env: Env = process.env, root = process.cwd()): HistorySettings {
  return historySettingsFromEnv(env, root)
}

/**
 * The trial numbers of one task x agent: `[undefined]` for one trial (plain test names), else `[1, ..., k]`
 * (tests named `... [trial=j]`).
 */
export function trialNumbers(trials: number): Array<number | undefined> {
  return trials <= 1 ? [undefined] : Array.from({ length: trials }, (_, i) => i + 1)
}

/**
 * The log folder: `MPCBENCH_LOG_DIR` when set, else {@link DEFAULT_LOG_DIR}, resolved against `cwd`: the working
 * directory of the run (not a bench file's `root`), where the summary, the history and the report of the run go too.
 */
export function mpcbenchLogDir(env: Env = process.env, cwd: string = process.cwd()): string {
  const fromEnv = env.MPCBENCH_LOG_DIR
  return resolve(cwd, fromEnv !== undefined && fromEnv !== '' ? fromEnv : DEFAULT_LOG_DIR)
}

/**
 * Why files cannot be written under `dir`, or `undefined` when they can: `dir`, or else the nearest folder above it
 * that exists (the rest is created on the first write), must be a folder we may write in. Nothing is created.
 */
export function unwritableFolderReason(dir: string): string | undefined {
  let path = dir
  while (!existsSync(path) && dirname(path) !== path) path = dirname(path)
  if (!statSync(path).isDirectory()) return `${path} is not a folder`
  try {
    accessSync(path, constants.W_OK)
  } catch {
    return `${path} is not writable`
  }
  return undefined
}

/**
 * {@link mpcbenchLogDir}, checked before any task runs: a folder that cannot be written (see
 * {@link unwritableFolderReason}) is a `ConfigError` naming `MPCBENCH_LOG_DIR`, instead of every test failing on its
 * first write.
 */
export function writableMpcbenchLogDir(env: Env = process.env, cwd: string = process.cwd()): string {
  const dir = mpcbenchLogDir(env, cwd)
  const reason = unwritableFolderReason(dir)
  if (reason === undefined) return dir
  const named = env.MPCBENCH_LOG_DIR !== undefined && env.MPCBENCH_LOG_DIR !== ''
  throw new ConfigError(`Cannot write MPCBench logs to ${dir}${named ? ` (MPCBENCH_LOG_DIR=${env.MPCBENCH_LOG_DIR})` : ''}: ${reason}.`, {
    hint: named
      ? `Set MPCBENCH_LOG_DIR to a folder you can write (it is created when missing), or unset it for ${DEFAULT_LOG_DIR}.`
      : `Make ${dir} a folder you can write, or set MPCBENCH_LOG_DIR to one.`,
  })
}

/**
 * Reads the globalSetup settings from the environment (empty means unset): `MPCBENCH_SCENARIOS` (comma-separated ids),
 * `MPCBENCH_GENERATOR`, `MPCBENCH_DATA_DIR`, `MPCBENCH_SCENARIOS_DIR` (when set, a folder that exists).
 */
export function prepareOptionsFromEnv(root: string, env: Env = process.env): PrepareDataOptions {
  const set = (value: string | undefined): string | undefined => (value === undefined || value.trim() === '' ? undefined : value.trim())
  const generator = set(env.MPCBENCH_GENERATOR) ?? 'procedural'
  if (generator !== 'procedural' && generator !== 'llm') {
    throw new ConfigError(`MPCBENCH_GENERATOR must be \`procedural\` or \`llm\`, got ${JSON.stringify(generator)}`, {
      hint: 'Unset MPCBENCH_GENERATOR (procedural) or set it to llm.',
    })
  }
  const ids = set(env.MPCBENCH_SCENARIOS)
    ?.split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '')
  const namedScenariosDir = set(env.MPCBENCH_SCENARIOS_DIR)
  const scenariosDir = resolve(root, namedScenariosDir ?? 'scenarios')
  // The default folder may be missing (a project run on data alone); a named one that is not a folder would silently
  // prepare nothing, and the tasks would run on whatever data is there.
  if (namedScenariosDir !== undefined && !(existsSync(scenariosDir) && statSync(scenariosDir).isDirectory())) {
    throw new ConfigError(`MPCBENCH_SCENARIOS_DIR=${namedScenariosDir}: ${scenariosDir} is not a folder.`, {
      hint: 'Point MPCBENCH_SCENARIOS_DIR at the folder of {scenario_id}.json files, or unset it for scenarios/.',
    })
  }
  return {
    scenariosDir,
    dataDir: resolve(root, set(env.MPCBENCH_DATA_DIR) ?? 'data'),
    generator,
    ...(ids === undefined || ids.length === 0 ? {} : { scenarioIds: ids }),
  }
}

/** Where an MPCBench bench run reads its inputs (see {@link mpcbenchInputs}). */
export interface MpcbenchInputs {
  /** The folder whose `tasks/{type}/*.json` run. */
  tasksRoot: string
  /** The folder of `{scenario_id}.json` files the globalSetup prepares data for. */
  scenariosDir: string
  /** The folder of the scenarios' data (`{scenario_id}_{source}.json`). */
  dataDir: string
  /** Config files for `resolveHarness`, only those the environment does not name (see {@link mpcbenchConfigs}). */
  configs: MpcbenchConfigs
  /** The inputs that are the package's own copies because the root has none (`tasks/`, `scenarios/`, `data/`, ...). */
  fromPackage: string[]
}

/** The prompt and model config files of a run that the environment does not name (`resolveHarness` reads those). */
export interface MpcbenchConfigs {
  promptConfig?: string
  /** Left out when neither the root nor the package has one. */
  modelConfig?: string
  /** `prompt_config.json` and/or `model_config.json` when they are the package's. */
  fromPackage: string[]
}

const named = (env: Env, name: string): string | undefined => {
  const value = env[name]?.trim()
  return value === undefined || value === '' ? undefined : value
}

/** `path` under `root` when it exists, else the package's copy (`defaultInput`); says which in `fromPackage`. */
function pick(root: string, path: string, fromPackage: string[], label = path): string {
  const chosen = defaultInput(path, root)
  if (chosen !== resolve(root, path)) fromPackage.push(label)
  return chosen
}

/**
 * The config files of a run (for `resolveHarness`) that `MPCBENCH_PROMPT_CONFIG` / `MPCBENCH_MODEL_CONFIG` do not
 * name: `root`'s `prompt_config.json` / `model_config.json` when it has them, else the package's own (so the commands
 * and the bench work in any project); a model config only when one of them exists.
 */
export function mpcbenchConfigs(root: string = process.cwd(), env: Env = process.env): MpcbenchConfigs {
  const fromPackage: string[] = []
  const configs: MpcbenchConfigs = { fromPackage }
  if (named(env, 'MPCBENCH_PROMPT_CONFIG') === undefined) configs.promptConfig = pick(root, 'prompt_config.json', fromPackage)
  if (named(env, 'MPCBENCH_MODEL_CONFIG') === undefined) {
    const modelConfig = defaultInput('model_config.json', root)
    if (existsSync(modelConfig)) configs.modelConfig = pick(root, 'model_config.json', fromPackage)
  }
  return configs
}

/**
 * Where a bench run (a bench file of `root`, the globalSetup) reads what nothing names, by one rule: each input of
 * `root` when it has one, else the package's own copy (an installed package ships its tasks, scenarios, data and
 * configs), so the shipped benchmark runs in any project. Data goes with its scenarios: the package's scenarios with
 * the package's data (never generated into a project's unrelated `data/`), the root's own scenarios (or
 * `MPCBENCH_SCENARIOS_DIR`) with the root's `data/`, generated there. `MPCBENCH_SCENARIOS_DIR` and `MPCBENCH_DATA_DIR`
 * are resolved against `root`.
 */
export function mpcbenchInputs(root: string = process.cwd(), env: Env = process.env): MpcbenchInputs {
  const fromPackage: string[] = []
  const tasksRoot = dirname(pick(root, 'tasks', fromPackage, 'tasks/'))
  const namedScenarios = named(env, 'MPCBENCH_SCENARIOS_DIR')
  const scenariosDir = namedScenarios === undefined ? pick(root, 'scenarios', fromPackage, 'scenarios/') : resolve(root, namedScenarios)
  const namedData = named(env, 'MPCBENCH_DATA_DIR')
  const shippedScenarios = fromPackage.includes('scenarios/')
  const dataDir = namedData !== undefined ? resolve(root, namedData) : shippedScenarios ? pick(root, 'data', fromPackage, 'data/') : resolve(root, 'data')
  const configs = mpcbenchConfigs(root, env)
  return { tasksRoot, scenariosDir, dataDir, configs, fromPackage: [...fromPackage, ...configs.fromPackage] }
}

/**
 * The `--data-dir` of a command that reads scenario data: the named folder, resolved against `cwd`; without the flag,
 * or with `data` (the default's name), the current folder's `data/` when it exists, else the package's (then
 * `fromPackage` is `['data/']`).
 */
export function dataDirFlag(value: string | undefined, cwd: string = process.cwd()): { path: string; fromPackage: string[] } {
  const named = resolve(cwd, value ?? 'data')
  const path = named === resolve(cwd, 'data') ? defaultInput('data', cwd) : named
  return { path, fromPackage: path === named ? [] : ['data/'] }
}

/**
 * The one line saying which inputs are the package's own copies (labels as in {@link MpcbenchInputs.fromPackage}), e.g.
 * `MPCBench: no data/, prompt_config.json in the current folder: using the package's (node_modules/vitest-agent-bench)`;
 * `undefined` when there are none.
 */
export function packageInputsLine(labels: ReadonlyArray<string>, root: string = process.cwd(), cwd: string = process.cwd()): string | undefined {
  return packageInputsNote('MPCBench', labels, root, cwd)
}
