import { existsSync, readdirSync } from 'node:fs'
import { join, relative, resolve } from 'node:path'
import type { Command } from '../../cli/command.ts'
import { commandUsage, type OptionSpec, parseDeclared } from '../../cli/define-command.ts'
import { choiceFlag, FlagValueError, outputFileFlag, wholeNumberFlag } from '../../cli/flags.ts'
import { assertFlagPathExists } from '../../cli/flag-value-error.ts'
import { stopOnInterrupt } from '../../cli/stop-on-interrupt.ts'
import { runOnlyBench } from '../../core/bench-only.ts'
import { benchTestTimeoutMs } from '../../core/bench-test-timeout.ts'
import { ConfigError, UsageError } from '../../core/errors.ts'
import { packageModule, packageRoot, runsOutsidePackage, shippedSourcesPlugin } from '../../core/package-root.ts'
import { DEFAULT_AGENT_MAX_RETRIES, DEFAULT_AGENT_TIMEOUT_MS } from '../../agent/trace.ts'
import { DEFAULT_LOG_DIR } from '../tasks/file-names.ts'
import {
  MPCBENCH_TURN_CAP,
  type MpcbenchSettings,
  mpcbenchHistorySettings,
  mpcbenchInputs,
  mpcbenchSettingsFromEnv,
  packageInputsLine,
  writableMpcbenchLogDir,
} from '../settings.ts'
import { TASK_TYPES, type TaskType } from '../tasks/task-types.ts'
import { DEFAULT_SUMMARY_FILE } from '../vitest/reporter.ts'
import { DEFAULT_TOOL_PROFILE, TOOL_PROFILES } from '../workplace/tool-profiles.ts'

/** The options of `agent-bench mpcbench`, declared once: they give the parser and the help. */
const MPCBENCH_OPTIONS = {
  'agent-model': {
    type: 'string',
    value: 'ID',
    multiple: true,
    description:
      'agent model, e.g. openai/gpt-4.1 or baseline (BENCH_AGENT_MODEL, comma-separated; default: model_config.json agent_models when an API key or OPENAI_BASE_URL is set, else baseline)',
  },
  'judge-model': {
    type: 'string',
    value: 'ID',
    multiple: true,
    description: 'judge model, or rules (BENCH_JUDGE_MODEL, comma-separated; default: model_config.json judge_models when an LLM is configured, else rules)',
  },
  'agent-url': {
    type: 'string',
    value: 'URL',
    description: 'benchmark your own agent behind HTTP instead of a model: each task is POSTed to URL with an MCP endpoint of its tools (MPCBENCH_AGENT_URL)',
  },
  'agent-timeout-ms': {
    type: 'string',
    value: 'N',
    description: `bound on one POST to the agent (MPCBENCH_AGENT_TIMEOUT_MS); network errors, timeouts, 408, 429 and 5xx are retried MPCBENCH_AGENT_MAX_RETRIES times (default ${DEFAULT_AGENT_MAX_RETRIES})`,
    default: DEFAULT_AGENT_TIMEOUT_MS,
  },
  tools: { type: 'string', value: 'PROFILE', description: `tool profile, ${TOOL_PROFILES.join(' or ')} (MPCBENCH_TOOLS)`, default: DEFAULT_TOOL_PROFILE },
  'max-turns': {
    type: 'string',
    value: 'N',
    description: 'agent turn cap; reaching it is the max-turns outcome (MPCBENCH_MAX_TURNS)',
    default: MPCBENCH_TURN_CAP,
  },
  trials: { type: 'string', value: 'K', description: 'runs per task x agent, tests named "... [trial=j]"; the summary gets pass^k (BENCH_TRIALS)', default: 1 },
  resume: {
    type: 'boolean',
    description:
      'reuse each finished run of the log folder (answered or max-turns, same prompt, tools, temperature, turn cap and developer message, scored by every judge) instead of running it again (BENCH_RESUME=1)',
  },
  concurrency: { type: 'string', value: 'N', description: 'tests of a bench file run at once (BENCH_CONCURRENCY)', default: 5 },
  'prompt-config': {
    type: 'string',
    value: 'FILE',
    description: "system prompts (MPCBENCH_PROMPT_CONFIG; default: prompt_config.json here, else the package's)",
  },
  'model-config': {
    type: 'string',
    value: 'FILE',
    description: "agent_temperature, models (MPCBENCH_MODEL_CONFIG; default: model_config.json here, else the package's)",
  },
  'log-dir': { type: 'string', value: 'DIR', description: 'run logs, judge inputs and judge results (MPCBENCH_LOG_DIR)', default: DEFAULT_LOG_DIR },
  output: { type: 'string', short: 'o', value: 'FILE', description: 'summary JSON (--outputFile.mpcbench)', default: DEFAULT_SUMMARY_FILE },
  reporter: {
    type: 'string',
    value: 'NAME',
    multiple: true,
    description: 'Vitest reporter (default, verbose, junit, json, github-actions or a path)',
    default: 'default',
  },
  'test-name-pattern': { type: 'string', short: 't', value: 'RE', description: 'run only tests whose name ({task_id} [agent=...]) matches' },
} as const satisfies Record<string, OptionSpec>

