import { afterAll, describe, expect, it } from 'vitest'
import { toOpenAITool, toolTable } from '../tools/define-tool.ts'
import { type EmailInput, EmailStore } from './store/email-store.ts'
import { createEmailTools, type ReadEmailResult, type SearchEmailsResult } from './email-tools.ts'

const mail = (messageId: string, inbox: string, date: string, body: string): EmailInput => ({
  messageId,
  inbox,
  subject: `About ${body.split(' ')[0]}`,
  from: 'boss@corp.test',
  to: [inbox],
  cc: ['cc@corp.test'],
  bcc: [],
  date,
  body,
})

describe('createEmailTools', () => {
  const store = EmailStore.open(':memory:')
  store.insertEmails([
    mail('<a@t>', 'ann@corp.test', '2001-01-10T10:00:00.000Z', 'Budget meeting moved to Tuesday'),
    mail('<b@t>', 'ann@corp.test', '2001-02-10T10:00:00.000Z', 'Budget approved by the board'),
    mail('<c@t>', 'bob@corp.test', '2001-01-10T10:00:00.000Z', 'Budget secrets for Bob only'),
  ])
  afterAll(() => store.close())
  const tools = toolTable(createEmailTools(store, { inbox: 'ann@corp.test', queryDate: '2001-01-31' }))
  const call = async <R>(name: string, args: unknown): Promise<R> => {
    const tool = tools[name]
    if (tool === undefined) throw new Error(`no tool ${name}`)
    return (await tool.handler(tool.parameters.parse(args), {})) as R
  }

  it('offers search_emails, read_email and a final return_final_answer, with JSON Schemas for the model', () => {
    expect(Object.keys(tools)).toEqual(['search_emails', 'read_email', 'return_final_answer'])
    expect(tools.return_final_answer?.final).toBe(true)
    const search = toOpenAITool(tools.search_emails!)
    expect(search.function.parameters).toMatchObject({ type: 'object', required: ['keywords'], properties: { max_results: { maximum: 10 } } })
    expect(search.function.description).toContain('ann@corp.test')
  })

  it('searches only the task inbox up to its query date', async () => {
    const hits = await call<SearchEmailsResult[]>('search_emails', { keywords: ['budget'] })
    expect(hits).toEqual([
      { message_id: '<a@t>', subject: 'About Budget', date: '2001-01-10T10:00:00.000Z', from: 'boss@corp.test', snippet: expect.stringContaining('[Budget]') },
    ])
    expect(await call('search_emails', { keywords: ['budget'], sent_after: '2001-01-11' })).toEqual([])
  })

  it('rejects bad arguments through the zod schema', () => {
    expect(tools.search_emails?.parameters.safeParse({ keywords: ['x'], max_results: 11 }).success).toBe(false)
    expect(tools.search_emails?.parameters.safeParse({ keywords: ['x'], sent_after: '2001-02-30' }).success).toBe(false)
    expect(tools.search_emails?.parameters.safeParse({ keywords: 'x' }).success).toBe(false)
  })

  it('reads an email in scope with its recipients, and returns an error for others', async () => {
    expect(await call<ReadEmailResult>('read_email', { message_id: '<a@t>' })).toEqual({
      message_id: '<a@t>',
      date: '2001-01-10T10:00:00.000Z',
      subject: 'About Budget',
      from: 'boss@corp.test',
      to: ['ann@corp.test'],
      cc: ['cc@corp.test'],
      bcc: [],
      body: 'Budget meeting moved to Tuesday',
    })
    for (const id of ['<b@t>', '<c@t>', '<zzz@t>']) {
      expect(await call<ReadEmailResult>('read_email', { message_id: id })).toEqual({ error: expect.stringContaining('No email with message_id') })
    }
  })

  it('returns the final answer as given', async () => {
    expect(await call('return_final_answer', { answer: 'Tuesday', sources: ['<a@t>'] })).toEqual({ answer: 'Tuesday', sources: ['<a@t>'] })
  })
})
