import { type ChildProcess, execFile, spawn } from 'node:child_process'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { FIXTURE_DATASET, FIXTURE_MAILDIR, REPO_ROOT, fixtureResponder, scratchDir } from '../../../fixtures/arte-e2e/harness.ts'
import { type ScriptedServer, startScriptedServer } from '../../testing/scripted-server.ts'
import { toOpenAITool } from '../../tools/define-tool.ts'
import { createEmailTools } from '../email-tools.ts'
import { readArteResults } from '../results/results.ts'
import { TraceStore } from '../results/trace-store.ts'
import { formatStoredTrace } from '../results/trace-store-format.ts'
import { EmailStore } from '../store/email-store.ts'
import { childEnv } from '../../testing/child-env.ts'
import { scaledMs } from '../../testing/time-scale.ts'

const execFileAsync = promisify(execFile)
const BASE_ENV = childEnv()

/** `agent-bench arte` on the fixture rows in a child process, against the agent at `agentUrl`. */
async function arteWithAgent(dir: string, agentUrl: string, extraArgs: string[] = [], env: Record<string, string> = {}) {
  const files = { db: join(dir, 'mail.db'), results: join(dir, 'results.json'), traces: join(dir, 'traces.db') }
  const args = [
    'bin/agent-bench.js',
    'arte',
    '--config',
    'fixtures/arte-e2e/vitest.config.ts',
    '--dataset',
    FIXTURE_DATASET,
    '--db',
    files.db,
    '--limit',
    '0',
    '--output',
    files.results,
    '--traces-db',
    files.traces,
    '--agent-url',
    agentUrl,
    ...extraArgs,
  ]
  // The report page in the test's folder: the checkout's evaluation/report/ holds the user's own.
  const childEnv = { ...BASE_ENV, ARTE_MAILDIR: FIXTURE_MAILDIR, BENCH_LLM_LOG_DIR: 'off', BENCH_REPORT: join(dir, 'report.html'), ...env }
  try {
    const { stdout, stderr } = await execFileAsync(process.execPath, args, { cwd: REPO_ROOT, env: childEnv, timeout: scaledMs(100_000) })
    return { code: 0, stdout, stderr, files }
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string }
    return { code: typeof failed.code === 'number' ? failed.code : -1, stdout: failed.stdout ?? '', stderr: failed.stderr ?? '', files }
  }
}

