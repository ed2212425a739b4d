import { defineConfig } from 'vitest/config'

// (e) The shipped MPCBench tasks in a user's own Vitest run: the package's setup generates the scenario data of
// this folder's scenarios/ into data/, and its reporter writes evaluation/summary.json.
export default defineConfig({
  test: {
    include: ['bench/**/*.eval.ts'],
    globalSetup: ['vitest-agent-bench/vitest/mpcbench-setup'],
    reporters: ['default', 'vitest-agent-bench/reporters/mpcbench'],
  },
})
