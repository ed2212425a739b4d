import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['*.test.ts'],
    globalSetup: ['vitest-agent-bench/vitest/arte-setup'],
    reporters: ['default', ['junit', { outputFile: 'out/junit.xml' }], 'vitest-agent-bench/reporters/arte'],
  },
})
