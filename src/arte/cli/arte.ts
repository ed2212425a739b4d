import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, relative, resolve, sep } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import fg from 'fast-glob'
import { ARTE_DATASET_ID, DEFAULT_ARTE_CACHE_DIR, ensureArteDataset } from '../dataset/download-dataset.ts'
import { loadArteDataset } from '../dataset/load-dataset.ts'
import { ARTE_ROW_SELECTIONS, ARTE_ROW_SELECTION_TEXT, type ArteRowSelection } from '../dataset/row-selection.ts'
import { parseArteThresholds } from '../results/results-thresholds.ts'
import { computeArteStats, formatArteStatsReport } from '../dataset/stats.ts'
import { runOnlyBench } from '../../core/bench-only.ts'
import { ConfigError } from '../../core/errors.ts'
import { checkWritableFile } from '../../core/atomic-write.ts'
import { DEFAULT_MODEL_BY_KEY } from '../../llm/default-model.ts'
import { BUILT_IN_AGENT_IDS } from '../../llm/create-model.ts'
import {
  DEFAULT_ARTE_DATASET,
  DEFAULT_ARTE_DB,
  DEFAULT_ARTE_LIMIT,
  DEFAULT_ARTE_MAILDIR,
  DEFAULT_ARTE_OUTPUT,
  DEFAULT_AGENT_API_URL,
  DEFAULT_BENCH_CONCURRENCY,
  applyArteFlags,
  arteHistorySettings,
  arteSettingsFromEnv,
  benchConcurrency,
  benchPool,
  benchWorkerExecArgv,
} from '../settings.ts'
import { DEFAULT_TRACES_DB } from '../results/trace-store.ts'
import { DEFAULT_AGENT_MAX_RETRIES, DEFAULT_AGENT_TIMEOUT_MS, DEFAULT_MAX_TURNS } from '../../agent/trace.ts'
import type { Command } from '../../cli/command.ts'
import { stopOnInterrupt } from '../../cli/stop-on-interrupt.ts'
import { ARTE_PARTS_DIR, AUTOMATIC_PARTS_REASON, type ArteTestFiles, arteTestFiles, automaticArtePartCount, writeArtePartFiles } from '../vitest/arte-parts.ts'
import { leanNativeMemory } from '../vitest/native-memory.ts'
import { choiceFlag, FlagValueError, outputFileFlag, wholeNumberFlag } from '../../cli/flags.ts'
import { commandUsage, type OptionSpec, parseDeclared } from '../../cli/define-command.ts'
import { benchTestTimeoutMs } from '../../core/bench-test-timeout.ts'
import {
  defaultInput,
  distExternal,
  moduleExtension,
  packageInputsNote,
  packageModule,
  packageRoot,
  runsOutsidePackage,
  shippedSourcesPlugin,
} from '../../core/package-root.ts'
import { staleReason } from '../../core/dist-freshness.ts'

const PROVIDERS = ['openai', 'anthropic', 'google'] as const

