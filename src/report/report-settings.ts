import { resolve } from 'node:path'
import { z } from 'zod'
import { ConfigError } from '../core/errors.ts'
import { historySettingsFromEnv } from '../core/run-history.ts'

/** Default location of the report page, relative to the project root. */
export const DEFAULT_REPORT_FILE = 'evaluation/report/index.html'

/**
 * Megabytes of ART-E traces (as JSON) the page holds unless `BENCH_REPORT_TRACES_MB` says otherwise: failed tasks'
 * traces first. A large run's page stays small enough for a browser, and writing it stays within the run's memory.
 */
export const DEFAULT_REPORT_TRACES_MB = 16

/** The report's variables, parsed by {@link reportSettingsFromEnv}. */
export const ReportEnvSchema = z.object({
  /** `BENCH_REPORT`: where the HTML report goes, or `off` for none. */
  BENCH_REPORT: z.string().trim().min(1, 'expected a file path or `off`').optional(),
  /** `BENCH_REPORT_TRACES_MB`: megabytes of ART-E traces the page holds; 0 holds none. */
  BENCH_REPORT_TRACES_MB: z.coerce.number().nonnegative('expected a number of megabytes, 0 or more').optional(),
  /** `GITHUB_STEP_SUMMARY`: the GitHub Actions job summary file (set by the runner). */
  GITHUB_STEP_SUMMARY: z.string().trim().min(1).optional(),
})

/** Report settings from the environment. */
export interface ReportSettings {
  /** The page to write (absolute), or `false` when `BENCH_REPORT=off`. */
  file: string | false
  /** The GitHub Actions job summary to append to, when running in GitHub Actions. */
  stepSummaryFile: string | undefined
  /** Characters of ART-E trace JSON the page holds (`BENCH_REPORT_TRACES_MB`, default {@link DEFAULT_REPORT_TRACES_MB}). */
  traceBudgetChars: number
  /** Earlier runs to compare with (absolute): `BENCH_HISTORY_DIR`, where the benchmark reporters keep each run. */
  historyDir: string
}

/**
 * Reads {@link ReportSettings}: `BENCH_REPORT` (a path, relative to `cwd`, or `off`), default {@link DEFAULT_REPORT_FILE};
 * `BENCH_REPORT_TRACES_MB`; `GITHUB_STEP_SUMMARY`; `BENCH_HISTORY_DIR` (default `evaluation/history`, relative to `cwd`).
 */
export function reportSettingsFromEnv(env: Record<string, string | undefined> = process.env, cwd = process.cwd()): ReportSettings {
  const blank = (value: string | undefined) => (value === undefined || value.trim() === '' ? undefined : value)
  const raw = {
    BENCH_REPORT: blank(env.BENCH_REPORT),
    BENCH_REPORT_TRACES_MB: blank(env.BENCH_REPORT_TRACES_MB),
    GITHUB_STEP_SUMMARY: blank(env.GITHUB_STEP_SUMMARY),
  }
  const result = ReportEnvSchema.safeParse(raw)
  if (!result.success) {
    const issue = result.error.issues[0]
    const name = String(issue?.path[0] ?? 'BENCH_REPORT')
    throw new ConfigError(`Invalid ${name}=${JSON.stringify(raw[name as keyof typeof raw] ?? '')}: ${issue?.message ?? 'invalid value'}.`, {
      hint:
        name === 'BENCH_REPORT_TRACES_MB'
          ? 'Set BENCH_REPORT_TRACES_MB to megabytes of traces for the page, e.g. 16 (0 holds none), or unset it.'
          : `Set ${name} to a file path (BENCH_REPORT=off: no report), or unset it.`,
    })
  }
  const parsed = result.data
  const value = parsed.BENCH_REPORT
  const stepSummaryFile = parsed.GITHUB_STEP_SUMMARY
  const traceBudgetChars = Math.round((parsed.BENCH_REPORT_TRACES_MB ?? DEFAULT_REPORT_TRACES_MB) * 1024 * 1024)
  const historyDir = historySettingsFromEnv({ BENCH_HISTORY_DIR: env.BENCH_HISTORY_DIR }, cwd).dir
  const file = value !== undefined && value.toLowerCase() === 'off' ? false : resolve(cwd, value ?? DEFAULT_REPORT_FILE)
  return { file, stepSummaryFile, traceBudgetChars, historyDir }
}
