/**
 * `npm run docs:settings`: writes docs/settings.md, the reference of every environment variable, from the zod settings
 * schemas (names, defaults, choices) and the one-line descriptions below. `--check` exits 1 when the file is stale.
 * `scripts/settings-doc.test.ts` fails when a variable a schema reads has no description or is missing from the page.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import type { z } from 'zod'
import { ArteEnvSchema, DEFAULT_ARTE_DATASET, DEFAULT_ARTE_DB, DEFAULT_ARTE_MAILDIR } from '../src/arte/settings.ts'
import { BenchTestTimeoutEnvSchema } from '../src/core/bench-test-timeout.ts'
import { EnvSettingsSchema } from '../src/llm/default-model.ts'
import { EvalEnvSchema } from '../src/eval/eval-settings.ts'
import { MpcbenchEnvSchema } from '../src/mpcbench/settings.ts'
import { MpcbenchV2EnvSchema } from '../src/mpcbench-v2/settings.ts'
import { DEFAULT_REPORT_FILE, DEFAULT_REPORT_TRACES_MB, ReportEnvSchema } from '../src/report/report-settings.ts'
import { TestTimeScaleEnvSchema } from '../src/testing/time-scale.ts'

/** docs/settings.md, relative to the repository root. */
export const SETTINGS_DOC = 'docs/settings.md'

/** A settings schema: one zod object whose keys are the variables it reads. */
export interface SchemaSection {
  title: string
  /** The module that parses it. */
  source: string
  schema: z.ZodObject
}

/** The settings schemas, in the order of the page. */
export const SCHEMA_SECTIONS: SchemaSection[] = [
  { title: 'ART-E', source: 'src/arte/settings.ts (`ArteEnvSchema`)', schema: ArteEnvSchema },
  { title: 'MPCBench', source: 'src/mpcbench/settings.ts (`MpcbenchEnvSchema`)', schema: MpcbenchEnvSchema },
  { title: 'Your own evals (describeEval)', source: 'src/eval/eval-settings.ts (`EvalEnvSchema`)', schema: EvalEnvSchema },
  { title: 'MPCBench v2', source: 'src/mpcbench-v2/settings.ts (`MpcbenchV2EnvSchema`)', schema: MpcbenchV2EnvSchema },
  { title: 'Model client (both benchmarks)', source: 'src/llm/default-model.ts (`EnvSettingsSchema`)', schema: EnvSettingsSchema },
  { title: 'Report', source: 'src/report/report-settings.ts (`ReportEnvSchema`)', schema: ReportEnvSchema },
  { title: 'Bench project test timeout', source: 'src/core/bench-test-timeout.ts (`BenchTestTimeoutEnvSchema`)', schema: BenchTestTimeoutEnvSchema },
  {
    title: "The repository's own tests (not read by the package)",
    source: 'src/testing/time-scale.ts (`TestTimeScaleEnvSchema`)',
    schema: TestTimeScaleEnvSchema,
  },
]

