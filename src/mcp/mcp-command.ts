import type { Command } from '../cli/command.ts'
import { FlagValueError, wholeNumberFlag } from '../cli/flags.ts'
import { commandUsage, type OptionSpec, parseDeclared } from '../cli/define-command.ts'
import { ConfigError } from '../core/errors.ts'
import type { AnyTool } from '../tools/define-tool.ts'
import { serveMcpHttp, serveMcpStdio } from './serve-mcp.ts'
import { DEFAULT_MCP_MAX_MESSAGE_BYTES } from './stdio-transport.ts'

/** The parsed flag values an {@link McpToolSource} reads. */
export type McpFlagValues = Readonly<Record<string, string | boolean | undefined>>

/** A tool set opened from flags, with what to release when the server stops. */
export interface OpenedMcpTools {
  tools: AnyTool[]
  /** One line naming what is served, printed to stderr. */
  description: string
  /** The `instructions` of the `initialize` reply (e.g. the benchmark's system prompt). */
  instructions?: string
  close(): void
}

/** One benchmark's tools for `agent-bench mcp`, chosen by its flags. */
export interface McpToolSource {
  /** Its flags (string flags only), by name without `--`. */
  flags: Readonly<Record<string, { arg: string; description: string }>>
  /** The flag whose presence selects this source, e.g. `db`. */
  selectedBy: string
  /** Usage line, e.g. `agent-bench mcp --db FILE --inbox ADDR --query-date DATE [--http PORT]`. */
  synopsis: string
  open(values: McpFlagValues): Promise<OpenedMcpTools> | OpenedMcpTools
}

/** The options of `agent-bench mcp`: each source's flags, then the serving options. */
function optionsOf(sources: ReadonlyArray<McpToolSource>): Record<string, OptionSpec> {
  const options: Record<string, OptionSpec> = {}
  for (const source of sources) {
    for (const [name, flag] of Object.entries(source.flags)) options[name] = { type: 'string', value: flag.arg.toUpperCase(), description: flag.description }
  }
  options.http = { type: 'string', value: 'PORT', description: 'serve MCP Streamable HTTP on http://127.0.0.1:PORT/mcp (0 = a free port) instead of stdio' }
  options['max-message-bytes'] = {
    type: 'string',
    value: 'BYTES',
    description: `the largest message read: on stdio a longer line is answered with a JSON-RPC error, over HTTP a larger body with 413 (default ${DEFAULT_MCP_MAX_MESSAGE_BYTES}, 4 MiB)`,
  }
  options.quiet = { type: 'boolean', description: 'do not log tool calls to stderr' }
  return options
}

/** `agent-bench mcp` over the given tool sources (each benchmark brings one). */
export function createMcpCommand(sources: ReadonlyArray<McpToolSource>): Command {
  const options = optionsOf(sources)
  const usage = commandUsage({
    name: 'mcp',
    description: `${sources.map((source) => source.synopsis).join('\n')}

Serves a benchmark task's tools over MCP (Model Context Protocol), scoped and defined exactly as the built-in
agent loop uses them (same names, descriptions, JSON Schemas and error messages), so any MCP client or agent
framework can call them. Tool calls are logged to stderr, one line each.`,
    options,
  })
  return {
    summary: "Serve a task's tools (ART-E mailbox or MPCBench scenario) over MCP, on stdio or Streamable HTTP",
    usage,
    // On stdio, stdout is the JSON-RPC stream: written exactly (tool call lines on stderr are still redacted).
    protocolStdout: true,
    async run(argv) {
      const values = parseDeclared('mcp', options, argv, false).values as McpFlagValues
      const selected = sources.filter((source) => values[source.selectedBy] !== undefined)
      const [source, ...others] = selected
      if (source === undefined || others.length > 0) {
        const choices = sources.map((s) => `--${s.selectedBy}`).join(' or ')
        throw new FlagValueError(`One tool set is needed: pass ${choices}${others.length > 0 ? ', not both' : ''}.`, {
          hint: `Usage:\n${sources.map((s) => `    ${s.synopsis}`).join('\n')}`,
        })
      }
      const port = wholeNumberFlag('--http', values.http as string | undefined, { min: 0, example: 8765 })
      const maxMessageBytes = wholeNumberFlag('--max-message-bytes', values['max-message-bytes'] as string | undefined, {
        min: 1,
        example: DEFAULT_MCP_MAX_MESSAGE_BYTES,
      })
      const opened = await source.open(values)
      const onToolCall =
        values.quiet === true
          ? undefined
          : (call: { name: string; status: string; durationMs: number }) => {
              console.error(`mcp: ${call.name} ${call.status} ${call.durationMs} ms`)
            }
      const serverOptions = {
        ...(opened.instructions === undefined ? {} : { instructions: opened.instructions }),
        ...(onToolCall === undefined ? {} : { onToolCall }),
      }
      try {
        if (port === undefined) {
          console.error(`agent-bench mcp: serving ${opened.description} on stdio`)
          await serveMcpStdio(opened.tools, { ...serverOptions, ...(maxMessageBytes === undefined ? {} : { maxMessageBytes }) })
          return 0
        }
        const endpoint = await serveMcpHttp(opened.tools, { ...serverOptions, port, ...(maxMessageBytes === undefined ? {} : { maxMessageBytes }) }).catch(
          (error: unknown) => {
            throw new ConfigError(`Cannot listen on 127.0.0.1:${port}: ${(error as Error).message}`, {
              hint: 'Pass another --http port, or --http 0 for a free one.',
              cause: error,
            })
          },
        )
        console.error(`agent-bench mcp: serving ${opened.description} at ${endpoint.url} (Ctrl-C stops)`)
        await new Promise<void>((resolve) => {
          process.once('SIGINT', resolve)
          process.once('SIGTERM', resolve)
        })
        await endpoint.close()
        return 0
      } finally {
        opened.close()
      }
    },
  }
}