/** The options of `agent-bench arte`, declared once: they give the parser and the help. */
const ARTE_OPTIONS = {
  split: { type: 'string', short: 's', value: 'train|test', description: 'dataset split (ARTE_SPLIT)', default: 'test' },
  rows: {
    type: 'string',
    value: ARTE_ROW_SELECTIONS.join('|'),
    description: `which rows of the split run, before --limit: all, or openpipe (${ARTE_ROW_SELECTION_TEXT.openpipe}) (ARTE_ROWS)`,
    default: 'all',
  },
  limit: { type: 'string', short: 'l', value: 'N', description: 'rows to run, 0 = all (ARTE_LIMIT)', default: DEFAULT_ARTE_LIMIT },
  dataset: {
    type: 'string',
    value: 'FILE',
    description: `.jsonl, .json, .csv or .parquet rows (ARTE_DATASET); ${ARTE_DATASET_ID}: download the split's parquet file from Hugging Face (cached in ${DEFAULT_ARTE_CACHE_DIR}) and use it`,
    default: DEFAULT_ARTE_DATASET,
  },
  'use-json': {
    type: 'boolean',
    description:
      'download the first 100 rows of corbt/enron_emails_sample_questions through the Hugging Face rows API (cached in .tmp/art-e-cache) and use them',
  },
  db: { type: 'string', value: 'FILE', description: `email database, used as is (ARTE_DB); default: ${DEFAULT_ARTE_DB}, built from ${DEFAULT_ARTE_MAILDIR}` },
  'model-provider': {
    type: 'string',
    value: 'NAME',
    description: `${PROVIDERS.join(' | ')}; with --model-id, prefixes it (default: from the API key that is set)`,
  },
  'model-id': {
    type: 'string',
    value: 'ID',
    description: 'agent model, e.g. openai/gpt-4.1, baseline or null (BENCH_AGENT_MODEL; default: baseline when no API key is set)',
  },
  'judge-model': {
    type: 'string',
    value: 'ID',
    description:
      "also ask this LLM (e.g. openai/gpt-4.1-mini) whether each answer is correct, with OpenPipe's judge prompt: llmJudgeAccuracy, comparable with OpenPipe's published accuracy; its tokens and cost are counted apart (ARTE_JUDGE_MODEL; default: no judge)",
  },
  'agent-url': {
    type: 'string',
    value: 'URL',
    description: 'benchmark your own agent behind HTTP instead of a model: each task is POSTed to URL with an MCP endpoint of its tools (ARTE_AGENT_URL)',
  },
  agent: {
    type: 'string',
    value: 'ID',
    description: 'the ART-E seed\'s agent id: POST {api-url}/agents/ID/run with "agentId": ID in the body (ARTE_AGENT_ID)',
  },
  'api-url': { type: 'string', value: 'URL', description: 'agent API of --agent (API_URL)', default: DEFAULT_AGENT_API_URL },
  workspace: { type: 'string', value: 'ID', description: 'sent as the X-Workspace-Id header to the agent (WORKSPACE_ID)' },
  'agent-timeout-ms': {
    type: 'string',
    value: 'N',
    description: `bound on one POST to the agent (ARTE_AGENT_TIMEOUT_MS); network errors, timeouts, 408, 429 and 5xx are retried ARTE_AGENT_MAX_RETRIES times (default ${DEFAULT_AGENT_MAX_RETRIES})`,
    default: DEFAULT_AGENT_TIMEOUT_MS,
  },
  output: { type: 'string', short: 'o', value: 'FILE', description: 'results JSON (ARTE_OUTPUT)', default: DEFAULT_ARTE_OUTPUT },
  'traces-db': { type: 'string', value: 'FILE', description: 'traces database (ARTE_TRACES_DB)', default: DEFAULT_TRACES_DB },
  concurrency: { type: 'string', value: 'N', description: 'tasks run at once (BENCH_CONCURRENCY)', default: DEFAULT_BENCH_CONCURRENCY },
  'max-turns': { type: 'string', value: 'N', description: 'assistant turns per task (ARTE_MAX_TURNS)', default: DEFAULT_MAX_TURNS },
  trials: {
    type: 'string',
    value: 'K',
    description: 'runs per row, tests named "{id} [trial=j]"; the results get passHatK and per-task trialResults (BENCH_TRIALS)',
    default: 1,
  },
  thresholds: {
    type: 'string',
    value: 'LIST',
    description: 'quality gates, e.g. exactMatchAccuracy>=0.6,avgSemanticScore>=0.5 (ARTE_THRESHOLDS); an unmet one fails the run',
  },
  resume: {
    type: 'boolean',
    description:
      "rerun only the tasks with no finished result (answered or max-turns) in the traces database for the same model, dataset, split, max turns and email database, then write results for the whole set (BENCH_RESUME=1); the judge is no part of that: with --judge-model, a finished task whose stored verdict is missing, erred or is another judge's is judged again, without running the agent",
  },
  parts: {
    type: 'string',
    value: 'N',
    description:
      'spread the rows over N test files (row position modulo N) so --shard=i/N splits rows between machines (ARTE_PARTS; default: one file per 5,000 tests, run one after another)',
  },
  reporter: {
    type: 'string',
    value: 'NAME',
    multiple: true,
    description: 'Vitest reporter (default, verbose, junit, json, blob, github-actions or a path)',
    default: 'default',
  },
  shard: {
    type: 'string',
    value: 'I/N',
    description: 'Vitest --shard (Vitest shards by file); with --reporter=blob the ART-E reporter is left out (it runs when the blobs are merged)',
  },
  'merge-reports': {
    type: 'string',
    value: '[DIR]',
    description: 'merge blob reports instead of running (Vitest --merge-reports)',
    default: '.vitest-reports',
  },
  'test-name-pattern': { type: 'string', short: 't', value: 'RE', description: 'run only rows whose id matches' },
  config: {
    type: 'string',
    value: 'FILE',
    description:
      "Vitest config file, loaded as it is (no project filter then); default: the bench project's ART-E settings, run from dist/ when it is current with src/ (else vitest.config.ts, project bench, from the sources)",
  },
  stats: { type: 'boolean', description: 'print statistics of the selected dataset split and exit' },
} as const satisfies Record<string, OptionSpec>

