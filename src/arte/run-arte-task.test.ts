import { createServer } from 'node:http'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { createExternalAgent } from '../agent/external-agent.ts'
import { FIXTURE_MAILDIR } from '../../fixtures/arte-e2e/harness.ts'
import { EmailStore } from './store/email-store.ts'
import { importMaildir } from './import/import-maildir.ts'
import { createModel } from '../llm/create-model.ts'
import { createAgentModel } from '../agent/create-agent-model.ts'
import { emptyInboxWarning } from './email-tools.ts'
import { type ReceivedRequest, scriptedError, scriptedToolCalls, startScriptedServer, toolResults } from '../testing/scripted-server.ts'
import { ArteTaskFailedError } from './vitest/define-arte-tests.ts'
import type { ArteRow } from './dataset/row.ts'
import { arteAnnotation, arteSystemPrompt, runArteTask } from './run-arte-task.ts'
import { scaledMs } from '../testing/time-scale.ts'

const row: ArteRow = {
  id: 'launch-1',
  question: 'When is the launch party?',
  answer: 'Friday March 14',
  message_ids: ['<fx-1003@fernwood.example>'],
  inbox_address: 'ann.lee@fernwood.example',
  query_date: '2003-03-04',
  how_realistic: 0.6,
  split: 'test',
}

function modelFor(baseURL: string) {
  return createModel('scripted-model', { env: { OPENAI_BASE_URL: baseURL }, cache: { mode: 'off' }, callLogDir: false, maxRetries: 0 })
}

describe('runArteTask', () => {
  const store = EmailStore.open(':memory:')
  beforeAll(async () => {
    await importMaildir(store, FIXTURE_MAILDIR)
  })
  afterAll(() => store.close())

  it('scopes the tools to the row: mail after query_date is invisible', async () => {
    const seen: string[] = []
    await using server = await startScriptedServer((request: ReceivedRequest) => {
      const results = toolResults(request)
      if (results.length === 0) return scriptedToolCalls([{ name: 'search_emails', arguments: { keywords: ['launch'] } }])
      seen.push(results[0]!.content)
      return scriptedToolCalls([{ name: 'return_final_answer', arguments: { answer: "I don't know", sources: [] } }])
    })
    const run = await runArteTask({ row, store, model: modelFor(server.baseURL), dataset: 'fixture.jsonl' })
    expect(seen).toEqual(['[]']) // the launch email is dated 2003-03-05, after the row's query date
    expect(server.requests[0]!.body.messages?.[0]?.content).toBe(arteSystemPrompt(row))
    expect(run.meta).toMatchObject({
      taskId: 'launch-1',
      agentAnswer: "I don't know",
      exactMatch: false,
      semanticScore: 0,
      outcome: { kind: 'answered', via: 'final-tool' },
      inboxAddress: 'ann.lee@fernwood.example',
      queryDate: '2003-03-04',
      split: 'test',
      dataset: 'fixture.jsonl',
    })
    expect(structuredClone(run.meta)).toEqual(run.meta)
    expect(arteAnnotation(run.meta, run.trace)).toMatch(
      /^EM=0 J=0\.00 answered in 2 turn\(s\), \d+ tokens, trace [0-9a-f-]{36}, agent \S+, sources not correct$/,
    )
  })

  it('an external agent (ARTE_AGENT_URL) ends by the test deadline, as a model does, not after its own longer timeout', async () => {
    // An agent that never answers: only the deadline or the agent timeout can end the task.
    const server = createServer(() => {})
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    try {
      const { port } = server.address() as { port: number }
      const agent = createExternalAgent({ url: `http://127.0.0.1:${port}/run`, timeoutMs: scaledMs(60_000), maxRetries: 0 })
      const started = Date.now()
      const { meta } = await runArteTask({ row, store, model: agent, dataset: 'fixture.jsonl', deadline: started + 1_500 })
      expect(meta.outcome).toMatchObject({ kind: 'error', code: 'ERR_AGENT_TIMEOUT' })
      expect(Date.now() - started, 'ended by the deadline, long before the agent timeout').toBeLessThan(scaledMs(10_000))
    } finally {
      server.closeAllConnections()
      await new Promise((resolve) => server.close(resolve))
    }
  })

  it('records a model error as a failed outcome whose message has the error and the last turns', async () => {
    await using server = await startScriptedServer([scriptedError(500, { body: { error: { message: 'scripted outage', type: 'server_error' } } })])
    const run = await runArteTask({ row, store, model: modelFor(server.baseURL), dataset: 'fixture.jsonl' })
    expect(run.meta.outcome.kind).toBe('error')
    expect(run.meta).toMatchObject({ agentAnswer: '', exactMatch: false, semanticScore: 0, sources: [] })
    const failure = new ArteTaskFailedError(run)
    expect(failure.code).toBe('ERR_ARTE_TASK_FAILED')
    expect(failure.message).toMatch(/^ART-E task launch-1: error \S+: .*scripted outage/)
    expect(failure.message).toContain('Last turns:\n  user: When is the launch party?')
    expect(failure.message).toContain(`agent-bench trace ${run.meta.traceId}`)
  })

  it("warns once per inbox when the row's inbox holds no email in the store, naming the inbox and the database; the tasks still run", async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined)
    try {
      const model = createAgentModel('null', { baselineStrategies: [] })
      const missing = { ...row, inbox_address: 'nobody@fernwood.example' }
      const runs = await Promise.all([1, 2, 3].map((id) => runArteTask({ row: { ...missing, id }, store, model, dataset: 'fixture.jsonl' })))
      await runArteTask({ row, store, model, dataset: 'fixture.jsonl' })
      expect(runs.map((run) => run.meta.outcome.kind)).toEqual(['answered', 'answered', 'answered'])
      expect(warn.mock.calls).toEqual([[emptyInboxWarning('nobody@fernwood.example', ':memory:')]])
      expect(warn.mock.calls[0]?.[0]).toContain('nobody@fernwood.example holds no email in :memory:')
    } finally {
      warn.mockRestore()
    }
  })

  it("a failed task's hint gives `agent-bench trace ID` the --db of a traces database that is not the default", async () => {
    await using server = await startScriptedServer([scriptedError(500, { body: { error: { message: 'scripted outage', type: 'server_error' } } })])
    const run = await runArteTask({ row, store, model: modelFor(server.baseURL), dataset: 'fixture.jsonl' })
    const id = run.meta.traceId
    expect(new ArteTaskFailedError(run, join(process.cwd(), 'evaluation/arte/traces.db')).hint).toBe(`Inspect the whole run with \`agent-bench trace ${id}\`.`)
    expect(new ArteTaskFailedError(run, join(process.cwd(), 'ri/traces.db')).hint).toBe(
      `Inspect the whole run with \`agent-bench trace ${id} --db ri/traces.db\`.`,
    )
    expect(new ArteTaskFailedError(run, '/elsewhere/my traces.db').hint).toBe(
      `Inspect the whole run with \`agent-bench trace ${id} --db '/elsewhere/my traces.db'\`.`,
    )
  })
})