/** What each schema variable does, one line (the default and the choices come from the schema). */
export const DESCRIPTIONS: Record<string, string> = {
  ARTE_DATASET: 'ART-E questions: a `.jsonl`, `.json`, `.csv` or `.parquet` file (`--dataset`); the default is the shipped demo questions.',
  ARTE_SPLIT: 'Which split of the dataset runs (`--split`).',
  ARTE_ROWS: "Which rows of the split run before `ARTE_LIMIT` (`--rows`): all, or the rows OpenPipe's evaluations keep.",
  ARTE_LIMIT: 'Rows to run (`--limit`); 0 = all.',
  ARTE_DB: 'The SQLite email database (`--db`), built from `ARTE_MAILDIR` when it does not exist.',
  ARTE_MAILDIR: 'The maildir the email database is built from when it does not exist; the default is the shipped fictional demo mailbox.',
  ARTE_OUTPUT: 'The ART-E results JSON (`--output`, `--outputFile.arte`).',
  ARTE_TRACES_DB: 'The SQLite database of agent traces (`--traces-db`).',
  BENCH_CONCURRENCY: 'Tasks (tests of a bench file) run at once (`--concurrency`).',
  ARTE_MAX_TURNS: 'Assistant turns per ART-E task.',
  ARTE_THRESHOLDS:
    'Quality gates, e.g. `exactMatchAccuracy>=0.6,failedTasks<=2` (`--thresholds`): a threshold not met fails the run (exit 1, the JUnit testcase `ART-E > thresholds`, the job summary and the report say so).',
  ARTE_JUDGE_MODEL: "An LLM that judges each answer after the task, OpenPipe's way (`--judge-model`, `llmJudgeAccuracy`); unset: no judge.",
  ARTE_READ_MAX_CHARS: 'Characters of an email body that `read_email` returns; the rest is cut with a marker.',
  ARTE_TOOL_TIMEOUT_MS: "Milliseconds one email tool call may run on the store's worker thread; 0 reads on the test's thread without a budget.",
  BENCH_TRIALS: 'Runs per task (pass^k); with more than 1, tests are named `... [trial=j]`.',
  ARTE_PARTS: 'Spread the ART-E rows over this many test files, so `--shard` splits them (`--parts`); unset: one part per `ARTE_TESTS_PER_PART` tests.',
  ARTE_TESTS_PER_PART: 'Tests (rows x trials) per part file when `ARTE_PARTS` is unset.',
  BENCH_RESUME:
    'Rerun only the tasks without a finished result (answered or max-turns) for the same configuration (`--resume`); a task that errored runs again.',
  BENCH_HEAP_GROWING_PERCENT: "V8 heap growing percent of the process running the ART-E tests; 0 leaves V8's default.",
  BENCH_WORKER_SEMI_SPACE_MB: "V8 young generation (MB) of the bench project's test workers; above 0 runs them as forked processes.",
  MPCBENCH_TOOLS: 'The MPCBench tool profile (`--tools`).',
  MPCBENCH_PROMPT_CONFIG: "The prompt config file (`--prompt-config`); the default is the project root's, else the package's.",
  MPCBENCH_MODEL_CONFIG: "The model config file (`--model-config`); the default is the project root's, else the package's.",
  MPCBENCH_LLM_CONTEXT: "A folder of `llm_context/*.md` files for the agent's developer message (`--llm-context`).",
  MPCBENCH_MAX_TURNS: 'The MPCBench agent turn cap (`--max-turns`).',
  MPCBENCH_AGENT_URL: 'An external agent under test, POSTed `{taskId, userPrompt, tools: {mcpUrl}}` per task (`--agent-url`).',
  MPCBENCH_AGENT_TIMEOUT_MS: 'Bound on one POST to the external agent (`--agent-timeout-ms`).',
  MPCBENCH_AGENT_MAX_RETRIES: 'Retries of a POST to the external agent that failed with a network error, a timeout, 408, 429 or 5xx.',
  EVAL_OUTPUT_DIR: 'Where the eval reporter writes `{eval name}/results.json` (relative to the folder Vitest runs in).',
  MPCBENCH_V2_DATA_DIR:
    "The folder of upstream's v2 `world_level<N>_*.json`, `instances_level<N>_*.jsonl` and `oracle_level<N>_*.jsonl` files; the default is `../shared` beside a checkout.",
  MPCBENCH_V2_SUFFIX: 'The file name suffix of the level files in that folder (`world_level1_exp1.json`).',
  MPCBENCH_V2_WORLD: "One level's world file (`--world`); set with `MPCBENCH_V2_INSTANCES` and `MPCBENCH_V2_ORACLE`.",
  MPCBENCH_V2_INSTANCES: "That level's instances file (`--instances`).",
  MPCBENCH_V2_ORACLE: "That level's oracle file (`--oracle`).",
  MPCBENCH_V2_IDS: 'Only these instance ids, comma-separated (`--ids`).',
  MPCBENCH_V2_MODEL: "The v2 agent model (`--model`); `baseline` (non-LLM) answers level 1 only. Default: `BENCH_AGENT_MODEL`, a key's model, else `baseline`.",
  MPCBENCH_V2_OUTPUT: "Also write the rows, one per instance in upstream's format, to this `.jsonl` file (`--output`).",
  MPCBENCH_V2_MAX_TURNS: 'Model requests per instance (`--max-turns`; upstream: 15).',
  BENCH_CACHE: 'The response cache: `off`, `read-write` (record and replay) or `replay` (replay only, a miss is an error).',
  BENCH_CACHE_DIR: 'Where the response cache keeps its cassettes.',
  BENCH_LLM_LOG_DIR: 'The JSONL log of every model call (`agent-bench calls`); `off` logs nothing.',
  BENCH_LLM_LOG_KEEP: 'Call log files kept in that folder across runs, the oldest removed first; 0 keeps all.',
  BENCH_LLM_TIMEOUT_MS: 'Milliseconds one model call may take (each call also ends before the test timeout).',
  BENCH_LLM_MAX_RETRIES: 'Retries of a model call (429, 5xx, timeouts, dropped connections).',
  BENCH_PRICES_FILE: 'A JSON price table merged over the default prices.',
  BENCH_REPORT: 'Where the HTML report goes, or `off` for none.',
  BENCH_REPORT_TRACES_MB: "Megabytes of ART-E traces the report page holds (failed tasks' first); 0 holds none.",
  GITHUB_STEP_SUMMARY: "The GitHub Actions job summary file (set by the runner): the report reporter appends the run's Markdown summary to it.",
  BENCH_TEST_TIMEOUT_MS:
    'Milliseconds one bench test (an ART-E task, an MPCBench agent run and its judges) may run; 0 = no limit; `--test-timeout` overrides it.',
  BENCH_TEST_TIME_SCALE:
    "Multiplies the timeouts of the repository's own unit and package tests, written for an idle machine (see [contributing.md](contributing.md)); raise it on a busy machine.",
}

