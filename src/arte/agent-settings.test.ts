import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { describe, expect, it } from 'vitest'
import { runExternalAgent } from '../agent/external-agent.ts'
import { FlagValueError } from '../cli/flags.ts'
import { planArteRun } from './cli/arte.ts'
import { arteAgentTask, arteExternalAgent } from './run-arte-task.ts'
import { arteAgentSettings, arteSettingsFromEnv } from './settings.ts'

describe('the external agent of ART-E', () => {
  it("maps --agent-url, and the seed's --agent / --api-url / --workspace, onto the environment", () => {
    expect(planArteRun(['--agent-url', 'http://127.0.0.1:3000/run', '--workspace', 'ws-1', '--agent-timeout-ms', '9000']).env).toEqual({
      ARTE_AGENT_URL: 'http://127.0.0.1:3000/run',
      WORKSPACE_ID: 'ws-1',
      ARTE_AGENT_TIMEOUT_MS: '9000',
    })
    expect(planArteRun(['--agent', 'support bot', '--api-url', 'https://agents.example/v1/']).env).toEqual({
      ARTE_AGENT_ID: 'support bot',
      API_URL: 'https://agents.example/v1/',
    })
  })

  it('rejects agent flags that do not go together', () => {
    expect(() => planArteRun(['--agent-url', 'http://a/run', '--agent', 'x'])).toThrow(/`--agent-url` and `--agent` both choose the agent/)
    expect(() => planArteRun(['--api-url', 'http://a'])).toThrow(/`--api-url` needs `--agent`/)
    expect(() => planArteRun(['--workspace', 'w'])).toThrow(/`--workspace` needs an external agent/)
    expect(() => planArteRun(['--agent', 'x', '--model-id', 'openai/gpt-4.1'])).toThrow(/an external agent runs its own/)
    // A bad command line, as a bad flag value is (FlagValueError: runCli exits 2, not 1).
    const conflicts = [
      ['--agent-url', 'http://a/run', '--agent', 'x'],
      ['--api-url', 'http://a'],
      ['--workspace', 'w'],
      ['--agent-timeout-ms', '5000'],
      ['--agent', 'x', '--model-id', 'openai/gpt-4.1'],
      ['--use-json', '--dataset', 'x'],
      ['--model-provider', 'mistral'],
    ]
    for (const argv of conflicts) expect(() => planArteRun(argv), argv.join(' ')).toThrow(FlagValueError)
  })

  it('refuses --agent-timeout-ms 0 with an example a real agent could meet', () => {
    expect(() => planArteRun(['--agent-url', 'http://a/run', '--agent-timeout-ms', '0'])).toThrow('Pass e.g. --agent-timeout-ms 120000.')
  })

  it('POSTs to ARTE_AGENT_URL, or to {API_URL}/agents/{ID}/run with agentId and X-Workspace-Id', () => {
    expect(arteSettingsFromEnv({}).agent).toBeUndefined()
    expect(arteAgentSettings({ ARTE_AGENT_URL: 'http://127.0.0.1:3000/run' })).toEqual({
      url: 'http://127.0.0.1:3000/run',
      agentId: undefined,
      workspace: undefined,
      timeoutMs: 120_000,
      maxRetries: 1,
    })
    const seed = arteAgentSettings({ ARTE_AGENT_ID: 'support bot', WORKSPACE_ID: 'ws-1', ARTE_AGENT_MAX_RETRIES: '0' })
    expect(seed).toEqual({
      url: 'http://localhost:8787/agents/support%20bot/run',
      agentId: 'support bot',
      workspace: 'ws-1',
      timeoutMs: 120_000,
      maxRetries: 0,
    })
    expect(arteAgentSettings({ ARTE_AGENT_ID: 'a', API_URL: 'https://agents.example/v1/' })?.url).toBe('https://agents.example/v1/agents/a/run')
    expect(arteExternalAgent(seed!)).toMatchObject({
      kind: 'external',
      id: 'agent:support bot',
      headers: { 'X-Workspace-Id': 'ws-1' },
      body: { agentId: 'support bot' },
    })
    expect(arteAgentTask({ id: 7, question: 'Q?', inbox_address: 'a@b', query_date: '2001-05-14T00:00:00' })).toEqual({
      taskId: '7',
      question: 'Q?',
      inboxAddress: 'a@b',
      queryDate: '2001-05-14',
    })
  })

  it('names a bad setting and its fix', () => {
    expect(() => arteAgentSettings({ ARTE_AGENT_URL: 'http://a/run', ARTE_AGENT_ID: 'x' })).toThrow(
      /Both ARTE_AGENT_URL \(--agent-url\) and ARTE_AGENT_ID \(--agent\) are set/,
    )
    expect(() => arteAgentSettings({ ARTE_AGENT_URL: 'localhost:3000' })).toThrow(
      'Invalid ARTE_AGENT_URL="localhost:3000" (--agent-url): expected an http(s) URL.\n  Fix: Set ARTE_AGENT_URL (or pass --agent-url) to e.g. http://localhost:8787/run.',
    )
    expect(() => arteAgentSettings({ ARTE_AGENT_ID: 'x', API_URL: 'agents' })).toThrow(
      /Invalid API_URL="agents" \(--api-url\).*\n {2}Fix: Set API_URL \(or pass --api-url\)/,
    )
    expect(() => arteAgentSettings({ ARTE_AGENT_URL: 'http://a/run', ARTE_AGENT_TIMEOUT_MS: '0' })).toThrow(/Invalid ARTE_AGENT_TIMEOUT_MS="0"/)
  })

  it("reaches the seed's agent API: the path, the agentId in the body and the X-Workspace-Id header", async () => {
    const seen: Array<{ url: string | undefined; workspace: string | undefined; body: unknown }> = []
    const api = createServer((req, res) => {
      let raw = ''
      req.on('data', (chunk: Buffer) => (raw += chunk.toString('utf8')))
      req.on('end', () => {
        seen.push({ url: req.url, workspace: req.headers['x-workspace-id'] as string | undefined, body: JSON.parse(raw) })
        res.writeHead(200, { 'content-type': 'application/json' }).end('{"answer":"Room 4B"}')
      })
    })
    await new Promise<void>((resolve) => api.listen(0, '127.0.0.1', resolve))
    try {
      const apiUrl = `http://127.0.0.1:${(api.address() as AddressInfo).port}`
      const settings = arteAgentSettings({ ARTE_AGENT_ID: 'support-bot', API_URL: apiUrl, WORKSPACE_ID: 'ws-1' })
      const row = { id: 101, question: 'Which room?', inbox_address: 'ann@corp.test', query_date: '2003-03-10' }
      const trace = await runExternalAgent({ agent: arteExternalAgent(settings!), task: arteAgentTask(row), prompt: row.question, tools: [] })
      expect(trace.outcome).toMatchObject({ kind: 'answered', answer: 'Room 4B' })
      expect(seen).toEqual([
        {
          url: '/agents/support-bot/run',
          workspace: 'ws-1',
          body: {
            agentId: 'support-bot',
            taskId: '101',
            question: 'Which room?',
            inboxAddress: 'ann@corp.test',
            queryDate: '2003-03-10',
            tools: { mcpUrl: expect.any(String) },
          },
        },
      ])
    } finally {
      await new Promise<void>((resolve) => api.close(() => resolve()))
    }
  })
})
