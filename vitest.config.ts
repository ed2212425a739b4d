import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vitest/config'
import { benchConcurrency } from './src/arte/settings.ts'
import { arteTestFiles } from './src/arte/vitest/arte-parts.ts'
import { MPCBENCH_WATCH_IGNORED, mpcbenchWatchTriggerPatterns } from './src/mpcbench/vitest/watch.ts'

const root = fileURLToPath(new URL('.', import.meta.url))
// ART-E: with ARTE_PARTS=n the rows are spread over n part files, so `--shard` splits them (see bench/arte/README.md).
const arte = arteTestFiles(root)

export default defineConfig({
  // MPCBench: generated scenario data and evaluation output never trigger watch reruns.
  server: { watch: { ignored: [...MPCBENCH_WATCH_IGNORED] } },
  test: {
    // The plain closing line (`tests: N passed, N failed, N skipped`) is for log readers; `--reporter` flags replace both.
    reporters: ['default', './reporters/summary-line.ts'],
    // MPCBench: prompt_config.json, model_config.json, tasks/** and scenarios/** rerun the bench files they affect.
    watchTriggerPatterns: [...mpcbenchWatchTriggerPatterns({ root })],
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['src/**/*.test.ts', 'reporters/**/*.test.ts', 'scripts/**/*.test.ts'],
          testTimeout: 30_000,
          hookTimeout: 120_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'bench',
          include: ['bench/**/*.eval.ts', ...arte.include],
          exclude: ['**/node_modules/**', '**/.git/**', ...arte.exclude],
          globalSetup: ['./src/arte/vitest/global-setup.ts', './src/mpcbench/vitest/global-setup.ts'],
          testTimeout: 300_000,
          hookTimeout: 600_000,
          // ART-E: tests of a file run concurrently (test.concurrent), BENCH_CONCURRENCY (default 5) at a time.
          maxConcurrency: benchConcurrency(),
        },
      },
    ],
  },
})
