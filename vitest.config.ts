import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vitest/config'
import { benchConcurrency, benchPool, benchWorkerExecArgv } from './src/arte/settings.ts'
import { arteTestFiles } from './src/arte/vitest/arte-parts.ts'
import { MPCBENCH_WATCH_IGNORED, mpcbenchWatchTriggerPatterns } from './src/mpcbench/vitest/watch.ts'
import { benchTestTimeoutMs } from './src/core/bench-test-timeout.ts'
import { scaledMs } from './src/testing/time-scale.ts'

const root = fileURLToPath(new URL('.', import.meta.url))
// ART-E: large runs are spread over part files of 5,000 tests run one after another, and ARTE_PARTS=n spreads the rows
// over n part files so `--shard` splits them (see bench/arte/README.md).
const arte = await arteTestFiles(root)

export default defineConfig({
  // MPCBench: generated scenario data and evaluation output never trigger watch reruns.
  server: { watch: { ignored: [...MPCBENCH_WATCH_IGNORED] } },
  test: {
    // Progress: one line per finished benchmark task when stdout is not a TTY (CI logs).
    // Scores in every default flow: the ART-E and MPCBench reporters print and write their results, then the report
    // reporter writes evaluation/report/index.html (it reads their files, so it comes after them). Each ignores tests
    // without its meta, so the unit project prints only Vitest's output. The plain closing line
    // (`tests: N passed, N failed, N skipped`, then `, N errors` when a run fails outside its tests and `, interrupted`
    // when it was stopped early) is for log readers. `--reporter` flags replace this whole list.
    reporters: [
      'default',
      './reporters/progress.ts',
      './reporters/arte.ts',
      './reporters/mpcbench.ts',
      './reporters/mpcbench-v2.ts',
      './reporters/eval.ts',
      './reporters/report.ts',
      './reporters/summary-line.ts',
    ],
    // MPCBench: prompt_config.json, model_config.json, tasks/** and scenarios/** rerun the bench files they affect.
    watchTriggerPatterns: [...mpcbenchWatchTriggerPatterns({ root })],
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['src/**/*.test.ts', 'reporters/**/*.test.ts', 'scripts/**/*.test.ts'],
          // The run's temporary folders go into one folder, removed at the end (see src/testing/temp-root.ts).
          globalSetup: ['./src/testing/temp-root.ts'],
          // Idle-machine values times BENCH_TEST_TIME_SCALE (default 3, for a busy CI runner; docs/contributing.md).
          testTimeout: scaledMs(30_000),
          hookTimeout: scaledMs(120_000),
        },
      },
      {
        extends: true,
        test: {
          name: 'bench',
          include: ['bench/**/*.eval.ts', ...arte.include],
          exclude: ['**/node_modules/**', '**/.git/**', ...arte.exclude],
          globalSetup: ['./src/arte/vitest/global-setup.ts', './src/mpcbench/vitest/global-setup.ts'],
          // Per test (an MPCBench agent run and its judges; an ART-E task): BENCH_TEST_TIMEOUT_MS, default 30 minutes
          // (upstream MPCBench has none); `--test-timeout` overrides it. Model calls end before it.
          testTimeout: benchTestTimeoutMs(),
          hookTimeout: 600_000,
          // ART-E: tests of a file run concurrently (test.concurrent), BENCH_CONCURRENCY (default 5) at a time.
          maxConcurrency: benchConcurrency(),
          // Worker threads (less memory than forked workers); forks when BENCH_WORKER_SEMI_SPACE_MB sets their young generation.
          pool: benchPool(),
          // Automatic ART-E parts run one at a time (BENCH_CONCURRENCY stays the number of tasks in flight), in one
          // worker that each part leaves warm (its modules loaded and compiled: about 6% less CPU at 10,000 tasks).
          ...(arte.oneAtATime ? { maxWorkers: 1, isolate: false } : {}),
          execArgv: benchWorkerExecArgv(),
        },
      },
      {
        extends: true,
        test: {
          // `npm run test:package`: packs and installs the package into a temporary project (package-test/).
          name: 'package',
          include: ['package-test/*.test.ts'],
          globalSetup: ['./src/testing/temp-root.ts'],
          testTimeout: scaledMs(300_000),
          hookTimeout: scaledMs(600_000),
        },
      },
    ],
  },
})