const usage = commandUsage({
  name: 'arte',
  positionals: { usage: '[-- <vitest filters>]', min: 0, max: Number.POSITIVE_INFINITY },
  description: `Runs the ART-E benchmark (bench/arte, Vitest project "bench") programmatically with Vitest: in a checkout
whose dist/ is current (\`npm run build\`) and in an installed package, over the compiled modules, which Node loads
as they are; in a checkout whose src/ changed since the last build, over the TypeScript sources (it says so).
The ART-E reporter (reporters/arte.ts) and the HTML report (reporters/report.ts, evaluation/report/index.html)
are added to your --reporter list, never replacing it.
Each flag sets the environment variable in parentheses (which you can also set yourself).
--outputFile.<reporter> FILE sets a reporter's output file, e.g. --outputFile.junit=reports/arte.xml.`,
  options: ARTE_OPTIONS,
  epilog: `Examples:
  agent-bench arte                                  # 10 demo questions, offline baseline agent
  agent-bench arte -l 0 --model-id openai/gpt-4.1-mini --thresholds exactMatchAccuracy>=0.6
  agent-bench arte --reporter=default --reporter=junit --outputFile.junit=reports/arte.xml
  agent-bench arte --stats --dataset data/arte-demo-questions.jsonl
  agent-bench arte --agent-url http://127.0.0.1:3000/run    # your agent (examples/mcp-agent.ts)
  agent-bench arte --agent my-agent --workspace ws-1        # POST http://localhost:8787/agents/my-agent/run`,
})

function parse(argv: string[]) {
  return parseDeclared('arte', ARTE_OPTIONS, argv, true)
}

/** The parsed `agent-bench arte` command line. */
export interface ArteCliPlan {
  /** Environment variables the run sets. */
  env: Record<string, string>
  /** Vitest reporters named by the user (the ART-E reporter is added on top). */
  reporters: string[]
  /** `--outputFile.<reporter>` values. */
  outputFile: Record<string, string>
  shard: string | undefined
  /** `--merge-reports`: the blob folder to merge, or undefined to run tests. */
  mergeReports: string | undefined
  testNamePattern: string | undefined
  config: string | undefined
  filters: string[]
  stats: boolean
  useJson: boolean
  /** `--dataset corbt/enron_emails_sample_questions` (not a local file): download the split's parquet file. */
  download: boolean
}

function wholeFlag(flag: string, value: string | undefined, min: number, example: number = Math.max(min, 5)): string | undefined {
  const number = wholeNumberFlag(flag, value, { min, example })
  return number === undefined ? undefined : String(number)
}

/** The agent model id for `--model-provider` / `--model-id`, or undefined to keep the environment's choice. */
export function resolveModelFlag(provider: string | undefined, id: string | undefined): string | undefined {
  if (provider !== undefined && !(PROVIDERS as readonly string[]).includes(provider)) {
    throw new FlagValueError(`Unknown --model-provider ${JSON.stringify(provider)}.`, {
      hint: `Use one of ${PROVIDERS.join(', ')}, or give the full id with --model-id.`,
    })
  }
  if (id !== undefined) {
    if (provider === undefined || BUILT_IN_AGENT_IDS.includes(id) || id.startsWith(`${provider}/`)) return id
    return `${provider}/${id}`
  }
  if (provider === undefined) return undefined
  const fallback = DEFAULT_MODEL_BY_KEY.find(([, model]) => model.startsWith(`${provider}/`))
  return fallback?.[1]
}

/**
 * The file of `--dataset FILE`, absolute. The shipped demo's path (`data/arte-demo-questions.jsonl`, as in `--help`)
 * is the package's copy when the current folder has no such file, as when `--dataset` is left out.
 */
export function datasetFlag(file: string, cwd: string = process.cwd()): string {
  const path = resolve(cwd, file)
  const demo = relative(cwd, path).split(sep).join('/') === DEFAULT_ARTE_DATASET
  return demo ? defaultInput(DEFAULT_ARTE_DATASET, cwd) : path
}

/** Checks `--thresholds`: a value it cannot take is a {@link FlagValueError} (a bad command line, exit 2) naming the flag. */
function thresholdsFlag(value: string | undefined): void {
  if (value === undefined) return
  try {
    parseArteThresholds(value, '--thresholds')
  } catch (error) {
    if (error instanceof ConfigError) throw new FlagValueError(error.problem, { hint: error.hint, cause: error })
    throw error
  }
}

