import { resolve } from 'node:path'
import type { Reporter, TestModule, TestRunEndReason, Vitest } from 'vitest/node'
import { writeJsonAtomic } from '../../core/atomic-write.ts'
import { redact } from '../../core/redact.ts'
import { onInterrupt } from '../../core/interrupt.ts'
import { collectMpcbenchTests } from './collect-mpcbench-tests.ts'
import { buildSummary, formatSummaryTable, formatSummaryUsage } from '../summary.ts'
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
  private log: (text: string) => void = (text) => console.log(redact(text))

  constructor(options: MpcbenchReporterOptions = {}) {
    this.options = { outputFile: options.outputFile ?? 'evaluation/summary.json', print: options.print ?? true }
  }

  onInit(vitest: Vitest): void {
    this.root = vitest.config.root
    // On SIGINT / SIGTERM, write what finished before the process exits.
    const dispose = onInterrupt(() => this.onTestRunEnd(vitest.state.getTestModules(), [], 'interrupted'))
    vitest.onClose(dispose)
    this.log = (text) => vitest.logger.log(redact(text))
  }

  onTestRunEnd(testModules: ReadonlyArray<TestModule>, _errors?: unknown, reason?: TestRunEndReason): void {
    const { metas, unfinished } = collectMpcbenchTests(testModules, reason === 'interrupted')
    if (metas.length === 0 && unfinished.length === 0) return
    const summary = buildSummary(metas, new Date(), unfinished)
    let written = ''
    if (this.options.outputFile !== false) {
      const file = resolve(this.root, this.options.outputFile)
      writeJsonAtomic(file, summary)
      written = `\nSummary written to ${file}`
    }
    if (this.options.print) {
      const counts = summary.task_counts
      const tally = counts === undefined || unfinished.length === 0 ? '' : `\n${counts.selected} selected: ${counts.completed} completed, ${counts.failed} failed, ${counts.not_run} not run (${unfinished.map((test) => `${test.task_id} ${test.outcome}`).join(', ')})`
      this.log(`\nMPCBench: mean scores (0-5) per agent x judge x task type, ${metas.length} test(s)\n${formatSummaryTable(summary)}\n${formatSummaryUsage(summary)}${tally}${written}`)
    }
  }
}

export { MpcbenchReporter }
