import type { CommandTable } from '../../cli/run-cli.ts'

/** The model-client commands of `agent-bench`, shared by both benchmarks. */
export const llmCommands: CommandTable = {
  calls: { summary: 'List the logged model calls, or print one call (request, response, usage) by id', load: () => import('./calls.ts') },
}
