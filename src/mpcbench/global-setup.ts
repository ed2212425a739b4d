import type { TestProject } from 'vitest/node'

/** MPCBench globalSetup (placeholder). */
export default function setup(_project: TestProject): void {}
