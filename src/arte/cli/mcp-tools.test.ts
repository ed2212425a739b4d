import { join } from 'node:path'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { REPO_ROOT, scratchDir } from '../../../fixtures/arte-e2e/harness.ts'
import { toOpenAITool } from '../../tools/define-tool.ts'
import { createEmailTools } from '../email-tools.ts'
import { arteSystemPrompt } from '../run-arte-task.ts'
import { type EmailInput, EmailStore } from '../store/email-store.ts'
import { childEnv } from '../../testing/child-env.ts'
import { executeToolCall } from '../../tools/execute-tool-call.ts'
import { toolTable } from '../../tools/define-tool.ts'
import { arteMcpToolSource } from './mcp-tools.ts'

const mail = (messageId: string, inbox: string, date: string, body: string): EmailInput => ({
  messageId,
  inbox,
  subject: `About ${body.split(' ')[0]}`,
  from: 'boss@corp.test',
  to: [inbox],
  cc: [],
  bcc: [],
  date,
  body,
})

const text = (result: object): string => {
  const content = (result as { content: Array<{ type: string; text?: string }> }).content
  return content.map((part) => part.text ?? '').join('')
}

describe('agent-bench mcp (ART-E, stdio, a child process spoken to by the official MCP client)', () => {
  const scratch = scratchDir('arte-mcp')
  const db = join(scratch.dir, 'mail.db')
  const scope = { inbox: 'ann@corp.test', queryDate: '2001-01-31' }
  let client: Client
  let stderr = ''

  beforeAll(async () => {
    const store = EmailStore.open(db)
    store.insertEmails([
      mail('<in-scope@t>', 'ann@corp.test', '2001-01-10T10:00:00.000Z', 'Budget meeting moved to Tuesday'),
      mail('<too-late@t>', 'ann@corp.test', '2001-02-10T10:00:00.000Z', 'Budget approved by the board'),
      mail('<other-inbox@t>', 'bob@corp.test', '2001-01-10T10:00:00.000Z', 'Budget secrets for Bob only'),
    ])
    store.close()
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: ['bin/agent-bench.js', 'mcp', '--db', db, '--inbox', scope.inbox, '--query-date', scope.queryDate],
      cwd: REPO_ROOT,
      env: childEnv(),
      stderr: 'pipe',
    })
    transport.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8')
    })
    client = new Client({ name: 'mcp-tools-test', version: '1.0.0' })
    await client.connect(transport)
  })

  afterAll(async () => {
    await client?.close()
    scratch.remove()
  })

  it('initializes with the task prompt as instructions, and lists the tools with the JSON Schemas our agent loop sends the model', async () => {
    expect(client.getServerVersion()?.name).toBe('agent-bench')
    const instructions = client.getInstructions()
    expect(instructions).toBe(arteSystemPrompt({ inbox_address: scope.inbox, query_date: scope.queryDate }))
    expect(instructions).toContain('mailbox of ann@corp.test')
    expect(instructions).toContain(scope.queryDate)
    expect(instructions).toContain('return_final_answer')
    const { tools } = await client.listTools()
    const store = EmailStore.open(db, { readonly: true })
    const expected = createEmailTools(store, scope).map(toOpenAITool)
    store.close()
    expect(tools.map((tool) => ({ name: tool.name, description: tool.description, parameters: tool.inputSchema }))).toEqual(
      expected.map((tool) => tool.function),
    )
  })

  it('searches and reads only that inbox up to the query date', async () => {
    const search = await client.callTool({ name: 'search_emails', arguments: { keywords: ['budget'] } })
    expect(search.isError).toBeFalsy()
    expect(JSON.parse(text(search)).map((hit: { message_id: string }) => hit.message_id)).toEqual(['<in-scope@t>'])
    const read = await client.callTool({ name: 'read_email', arguments: { message_id: '<in-scope@t>' } })
    expect(JSON.parse(text(read))).toMatchObject({ message_id: '<in-scope@t>', body: 'Budget meeting moved to Tuesday' })
  })

  it("refuses another inbox's message and mail after the query date", async () => {
    for (const id of ['<other-inbox@t>', '<too-late@t>']) {
      const read = await client.callTool({ name: 'read_email', arguments: { message_id: id } })
      expect(JSON.parse(text(read))).toEqual({ error: expect.stringContaining(`No email with message_id "${id}" in this mailbox (on or before 2001-01-31)`) })
    }
    const late = await client.callTool({ name: 'search_emails', arguments: { keywords: ['approved'], sent_after: '2001-02-01' } })
    expect(JSON.parse(text(late))).toEqual([])
  })

  it("answers bad arguments and unknown tools with the agent loop's messages, as isError results", async () => {
    const bad = await client.callTool({ name: 'search_emails', arguments: { keywords: 'budget' } })
    expect(bad.isError).toBe(true)
    expect(text(bad)).toMatch(/^Error: invalid arguments for search_emails:\n.*keywords/s)
    const unknown = await client.callTool({ name: 'delete_email', arguments: {} })
    expect(unknown.isError).toBe(true)
    expect(text(unknown)).toBe('Error: unknown tool "delete_email". Available tools: search_emails, read_email, return_final_answer.')
    expect(stderr).toContain('mcp: search_emails invalid-arguments')
    expect(stderr, 'the inbox has mail on or before the day').not.toContain('warning')
  })
})

