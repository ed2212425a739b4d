/**
 * `npm run perf`: performance numbers for the CLI start-up, the email store and the MPCBench world.
 * Prints measurements and their ratio to the targets; asserts nothing.
 *
 * Sizes can be reduced for a quick look: `PERF_MPCBENCH_ITEMS=10000 npm run perf` (the email part builds 50K synthetic emails
 * unless `PERF_EMAIL_SYNTHETIC=500000`); one section: `npm run perf -- cli` (or `email`, `mpcbench`, `harness`, `report`).
 * The harness section (per-task CPU, peak RSS and wall of our ART-E tests beside a plain script and plain Vitest) runs
 * 1,000 tasks by default; `PERF_HARNESS_TASKS=10000` for the memory target.
 * The report section times the HTML report of a 10,000-task ART-E run in headless Chromium (`PERF_REPORT_TASKS=N`).
 */
import { runCliPerf } from './perf/cli-perf.ts'
import { runEmailPerf } from './perf/email-perf.ts'
import { runHarnessPerf } from './perf/harness-perf.ts'
import { runMpcbenchPerf } from './perf/mpcbench-perf.ts'
import { runReportPerf } from './perf/report-perf.ts'
import { runStorePerf } from './perf/store-perf.ts'

const only = process.argv[2]
if (only === undefined || only === 'cli') await runCliPerf()
if (only === undefined || only === 'email') await runEmailPerf()
if (only === undefined || only === 'mpcbench') await runMpcbenchPerf()
if (only === undefined || only === 'harness') await runHarnessPerf()
if (only === undefined || only === 'report') await runReportPerf()
if (only === undefined || only === 'store') await runStorePerf()