/** Checks a flag that takes an http(s) URL (`--agent-url`, `--api-url`); another value is a {@link FlagValueError}. */
function urlFlag(flag: string, value: string | undefined, example: string): void {
  if (value === undefined || /^https?:\/\/[^/\s]/.test(value.trim())) return
  throw new FlagValueError(`Expected \`${flag}\` to be an http(s) URL, got ${JSON.stringify(value)}.`, { hint: `Pass e.g. ${flag} ${example}.` })
}

/** The external-agent flags go together as documented: one of --agent-url / --agent, no model flags beside them; flags that do not go together are a {@link FlagValueError} (exit 2). */
function assertAgentFlags(values: ReturnType<typeof parse>['values']): void {
  const hint = 'Run `agent-bench arte --help`; docs/your-own-agent.md has the request and reply.'
  if (values['agent-url'] !== undefined && values.agent !== undefined) {
    throw new FlagValueError('`--agent-url` and `--agent` both choose the agent.', { hint: `Pass --agent-url URL, or --agent ID [--api-url URL]. ${hint}` })
  }
  const external = values['agent-url'] !== undefined || values.agent !== undefined
  if (values['api-url'] !== undefined && values.agent === undefined) {
    throw new FlagValueError('`--api-url` needs `--agent`: it is the agent API the agent id is looked up in.', {
      hint: `Pass --agent ID too, or a full --agent-url. ${hint}`,
    })
  }
  if (!external) {
    for (const flag of ['workspace', 'agent-timeout-ms'] as const) {
      if (values[flag] !== undefined)
        throw new FlagValueError(`\`--${flag}\` needs an external agent.`, { hint: `Pass --agent-url URL or --agent ID too. ${hint}` })
    }
  } else if (values['model-id'] !== undefined || values['model-provider'] !== undefined) {
    throw new FlagValueError('`--model-id` / `--model-provider` choose a model for our own tool loop; an external agent runs its own.', {
      hint: `Pass either a model or an agent. ${hint}`,
    })
  }
}

/** Turns the command line into a run plan (writes nothing; only checks whether a `--dataset` file exists). */
export function planArteRun(argv: string[]): ArteCliPlan {
  const outputFile: Record<string, string> = {}
  const rest: string[] = []
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? ''
    if (arg === '--merge-reports' && (argv[i + 1] === undefined || argv[i + 1]?.startsWith('-'))) {
      rest.push('--merge-reports=.vitest-reports')
      continue
    }
    const last = outputFileFlag(argv, i, outputFile, 'reports/arte.xml')
    if (last === undefined) rest.push(arg)
    else i = last
  }
  const { values, positionals } = parse(rest)
  choiceFlag('--split', values.split, ['train', 'test'])
  choiceFlag('--rows', values.rows, ARTE_ROW_SELECTIONS)
  if (values['use-json'] === true && values.dataset !== undefined) {
    throw new FlagValueError('`--use-json` and `--dataset` both choose the dataset.', { hint: 'Pass only one of them.' })
  }
  thresholdsFlag(values.thresholds)
  urlFlag('--agent-url', values['agent-url'], 'http://127.0.0.1:3000/run')
  urlFlag('--api-url', values['api-url'], DEFAULT_AGENT_API_URL)
  assertAgentFlags(values)
  const env: Record<string, string> = {}
  const set = (name: string, value: string | undefined): void => {
    if (value !== undefined) env[name] = value
  }
  const download = values.dataset === ARTE_DATASET_ID && !existsSync(values.dataset)
  set('ARTE_SPLIT', values.split)
  set('ARTE_ROWS', values.rows)
  set('ARTE_LIMIT', wholeFlag('--limit', values.limit, 0))
  set('ARTE_DATASET', values.dataset === undefined || download ? undefined : datasetFlag(values.dataset))
  set('ARTE_DB', values.db === undefined ? undefined : resolve(values.db))
  set('BENCH_AGENT_MODEL', resolveModelFlag(values['model-provider'], values['model-id']))
  set('ARTE_JUDGE_MODEL', values['judge-model'])
  set('ARTE_OUTPUT', values.output === undefined ? undefined : resolve(values.output))
  set('ARTE_TRACES_DB', values['traces-db'] === undefined ? undefined : resolve(values['traces-db']))
  set('BENCH_CONCURRENCY', wholeFlag('--concurrency', values.concurrency, 1))
  set('ARTE_MAX_TURNS', wholeFlag('--max-turns', values['max-turns'], 1))
  set('BENCH_TRIALS', wholeFlag('--trials', values.trials, 1))
  set('ARTE_THRESHOLDS', values.thresholds)
  set('ARTE_AGENT_URL', values['agent-url'])
  set('ARTE_AGENT_ID', values.agent)
  set('API_URL', values['api-url'])
  set('WORKSPACE_ID', values.workspace)
  set('ARTE_AGENT_TIMEOUT_MS', wholeFlag('--agent-timeout-ms', values['agent-timeout-ms'], 1, DEFAULT_AGENT_TIMEOUT_MS))
  set('BENCH_RESUME', values.resume === true ? '1' : undefined)
  set('ARTE_PARTS', values.parts === undefined ? undefined : wholeFlag('--parts', values.parts, 1))
  return {
    env,
    reporters: values.reporter ?? [],
    outputFile,
    shard: values.shard,
    mergeReports: values['merge-reports'],
    testNamePattern: values['test-name-pattern'],
    config: values.config,
    filters: positionals,
    stats: values.stats === true,
    useJson: values['use-json'] === true,
    download,
  }
}

