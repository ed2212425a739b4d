import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { createExternalAgent } from '../../agent/external-agent.ts'
import { REPO_ROOT } from '../../../fixtures/arte-e2e/harness.ts'
import { createRulesJudge } from '../judge/rules-judge.ts'
import { judgeRunLog, readJudgeInput, runAndJudge, runTask, scenarioTools } from './run-task.ts'
import { capText, MAX_STORED_TRACE_STRING_CHARS } from '../../core/cap-stored.ts'
import { mpcbenchSettingsFromEnv } from '../settings.ts'
import type { Task } from '../tasks/task.ts'
import { mpcbenchRunSetup } from '../vitest/define-mpcbench-bench.ts'
import { runCli } from '../../cli/run-cli.ts'
import { mpcbenchCommands } from '../cli/commands.ts'
import { RunLogSchema } from './run-log.ts'

const DATA_DIR = join(REPO_ROOT, 'data')
const task: Task = {
  task_id: 'lumen_contact_test',
  task_type: 'planning',
  user_prompt: 'Who is on the team?',
  data_dependencies: { scenario_id: 'lumen_robotics' },
  answer_requirements: ['Names a teammate.'],
  checks: [{ must_mention: ['teammate'] }],
}

describe('MPCBench with an external agent (MPCBENCH_AGENT_URL)', () => {
  let agent: Server
  let url: string
  const received: Array<Record<string, unknown>> = []
  const logDir = mkdtempSync(join(tmpdir(), 'mpcbench-external-'))

  beforeAll(async () => {
    // A fake external agent (the network peer): one tool call through the MCP endpoint, then an answer.
    agent = createServer((req, res) => {
      let raw = ''
      req.on('data', (chunk: Buffer) => (raw += chunk.toString('utf8')))
      req.on('end', async () => {
        const body = JSON.parse(raw) as { tools: { mcpUrl: string } }
        received.push(body)
        const client = new Client({ name: 'fake-mpcbench-agent', version: '1' })
        await client.connect(new StreamableHTTPClientTransport(new URL(body.tools.mcpUrl)))
        await client.callTool({ name: 'Jira__SearchIssuesWithJql', arguments: { jql: 'order by key' } })
        await client.close()
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ answer: 'A teammate: see Jira.', rationale: 'from Jira' }))
      })
    })
    await new Promise<void>((resolve) => agent.listen(0, '127.0.0.1', resolve))
    url = `http://127.0.0.1:${(agent.address() as AddressInfo).port}/run`
  })

  afterAll(async () => {
    agent.closeAllConnections()
    await new Promise<void>((resolve) => agent.close(() => resolve()))
    rmSync(logDir, { recursive: true, force: true })
  })

  it('reads MPCBENCH_AGENT_URL and makes its agent the only one of the matrix', () => {
    expect(mpcbenchSettingsFromEnv({})).toMatchObject({ agent: undefined, trials: 1 })
    expect(mpcbenchSettingsFromEnv({ MPCBENCH_AGENT_URL: url, MPCBENCH_AGENT_TIMEOUT_MS: '5000' })).toMatchObject({
      agent: { url, timeoutMs: 5000, maxRetries: 1 },
      trials: 1,
    })
    expect(() => mpcbenchSettingsFromEnv({ MPCBENCH_AGENT_URL: 'ftp://x' })).toThrow(/Invalid MPCBENCH_AGENT_URL="ftp:\/\/x"/)
    expect(() => mpcbenchSettingsFromEnv({ MPCBENCH_AGENT_URL: url, MPCBENCH_AGENT_MAX_RETRIES: '-1' })).toThrow(/Invalid MPCBENCH_AGENT_MAX_RETRIES="-1"/)
    const setup = mpcbenchRunSetup(REPO_ROOT, { MPCBENCH_AGENT_URL: url, BENCH_AGENT_MODEL: 'baseline' })
    expect(setup.matrix.agents).toEqual([`agent:${url}`])
    expect(setup.externalAgent).toMatchObject({ kind: 'external', url })
  })

  it('POSTs {taskId, userPrompt, tools}, records the tool calls in the run log and judges the answer', async () => {
    const evaluation = await runAndJudge({
      task,
      scenarioId: 'lumen_robotics',
      tools: scenarioTools(DATA_DIR, 'lumen_robotics', 'extended'),
      agent: createExternalAgent({ url }),
      systemMessage: 'You are tested.',
      logDir,
      judges: [createRulesJudge()],
    })
    expect(received[0]).toEqual({
      taskId: 'lumen_contact_test',
      userPrompt: 'Who is on the team?',
      tools: { mcpUrl: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/) },
    })
    const { runLog } = evaluation
    expect(runLog).toMatchObject({ final_answer: 'A teammate: see Jira.', rationale: 'from Jira', agent_model: `agent:${url}`, outcome: { kind: 'answered' } })
    expect(runLog.tool_trace_steps).toEqual(["Step 1: Jira.SearchIssuesWithJql(jql='order by key')"])
    expect(runLog.raw_tool_calls[0]).toMatchObject({ tool_name: 'Jira.SearchIssuesWithJql', status: 'ok' })
    expect(evaluation.judged[0]?.outcome.kind).toBe('scored')
  })

  it('agent-bench run-task --agent-url runs the task on the agent and writes the run log', async () => {
    const taskFile = join(logDir, 'task.json')
    writeFileSync(taskFile, JSON.stringify(task))
    const cliLogDir = join(logDir, 'cli')
    const args = ['run-task', '--task', taskFile, '--agent-url', url, '--data-dir', DATA_DIR, '--log-dir', cliLogDir]
    expect(await runCli(mpcbenchCommands, args)).toBe(0)
    const file = join(cliLogDir, `lumen_contact_test__agent-agent_http___127.0.0.1_${new URL(url).port}_run_run.json`)
    const runLog = RunLogSchema.parse(JSON.parse(readFileSync(file, 'utf8')))
    expect(runLog).toMatchObject({ final_answer: 'A teammate: see Jira.', raw_tool_calls: [{ tool_name: 'Jira.SearchIssuesWithJql' }] })
    // Two flags that both choose the agent: a bad command line, exit 2 as a bad flag value.
    await expect(runCli(mpcbenchCommands, [...args, '--agent-model', 'baseline'])).resolves.toBe(2)
    await expect(runCli(mpcbenchCommands, ['run-and-judge', ...args.slice(1), '--agent-model', 'baseline'])).resolves.toBe(2)
  })
})

