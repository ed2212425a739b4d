import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo, Socket } from 'node:net'
import type { Readable, Writable } from 'node:stream'
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js'
import type { AnyTool } from '../tools/define-tool.ts'
import { createMcpToolServer, type McpToolServerOptions } from './create-mcp-tool-server.ts'
import { LimitedStdioTransport } from './stdio-transport.ts'

/** Options of {@link serveMcpStdio}. */
export interface ServeMcpStdioOptions extends McpToolServerOptions {
  /** @default process.stdin */
  stdin?: Readable
  /** @default process.stdout */
  stdout?: Writable
  /** The largest message (one line) read; a longer one is answered with a JSON-RPC error. @default 4 MiB */
  maxMessageBytes?: number
  /** When stdin ends, how long requests still running may take to be answered before the server stops. @default 30_000 */
  settleMs?: number
}

/**
 * Serves `tools` over MCP on stdio (one client: the process that started us). Resolves when stdin ends (the client
 * closed it or died), once every request read so far is answered and written (at most `settleMs`), or at once when
 * stdout is gone. A message over `maxMessageBytes` is answered with an error and the connection stays usable.
 */
export async function serveMcpStdio(tools: ReadonlyArray<AnyTool>, options: ServeMcpStdioOptions = {}): Promise<void> {
  const { stdin = process.stdin, stdout = process.stdout, maxMessageBytes, settleMs = 30_000, ...serverOptions } = options
  const server = createMcpToolServer(tools, serverOptions)
  const transport = new LimitedStdioTransport(stdin, stdout, maxMessageBytes === undefined ? {} : { maxMessageBytes })
  const ended = new Promise<void>((resolve) => {
    stdin.once('end', resolve)
    stdin.once('close', resolve)
    // The client is gone: nothing more can be answered.
    stdout.once('error', () => resolve())
  })
  await server.connect(transport)
  await ended
  await transport.settled(settleMs)
  await server.close()
}

/** Options of {@link serveMcpHttp}. */
export interface ServeMcpHttpOptions extends McpToolServerOptions {
  /** 0 = a free port. @default 0 */
  port?: number
  /** @default '127.0.0.1' */
  host?: string
  /** The largest request body read; a larger one is answered 413. @default 4 MiB */
  maxMessageBytes?: number
}

/** A running Streamable HTTP MCP endpoint. */
export interface McpHttpEndpoint {
  /** The endpoint, e.g. `http://127.0.0.1:43117/mcp`. */
  url: string
  port: number
  /** Stops listening and cuts open connections. */
  close(): Promise<void>
  [Symbol.asyncDispose](): Promise<void>
}

/** The path of the MCP endpoint on the HTTP server. */
export const MCP_HTTP_PATH = '/mcp'

/**
 * Serves `tools` over MCP Streamable HTTP at `http://{host}:{port}/mcp`, stateless (no session: every POST is
 * answered on its own, as JSON), with DNS-rebinding protection (only `Host: 127.0.0.1:{port}` / `localhost:{port}`
 * when bound to a loopback address). Other paths are 404, other methods 405.
 */
export async function serveMcpHttp(tools: ReadonlyArray<AnyTool>, options: ServeMcpHttpOptions = {}): Promise<McpHttpEndpoint> {
  const { port: wanted = 0, host = '127.0.0.1', maxMessageBytes, ...serverOptions } = options
  const sockets = new Set<Socket>()
  let allowedHosts: string[] = []

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const path = (req.url ?? '/').split('?')[0]
    if (path !== MCP_HTTP_PATH) return sendError(res, 404, `Not found: the MCP endpoint is ${MCP_HTTP_PATH}`)
    if (req.method !== 'POST') return sendError(res, 405, 'Method not allowed: this stateless MCP endpoint takes POST only')
    const server = createMcpToolServer(tools, serverOptions)
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
      ...(maxMessageBytes === undefined ? {} : { maxRequestBodySize: maxMessageBytes }),
      ...(allowedHosts.length === 0 ? {} : { enableDnsRebindingProtection: true, allowedHosts }),
    })
    res.on('close', () => {
      void transport.close()
      void server.close()
    })
    await server.connect(transport)
    await transport.handleRequest(req, res)
  }

  const http = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) sendError(res, 500, `Internal error: ${error instanceof Error ? error.message : String(error)}`)
      else res.destroy()
    })
  })
  http.on('connection', (socket) => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
  })
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject)
    http.listen(wanted, host, () => {
      http.off('error', reject)
      resolve()
    })
  })
  const { port } = http.address() as AddressInfo
  if (host === '127.0.0.1' || host === 'localhost' || host === '::1') allowedHosts = [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`]
  const urlHost = host.includes(':') ? `[${host}]` : host

  let closed: Promise<void> | undefined
  const close = (): Promise<void> => {
    closed ??= new Promise<void>((resolve) => {
      for (const socket of sockets) socket.destroy()
      http.close(() => resolve())
    })
    return closed
  }
  return { url: `http://${urlHost}:${port}${MCP_HTTP_PATH}`, port, close, [Symbol.asyncDispose]: close }
}

function sendError(res: ServerResponse, status: number, message: string): void {
  const body = JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null })
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) })
  res.end(body)
}