/**
 * How `agent-bench arte` runs the bench (see {@link arteLaunch}):
 * - `config`: `--config FILE`, that Vitest config as it is;
 * - `shipped`: outside the package's own checkout, the package's `bench/arte` file over its compiled modules;
 * - `built`: in the checkout, run compiled (`bin/agent-bench.js`) with `dist/` current: the bench project's ART-E
 *   settings without loading `vitest.config.ts`, the test files importing the `dist/` modules natively;
 * - `sources`: in the checkout otherwise, the `bench` project of `vitest.config.ts` over the TypeScript sources.
 */
export type ArteLaunch = 'config' | 'shipped' | 'built' | 'sources'

/** What {@link arteLaunch} decides from. */
export interface ArteLaunchInputs {
  /** `--config FILE`. */
  config: string | undefined
  /** The command runs outside the package's own checkout (`runsOutsidePackage`). */
  outside: boolean
  /** The command runs compiled, from `dist/` (not from the sources through tsx or Vitest). */
  compiled: boolean
  /** Why the checkout's `dist/` is stale, `undefined` when current (`staleReason`); asked only when it matters. */
  staleReason: () => string | undefined
}

/**
 * How the bench runs ({@link ArteLaunch}), and why `dist/` was not used when the command runs compiled in a checkout
 * whose `dist/` is stale (the bench then runs from the sources, so it never runs code older than them).
 */
export function arteLaunch(inputs: ArteLaunchInputs): { launch: ArteLaunch; stale?: string } {
  if (inputs.config !== undefined) return { launch: 'config' }
  if (inputs.outside) return { launch: 'shipped' }
  if (!inputs.compiled) return { launch: 'sources' }
  const stale = inputs.staleReason()
  return stale === undefined ? { launch: 'built' } : { launch: 'sources', stale }
}

/**
 * The ART-E reporter and the HTML report reporter (`evaluation/report/index.html`, written from the results the ART-E
 * reporter wrote) of a launch: `reporters/*.ts` of a checkout run from its sources, else (and in an installed package,
 * which has no `reporters/`) the package's modules, compiled when the command runs compiled.
 */
function arteReporterFiles(launch: ArteLaunch): { arte: string; report: string } {
  const repo = (name: string): string => fileURLToPath(new URL(`../../../reporters/${name}.ts`, import.meta.url))
  const own = launch === 'built' || launch === 'shipped'
  return {
    arte: !own && existsSync(repo('arte')) ? repo('arte') : packageModule('src/arte/vitest/reporter.ts'),
    report: !own && existsSync(repo('report')) ? repo('report') : packageModule('src/report/report-reporter.ts'),
  }
}

/** Whether the reporter `name` (a path given with `--reporter`) is one of the files of `files` (a `.ts` or `.js` twin). */
function isReporter(name: string, ...files: string[]): boolean {
  if (!name.startsWith('.') && !name.startsWith('/')) return false
  const given = resolve(name).replace(/\.(ts|js|mjs)$/, '')
  return files.some((file) => given === file.replace(/\.(ts|js)$/, ''))
}

/**
 * The reporters to run: the user's (or `default`), plus the ART-E reporter and then the HTML report reporter, once
 * each; not beside `blob` (a shard's partial metrics would overwrite the results JSON: they are computed when the
 * blobs are merged). `launch` picks their files (see {@link arteReporterFiles}).
 */
export function withArteReporter(reporters: ReadonlyArray<string>, launch: ArteLaunch = 'sources'): string[] {
  const { arte, report } = arteReporterFiles(launch)
  const known = [arte, report, ...Object.values(arteReporterFiles(launch === 'built' ? 'sources' : 'built'))]
  const user = reporters.length === 0 ? ['default'] : reporters.filter((name) => !isReporter(name, ...known))
  return user.includes('blob') ? user : [...user, arte, report]
}