const usage = commandUsage({
  name: 'mpcbench',
  positionals: { usage: `[${TASK_TYPES.join('|')} ...]`, min: 0, max: Number.POSITIVE_INFINITY },
  description: `Runs the MPCBench benchmark (bench/planning, bench/email_reply, bench/document_generation; or the task types
named) programmatically with Vitest, as \`npm run bench\` runs it in a checkout. Outside a checkout it runs the
package's own bench files, tasks, scenarios, data and configs (those of the current folder when it has them:
tasks/, scenarios/, prompt_config.json, model_config.json). Logs, summary, history and the HTML report are written
under the current folder (evaluation/). Without an API key: the baseline agent and the rules judge (neither an LLM).
The MPCBench reporter (its agent x judge table, evaluation/summary.json) and the HTML report reporter
(evaluation/report/index.html) are added to your --reporter list, never replacing it.
Each flag sets the environment variable in parentheses (which you can also set yourself).
--outputFile.<reporter> FILE sets a reporter's output file, e.g. --outputFile.junit=reports/mpcbench.xml.`,
  options: MPCBENCH_OPTIONS,
  epilog: `Examples:
  agent-bench mpcbench                                    # every task, offline: baseline agent, rules judge
  agent-bench mpcbench planning -t lumen_release_sync     # one task type, tests matching a pattern
  agent-bench mpcbench --agent-model openai/gpt-4.1-mini --judge-model openai/gpt-4.1
  agent-bench mpcbench --agent-url http://127.0.0.1:3000/run --trials 3
  agent-bench mpcbench --reporter=default --reporter=junit --outputFile.junit=reports/mpcbench.xml`,
})

/** The parsed `agent-bench mpcbench` command line. */
export interface MpcbenchCliPlan {
  /** Environment variables the run sets. */
  env: Record<string, string>
  /** The task types to run (every type when none is named). */
  taskTypes: TaskType[]
  /** Vitest reporters named by the user (the MPCBench and report reporters are added on top). */
  reporters: string[]
  /** `--outputFile.<reporter>` values (and `--output` as `mpcbench`). */
  outputFile: Record<string, string>
  testNamePattern: string | undefined
}

function wholeFlag(flag: string, value: string | undefined, min: number, example: number = Math.max(min, 5)): string | undefined {
  const number = wholeNumberFlag(flag, value, { min, example })
  return number === undefined ? undefined : String(number)
}

