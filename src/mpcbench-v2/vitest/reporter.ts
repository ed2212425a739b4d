import { dirname, join, resolve } from 'node:path'
import type { Reporter, TestModule, TestSpecification, Vitest } from 'vitest/node'
import { writeFileAtomic } from '../../core/atomic-write.ts'
import { reporterOutputFile, stdoutHoldsReport } from '../../core/reporter-output-file.ts'
import { historyRunId, historySettingsFromEnv } from '../../core/run-history.ts'
import { recordRunOutput } from '../../core/run-outputs.ts'
import { describeError, writeRunOutput } from '../../core/write-run-output.ts'
import { type ResultsRow, formatResultsRow } from '../scoring/results-row.ts'
import { type LevelRows, type LevelSummary, MPCBENCH_V2_HISTORY_NAME, type MpcbenchV2Summary, formatSummaryLines, summarizeLevel } from '../scoring/summary.ts'
import type { MpcbenchV2TestMeta } from './test-meta.ts'
import './test-meta.ts'

/** Where the summary goes unless configured otherwise, relative to the Vitest root. */
export const DEFAULT_SUMMARY_FILE = 'evaluation/mpcbench-v2/summary.json'

/** Options of {@link MpcbenchV2Reporter}. */
export interface MpcbenchV2ReporterOptions {
  /**
   * Where the summary JSON is written, relative to the Vitest root; the results rows go beside it, one file per level,
   * data and model (and trial after the first) named as upstream names its files
   * (`eval_L1_exp1_gpt-4o.jsonl`, `eval_L1_exp1_gpt-4o_trial2.jsonl`). `false` writes nothing.
   * @default Vitest's `outputFile['mpcbench-v2']`, else MPCBENCH_V2_SUMMARY, else 'evaluation/mpcbench-v2/summary.json'
   */
  outputFile?: string | false
  /**
   * Also write the trial-1 rows of the run to this file (the `mpcbench-v2` command's `--output`); for a run of one
   * level and model.
   * @default MPCBENCH_V2_OUTPUT, else none
   */
  rowsFile?: string
  /**
   * Print one line per level and model (Avg F1 and EM rate with 95% intervals) at the end of the run.
   * @default true
   */
  print?: boolean
  /**
   * Keep a copy of the summary under `evaluation/history/{run id}/mpcbench-v2/summary.json` (for the report's
   * comparison with the previous run and `agent-bench compare --benchmark mpcbench-v2`); `false` keeps none.
   * @default true, with the folder and cap from BENCH_HISTORY_DIR / BENCH_HISTORY_KEEP (20)
   */
  history?: boolean
}

/** The kind the summary is recorded under for the HTML report of the same run (`takeRunOutput`). */
export const MPCBENCH_V2_RUN_OUTPUT = 'mpcbench-v2-summary'

/** The file name part of a model id, as upstream's `run_eval.py` writes it (`/` and `:` become `_`). */
export function safeModelName(model: string): string {
  return model.replaceAll('/', '_').replaceAll(':', '_')
}

/** The data suffix of a world id (`world_level1_exp1` -> `exp1`). */
function suffixOf(worldId: string): string {
  return /^world_level\d_(.+)$/.exec(worldId)?.[1] ?? worldId
}

/**
 * The MPCBench v2 reporter (`--reporter=./reporters/mpcbench-v2.ts`): at the end of the run it reads every test's
 * `mpcbenchV2` meta and writes upstream's results rows per level, data and model, and a summary with upstream's two
 * numbers (Avg F1, EM rate) and their intervals, the trial count and pass^k. Tests without that meta are ignored.
 */
export default class MpcbenchV2Reporter implements Reporter {
  private readonly options: MpcbenchV2ReporterOptions
  private vitest: Vitest | undefined
  private run: object | undefined
  /** Every summary this reporter wrote in its last run (for tests and callers). */
  summaries: LevelSummary[] = []
  /** The summary file written in the last run, when one was. */
  summaryFile: string | undefined

  constructor(options: MpcbenchV2ReporterOptions = {}) {
    this.options = options
  }

  onInit(vitest: Vitest): void {
    this.vitest = vitest
    // Checked now: a bad BENCH_HISTORY_KEEP stops the run before any instance runs.
    if (this.options.history !== false) historySettingsFromEnv(process.env, vitest.config.root)
  }

