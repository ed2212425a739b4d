import type { CommandTable } from '../../cli/run-cli.ts'

/** The model-client commands of `agent-bench`, shared by both benchmarks. */
export const llmCommands: CommandTable = {
  calls: () => import('./calls.ts'),
}
