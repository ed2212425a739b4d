import type { CommandTable } from '../../cli/run-cli.ts'

/** The cross-benchmark commands of `agent-bench`. */
export const reportCommands: CommandTable = {
  report: { summary: 'Write the HTML report (plots, traces, comparison) from saved results', load: () => import('./report.ts') },
}