/** Vitest shards by file: `--shard i/n` on `bench/arte` needs at least n eval files there. */
async function assertShardable(shard: string, env: Record<string, string | undefined>, shipped: boolean): Promise<void> {
  const count = Number(/^\d+\/(\d+)$/.exec(shard)?.[1] ?? Number.NaN)
  // The installed package shards its one file: sharded parts need a checkout (see shippedArteParts).
  const parts = shipped ? 1 : (arteSettingsFromEnv(env).parts ?? (await automaticArtePartCount(env)))
  const files = shipped || parts > 1 ? parts : fg.sync('bench/arte/**/*.eval.ts', { ignore: [`${ARTE_PARTS_DIR}/**`] }).length
  if (Number.isInteger(count) && files < count) {
    throw new ConfigError(
      `--shard ${shard} needs at least ${count} ART-E test files, and there ${files === 1 ? 'is 1' : `are ${files}`}: Vitest shards by file.`,
      {
        hint: shipped
          ? 'The installed package runs ART-E from one file: run the shards from a clone of vitest-agent-bench with --parts, or split the dataset (ARTE_DATASET) between machines.'
          : `Spread the rows over part files with --parts ${count} (ARTE_PARTS=${count}), or shard the whole bench project with \`npx vitest run --project bench --shard=...\`.`,
      },
    )
  }
}

/**
 * The inputs of an ART-E run that are the package's own because the current folder has none and no setting names
 * another (labels for `packageInputsNote`): the demo questions (`ARTE_DATASET` unset, or `--dataset` naming them) and,
 * with `mailbox`, the demo mailbox the email database is built from (neither `ARTE_DB` nor `ARTE_MAILDIR` set).
 */
export function arteInputsFromPackage(env: Record<string, string | undefined>, cwd: string = process.cwd(), mailbox = true): string[] {
  const settings = arteSettingsFromEnv(env, cwd)
  const fromPackage = (path: string, input: string): boolean => path !== resolve(cwd, input) && path === join(packageRoot, input)
  return [
    ...(fromPackage(settings.dataset, DEFAULT_ARTE_DATASET) ? [DEFAULT_ARTE_DATASET] : []),
    ...(mailbox && settings.db === undefined && settings.maildir === undefined && fromPackage(defaultInput(DEFAULT_ARTE_MAILDIR, cwd), DEFAULT_ARTE_MAILDIR)
      ? [`${DEFAULT_ARTE_MAILDIR}/`]
      : []),
  ]
}

/** Prints, on stderr, the one line naming the inputs a run takes from the package (see {@link arteInputsFromPackage}); nothing when none. */
function reportArteInputs(labels: ReadonlyArray<string>): void {
  const line = packageInputsNote('ART-E', labels)
  if (line !== undefined) console.error(line)
}

/** `--stats`: the dataset's statistics, from the rows a run would take (flags over the environment, as for a run). */
async function printStats(plan: ArteCliPlan): Promise<number> {
  const env = { ...process.env, ...plan.env }
  const split = (env.ARTE_SPLIT ?? 'test') as 'train' | 'test'
  const dataset = env.ARTE_DATASET ?? arteSettingsFromEnv({}).dataset
  reportArteInputs(arteInputsFromPackage({ ARTE_DATASET: dataset }, process.cwd(), false))
  const selection = (env.ARTE_ROWS ?? 'all') as ArteRowSelection
  const rows = await loadArteDataset(dataset, { split, rows: selection })
  console.log(formatArteStatsReport(computeArteStats(rows), { split, rows: selection }))
  return 0
}

/**
 * The local dataset file for `--use-json` (first 100 rows through the rows API) or `--dataset <ARTE_DATASET_ID>`
 * (the split's parquet file), downloaded into the cache on first use and reused after.
 */
async function downloadedDataset(plan: ArteCliPlan): Promise<string> {
  const split = (plan.env.ARTE_SPLIT ?? 'test') as 'train' | 'test'
  const { files } = await ensureArteDataset({ useJson: plan.useJson, split })
  const [file, ...more] = files
  if (file === undefined || more.length > 0) {
    throw new ConfigError(`The ${ARTE_DATASET_ID} download gave ${files.length} files for split ${split}; --dataset takes one.`, {
      hint: `Pass one of them with --dataset (they are in ${DEFAULT_ARTE_CACHE_DIR}).`,
    })
  }
  return file
}

