import { resolve } from 'node:path'
import type { Reporter, TestModule, Vitest } from 'vitest/node'
import { writeJsonAtomic } from '../../core/atomic-write.ts'
import type { MpcbenchTestMeta } from './mpcbench-meta.ts'
import { buildSummary, formatSummaryTable, formatSummaryUsage } from '../summary.ts'
import { formatSummaryStatistics } from '../summary-statistics.ts'
import { MPCBENCH_HISTORY_FILE, mpcbenchHistorySettings } from '../settings.ts'
import { historyRunId, keepInHistory } from '../../core/run-history.ts'
import './task-meta.ts'

/** Options of {@link MpcbenchReporter}. */
export interface MpcbenchReporterOptions {
  /**
   * Where the summary JSON is written, relative to the Vitest root; `false` writes nothing.
   * @default 'evaluation/summary.json'
   */
  outputFile?: string | false
  /**
   * Print the agent × judge table at the end of the run.
   * @default true
   */
  print?: boolean
  /**
   * Keep a copy of the summary under `evaluation/history/{run id}/mpcbench-summary.json` (for `agent-bench compare`);
   * `false` keeps none. Only when `outputFile` is set.
   * @default true, with the folder and cap from BENCH_HISTORY_DIR / BENCH_HISTORY_KEEP (20)
   */
  history?: boolean
}

/**
 * The MPCBench reporter: at the end of a run, from the tests that carry `meta().mpcbench`, prints an
 * agent × judge table of mean scores per task type (with counts and failures) and writes `evaluation/summary.json`
 * atomically. Runs nothing when no test carries MPCBench meta. Works beside other reporters (junit, json) and with
 * `--merge-reports` (the meta travels in the blobs).
 */
export default class MpcbenchReporter implements Reporter {
  private readonly options: Required<MpcbenchReporterOptions>
  private root = process.cwd()
  private log: (text: string) => void = (text) => console.log(text)

  constructor(options: MpcbenchReporterOptions = {}) {
    this.options = { outputFile: options.outputFile ?? 'evaluation/summary.json', print: options.print ?? true, history: options.history ?? true }
  }

  onInit(vitest: Vitest): void {
    this.root = vitest.config.root
    this.log = (text) => vitest.logger.log(text)
  }

  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const metas: MpcbenchTestMeta[] = []
    for (const testModule of testModules) {
      for (const testCase of testModule.children.allTests()) {
        const meta = testCase.meta().mpcbench
        if (meta !== undefined) metas.push(meta)
      }
    }
    if (metas.length === 0) return
    const summary = buildSummary(metas)
    let written = ''
    if (this.options.outputFile !== false) {
      const file = resolve(this.root, this.options.outputFile)
      writeJsonAtomic(file, summary)
      written = `\nSummary written to ${file}`
      if (this.options.history) keepInHistory(mpcbenchHistorySettings(process.env, this.root), historyRunId(testModules), file, MPCBENCH_HISTORY_FILE)
    }
    if (this.options.print) {
      const statistics = formatSummaryStatistics(summary)
      this.log(`\nMPCBench: mean scores (0-5) per agent x judge x task type, ${metas.length} test(s)\n${formatSummaryTable(summary)}\n${statistics === '' ? '' : `${statistics}\n`}${formatSummaryUsage(summary)}${written}`)
    }
  }
}

export { MpcbenchReporter }
