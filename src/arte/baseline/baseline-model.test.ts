import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { EmailStore } from '../store/email-store.ts'
import type { EmailInput } from '../store/email-store.ts'
import { createEmailTools } from '../email-tools.ts'
import type { ChatCompletionMessageParam, ChatRequest, ChatResult } from '../../llm/types.ts'
import { toOpenAITool } from '../../tools/define-tool.ts'
import { runAgent } from '../../agent/run-agent.ts'
import type { AgentTrace } from '../../agent/trace.ts'
import { createBaselineModel } from '../../baseline/baseline-model.ts'
import { arteStrategy } from './arte-strategy.ts'

const INBOX = 'dana.reyes@northwind.test'
const SCOPE = { inbox: INBOX, queryDate: '2024-03-31' }

function mail(n: number, fields: Partial<EmailInput> & Pick<EmailInput, 'subject' | 'body' | 'date'>): EmailInput {
  return { messageId: `<m${n}@northwind.test>`, inbox: INBOX, from: 'ops@northwind.test', to: [INBOX], cc: [], bcc: [], ...fields }
}

const EMAILS: EmailInput[] = [
  mail(1, {
    subject: 'Warehouse audit',
    from: 'priya.shah@northwind.test',
    date: '2024-03-04T15:00:00.000Z',
    body: 'Hi Dana,\n\nThe warehouse audit is scheduled for April 9, 2024. The auditors will arrive at the Tacoma depot at 8:30 am PST.\n\nThanks,\nPriya',
  }),
  mail(2, {
    subject: 'Forklift lease renewal',
    date: '2024-03-06T10:00:00.000Z',
    body: 'The forklift lease renewal comes to $18,400 per year. Legal has approved the contract.',
  }),
  mail(3, {
    subject: 'Lunch order',
    date: '2024-03-07T12:00:00.000Z',
    body: 'We ordered 14 sandwiches for the audit prep meeting on Friday.',
  }),
  mail(4, {
    subject: 'Warehouse audit moved',
    date: '2024-04-20T09:00:00.000Z',
    body: 'The warehouse audit moved to May 2, 2024.',
  }),
]

let store: EmailStore
beforeAll(() => {
  store = EmailStore.open(':memory:')
  store.insertEmails(EMAILS)
})
afterAll(() => store.close())

const SYSTEM = `You are an email search agent. The user's email address is ${INBOX}. Today's date is ${SCOPE.queryDate}.`

function emailTools() {
  return createEmailTools(store, SCOPE)
}

function request(messages: ChatCompletionMessageParam[]): ChatRequest {
  return { messages: [{ role: 'system', content: SYSTEM }, ...messages], tools: emailTools().map(toOpenAITool) }
}

function toolCalls(result: ChatResult): Array<{ name: string; args: Record<string, unknown> }> {
  return (result.message.tool_calls ?? []).map((call) => {
    if (call.type !== 'function') throw new Error('expected a function call')
    return { name: call.function.name, args: JSON.parse(call.function.arguments) as Record<string, unknown> }
  })
}

function assistantCall(id: string, name: string, args: unknown): ChatCompletionMessageParam {
  return { role: 'assistant', content: null, tool_calls: [{ id, type: 'function', function: { name, arguments: JSON.stringify(args) } }] }
}

describe('createBaselineModel', () => {
  const model = createBaselineModel([arteStrategy])

  it('is labelled as the non-LLM baseline, with zero tokens and zero cost', async () => {
    expect(model.kind).toBe('baseline')
    const result = await model.complete(request([{ role: 'user', content: 'When is the warehouse audit?' }]))
    expect(result.model).toBe('baseline (non-LLM)')
    expect(result.usage).toMatchObject({ promptTokens: 0, completionTokens: 0, totalTokens: 0, costUsd: 0 })
    expect(result.message.content).toMatch(/^baseline heuristic: /)
  })

  it('answers in plain text that it cannot help when no known tool is offered', async () => {
    const result = await model.complete({ messages: [{ role: 'user', content: 'Write a poem.' }] })
    expect(result.message.tool_calls).toBeUndefined()
    expect(result.message.content).toMatch(/baseline \(non-LLM\) cannot help/)
    expect(result.finishReason).toBe('stop')
  })

  it('rejects at once when the signal is already aborted', async () => {
    await expect(model.complete({ messages: [] }, { signal: AbortSignal.abort(new Error('stop')) })).rejects.toThrow('stop')
  })
})