/**
 * The installed package runs its own `bench/arte` file, or automatic part files in a temporary folder (see
 * {@link shippedArteParts}): `ARTE_PARTS` above 1 (parts for sharding, at stable paths) needs a checkout's Vitest
 * config, so it is refused rather than ignored.
 */
function assertNoPartsShipped(env: Record<string, string | undefined>): void {
  const parts = arteSettingsFromEnv(env).parts
  if (parts !== undefined && parts > 1) {
    throw new ConfigError(
      `--parts ${parts} (ARTE_PARTS) needs a checkout of vitest-agent-bench: the installed package spreads a large run over part files by itself (ARTE_TESTS_PER_PART per part) but cannot shard them.`,
      {
        hint: 'Leave --parts out (or set ARTE_PARTS=1), or run from a clone of the repository, whose vitest.config.ts writes the part files.',
      },
    )
  }
}

/** Part files of an installed package's run: in a folder of their own outside the package, removed after the run. */
interface ShippedParts {
  dir: string
  count: number
}

/**
 * The automatic part files of an installed package's run (see `arteTestFiles`), when the selected tests need more
 * than one: written into a new temporary folder (the package folder is not ours to write, and may be shared), so
 * they run one after another in one warm worker as in a checkout. Not with `--shard` (the temporary paths differ
 * between machines, and Vitest shards by path) nor with file filters.
 */
async function shippedArteParts(env: Record<string, string | undefined>): Promise<ShippedParts | undefined> {
  const count = await automaticArtePartCount(env)
  if (count === 1) return undefined
  const dir = mkdtempSync(join(tmpdir(), 'agent-bench-arte-parts-'))
  writeArtePartFiles(dir, count, pathToFileURL(packageModule('src/arte/vitest/define-arte-tests.ts')).href, AUTOMATIC_PARTS_REASON)
  return { dir, count }
}

/**
 * The Vitest options of a run that loads no config file (`shipped` and `built` launches): the package's own
 * `bench/arte` (or the part files of `parts`) with the bench project's settings, the package's compiled modules
 * imported natively by Node (`server.deps.external`), never transformed.
 */
export function builtBenchConfig(launch: 'shipped' | 'built', parts: ShippedParts | undefined, checkoutFiles: ArteTestFiles | undefined) {
  const files =
    parts !== undefined
      ? { dir: parts.dir, include: [`*-of-${parts.count}.eval.ts`], maxWorkers: 1, isolate: false }
      : launch === 'shipped'
        ? { dir: packageRoot, include: ['bench/arte/**/*.eval.ts'] }
        : {
            // As the checkout's bench project (vitest.config.ts): part files when the rows are spread over several.
            dir: packageRoot,
            include: ['bench/arte/**/*.eval.ts', ...(checkoutFiles?.include ?? [])],
            exclude: ['**/node_modules/**', '**/.git/**', ...(checkoutFiles?.exclude ?? [])],
            ...(checkoutFiles?.oneAtATime === true ? { maxWorkers: 1, isolate: false } : {}),
          }
  return {
    config: false as const,
    ...files,
    globalSetup: [packageModule('src/arte/vitest/global-setup.ts')],
    testTimeout: benchTestTimeoutMs(),
    hookTimeout: 600_000,
    maxConcurrency: benchConcurrency(),
    // As the checkout's bench project: worker threads, forks when BENCH_WORKER_SEMI_SPACE_MB sets their young generation.
    pool: benchPool(),
    execArgv: benchWorkerExecArgv(),
    server: { deps: { external: [distExternal()] } },
  }
}

/**
 * Checks, before any task runs, the settings the reporters read only when the run ends (`ARTE_THRESHOLDS`,
 * `BENCH_HISTORY_KEEP`, where the results go): a bad one would otherwise be found after every task ran. Throws a
 * `ConfigError` naming the variable or flag and the fix.
 */
export function assertArteRunSettings(env: Record<string, string | undefined>, outputFile: Readonly<Record<string, string>> = {}, cwd = process.cwd()): void {
  const settings = arteSettingsFromEnv(env, cwd)
  if (settings.thresholds.trim() !== '') {
    const judged = parseArteThresholds(settings.thresholds, 'ARTE_THRESHOLDS').some((threshold) => threshold.metric === 'llmJudgeAccuracy')
    if (judged && settings.judgeModel === undefined) {
      throw new ConfigError('The threshold on llmJudgeAccuracy (ARTE_THRESHOLDS, --thresholds) needs an LLM judge, and none is set.', {
        hint: 'Pass --judge-model ID (or set ARTE_JUDGE_MODEL), or leave llmJudgeAccuracy out of the thresholds.',
      })
    }
  }
  arteHistorySettings(env, cwd)
  const configured = outputFile.arte
  const file = configured === undefined ? settings.output : resolve(cwd, configured)
  const problem = checkWritableFile(file)
  if (problem !== undefined) {
    const setting = configured === undefined ? '--output (or ARTE_OUTPUT)' : '--outputFile.arte'
    throw new ConfigError(`The ART-E results file ${file}, set by ${setting}, cannot be written: ${problem.reason}.`, {
      hint: `Pass another path to ${setting}. ${problem.hint}`,
    })
  }
}