/**
 * Defaults that the code applies to a variable its schema leaves optional (the schema cannot say them), keyed by
 * `{section title}:{variable}`.
 */
export const APPLIED_DEFAULTS: Record<string, string> = {
  'ART-E:ARTE_DATASET': `\`${DEFAULT_ARTE_DATASET}\``,
  'ART-E:ARTE_DB': `\`${DEFAULT_ARTE_DB}\` (built from the demo mailbox)`,
  'ART-E:ARTE_MAILDIR': `\`${DEFAULT_ARTE_MAILDIR}\``,
  'MPCBench:MPCBENCH_PROMPT_CONFIG': '`prompt_config.json`',
  'MPCBench:MPCBENCH_MODEL_CONFIG': '`model_config.json`',
  'MPCBench:BENCH_CONCURRENCY': "the Vitest config's `maxConcurrency` (5 in the bench project)",
  'Report:BENCH_REPORT': `\`${DEFAULT_REPORT_FILE}\``,
  'Report:BENCH_REPORT_TRACES_MB': `\`${DEFAULT_REPORT_TRACES_MB}\``,
}

/** A variable read outside the schemas above (ids, keys, paths read where they are used). */
export interface OtherVariable {
  name: string
  /** Where it is read. */
  source: string
  default: string
  description: string
}