  onTestRunStart(specifications: ReadonlyArray<TestSpecification>): void {
    this.run = specifications
  }

  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    this.summaryFile = undefined
    const metas: MpcbenchV2TestMeta[] = []
    for (const testModule of testModules) {
      for (const testCase of testModule.children.allTests()) {
        const meta = testCase.meta().mpcbenchV2
        if (meta !== undefined) metas.push(meta)
      }
    }
    if (metas.length === 0) return
    const groups = new Map<
      string,
      Omit<LevelRows, 'trials' | 'traceIds'> & { trials: Map<string, Array<ResultsRow | undefined>>; traceIds: Map<string, Array<string | undefined>> }
    >()
    for (const meta of metas) {
      const key = JSON.stringify([meta.level, meta.worldId, meta.model])
      let group = groups.get(key)
      if (group === undefined) {
        group = { level: meta.level, worldId: meta.worldId, model: meta.model, modelKind: meta.modelKind, trials: new Map(), traceIds: new Map() }
        groups.set(key, group)
      }
      const rows = group.trials.get(meta.instanceId) ?? []
      rows[meta.trial - 1] = meta.row
      group.trials.set(meta.instanceId, rows)
      if (meta.otelTraceId !== undefined) {
        const ids = group.traceIds.get(meta.instanceId) ?? []
        ids[meta.trial - 1] = meta.otelTraceId
        group.traceIds.set(meta.instanceId, ids)
      }
    }
    this.summaries = [...groups.values()].map(summarizeLevel)
    const root = this.vitest?.config.root ?? process.cwd()
    const configured =
      this.options.outputFile ??
      (this.vitest === undefined ? undefined : reporterOutputFile(this.vitest, 'mpcbench-v2')) ??
      (process.env.MPCBENCH_V2_SUMMARY?.trim() || undefined)
    const lines = formatSummaryLines(this.summaries)
    if (configured !== false) {
      const summaryFile = resolve(root, configured ?? DEFAULT_SUMMARY_FILE)
      const dir = dirname(summaryFile)
      for (const group of groups.values()) {
        const trials = Math.max(...[...group.trials.values()].map((rows) => rows.length))
        for (let trial = 1; trial <= trials; trial += 1) {
          const rows = [...group.trials.values()].map((byTrial) => byTrial[trial - 1]).filter((row): row is ResultsRow => row !== undefined)
          const name = `eval_L${group.level}_${suffixOf(group.worldId)}_${safeModelName(group.model)}${trial === 1 ? '' : `_trial${trial}`}.jsonl`
          writeFileAtomic(join(dir, name), rows.map((row) => `${formatResultsRow(row)}\n`).join(''))
        }
      }
      const runId = historyRunId(this.run ?? testModules)
      const keep = this.options.history !== false
      const summary: MpcbenchV2Summary = {
        benchmark: 'mpcbench-v2',
        upstream: 'SeokwonJung-Jay/MPCBench@e398410',
        ...(keep ? { runId } : {}),
        generatedAt: new Date().toISOString(),
        levels: this.summaries,
      }
      const history = keep ? { settings: historySettingsFromEnv(process.env, root), runId, name: MPCBENCH_V2_HISTORY_NAME } : undefined
      const { written, kept, writeError } = writeRunOutput(summaryFile, summary, history, (line) => lines.push(line))
      const readable = written ?? kept
      if (readable !== undefined) recordRunOutput(MPCBENCH_V2_RUN_OUTPUT, readable)
      if (written !== undefined) {
        this.summaryFile = written
        lines.push(`MPCBench v2 results: ${summaryFile}`)
      }
      if (writeError !== undefined) {
        process.exitCode = 1
        const { problem, hint } = describeError(writeError)
        lines.push(
          `ERROR: the MPCBench v2 summary was not written: ${problem}${hint === undefined ? '' : `\n  Fix: ${hint}`}${kept === undefined ? '' : `\n  A copy was kept in ${kept}.`}`,
        )
      }
    }
    const rowsFile = this.options.rowsFile ?? process.env.MPCBENCH_V2_OUTPUT
    if (rowsFile !== undefined && rowsFile.trim() !== '') {
      const rows = [...groups.values()].flatMap((group) =>
        [...group.trials.values()].map((byTrial) => byTrial[0]).filter((row): row is ResultsRow => row !== undefined),
      )
      const file = resolve(process.cwd(), rowsFile)
      writeFileAtomic(file, rows.map((row) => `${formatResultsRow(row)}\n`).join(''))
      lines.push(`MPCBench v2 rows (upstream's format): ${file}`)
    }
    if (this.options.print !== false) {
      const write = this.vitest !== undefined && stdoutHoldsReport(this.vitest) ? process.stderr : process.stdout
      write.write(`${lines.join('\n')}\n`)
    }
  }
}

export { MpcbenchV2Reporter }
