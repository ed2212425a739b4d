import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createExternalAgent } from '../agent/external-agent.ts'
import { REPO_ROOT } from '../../fixtures/arte-e2e/harness.ts'
import { createRulesJudge } from './judge/rules-judge.ts'
import { runAndJudge, scenarioTools } from './run-task.ts'
import { mpcbenchSettingsFromEnv } from './settings.ts'
import type { Task } from './task.ts'
import { mpcbenchRunSetup } from './vitest/define-mpcbench-bench.ts'
import { runCli } from '../cli/run-cli.ts'
import { mpcbenchCommands } from './cli/commands.ts'
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
    expect(mpcbenchSettingsFromEnv({ MPCBENCH_AGENT_URL: url, MPCBENCH_AGENT_TIMEOUT_MS: '5000' })).toMatchObject({ agent: { url, timeoutMs: 5000, maxRetries: 1 }, trials: 1 })
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
    expect(received[0]).toEqual({ taskId: 'lumen_contact_test', userPrompt: 'Who is on the team?', tools: { mcpUrl: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/) } })
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
    await expect(runCli(mpcbenchCommands, [...args, '--agent-model', 'baseline'])).resolves.toBe(1)
  })
})