/** The other variables, in the order of the page. */
export const OTHER_VARIABLES: OtherVariable[] = [
  {
    name: 'BENCH_AGENT_MODEL',
    source: 'src/llm/default-model.ts',
    default: 'from the API key set, else `baseline`',
    description: 'The agent model id(s), e.g. `openai/gpt-4.1-mini`, `baseline` (non-LLM), comma-separated for MPCBench (`--agent-model`).',
  },
  {
    name: 'BENCH_JUDGE_MODEL',
    source: 'src/mpcbench/run/run-task-models.ts',
    default: "`model_config.json`'s judges",
    description: 'MPCBench judge model(s), or `rules` (offline), comma-separated (`--judge-model`).',
  },
  {
    name: 'OPENAI_API_KEY, ANTHROPIC_API_KEY, GEMINI_API_KEY',
    source: 'src/llm/providers.ts',
    default: 'unset',
    description: 'Provider API keys (never written to any file: redacted).',
  },
  {
    name: 'OPENAI_BASE_URL',
    source: 'src/llm/providers.ts',
    default: 'unset',
    description: 'An OpenAI-compatible server (Ollama, vLLM, ...); needs `BENCH_AGENT_MODEL`.',
  },
  {
    name: 'BENCH_ONLY',
    source: 'src/core/bench-only.ts',
    default: 'all',
    description: 'The benchmarks a run is for, comma-separated (`arte`, `mpcbench`); the globalSetup of one left out prepares nothing.',
  },
  {
    name: 'BENCH_HISTORY_DIR',
    source: 'src/core/run-history.ts',
    default: '`evaluation/history`',
    description: "Where each run's results are kept, for the report's comparison and `agent-bench compare`.",
  },
  { name: 'BENCH_HISTORY_KEEP', source: 'src/core/run-history.ts', default: '`20`', description: 'Runs kept in `BENCH_HISTORY_DIR`; 0 keeps none.' },
  {
    name: 'ARTE_AGENT_URL',
    source: 'src/arte/settings.ts (`arteAgentSettings`)',
    default: 'unset',
    description: 'Run your own ART-E agent behind HTTP: each task is POSTed there (`--agent-url`).',
  },
  {
    name: 'ARTE_AGENT_ID, API_URL, WORKSPACE_ID',
    source: 'src/arte/settings.ts (`arteAgentSettings`)',
    default: '`API_URL` = `http://localhost:8787`',
    description:
      'An agent of an agent API: tasks are POSTed to `{API_URL}/agents/{ID}/run`, `WORKSPACE_ID` as the `X-Workspace-Id` header (`--agent`, `--api-url`, `--workspace`).',
  },
  {
    name: 'ARTE_AGENT_TIMEOUT_MS',
    source: 'src/arte/settings.ts (`arteAgentSettings`)',
    default: 'as `MPCBENCH_AGENT_TIMEOUT_MS`',
    description: 'Bound on one POST to the ART-E external agent (`--agent-timeout-ms`).',
  },
  {
    name: 'ARTE_AGENT_MAX_RETRIES',
    source: 'src/arte/settings.ts (`arteAgentSettings`)',
    default: 'as `MPCBENCH_AGENT_MAX_RETRIES`',
    description: 'Retries of a POST to the ART-E external agent.',
  },
  {
    name: 'MPCBENCH_V2_SUMMARY',
    source: 'src/mpcbench-v2/vitest/reporter.ts',
    default: '`evaluation/mpcbench-v2/summary.json`',
    description: 'The MPCBench v2 summary (`--summary`); the per-level rows files go beside it.',
  },
  {
    name: 'BENCH_TRACE_URL',
    source: 'src/report/mpcbench-v2-section.ts',
    default: 'unset',
    description:
      "A trace viewer's address of one trace (`{traceId}` stands for the id, else it is appended): the report links each MPCBench v2 instance's trace id there.",
  },
  {
    name: 'OTEL_EXPORTER_OTLP_ENDPOINT, OTEL_EXPORTER_OTLP_TRACES_ENDPOINT, OTEL_EXPORTER_OTLP_PROTOCOL, OTEL_EXPORTER_OTLP_HEADERS, OTEL_SERVICE_NAME, OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT',
    source: 'src/otel/otel-settings.ts',
    default: 'unset (tracing off)',
    description: 'OpenTelemetry export of every task, model call and tool call, by the standard variables ([tracing.md](tracing.md)).',
  },
  {
    name: 'MPCBENCH_LOG_DIR',
    source: 'src/mpcbench/settings.ts',
    default: '`evaluation/logs`',
    description: 'MPCBench run logs, judge inputs and judge results (`--log-dir`).',
  },
  {
    name: 'MPCBENCH_SCENARIOS',
    source: 'src/mpcbench/settings.ts',
    default: 'all',
    description: 'Scenario ids (comma-separated) whose data the globalSetup prepares.',
  },
  {
    name: 'MPCBENCH_GENERATOR',
    source: 'src/mpcbench/settings.ts',
    default: '`procedural`',
    description: 'How the globalSetup generates scenario data: `procedural` (seeded, offline) or `llm`.',
  },
  { name: 'MPCBENCH_SCENARIOS_DIR', source: 'src/mpcbench/settings.ts', default: '`scenarios`', description: 'The folder of `{scenario_id}.json` files.' },
  { name: 'MPCBENCH_DATA_DIR', source: 'src/mpcbench/settings.ts', default: '`data`', description: "The folder of the scenarios' generated data." },
]

