import { arteCommands } from './arte/cli/commands.ts'
import { runCli } from './cli/run-cli.ts'
import { llmCommands } from './llm/cli/commands.ts'
import { mpcbenchCommands } from './mpcbench/cli/commands.ts'
import { reportCommands } from './report/cli/commands.ts'

/** Entry point of the `agent-bench` CLI; resolves to the process exit code. */
export function main(argv: string[]): Promise<number> {
  return runCli(
    {
      ...arteCommands,
      ...mpcbenchCommands,
      ...llmCommands,
      ...reportCommands,
      async mcp() {
        const [{ createMcpCommand }, { arteMcpToolSource }, { mpcbenchMcpToolSource }] = await Promise.all([
          import('./mcp/mcp-command.ts'),
          import('./arte/cli/mcp-tools.ts'),
          import('./mpcbench/cli/mcp-tools.ts'),
        ])
        return { command: createMcpCommand([arteMcpToolSource, mpcbenchMcpToolSource]) }
      },
    },
    argv,
  )
}
