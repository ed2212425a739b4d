import type { CommandTable } from '../../cli/run-cli.ts'

/** The cross-benchmark commands of `agent-bench`. */
export const reportCommands: CommandTable = {
  report: () => import('./report.ts'),
}