describe('agent-bench mcp (ART-E) reads the benchmark settings', () => {
  const scratch = scratchDir('arte-mcp-settings')
  afterAll(() => {
    vi.unstubAllEnvs()
    scratch.remove()
  })

  it("cuts read_email at ARTE_READ_MAX_CHARS, as the benchmark's own tools do", async () => {
    const db = join(scratch.dir, 'mail.db')
    const store = EmailStore.open(db)
    store.insertEmails([mail('<long@t>', 'ann@corp.test', '2001-01-10T10:00:00.000Z', `Budget ${'words and more words '.repeat(60)}`)])
    vi.stubEnv('ARTE_READ_MAX_CHARS', '100')
    vi.stubEnv('ARTE_TOOL_TIMEOUT_MS', '0')
    const expected = await executeToolCall(
      toolTable(createEmailTools(store, { inbox: 'ann@corp.test', queryDate: '2001-01-31' }, { maxBodyChars: 100 })),
      'read_email',
      { message_id: '<long@t>' },
    )
    store.close()
    const opened = await arteMcpToolSource.open({ db, inbox: 'ann@corp.test', 'query-date': '2001-01-31' })
    try {
      const served = await executeToolCall(toolTable(opened.tools), 'read_email', { message_id: '<long@t>' })
      expect(served !== 'aborted' && served.content).toBe(expected !== 'aborted' && expected.content)
      expect(served !== 'aborted' && served.content.length).toBeLessThan(600)
    } finally {
      opened.close()
    }
  })
})

describe('agent-bench mcp (ART-E) on an inbox and day that show no email', () => {
  const scratch = scratchDir('arte-mcp-empty')
  const db = join(scratch.dir, 'mail.db')
  beforeAll(() => {
    const store = EmailStore.open(db)
    store.insertEmails([mail('<a@t>', 'ann@corp.test', '2001-01-10T10:00:00.000Z', 'Budget meeting moved to Tuesday')])
    store.close()
  })
  afterAll(() => {
    vi.restoreAllMocks()
    scratch.remove()
  })

  /** The warnings of a server opened on `inbox` and `day`. */
  const warningsOf = async (inbox: string, day: string): Promise<unknown[][]> => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined)
    warn.mockClear()
    const opened = await arteMcpToolSource.open({ db, inbox, 'query-date': day })
    opened.close()
    return warn.mock.calls
  }

  it('warns once as it starts, naming the inbox and the database, with the fix; not when the inbox has mail on or before the day', async () => {
    expect(await warningsOf('nobody@corp.test', '2001-01-31')).toEqual([
      [
        `agent-bench mcp: warning: the inbox nobody@corp.test holds no email in ${db}: every search_emails returns [] and read_email finds nothing.\n` +
          '  Fix: pass an --inbox this database holds (the demo mailbox: e.g. --inbox maya.okafor@tamsinridge.example --query-date 2023-03-01), or a --db that holds this mailbox.',
      ],
    ])
    expect(await warningsOf('ann@corp.test', '2000-12-31')).toEqual([
      [
        `agent-bench mcp: warning: the inbox ann@corp.test has no email sent on or before 2000-12-31 in ${db} (its latest is from 2001-01-10): every search_emails returns [] and read_email finds nothing.\n` +
          '  Fix: pass a later --query-date, e.g. --query-date 2001-01-10.',
      ],
    ])
    expect(await warningsOf('ann@corp.test', '2001-01-10')).toEqual([])
  })
})
