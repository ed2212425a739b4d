import { resolve } from 'node:path'
import { ConfigError } from '../../core/errors.ts'
import type { McpFlagValues, McpToolSource, OpenedMcpTools } from '../../mcp/mcp-command.ts'
import { createEmailTools } from '../email-tools.ts'
import { arteSystemPrompt } from '../run-arte-task.ts'
import { arteSettingsFromEnv } from '../settings.ts'
import { EmailStore } from '../store/email-store.ts'
import { EmailStoreWorker } from '../store/store-worker.ts'
import { isDay } from '../store/normalize.ts'

function required(values: McpFlagValues, name: string, example: string): string {
  const value = values[name]
  if (typeof value !== 'string' || value.trim() === '') {
    throw new ConfigError(`\`--db\` needs \`--${name}\`.`, { hint: `Pass e.g. --${name} ${example}.` })
  }
  return value.trim()
}

/**
 * `agent-bench mcp --db FILE --inbox ADDR --query-date DATE`: the three ART-E email tools, scoped to that inbox and day,
 * reading the store on a worker thread within `ARTE_TOOL_TIMEOUT_MS` per call (0: on the server's thread), with the
 * benchmark's `ARTE_READ_MAX_CHARS`.
 */
export const arteMcpToolSource: McpToolSource = {
  selectedBy: 'db',
  synopsis: 'agent-bench mcp --db FILE --inbox ADDR --query-date YYYY-MM-DD [--http PORT]     (ART-E)',
  flags: {
    db: { arg: 'file', description: 'ART-E: email database (built by `agent-bench import-enron` or `agent-bench arte`), opened read-only' },
    inbox: { arg: 'address', description: 'ART-E: the mailbox owner\'s address; only that inbox\'s mail is visible' },
    'query-date': { arg: 'day', description: 'ART-E: YYYY-MM-DD; only mail sent on or before that day is visible' },
  },
  async open(values): Promise<OpenedMcpTools> {
    const db = resolve(required(values, 'db', '.tmp/arte/demo.db'))
    const inbox = required(values, 'inbox', 'ann.lee@fernwood.example')
    const queryDate = required(values, 'query-date', '2003-03-10').slice(0, 10)
    if (!isDay(queryDate)) {
      throw new ConfigError(`Expected \`--query-date\` to be a day YYYY-MM-DD, got ${JSON.stringify(values['query-date'])}.`, { hint: 'Pass e.g. --query-date 2001-05-14.' })
    }
    const { toolTimeoutMs, readMaxChars } = arteSettingsFromEnv()
    const store = toolTimeoutMs > 0 ? await EmailStoreWorker.open(db, { timeoutMs: toolTimeoutMs }) : EmailStore.open(db, { readonly: true })
    return {
      // The benchmark's own tools: `read_email` cut at ARTE_READ_MAX_CHARS as in `agent-bench arte`.
      tools: createEmailTools(store, { inbox, queryDate }, { maxBodyChars: readMaxChars }),
      description: `the ART-E email tools of ${inbox} up to ${queryDate} (${db})`,
      instructions: arteSystemPrompt({ inbox_address: inbox, query_date: queryDate }),
      close: () => void store.close(),
    }
  },
}