/** Turns the command line into a run plan (writes nothing, reads no file). */
export function planMpcbenchRun(argv: string[], cwd: string = process.cwd()): MpcbenchCliPlan {
  const outputFile: Record<string, string> = {}
  const rest: string[] = []
  for (let i = 0; i < argv.length; i++) {
    const last = outputFileFlag(argv, i, outputFile, 'reports/mpcbench.xml')
    if (last === undefined) rest.push(argv[i] ?? '')
    else i = last
  }
  for (const [name, file] of Object.entries(outputFile)) outputFile[name] = resolve(cwd, file)
  const { values, positionals } = parseDeclared('mpcbench', MPCBENCH_OPTIONS, rest, true)
  const unknown = positionals.filter((type) => !(TASK_TYPES as ReadonlyArray<string>).includes(type))
  if (unknown.length > 0) {
    throw new UsageError(`agent-bench mpcbench: ${unknown.map((type) => JSON.stringify(type)).join(', ')} is not a task type.`, {
      hint: `Name task types from ${TASK_TYPES.join(', ')}, or none to run them all.`,
    })
  }
  choiceFlag('--tools', values.tools, TOOL_PROFILES)
  const agentUrl = values['agent-url']
  if (agentUrl !== undefined && !/^https?:\/\/[^/\s]/.test(agentUrl.trim())) {
    throw new FlagValueError(`Expected \`--agent-url\` to be an http(s) URL, got ${JSON.stringify(agentUrl)}.`, {
      hint: 'Pass e.g. --agent-url http://127.0.0.1:3000/run.',
    })
  }
  if (values.output !== undefined) {
    if (outputFile.mpcbench !== undefined)
      throw new FlagValueError('`--output` and `--outputFile.mpcbench` both name the summary file.', { hint: 'Pass only one of them.' })
    outputFile.mpcbench = resolve(cwd, values.output)
  }
  const env: Record<string, string> = {}
  const set = (name: string, value: string | undefined): void => {
    if (value !== undefined) env[name] = value
  }
  const list = (ids: string[] | undefined): string | undefined => (ids === undefined ? undefined : ids.join(','))
  const path = (value: string | undefined): string | undefined => (value === undefined ? undefined : resolve(cwd, value))
  set('BENCH_AGENT_MODEL', list(values['agent-model']))
  set('BENCH_JUDGE_MODEL', list(values['judge-model']))
  set('MPCBENCH_AGENT_URL', agentUrl)
  set('MPCBENCH_AGENT_TIMEOUT_MS', wholeFlag('--agent-timeout-ms', values['agent-timeout-ms'], 1, DEFAULT_AGENT_TIMEOUT_MS))
  set('MPCBENCH_TOOLS', values.tools)
  set('MPCBENCH_MAX_TURNS', wholeFlag('--max-turns', values['max-turns'], 1))
  set('BENCH_TRIALS', wholeFlag('--trials', values.trials, 1))
  set('BENCH_RESUME', values.resume === true ? '1' : undefined)
  set('BENCH_CONCURRENCY', wholeFlag('--concurrency', values.concurrency, 1))
  set('MPCBENCH_PROMPT_CONFIG', path(values['prompt-config']))
  set('MPCBENCH_MODEL_CONFIG', path(values['model-config']))
  set('MPCBENCH_LOG_DIR', path(values['log-dir']))
  return {
    env,
    taskTypes: positionals.length === 0 ? [...TASK_TYPES] : [...new Set(positionals as TaskType[])],
    reporters: values.reporter ?? [],
    outputFile,
    testNamePattern: values['test-name-pattern'],
  }
}

/** The MPCBench reporter (agent x judge table, summary, history) and the HTML report, after it (it reads the summary). */
const MPCBENCH_REPORTER = packageModule('src/mpcbench/vitest/reporter.ts')
const REPORT_REPORTER = packageModule('src/report/report-reporter.ts')

/** The reporters to run: the user's (or `default`), then the MPCBench reporter and the HTML report reporter, once each. */
export function withMpcbenchReporters(reporters: ReadonlyArray<string>): string[] {
  const ours = [MPCBENCH_REPORTER, REPORT_REPORTER]
  const isOurs = (name: string): boolean => ours.some((file) => resolve(name).replace(/\.(ts|js|mjs)$/, '') === file.replace(/\.(ts|js)$/, ''))
  const user = reporters.length === 0 ? ['default'] : reporters.filter((name) => !((name.startsWith('.') || name.startsWith('/')) && isOurs(name)))
  return [...user, ...ours]
}

/**
 * The Vitest options that run the package's own bench files of `taskTypes` (not the current folder's config), as the
 * checkout's `bench` project runs them; the upstream v1 benches are left out, as from the package (they need a
 * checkout's `../shared`).
 */
export function shippedMpcbenchConfig(taskTypes: ReadonlyArray<TaskType>, concurrency: number | undefined) {
  return {
    config: false as const,
    dir: packageRoot,
    include: taskTypes.map((type) => `bench/${type}/*.eval.ts`),
    exclude: ['**/node_modules/**', 'bench/*/upstream-*.eval.ts'],
    globalSetup: [packageModule('src/mpcbench/vitest/global-setup.ts')],
    testTimeout: benchTestTimeoutMs(),
    hookTimeout: 600_000,
    pool: 'threads' as const,
    ...(concurrency === undefined ? {} : { maxConcurrency: concurrency }),
  }
}

/**
 * Checks, before any task runs, the settings read only as tests start or the run ends (every MPCBench variable, the
 * log folder, `BENCH_HISTORY_KEEP`) and that the agent flags go together: a bad one is one error naming it, not a
 * failure of every test. Returns the MPCBench settings.
 */
