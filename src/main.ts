import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { arteCommands } from './arte/cli/commands.ts'
import { runCli } from './cli/run-cli.ts'
import { llmCommands } from './llm/cli/commands.ts'
import { mpcbenchCommands } from './mpcbench/cli/commands.ts'
import { mpcbenchV2Commands } from './mpcbench-v2/cli/commands.ts'
import { reportCommands } from './report/cli/commands.ts'

/** The package's version (the same `package.json` sits one level above `src/` and `dist/`). */
function packageVersion(): string {
  try {
    return (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version?: string }).version ?? 'unknown'
  } catch {
    return 'unknown'
  }
}

/** Entry point of the `agent-bench` CLI; resolves to the process exit code. */
export function main(argv: string[]): Promise<number> {
  return runCli(
    {
      ...arteCommands,
      ...mpcbenchCommands,
      ...mpcbenchV2Commands,
      ...llmCommands,
      ...reportCommands,
      compare: {
        summary: 'Compare two runs (ART-E results, MPCBench summaries, eval results or MPCBench v2 results): flips, deltas with paired bootstrap intervals',
        load: () => import('./compare/compare-command.ts'),
      },
      mcp: {
        summary: "Serve a task's tools (ART-E mailbox or MPCBench scenario) over MCP, on stdio or Streamable HTTP",
        async load() {
          const [{ createMcpCommand }, { arteMcpToolSource }, { mpcbenchMcpToolSource }] = await Promise.all([
            import('./mcp/mcp-command.ts'),
            import('./arte/cli/mcp-tools.ts'),
            import('./mpcbench/cli/mcp-tools.ts'),
          ])
          return { command: createMcpCommand([arteMcpToolSource, mpcbenchMcpToolSource]) }
        },
      },
    },
    argv,
    { version: packageVersion() },
  )
}

// `npx tsx src/main.ts <command>` runs the CLI from the sources, without a build (bin/agent-bench.js runs dist/).
if (process.argv[1] === fileURLToPath(import.meta.url)) process.exitCode = await main(process.argv.slice(2))
