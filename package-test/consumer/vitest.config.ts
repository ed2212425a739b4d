import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['*.test.ts'],
    reporters: ['default', ['junit', { outputFile: 'out/junit.xml' }], 'vitest-agent-bench/reporters/arte'],
  },
})
