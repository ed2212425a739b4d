/**
 * An agent you can benchmark with `agent-bench arte --agent-url` (or MPCBENCH_AGENT_URL): an HTTP server that takes
 * a task, reads the task's tools from the MCP endpoint the harness gives it, runs its own tool loop with any
 * OpenAI-compatible model, and answers. Copy it and put your own prompts and loop in.
 *
 *   OPENAI_API_KEY=... AGENT_MODEL=gpt-4.1-mini npx tsx examples/mcp-agent.ts      # listens on 127.0.0.1:3000
 *   agent-bench arte --agent-url http://127.0.0.1:3000/run
 *
 * Environment: AGENT_MODEL (required), OPENAI_BASE_URL / OPENAI_API_KEY (the openai SDK's), AGENT_PORT (default 3000,
 * 0 = a free port), AGENT_MAX_TURNS (default 10).
 */
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import OpenAI from 'openai'
import type { ChatCompletionMessageParam, ChatCompletionTool } from 'openai/resources/chat/completions'

/** The request: ART-E sends `question`, `inboxAddress`, `queryDate`; MPCBench sends `userPrompt`. */
interface TaskRequest {
  taskId: string
  question?: string
  userPrompt?: string
  inboxAddress?: string
  queryDate?: string
  tools: { mcpUrl: string }
}

/** The reply the harness scores: `answer` is required. */
interface TaskReply {
  answer: string
  sources?: string[]
  rationale?: string
  trace?: unknown
}

const model = process.env.AGENT_MODEL
if (model === undefined || model === '') throw new Error('Set AGENT_MODEL to the model id your OpenAI-compatible server serves.')
const maxTurns = Number(process.env.AGENT_MAX_TURNS ?? 10)
const openai = new OpenAI({ apiKey: process.env.OPENAI_API_KEY ?? 'not-needed' })

/** Our own loop: ask the model, run the tool calls it makes through MCP, until it answers or the turns run out. */
async function solve(task: TaskRequest): Promise<TaskReply> {
  const mcp = new Client({ name: 'example-agent', version: '1.0.0' })
  await mcp.connect(new StreamableHTTPClientTransport(new URL(task.tools.mcpUrl)))
  try {
    const { tools } = await mcp.listTools()
    const openaiTools: ChatCompletionTool[] = tools.map((tool) => ({
      type: 'function',
      function: { name: tool.name, description: tool.description ?? '', parameters: tool.inputSchema },
    }))
    const messages: ChatCompletionMessageParam[] = [
      { role: 'system', content: mcp.getInstructions() ?? 'Answer the question with the tools you have.' },
      { role: 'user', content: task.question ?? task.userPrompt ?? '' },
    ]
    const steps: string[] = []
    for (let turn = 1; turn <= maxTurns; turn++) {
      const completion = await openai.chat.completions.create({ model: model as string, messages, tools: openaiTools })
      const reply = completion.choices[0]?.message
      if (reply === undefined) throw new Error('the model returned no choice')
      messages.push(reply)
      const calls = (reply.tool_calls ?? []).filter((call) => call.type === 'function')
      if (calls.length === 0) return { answer: reply.content ?? '', trace: { turns: turn, steps } }
      for (const call of calls) {
        let args: Record<string, unknown>
        try {
          args = JSON.parse(call.function.arguments || '{}') as Record<string, unknown>
        } catch {
          messages.push({ role: 'tool', tool_call_id: call.id, content: 'Error: the arguments are not JSON; call again.' })
          continue
        }
        if (call.function.name === 'return_final_answer') {
          await mcp.callTool({ name: call.function.name, arguments: args })
          const sources = Array.isArray(args.sources) ? args.sources.map(String) : []
          return { answer: String(args.answer ?? ''), sources, trace: { turns: turn, steps } }
        }
        const result = await mcp.callTool({ name: call.function.name, arguments: args })
        const text = (result.content as Array<{ type: string; text?: string }>).map((part) => part.text ?? '').join('\n')
        steps.push(`${call.function.name}(${call.function.arguments})`)
        messages.push({ role: 'tool', tool_call_id: call.id, content: text })
      }
    }
    return { answer: "I don't know", rationale: `no answer after ${maxTurns} turns`, trace: { turns: maxTurns, steps } }
  } finally {
    await mcp.close()
  }
}

const server = createServer((req, res) => {
  const send = (status: number, body: unknown): void => {
    res.writeHead(status, { 'content-type': 'application/json' })
    res.end(JSON.stringify(body))
  }
  if (req.method !== 'POST') return send(405, { error: 'POST a task' })
  let raw = ''
  req.on('data', (chunk: Buffer) => (raw += chunk.toString('utf8')))
  req.on('end', () => {
    let task: TaskRequest
    try {
      task = JSON.parse(raw) as TaskRequest
    } catch {
      return send(400, { error: 'the body is not JSON' })
    }
    solve(task).then(
      (reply) => send(200, reply),
      (error: unknown) => send(500, { error: error instanceof Error ? error.message : String(error) }),
    )
  })
})

server.listen(Number(process.env.AGENT_PORT ?? 3000), '127.0.0.1', () => {
  const { port } = server.address() as AddressInfo
  console.log(`example agent listening on http://127.0.0.1:${port}/run (model ${model})`)
})