describe("MPCBench with an external agent: its answer read as our own agent's, its trace kept, its failure printed", () => {
  let agent: Server
  let base: string
  const logDir = mkdtempSync(join(tmpdir(), 'mpcbench-external-reply-'))
  const longNote = 'y'.repeat(60_000)
  /** The reply body per path: what an agent that follows the MCP instructions (or not) sends. */
  const replies: Record<string, { status: number; body: unknown }> = {
    '/json': {
      status: 200,
      body: { answer: '{"final_answer": "fake answer", "rationale": "fake"}', trace: { steps: ['Slack_search_messages'], note: longNote } },
    },
    '/json-and-rationale': { status: 200, body: { answer: '{"final_answer": "fake answer", "rationale": "from the JSON"}', rationale: 'from the field' } },
    '/fenced-list': { status: 200, body: { answer: '```json\n{"final_answer": ["Tue 10:00", "Wed 14:00"]}\n```' } },
    '/plain': { status: 200, body: { answer: 'Tuesday 10:00 works.', rationale: 'calendars', trace: null } },
    '/number': { status: 200, body: { answer: '42' } },
    '/500': { status: 500, body: { error: 'boom: database connection lost', authorization: 'Bearer sk-audit-secret-123456' } },
  }

  beforeAll(async () => {
    agent = createServer((req, res) => {
      req.resume()
      req.on('end', () => {
        const reply = replies[req.url ?? ''] ?? { status: 404, body: { error: 'no such path' } }
        res.writeHead(reply.status, { 'content-type': 'application/json' }).end(JSON.stringify(reply.body))
      })
    })
    await new Promise<void>((resolve) => agent.listen(0, '127.0.0.1', resolve))
    base = `http://127.0.0.1:${(agent.address() as AddressInfo).port}`
  })

  afterAll(async () => {
    agent.closeAllConnections()
    await new Promise<void>((resolve) => agent.close(() => resolve()))
    rmSync(logDir, { recursive: true, force: true })
  })

  const runOn = async (path: string) =>
    (
      await runTask({
        task,
        scenarioId: 'lumen_robotics',
        tools: scenarioTools(DATA_DIR, 'lumen_robotics'),
        agent: createExternalAgent({ url: `${base}${path}`, maxRetries: 0 }),
        systemMessage: 'Finish with a single JSON object {"final_answer", "rationale"}.',
        logDir,
      })
    ).runLog

  it("reads a JSON answer as final_answer and rationale, as the built-in agent's reply is read", async () => {
    const runLog = await runOn('/json')
    expect(runLog).toMatchObject({ final_answer: 'fake answer', rationale: 'fake', outcome: { kind: 'answered', via: 'json' } })
    // The LLM judge is shown the answer, not the JSON the agent wrapped it in.
    const judged = await judgeRunLog(runLog, task, createRulesJudge(), logDir)
    expect(readJudgeInput(judged.judgeInputFile).final_answer).toBe('fake answer')
  })

  it("keeps the reply's own rationale over the JSON's, a list answer as upstream's JSON, and any other answer as sent", async () => {
    expect(await runOn('/json-and-rationale')).toMatchObject({ final_answer: 'fake answer', rationale: 'from the field' })
    const list = await runOn('/fenced-list')
    expect(list).toMatchObject({ final_answer: '[\n  "Tue 10:00",\n  "Wed 14:00"\n]', rationale: '', final_answer_json: '["Tue 10:00", "Wed 14:00"]' })
    expect(await runOn('/plain')).toMatchObject({ final_answer: 'Tuesday 10:00 works.', rationale: 'calendars', outcome: { kind: 'answered' } })
    // JSON that is not an object is no reply to read an answer from (upstream's runner would crash): the answer as sent.
    expect(await runOn('/number')).toMatchObject({ final_answer: '42', rationale: '', outcome: { kind: 'answered' } })
  })

  it("keeps the agent's trace in the run log as agent_trace, long strings cut as in a stored trace", async () => {
    const runLog = await runOn('/json')
    const agentTrace = runLog.agent_trace as { steps: string[]; note: string }
    expect(agentTrace.steps).toEqual(['Slack_search_messages'])
    expect(agentTrace.note).toBe(capText(longNote, MAX_STORED_TRACE_STRING_CHARS))
    // Written to the file and read back through the schema (the report reads it so).
    const file = join(logDir, `${task.task_id}__agent-agent_http___127.0.0.1_${new URL(base).port}_json_run.json`)
    expect(RunLogSchema.parse(JSON.parse(readFileSync(file, 'utf8'))).agent_trace).toEqual(agentTrace)
    expect((await runOn('/plain')).agent_trace).toBeNull()
  })

  it('run-task and run-and-judge print why the agent failed (status, body, fix) on stderr, redacted', async () => {
    const taskFile = join(logDir, 'task.json')
    writeFileSync(taskFile, JSON.stringify(task))
    const errors: string[] = []
    const spy = vi.spyOn(console, 'error').mockImplementation((text: unknown) => void errors.push(String(text)))
    const log = vi.spyOn(console, 'log').mockImplementation(() => {})
    try {
      const common = ['--task', taskFile, '--agent-url', `${base}/500`, '--data-dir', DATA_DIR, '--log-dir', join(logDir, 'cli')]
      for (const command of ['run-task', 'run-and-judge']) {
        errors.length = 0
        vi.stubEnv('MPCBENCH_AGENT_MAX_RETRIES', '0')
        expect(await runCli(mpcbenchCommands, [command, ...common, ...(command === 'run-and-judge' ? ['--judge-model', 'rules'] : [])])).toBe(1)
        const printed = errors.join('\n')
        expect(printed, command).toContain(
          `agent agent:${base}/500 failed: ERR_AGENT_HTTP: Agent ${base}/500 answered HTTP 500: {"error":"boom: database connection lost"`,
        )
        expect(printed, command).toContain("\n  Fix: See the agent's own log for the failure")
        expect(printed, command).not.toContain('sk-audit-secret-123456')
      }
    } finally {
      spy.mockRestore()
      log.mockRestore()
      vi.unstubAllEnvs()
    }
  })
})
