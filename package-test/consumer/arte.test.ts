// (c) The shipped ART-E benchmark in a user's own Vitest run: defineArteTests with the package's global setup
// (vitest.config.ts) over the package's demo data (ARTE_LIMIT rows, the offline baseline agent).
import { defineArteTests } from 'vitest-agent-bench/vitest'

await defineArteTests()