/** `agent-bench arte`: run the ART-E benchmark through Vitest. */
export const command: Command = {
  usage,
  async run(argv) {
    const plan = planArteRun(argv)
    if (plan.useJson || plan.download) plan.env.ARTE_DATASET = await downloadedDataset(plan)
    if (plan.stats) return printStats(plan)

    if (plan.config !== undefined && !existsSync(plan.config)) {
      throw new FlagValueError(`--config ${plan.config} does not exist.`, {
        hint: 'Pass an existing Vitest config file, or leave --config out to run the bench project.',
      })
    }
    const env = applyArteFlags(plan.env)
    assertArteRunSettings(env, plan.outputFile)
    // Merging blob reports reads no input.
    if (plan.mergeReports === undefined) reportArteInputs(arteInputsFromPackage(env))
    const { launch, stale } = arteLaunch({
      config: plan.config,
      outside: plan.config === undefined && runsOutsidePackage(),
      compiled: moduleExtension === '.js',
      staleReason: () => staleReason(packageRoot),
    })
    if (stale !== undefined) {
      console.error(`agent-bench: dist/ is not current (${stale}): the bench runs from the TypeScript sources; \`npm run build\` makes it start faster.`)
    }
    const shipped = launch === 'shipped'
    if (shipped) assertNoPartsShipped(env)
    if (plan.shard !== undefined && plan.config === undefined && plan.filters.length === 0) await assertShardable(plan.shard, env, shipped)
    leanNativeMemory()
    // This command runs ART-E only: the MPCBench globalSetup of the bench project prepares nothing (no generation).
    runOnlyBench('arte')
    const { startVitest } = await import('vitest/node')
    const outputFile = Object.keys(plan.outputFile).length === 0 ? {} : { outputFile: plan.outputFile }
    const before = process.exitCode
    process.exitCode = undefined
    const interrupt = stopOnInterrupt()
    const parts = shipped && plan.shard === undefined && plan.mergeReports === undefined && plan.filters.length === 0 ? await shippedArteParts(env) : undefined
    // The checkout's part files (ARTE_PARTS, or automatic ones for a large run), written as vitest.config.ts writes them.
    const checkoutFiles = launch === 'built' ? await arteTestFiles(packageRoot, env) : undefined
    // In a checkout, part files are written under bench/arte (see arte-parts.ts): the same filter finds them.
    const filters = plan.filters.length > 0 ? plan.filters : parts === undefined ? ['bench/arte'] : [parts.dir]
    const runConfig =
      launch === 'shipped' || launch === 'built'
        ? builtBenchConfig(launch, parts, checkoutFiles)
        : launch === 'config'
          ? { config: resolve(plan.config as string) }
          : { project: ['bench'] }
    try {
      const vitest = await startVitest(
        'test',
        filters,
        {
          run: true,
          watch: false,
          ...runConfig,
          reporters: [interrupt.reporter, ...withArteReporter(plan.reporters, launch)],
          ...outputFile,
          ...(plan.shard === undefined ? {} : { shard: plan.shard }),
          ...(plan.mergeReports === undefined ? {} : { mergeReports: resolve(plan.mergeReports) }),
          ...(plan.testNamePattern === undefined ? {} : { testNamePattern: plan.testNamePattern }),
          ...(plan.env.BENCH_CONCURRENCY === undefined ? {} : { maxConcurrency: Number(plan.env.BENCH_CONCURRENCY) }),
        },
        launch === 'shipped' || launch === 'built' ? { plugins: [shippedSourcesPlugin(packageRoot, launch === 'built')] } : {},
      )
      await vitest.close()
    } finally {
      if (parts !== undefined) rmSync(parts.dir, { recursive: true, force: true })
    }
    interrupt.dispose()
    const signal = interrupt.signal()
    const code = signal === undefined ? Number(process.exitCode ?? 0) : 128 + (signal === 'SIGINT' ? 2 : 15)
    process.exitCode = before
    return code
  },
}
