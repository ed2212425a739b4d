import { type ArteThresholdCheck, formatThresholdFailure } from '../arte/results/results-thresholds.ts'
import type { ReportData } from './report-data.ts'

/**
 * The quality thresholds the run failed, one line each (`ART-E exactMatchAccuracy (0.25) does not meet threshold
 * exactMatchAccuracy >= 0.6`), as the benchmark reporter printed them when it set exit code 1 and failed the JUnit
 * testcase `thresholds`: the job summary leads with them and the report's header says them, so every place tells the
 * same verdict. Empty when no threshold failed (or none was set).
 */
export function failedThresholds(data: Pick<ReportData, 'arte'>): string[] {
  return data.arte.flatMap((section) =>
    section.results.thresholds.filter((check) => !check.passed).map((check) => formatThresholdFailure(check as ArteThresholdCheck).replace(/^ERROR: /, '')),
  )
}

/** How many thresholds the run checked (all benchmarks). */
export function checkedThresholds(data: Pick<ReportData, 'arte'>): number {
  return data.arte.reduce((sum, section) => sum + section.results.thresholds.length, 0)
}