describe('baseline on ART-E, step by step', () => {
  const model = createBaselineModel([arteStrategy])
  const user: ChatCompletionMessageParam = { role: 'user', content: 'When is the warehouse audit scheduled?' }

  it('starts with a keyword search', async () => {
    const calls = toolCalls(await model.complete(request([user])))
    expect(calls).toEqual([{ name: 'search_emails', args: { keywords: ['warehouse', 'scheduled', 'audit'] } }])
  })

  it('retries with fewer keywords when the search finds nothing', async () => {
    const calls = toolCalls(
      await model.complete(
        request([
          user,
          assistantCall('a', 'search_emails', { keywords: ['warehouse', 'scheduled', 'audit'] }),
          { role: 'tool', tool_call_id: 'a', content: '[]' },
        ]),
      ),
    )
    expect(calls).toEqual([{ name: 'search_emails', args: { keywords: ['warehouse', 'scheduled'] } }])
  })

  it('reads the top hits in parallel, best match first', async () => {
    const hits = [
      { message_id: '<m3@northwind.test>', subject: 'Lunch order', date: '', from: '', snippet: 'audit prep' },
      { message_id: '<m1@northwind.test>', subject: 'Warehouse audit', date: '', from: '', snippet: 'The [warehouse] [audit] is [scheduled]' },
    ]
    const result = await model.complete(
      request([user, assistantCall('a', 'search_emails', { keywords: ['warehouse'] }), { role: 'tool', tool_call_id: 'a', content: JSON.stringify(hits) }]),
    )
    expect(toolCalls(result).map((c) => c.args.message_id)).toEqual(['<m1@northwind.test>', '<m3@northwind.test>'])
    expect(result.message.tool_calls?.map((c) => c.id)).toEqual(['baseline-t2-c0', 'baseline-t2-c1'])
  })

  it('answers with the asked-for span of the best sentence and cites its email', async () => {
    const read = {
      message_id: '<m1@northwind.test>',
      date: '',
      subject: 'Warehouse audit',
      from: 'priya.shah@northwind.test',
      to: [],
      cc: [],
      bcc: [],
      body: EMAILS[0]?.body,
    }
    const result = await model.complete(
      request([
        user,
        assistantCall('a', 'search_emails', { keywords: ['warehouse'] }),
        { role: 'tool', tool_call_id: 'a', content: '[{"message_id":"<m1@northwind.test>","subject":"Warehouse audit"}]' },
        assistantCall('b', 'read_email', { message_id: '<m1@northwind.test>' }),
        { role: 'tool', tool_call_id: 'b', content: JSON.stringify(read) },
      ]),
    )
    const [call] = toolCalls(result)
    expect(call?.name).toBe('return_final_answer')
    expect(call?.args).toMatchObject({ answer: 'April 9, 2024', sources: ['<m1@northwind.test>'] })
    expect(String(call?.args.rationale)).toMatch(/^baseline heuristic: /)
  })

  it('prefers the newest email read when the question asks for the current state', async () => {
    const read = (n: number, date: string, body: string) => ({ message_id: `<r${n}@x>`, date, subject: 'Audit', from: 'a@x', to: [], cc: [], bcc: [], body })
    const history: ChatCompletionMessageParam[] = [
      { role: 'user', content: 'What is the current date of the warehouse audit?' },
      assistantCall('a', 'search_emails', { keywords: ['warehouse'] }),
      { role: 'tool', tool_call_id: 'a', content: '[{"message_id":"<r1@x>"},{"message_id":"<r2@x>"}]' },
      assistantCall('b', 'read_email', { message_id: '<r1@x>' }),
      { role: 'tool', tool_call_id: 'b', content: JSON.stringify(read(1, '2024-03-01T10:00:00.000Z', 'The warehouse audit date is April 9.')) },
      assistantCall('c', 'read_email', { message_id: '<r2@x>' }),
      { role: 'tool', tool_call_id: 'c', content: JSON.stringify(read(2, '2024-03-20T10:00:00.000Z', 'The warehouse audit date is now April 16.')) },
    ]
    const [call] = toolCalls(await model.complete(request(history)))
    expect(call?.args).toMatchObject({ answer: 'April 16', sources: ['<r2@x>'] })
  })

  it("says it doesn't know after every keyword set found nothing", async () => {
    const history: ChatCompletionMessageParam[] = [{ role: 'user', content: 'Who approved the zeppelin budget?' }]
    for (let i = 0; i < 10; i++) {
      const result = await model.complete(request(history))
      const [call] = toolCalls(result)
      if (call?.name === 'return_final_answer') {
        expect(call.args).toMatchObject({ answer: "I don't know", sources: [] })
        return
      }
      history.push(assistantCall(`s${i}`, 'search_emails', call?.args), { role: 'tool', tool_call_id: `s${i}`, content: '[]' })
    }
    throw new Error('the baseline never gave up')
  })
})

function stable(trace: AgentTrace): unknown {
  return {
    ...trace,
    traceId: undefined,
    startedAt: undefined,
    durationMs: undefined,
    toolCalls: trace.toolCalls.map((call) => ({ ...call, startedAt: undefined, durationMs: undefined })),
  }
}

describe('baseline on ART-E through runAgent', () => {
  const run = (question: string) => runAgent({ model: createBaselineModel([arteStrategy]), system: SYSTEM, user: question, tools: emailTools() })

  it('answers a date question exactly, citing the evidence email', async () => {
    const trace = await run('When is the warehouse audit scheduled?')
    expect(trace.modelKind).toBe('baseline')
    expect(trace.outcome).toMatchObject({ kind: 'answered', answer: 'April 9, 2024', sources: ['<m1@northwind.test>'], via: 'final-tool' })
    expect(trace.usage).toMatchObject({ totalTokens: 0, costUsd: 0 })
    // The email dated after the query date is out of scope, so the moved date never shows up.
    expect(JSON.stringify(trace.messages)).not.toContain('May 2, 2024')
  })

  it('answers an amount question exactly', async () => {
    const trace = await run('How much does the forklift lease renewal cost per year?')
    expect(trace.outcome).toMatchObject({ kind: 'answered', answer: '$18,400', sources: ['<m2@northwind.test>'] })
  })

  it('answers a who-sent question with the sender', async () => {
    const trace = await run('Who sent the email about the warehouse audit?')
    expect(trace.outcome).toMatchObject({ kind: 'answered', answer: 'Priya Shah' })
  })

  it('is deterministic: two runs give the same trace apart from ids and timings', async () => {
    const question = 'What time will the auditors arrive at the depot?'
    const [first, second] = [await run(question), await run(question)]
    expect(first.outcome).toMatchObject({ kind: 'answered', answer: '8:30 am PST' })
    expect(stable(second)).toEqual(stable(first))
  })
})
