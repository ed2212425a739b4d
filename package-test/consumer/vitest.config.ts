import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['*.test.ts'],
    globalSetup: ['vitest-agent-bench/vitest/arte-setup'],
    reporters: [
      'default',
      ['junit', { outputFile: 'out/junit.xml' }],
      'vitest-agent-bench/reporters/progress',
      'vitest-agent-bench/reporters/arte',
      ['vitest-agent-bench/reporters/report', { outputFile: 'out/report.html' }],
    ],
  },
})
