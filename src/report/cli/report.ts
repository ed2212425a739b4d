import { existsSync, readdirSync } from 'node:fs'
import { join, relative, resolve } from 'node:path'
import { defineCommand } from '../../cli/define-command.ts'
import { FlagValueError } from '../../cli/flag-value-error.ts'
import { ConfigError } from '../../core/errors.ts'
import { arteSettingsFromEnv, DEFAULT_ARTE_OUTPUT } from '../../arte/settings.ts'
import { DEFAULT_TRACES_DB } from '../../arte/results/trace-store.ts'
import { DEFAULT_LOG_DIR } from '../../mpcbench/tasks/file-names.ts'
import { mpcbenchLogDir } from '../../mpcbench/settings.ts'
import { readResultsFile } from '../report-data.ts'
import { evalOutputDir } from '../../results/eval-results.ts'
import { DEFAULT_SUMMARY_FILE as MPCBENCH_V2_SUMMARY } from '../../mpcbench-v2/vitest/reporter.ts'
import { reportSettingsFromEnv } from '../report-settings.ts'
import { DEFAULT_HISTORY_DIR, DEFAULT_REPORT_FILE, writeReport } from '../write-report.ts'

const DEFAULT_SUMMARY = 'evaluation/summary.json'

/** The results file of each eval under `dir` (`{dir}/{eval}/results.json`), in name order. */
function evalResultsFiles(dir: string): string[] {
  if (!existsSync(dir)) return []
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => join(dir, entry.name, 'results.json'))
    .sort()
}

/** `agent-bench report`: write the HTML report from saved results. */
export const command = defineCommand({
  name: 'report',
  summary: 'Write the HTML report (plots, traces, comparison) from saved results',
  description: `Writes the HTML report (one self-contained file: metrics, plots, per-task rows, traces, run logs and judge
reasons, and a comparison with the previous run in ${DEFAULT_HISTORY_DIR}/) from saved results.`,
  options: {
    results: {
      type: 'string',
      value: 'FILE',
      multiple: true,
      description: `an ART-E results JSON, an MPCBench summary, an MPCBench v2 summary or an eval's results (evaluation/evals/{eval}/results.json) (default: ${DEFAULT_ARTE_OUTPUT} (ARTE_OUTPUT), ${DEFAULT_SUMMARY}, ${MPCBENCH_V2_SUMMARY} and each evaluation/evals/*/results.json (EVAL_OUTPUT_DIR), those that exist)`,
    },
    out: { type: 'string', value: 'FILE', description: 'the page to write (BENCH_REPORT)', default: DEFAULT_REPORT_FILE },
    'traces-db': { type: 'string', value: 'FILE', description: 'ART-E traces database (ARTE_TRACES_DB)', default: DEFAULT_TRACES_DB },
    'log-dir': { type: 'string', value: 'DIR', description: 'MPCBench run logs and judge results (MPCBENCH_LOG_DIR)', default: DEFAULT_LOG_DIR },
    history: { type: 'string', value: 'DIR', description: 'earlier runs, one folder each (BENCH_HISTORY_DIR)', default: DEFAULT_HISTORY_DIR },
  },
  epilog: `Examples:
  agent-bench report
  agent-bench report --results reports/arte-results.json --traces-db reports/arte-traces.db --out reports/index.html`,
  async run({ values }) {
    const settings = arteSettingsFromEnv()
    let files = (values.results ?? []).map((file) => resolve(file))
    if (files.length === 0) {
      files = [settings.output, resolve(DEFAULT_SUMMARY), resolve(MPCBENCH_V2_SUMMARY), ...evalResultsFiles(evalOutputDir())].filter((file) => existsSync(file))
      if (files.length === 0) {
        throw new ConfigError(
          `No results to report: neither ${relative(process.cwd(), settings.output)} nor ${DEFAULT_SUMMARY} nor ${MPCBENCH_V2_SUMMARY} nor an eval's results (${relative(process.cwd(), evalOutputDir()) || '.'}/*/results.json) exists.`,
          {
            hint: 'Run the benchmarks first (`npm run bench`), or pass --results FILE.',
          },
        )
      }
    }
    for (const file of files) {
      if (!existsSync(file))
        throw new FlagValueError(`Results file ${file} does not exist.`, {
          hint: 'Pass the path of a results JSON or summary, e.g. --results evaluation/arte/results.json.',
        })
    }
    const reportSettings = reportSettingsFromEnv()
    const fromEnv = reportSettings.file
    const outFile = resolve(values.out ?? (fromEnv === false ? DEFAULT_REPORT_FILE : fromEnv))
    const data = writeReport({
      results: files.map(readResultsFile),
      sources: {
        tracesDb: values['traces-db'] === undefined ? settings.tracesDb : resolve(values['traces-db']),
        logDir: values['log-dir'] === undefined ? mpcbenchLogDir() : resolve(values['log-dir']),
        historyDir: values.history === undefined ? reportSettings.historyDir : resolve(values.history),
        traceBudgetChars: reportSettings.traceBudgetChars,
      },
      outFile,
    })
    const parts = [
      ...data.arte.map((s) => `ART-E ${s.file}`),
      ...data.mpcbench.map((s) => `MPCBench ${s.file}`),
      ...(data.mpcbenchV2 ?? []).map((s) => `MPCBench v2 ${s.file}`),
    ]
    console.log(`Report written to ${relative(process.cwd(), outFile)} (${parts.join(', ')})`)
    for (const note of [...data.arte, ...data.mpcbench].flatMap((s) => s.notes)) console.error(`note: ${note}`)
    const skipped = new Map([...data.arte, ...data.mpcbench].flatMap((s) => s.skippedHistory).map((entry) => [entry.file, entry.reason]))
    for (const [file, reason] of skipped) console.error(`note: passed over ${file} in the run history (${reason}) while looking for the previous run`)
    return 0
  },
})
