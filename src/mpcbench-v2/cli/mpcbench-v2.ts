import { existsSync } from 'node:fs'
import { resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { runOnlyBench } from '../../core/bench-only.ts'
import { benchTestTimeoutMs } from '../../core/bench-test-timeout.ts'
import { packageModule, packageRoot, runsOutsidePackage, shippedSourcesPlugin } from '../../core/package-root.ts'
import { defineCommand } from '../../cli/define-command.ts'
import { FlagValueError } from '../../cli/flag-value-error.ts'
import { wholeNumberFlag } from '../../cli/flags.ts'
import { stopOnInterrupt } from '../../cli/stop-on-interrupt.ts'
import { loadWorld } from '../data/load-data.ts'

const REPO_REPORTER = fileURLToPath(new URL('../../../reporters/mpcbench-v2.ts', import.meta.url))
/** `reporters/mpcbench-v2.ts` in a checkout; in an installed package, the compiled reporter module. */
const REPORTER = existsSync(REPO_REPORTER) ? REPO_REPORTER : packageModule('src/mpcbench-v2/vitest/reporter.ts')

/** The environment a command line gives the run (each flag's variable), after checking the flags. */
export function mpcbenchV2Env(values: Record<string, string | string[] | boolean | undefined>, cwd = process.cwd()): Record<string, string> {
  const env: Record<string, string> = {}
  for (const [flag, variable] of [
    ['world', 'MPCBENCH_V2_WORLD'],
    ['instances', 'MPCBENCH_V2_INSTANCES'],
    ['oracle', 'MPCBENCH_V2_ORACLE'],
  ] as const) {
    const file = resolve(cwd, String(values[flag]))
    if (!existsSync(file))
      throw new FlagValueError(`--${flag} ${values[flag]} does not exist.`, {
        hint: `Pass the path of upstream's ${flag} file (e.g. generate/output/${flag === 'world' ? 'world_level1_exp1.json' : `${flag}_level1_exp1.jsonl`}).`,
      })
    env[variable] = file
  }
  if (typeof values.ids === 'string') env.MPCBENCH_V2_IDS = values.ids
  if (typeof values.model === 'string') env.MPCBENCH_V2_MODEL = values.model
  if (typeof values.output === 'string') env.MPCBENCH_V2_OUTPUT = resolve(cwd, values.output)
  if (typeof values.summary === 'string') env.MPCBENCH_V2_SUMMARY = resolve(cwd, values.summary)
  const trials = wholeNumberFlag('--trials', typeof values.trials === 'string' ? values.trials : undefined, { min: 1, example: 3 })
  if (trials !== undefined) env.BENCH_TRIALS = String(trials)
  const turns = wholeNumberFlag('--max-turns', typeof values['max-turns'] === 'string' ? values['max-turns'] : undefined, { min: 1, example: 15 })
  if (turns !== undefined) env.MPCBENCH_V2_MAX_TURNS = String(turns)
  return env
}

/** `agent-bench mpcbench-v2`: runs one level's instances through Vitest and writes upstream's results rows. */
export const command = defineCommand({
  name: 'mpcbench-v2',
  summary: "Run MPCBench v2 (upstream e398410 scheduling levels 1-3) through Vitest; rows in upstream's results format",
  description: `Runs the instances of one MPCBench v2 level (bench/mpcbench-v2/level<N>.eval.ts, the level of --world) with
upstream's harness (prompts, 11 tools, 15 requests, temperature 0, answer parser) and scores them with upstream's
metrics (precision, recall, F1, exact match). The MPCBench v2 reporter prints Avg F1 and EM rate with 95% intervals
and writes evaluation/mpcbench-v2/ (eval_L<N>_<suffix>_<model>.jsonl and summary.json).
Each flag sets the environment variable in parentheses. The model and OPENAI_BASE_URL are chosen as for our other runs.`,
  options: {
    world: { type: 'string', value: 'FILE', description: 'world_level<N>_*.json (MPCBENCH_V2_WORLD)', required: true },
    instances: { type: 'string', value: 'FILE', description: 'instances_level<N>_*.jsonl (MPCBENCH_V2_INSTANCES)', required: true },
    oracle: { type: 'string', value: 'FILE', description: 'oracle_level<N>_*.jsonl (MPCBENCH_V2_ORACLE)', required: true },
    ids: { type: 'string', value: 'ID,ID', description: 'run only these instances (MPCBENCH_V2_IDS)' },
    model: {
      type: 'string',
      value: 'M',
      description: "agent model, e.g. openai/gpt-4o, or baseline (level 1 only) (MPCBENCH_V2_MODEL; default: BENCH_AGENT_MODEL, a key's model, else baseline)",
    },
    output: {
      type: 'string',
      short: 'o',
      value: 'FILE.jsonl',
      description: "also write the rows here, one per instance in upstream's format (MPCBENCH_V2_OUTPUT)",
    },
    summary: {
      type: 'string',
      value: 'FILE',
      description: 'the summary JSON; the per-level rows files go beside it (MPCBENCH_V2_SUMMARY)',
      default: 'evaluation/mpcbench-v2/summary.json',
    },
    trials: { type: 'string', value: 'K', description: 'runs per instance; the summary gets pass^k (BENCH_TRIALS)', default: 1 },
    'max-turns': { type: 'string', value: 'N', description: 'model requests per instance (MPCBENCH_V2_MAX_TURNS)', default: 15 },
    reporter: {
      type: 'string',
      value: 'NAME',
      multiple: true,
      description: 'Vitest reporter (default, verbose, junit, json or a path); the MPCBench v2 reporter is added',
      default: 'default',
    },
  },
  epilog: `Examples:
  agent-bench mpcbench-v2 --world world_level1_exp1.json --instances instances_level1_exp1.jsonl --oracle oracle_level1_exp1.jsonl
  agent-bench mpcbench-v2 --world world_level3_exp1.json --instances instances_level3_exp1.jsonl --oracle oracle_level3_exp1.jsonl \\
    --model openai/gpt-4o --ids instance_level3_exp1_000 --output eval_L3.jsonl`,
  async run({ values }) {
    const env = mpcbenchV2Env(values)
    const level = loadWorld(env.MPCBENCH_V2_WORLD as string).level
    Object.assign(process.env, env)
    runOnlyBench('mpcbench-v2')
    const file = `bench/mpcbench-v2/level${level}.eval.ts`
    const shipped = runsOutsidePackage()
    const { startVitest } = await import('vitest/node')
    const reporters = [...(values.reporter ?? ['default']).filter((name) => name !== REPORTER), REPORTER]
    const before = process.exitCode
    process.exitCode = undefined
    const interrupt = stopOnInterrupt()
    const vitest = await startVitest(
      'test',
      shipped ? [] : [file],
      {
        run: true,
        watch: false,
        ...(shipped
          ? { config: false as const, dir: packageRoot, include: [file], testTimeout: benchTestTimeoutMs(), hookTimeout: 600_000 }
          : { project: ['bench'] }),
        reporters: [interrupt.reporter, ...reporters],
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
})
