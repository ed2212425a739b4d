/**
 * The "plain" ART-E task of the harness perf (`harness-perf.ts`): what a hand-written script does for one row with
 * the openai SDK and our `EmailStore`, nothing more: ask the model (the scripted server) with the three email tools,
 * run the `search_emails` call it makes against the store, send the result back, read the final answer and compare it
 * to the ground truth. No call log, no traces, no retries beyond the SDK's. Shared by the plain Node script and the
 * plain Vitest (`test.concurrent.for`) variants, so both run the same code per task.
 */
import OpenAI from 'openai'
import type { ChatCompletionMessageParam, ChatCompletionTool } from 'openai/resources/chat/completions'
import { EmailStore } from '../../src/arte/store/email-store.ts'
import { createEmailTools } from '../../src/arte/email-tools.ts'
import { toOpenAITool } from '../../src/tools/define-tool.ts'

/** The fields of an ART-E row the plain task reads. */
export interface PlainRow {
  id: string | number
  question: string
  answer: string
  inbox_address: string
  query_date: string
}

/** Runs one row; resolves with whether the final answer matched exactly. */
export type PlainTask = (row: PlainRow) => Promise<boolean>

/** A plain per-task function over the scripted server at `baseURL` and the email database at `dbPath`. */
export function createPlainTask(baseURL: string, dbPath: string): { run: PlainTask; close(): void } {
  const client = new OpenAI({ baseURL, apiKey: 'perf-placeholder', maxRetries: 0 })
  const store = EmailStore.open(dbPath, { readonly: true })
  // Computed once: a script would not rebuild its tool list per task (descriptions name no inbox here).
  const tools: ChatCompletionTool[] = createEmailTools(store, { inbox: 'inbox', queryDate: '2100-01-01' }).map(toOpenAITool)
  const run: PlainTask = async (row) => {
    const scope = { inbox: row.inbox_address, queryDate: row.query_date.slice(0, 10) }
    const messages: ChatCompletionMessageParam[] = [
      { role: 'system', content: `You answer questions about the mailbox of ${row.inbox_address}.` },
      { role: 'user', content: row.question },
    ]
    for (let turn = 0; turn < 4; turn++) {
      const completion = await client.chat.completions.create({ model: 'perf-plain', messages, tools })
      const message = completion.choices[0]?.message
      const call = message?.tool_calls?.[0]
      if (message === undefined || call === undefined || call.type !== 'function') return false
      const args = JSON.parse(call.function.arguments) as { keywords?: string[]; answer?: string }
      if (call.function.name === 'return_final_answer') return args.answer === row.answer
      const hits = store.search({ keywords: args.keywords ?? [], maxResults: 10 }, scope)
      messages.push(message, { role: 'tool', tool_call_id: call.id, content: JSON.stringify(hits) })
    }
    return false
  }
  return { run, close: () => store.close() }
}

/** At most `limit` calls of the returned wrapper run at once; the rest wait in order. */
export function limiter(limit: number): <T>(task: () => Promise<T>) => Promise<T> {
  let active = 0
  const waiting: Array<() => void> = []
  return async <T>(task: () => Promise<T>): Promise<T> => {
    if (active >= limit) await new Promise<void>((resolve) => waiting.push(resolve))
    active++
    try {
      return await task()
    } finally {
      active--
      waiting.shift()?.()
    }
  }
}