/** Every variable a settings schema reads. */
export function schemaVariables(): string[] {
  return SCHEMA_SECTIONS.flatMap((section) => Object.keys(section.schema.shape))
}

interface Def {
  type: string
  innerType?: { _zod: { def: Def } }
  in?: { _zod: { def: Def } }
  out?: { _zod: { def: Def } }
  entries?: Record<string, string>
}

/** The choices of an enum inside `schema` (through defaults, optionals and pipes), or undefined. */
function choices(schema: { _zod: { def: Def } }): string[] | undefined {
  const def = schema._zod.def
  if (def.type === 'enum' && def.entries !== undefined) return Object.values(def.entries)
  for (const inner of [def.innerType, def.in, def.out]) {
    const found = inner === undefined ? undefined : choices(inner)
    if (found !== undefined) return found
  }
  return undefined
}

/** The default of a variable as its schema gives it when unset, for the page. */
function defaultText(schema: z.ZodType): string {
  const parsed = schema.safeParse(undefined)
  if (!parsed.success || parsed.data === undefined) return 'unset'
  if (parsed.data === false) return '`0` (off)'
  if (parsed.data === '') return '(empty)'
  return `\`${String(parsed.data)}\``
}

const cell = (text: string): string => text.replace(/\|/g, '\\|')

/** docs/settings.md as the schemas and descriptions give it; throws naming a schema variable without a description. */
export function settingsDoc(): string {
  const missing = schemaVariables().filter((name) => DESCRIPTIONS[name] === undefined)
  if (missing.length > 0) throw new Error(`No description for ${missing.join(', ')} in scripts/settings-doc.ts DESCRIPTIONS: add one line each.`)
  const lines = [
    '# Settings',
    '',
    '<!-- Generated by `npm run docs:settings` (scripts/settings-doc.ts) from the zod settings schemas; do not edit by hand. -->',
    '',
    'Every setting is an environment variable (unset or blank = the default). The `agent-bench` flags named in',
    'parentheses set the same variables for the run they start, so tests, reporters and commands read one source. A bad',
    'value is an error that names the variable and the fix, before any task runs.',
    '',
  ]
  for (const section of SCHEMA_SECTIONS) {
    lines.push(`## ${section.title}`, '', `Read by ${section.source}.`, '', '| variable | default | values | what |', '|---|---|---|---|')
    for (const [name, schema] of Object.entries(section.schema.shape) as Array<[string, z.ZodType]>) {
      const values = choices(schema as unknown as { _zod: { def: Def } })
      lines.push(
        `| \`${name}\` | ${cell(APPLIED_DEFAULTS[`${section.title}:${name}`] ?? defaultText(schema))} | ${values === undefined ? '' : cell(values.map((value) => `\`${value}\``).join(', '))} | ${cell(DESCRIPTIONS[name] ?? '')} |`,
      )
    }
    lines.push('')
  }
  lines.push(
    '## Other variables',
    '',
    'Read where they are used, without a settings schema.',
    '',
    '| variable | default | what | read by |',
    '|---|---|---|---|',
  )
  for (const variable of OTHER_VARIABLES) {
    const names = variable.name
      .split(', ')
      .map((name) => `\`${name}\``)
      .join(', ')
    lines.push(`| ${names} | ${cell(variable.default)} | ${cell(variable.description)} | ${variable.source} |`)
  }
  lines.push('')
  return lines.join('\n')
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  const file = fileURLToPath(new URL(`../${SETTINGS_DOC}`, import.meta.url))
  const doc = settingsDoc()
  if (process.argv.includes('--check')) {
    let current = ''
    try {
      current = readFileSync(file, 'utf8')
    } catch {
      // Missing: stale.
    }
    if (current !== doc) {
      console.error(`${SETTINGS_DOC} is stale: run \`npm run docs:settings\`.`)
      process.exitCode = 1
    }
  } else {
    writeFileSync(file, doc)
    console.log(`Wrote ${SETTINGS_DOC}.`)
  }
}
