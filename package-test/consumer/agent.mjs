// (a) A plain Node ESM consumer: the library's agent loop against an OpenAI-compatible server
// (in the package test, the scripted server; its replies are scripted, not a model's).
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createModel, defineTool, runAgent } from 'vitest-agent-bench'
import { createEmailTools, EmailStore, EmailStoreWorker, scoreAnswer } from 'vitest-agent-bench/arte'
import { z } from 'zod'

const INBOX = 'jane.doe@example.test'
const file = join(mkdtempSync(join(tmpdir(), 'consumer-mail-')), 'mail.db')
const store = EmailStore.open(file)
const base = { inbox: INBOX, from: 'bob.smith@example.test', to: [INBOX], cc: [], bcc: [] }
store.insertEmails([
  {
    ...base,
    messageId: '<m1@example.test>',
    subject: 'Budget review',
    date: '2001-02-01T10:00:00.000Z',
    body: 'The budget review meeting is on March 3 in room 5.',
  },
  { ...base, messageId: '<m2@example.test>', subject: 'Lunch', date: '2001-02-02T10:00:00.000Z', body: 'Lunch on Friday?' },
])
store.close()
// The tools read the store on a worker thread, each call within a time budget (the built worker entry of the package).
const reader = await EmailStoreWorker.open(file, { timeoutMs: 5_000 })

const wordCount = defineTool({
  name: 'word_count',
  description: 'Counts the words of a text.',
  parameters: z.object({ text: z.string() }),
  handler: ({ text }) => ({ words: text.split(/\s+/).filter(Boolean).length }),
})

const model = createModel('scripted-agent', {
  env: { OPENAI_BASE_URL: process.env.SCRIPTED_BASE_URL, OPENAI_API_KEY: 'sk-consumer-test' },
  callLogDir: false,
  cache: { mode: 'off' },
})
const trace = await runAgent({
  model,
  system: 'Answer from the mailbox; finish with return_final_answer.',
  user: 'When is the budget review meeting?',
  tools: [...createEmailTools(reader, { inbox: INBOX, queryDate: '2001-03-01' }), wordCount],
})
await reader.close()
const answer = trace.outcome.kind === 'answered' ? trace.outcome.answer : ''
console.log(JSON.stringify({ outcome: trace.outcome.kind, answer, tools: trace.toolCalls.map((call) => call.name), score: scoreAnswer(answer, 'March 3') }))