export function assertMpcbenchRunSettings(
  env: Record<string, string | undefined>,
  plan: Pick<MpcbenchCliPlan, 'env'>,
  cwd: string = process.cwd(),
): MpcbenchSettings {
  const settings = mpcbenchSettingsFromEnv(env)
  if (settings.agent !== undefined && plan.env.BENCH_AGENT_MODEL !== undefined) {
    throw new FlagValueError('`--agent-model` and an agent URL (--agent-url / MPCBENCH_AGENT_URL) both choose the agent.', {
      hint: 'Pass only one of them (unset MPCBENCH_AGENT_URL to run a model): an external agent runs its own.',
    })
  }
  if (settings.agent === undefined && plan.env.MPCBENCH_AGENT_TIMEOUT_MS !== undefined) {
    throw new FlagValueError('`--agent-timeout-ms` needs an external agent.', { hint: 'Pass --agent-url URL too, or leave --agent-timeout-ms out.' })
  }
  writableMpcbenchLogDir(env, cwd)
  mpcbenchHistorySettings(env, cwd)
  return settings
}

/** `agent-bench mpcbench`: run the MPCBench benchmark through Vitest. */
/**
 * Throws a `ConfigError` when the task folders of `taskTypes` under `tasksRoot` hold no task file: the bench files would
 * skip every test and the run would pass having benchmarked nothing (a project whose `tasks/` holds something else).
 */
export function assertTasksToRun(tasksRoot: string, taskTypes: ReadonlyArray<TaskType>): void {
  const found = taskTypes.some((type) => {
    const dir = join(tasksRoot, 'tasks', type)
    return existsSync(dir) && readdirSync(dir).some((name) => name.endsWith('.json'))
  })
  if (found) return
  const where = taskTypes.map((type) => relative(process.cwd(), join(tasksRoot, 'tasks', type)) || '.').join(', ')
  throw new ConfigError(`No MPCBench task to run: no .json task file in ${where}.`, {
    hint: `Put task files in tasks/{${taskTypes.join(',')}}/ (see the package's tasks/README.md), or run from a folder without a tasks/ folder to run the package's own tasks.`,
  })
}

export const command: Command = {
  usage,
  async run(argv) {
    const plan = planMpcbenchRun(argv)
    // A config a flag names that does not exist is a bad command line (exit 2), before Vitest starts.
    for (const [name, flag, what] of [
      ['MPCBENCH_PROMPT_CONFIG', '--prompt-config', 'Prompt config'],
      ['MPCBENCH_MODEL_CONFIG', '--model-config', 'Model config'],
    ] as const) {
      const named = plan.env[name]
      if (named !== undefined) assertFlagPathExists(flag, named, what, `Pass an existing file to ${flag}, or leave it out for the default.`)
    }
    // The workers inherit this environment: the bench files read the flags through the settings, as the variables.
    Object.assign(process.env, plan.env)
    const { concurrency } = assertMpcbenchRunSettings(process.env, plan)
    const shipped = runsOutsidePackage()
    const inputs = mpcbenchInputs()
    assertTasksToRun(inputs.tasksRoot, plan.taskTypes)
    const fromPackage = packageInputsLine(inputs.fromPackage)
    if (fromPackage !== undefined) console.error(fromPackage)
    // This command runs MPCBench only: the ART-E globalSetup of a checkout's bench project prepares nothing.
    runOnlyBench('mpcbench')
    const { startVitest } = await import('vitest/node')
    const before = process.exitCode
    process.exitCode = undefined
    const interrupt = stopOnInterrupt()
    const vitest = await startVitest(
      'test',
      shipped ? [] : plan.taskTypes.map((type) => `bench/${type}/`),
      {
        run: true,
        watch: false,
        ...(shipped
          ? shippedMpcbenchConfig(plan.taskTypes, concurrency)
          : { project: ['bench'], ...(concurrency === undefined ? {} : { maxConcurrency: concurrency }) }),
        reporters: [interrupt.reporter, ...withMpcbenchReporters(plan.reporters)],
        ...(Object.keys(plan.outputFile).length === 0 ? {} : { outputFile: plan.outputFile }),
        ...(plan.testNamePattern === undefined ? {} : { testNamePattern: plan.testNamePattern }),
      },
      shipped ? { plugins: [shippedSourcesPlugin()] } : {},
    )
    await vitest.close()
    interrupt.dispose()
    const signal = interrupt.signal()
    const code = signal === undefined ? Number(process.exitCode ?? 0) : 128 + (signal === 'SIGINT' ? 2 : 15)
    process.exitCode = before
    return code
  },
}