describe('agent-bench arte --agent-url (child processes, the example agent driven by the scripted server)', () => {
  const scratch = scratchDir('arte-agent-url')
  let server: ScriptedServer
  let agent: ChildProcess
  let agentUrl: string
  let broken: Server

  beforeAll(async () => {
    server = await startScriptedServer(fixtureResponder())
    agent = spawn(process.execPath, ['--import', 'tsx', 'examples/mcp-agent.ts'], {
      cwd: REPO_ROOT,
      env: { ...BASE_ENV, OPENAI_BASE_URL: server.baseURL, OPENAI_API_KEY: 'scripted', AGENT_MODEL: 'scripted-model', AGENT_PORT: '0', AGENT_MAX_TURNS: '2' },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    agentUrl = await new Promise<string>((resolve, reject) => {
      let output = ''
      const onData = (chunk: Buffer): void => {
        output += chunk.toString('utf8')
        const match = /listening on (http:\/\/127\.0\.0\.1:\d+\/run)/.exec(output)
        if (match?.[1] !== undefined) resolve(match[1])
      }
      agent.stdout?.on('data', onData)
      agent.stderr?.on('data', onData)
      agent.once('exit', (code) => reject(new Error(`example agent exited with ${code}: ${output}`)))
    })
    // A deliberately broken agent: a different failure per task.
    broken = createServer((req, res) => {
      let raw = ''
      req.on('data', (chunk: Buffer) => (raw += chunk.toString('utf8')))
      req.on('end', () => {
        const { taskId } = JSON.parse(raw) as { taskId: string }
        if (taskId === '101') res.writeHead(200, { 'content-type': 'text/html' }).end('<html>not json</html>')
        else if (taskId === '102') res.writeHead(500, { 'content-type': 'application/json' }).end('{"error":"agent crashed"}')
        else if (taskId === '104') res.writeHead(200, { 'content-type': 'application/json' }).end('{"final_answer":"Friday"}')
      })
    })
    await new Promise<void>((resolve) => broken.listen(0, '127.0.0.1', resolve))
  }, scaledMs(60_000))

  afterAll(async () => {
    if (agent?.exitCode === null) agent.kill('SIGTERM')
    broken?.closeAllConnections()
    await new Promise<void>((resolve) => (broken === undefined ? resolve() : broken.close(() => resolve())))
    await server?.close()
    scratch.remove()
  })

  it(
    'scores the example agent like our own loop, with every MCP tool call in the traces',
    async () => {
      const dir = join(scratch.dir, 'example')
      const run = await arteWithAgent(dir, agentUrl)
      expect(run.stderr).not.toContain('Error')
      expect(run.code).toBe(0)
      expect(run.stdout).toContain('exactMatchAccuracy   0.250 [0.046, 0.699] (1/4)')
      const results = readArteResults(run.files.results)
      expect(results.config.model).toBe(`agent:${agentUrl}`)
      const byId = Object.fromEntries(results.taskResults.map((task) => [task.taskId, task]))
      expect(byId['101']).toMatchObject({ agentAnswer: 'room 4b', exactMatch: true, sources: ['<fx-1001@fernwood.example>'], outcome: { kind: 'answered' } })
      expect(byId['102']).toMatchObject({ agentAnswer: 'Harbor Deli', exactMatch: false })
      expect(byId['104']).toMatchObject({ agentAnswer: "I don't know", exactMatch: false })

      const traces = TraceStore.open(run.files.traces)
      try {
        const trace = traces.get(byId['101']?.traceId ?? '')?.trace
        expect(trace?.toolCalls.map(({ name, arguments: args, status, turn }) => ({ name, args, status, turn }))).toEqual([
          { name: 'search_emails', args: { keywords: ['budget', 'review'] }, status: 'ok', turn: 1 },
          { name: 'return_final_answer', args: { answer: 'room 4b', sources: ['<fx-1001@fernwood.example>'] }, status: 'ok', turn: 2 },
        ])
        expect(trace?.toolCalls[0]?.result).toEqual([expect.objectContaining({ message_id: '<fx-1001@fernwood.example>' })])
        expect(trace?.agentTrace).toEqual({ turns: 2, steps: ['search_emails({"keywords":["budget","review"]})'] })
        expect(formatStoredTrace(traces.get(byId['101']?.traceId ?? '')!)).toMatch(
          /Tool calls:\n {2}turn 1 search_emails ok \d+ ms[\s\S]*The external agent's own trace:\n {2}\{"turns":2/,
        )
        expect(traces.get(byId['104']?.traceId ?? '')?.trace.toolCalls.map((call) => call.name)).toEqual(['search_emails', 'search_emails'])
      } finally {
        traces.close()
      }

      // The example agent sent the model exactly the tool schemas our own loop sends.
      const store = EmailStore.open(run.files.db, { readonly: true })
      const ours = createEmailTools(store, { inbox: 'ann.lee@fernwood.example', queryDate: '2003-03-10' }).map(toOpenAITool)
      store.close()
      expect(server.requests[0]?.body.tools).toEqual(ours)
    },
    scaledMs(120_000),
  )

  it(
    'fails each task of a broken agent (not JSON, HTTP 500, a hang, the wrong shape) with a clear message, never a crash',
    async () => {
      const { port } = broken.address() as AddressInfo
      const run = await arteWithAgent(join(scratch.dir, 'broken'), `http://127.0.0.1:${port}/run`, ['--agent-timeout-ms', '1500'], {
        ARTE_AGENT_MAX_RETRIES: '0',
      })
      expect(run.code).toBe(1)
      const results = readArteResults(run.files.results)
      const outcomes = Object.fromEntries(results.taskResults.map((task) => [task.taskId, task.outcome]))
      expect(outcomes['101']).toMatchObject({
        kind: 'error',
        code: 'ERR_AGENT_REPLY',
        message: expect.stringContaining('a body that is not JSON: <html>not json</html>'),
      })
      expect(outcomes['102']).toMatchObject({
        kind: 'error',
        code: 'ERR_AGENT_HTTP',
        message: expect.stringContaining('answered HTTP 500: {"error":"agent crashed"}'),
      })
      expect(outcomes['103']).toMatchObject({ kind: 'error', code: 'ERR_AGENT_TIMEOUT', message: expect.stringContaining('did not answer within 1500 ms') })
      expect(outcomes['104']).toMatchObject({ kind: 'error', code: 'ERR_AGENT_REPLY', message: expect.stringContaining('wrong shape') })
      expect(results.taskResults.every((task) => !task.exactMatch)).toBe(true)
      expect(`${run.stdout}${run.stderr}`).toContain('ERR_AGENT_HTTP')
    },
    scaledMs(120_000),
  )
})
