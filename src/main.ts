import { arteCommands } from './arte/cli/commands.ts'
import { runCli } from './cli/run-cli.ts'
import { mpcbenchCommands } from './mpcbench/cli/commands.ts'

/** Entry point of the `agent-bench` CLI; resolves to the process exit code. */
export function main(argv: string[]): Promise<number> {
  return runCli({ ...arteCommands, ...mpcbenchCommands, compare: () => import('./compare/compare-command.ts') }, argv)
}
