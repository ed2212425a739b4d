import type { TestProject } from 'vitest/node'

/** ART-E globalSetup (placeholder). */
export default function setup(_project: TestProject): void {}
