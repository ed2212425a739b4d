// The low-level `Server` (not `McpServer`) on purpose: `McpServer` derives JSON Schemas from zod itself and validates
// arguments its own way, while MCP clients must see exactly the schemas our agent loop sends the model, and bad
// arguments must come back as the same messages.
import { Server } from '@modelcontextprotocol/sdk/server/index.js'
import { CallToolRequestSchema, type CallToolResult, ListToolsRequestSchema, type Tool as McpTool } from '@modelcontextprotocol/sdk/types.js'
import { type AnyTool, fromWireName, toolParametersJsonSchema, toolTable, wireNameOf } from '../tools/define-tool.ts'
import { executeToolCall, type ToolCallStatus } from '../tools/execute-tool-call.ts'

/** One tool call an MCP client made, as the server executed it. */
export interface McpToolCall {
  /** Display name (`Slack.search_messages`), or the name the client sent when no tool has it. */
  name: string
  /** The arguments as the client sent them. */
  arguments: unknown
  /** What the tool returned (plain JSON), or the error message sent back. */
  result: unknown
  status: ToolCallStatus
  /** With `tool-error`: the code of the error the tool threw (see `ExecutedToolCall.errorCode`). */
  errorCode?: string
  /** ISO 8601. */
  startedAt: string
  durationMs: number
}

/** Options of {@link createMcpToolServer}. */
export interface McpToolServerOptions {
  /** Server name in the `initialize` reply. @default 'agent-bench' */
  name?: string
  /** @default '0.1.0' */
  version?: string
  /** Instructions for the client in the `initialize` reply. */
  instructions?: string
  /** Called after every `tools/call`, in the order the calls finish. */
  onToolCall?: (call: McpToolCall) => void
  /** Milliseconds since the epoch, for `startedAt` and durations. @default Date.now */
  clock?: () => number
}

/** The MCP description of a tool: its wire name (`Slack__search_messages`), description and the JSON Schema our agent loop sends the model. */
export function toMcpTool(tool: AnyTool): McpTool {
  return { name: wireNameOf(tool), description: tool.description, inputSchema: toolParametersJsonSchema(tool) as McpTool['inputSchema'] }
}

/**
 * An MCP server (official SDK) offering `tools`: `tools/list` gives each tool's wire name, description and JSON
 * Schema (exactly what our agent loop sends the model), `tools/call` runs it as our loop does (same argument parsing,
 * same error messages, which come back as `isError` results). Connect it to a transport, e.g.
 * `StdioServerTransport`, or use {@link serveMcpStdio} / `serveMcpHttp`.
 */
export function createMcpToolServer(tools: ReadonlyArray<AnyTool>, options: McpToolServerOptions = {}): Server {
  const table = toolTable(tools)
  const listed = tools.map(toMcpTool)
  const clock = options.clock ?? Date.now
  const server = new Server(
    { name: options.name ?? 'agent-bench', version: options.version ?? '0.1.0' },
    { capabilities: { tools: {} }, ...(options.instructions === undefined ? {} : { instructions: options.instructions }) },
  )
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: listed }))
  server.setRequestHandler(CallToolRequestSchema, async (request, extra): Promise<CallToolResult> => {
    const { name, arguments: args } = request.params
    const started = clock()
    const executed = await executeToolCall(table, name, args ?? {}, extra.signal)
    if (executed === 'aborted') return { content: [{ type: 'text', text: `Error: ${name} was cancelled.` }], isError: true }
    options.onToolCall?.({
      name: executed.tool?.name ?? fromWireName(name),
      arguments: executed.arguments,
      result: executed.result,
      status: executed.status,
      ...(executed.errorCode === undefined ? {} : { errorCode: executed.errorCode }),
      startedAt: new Date(started).toISOString(),
      durationMs: clock() - started,
    })
    return { content: [{ type: 'text', text: executed.content }], ...(executed.status === 'ok' ? {} : { isError: true }) }
  })
  return server
}
