import { existsSync } from 'node:fs'
import { resolve } from 'node:path'
import { FlagValueError, missingFlagPathError } from '../../cli/flag-value-error.ts'
import type { McpFlagValues, McpToolSource, OpenedMcpTools } from '../../mcp/mcp-command.ts'
import { createEmailTools, type InboxContents, inboxContents } from '../email-tools.ts'
import { arteSystemPrompt } from '../run-arte-task.ts'
import { arteSettingsFromEnv } from '../settings.ts'
import { EmailStore } from '../store/email-store.ts'
import { EmailStoreWorker } from '../store/store-worker.ts'
import { isDay } from '../store/normalize.ts'

/** The warning of a server whose inbox and day show no email (every search returns `[]`), or undefined. */
export function mcpScopeWarning(contents: InboxContents, inbox: string, queryDate: string, db: string): string | undefined {
  if (contents.kind === 'in-scope') return undefined
  const [problem, fix] =
    contents.kind === 'empty'
      ? [
          `the inbox ${inbox} holds no email in ${db}`,
          `pass an --inbox this database holds (the demo mailbox: e.g. --inbox maya.okafor@tamsinridge.example --query-date 2023-03-01), or a --db that holds this mailbox.`,
        ]
      : [
          `the inbox ${inbox} has no email sent on or before ${queryDate} in ${db} (its latest is from ${contents.latestDay})`,
          `pass a later --query-date, e.g. --query-date ${contents.latestDay}.`,
        ]
  return `agent-bench mcp: warning: ${problem}: every search_emails returns [] and read_email finds nothing.\n  Fix: ${fix}`
}

function required(values: McpFlagValues, name: string, example: string): string {
  const value = values[name]
  if (typeof value !== 'string' || value.trim() === '') {
    throw new FlagValueError(`\`--db\` needs \`--${name}\`.`, { hint: `Pass e.g. --${name} ${example}.` })
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
    inbox: { arg: 'address', description: "ART-E: the mailbox owner's address; only that inbox's mail is visible" },
    'query-date': { arg: 'day', description: 'ART-E: YYYY-MM-DD; only mail sent on or before that day is visible' },
  },
  async open(values): Promise<OpenedMcpTools> {
    const db = resolve(required(values, 'db', '.tmp/arte/demo.db'))
    const inbox = required(values, 'inbox', 'maya.okafor@tamsinridge.example')
    const queryDate = required(values, 'query-date', '2023-03-01').slice(0, 10)
    if (!isDay(queryDate)) {
      throw new FlagValueError(`Expected \`--query-date\` to be a day YYYY-MM-DD, got ${JSON.stringify(values['query-date'])}.`, {
        hint: 'Pass e.g. --query-date 2001-05-14.',
      })
    }
    const { toolTimeoutMs, readMaxChars } = arteSettingsFromEnv()
    let store: EmailStore | EmailStoreWorker
    try {
      store = toolTimeoutMs > 0 ? await EmailStoreWorker.open(db, { timeoutMs: toolTimeoutMs }) : EmailStore.open(db, { readonly: true })
    } catch (error) {
      // A --db that is not there is a bad command line (exit 2); a database that is there but cannot be opened is not.
      throw existsSync(db) ? error : missingFlagPathError(error)
    }
    // A check that fails (a store timeout) does not keep the server from starting.
    const contents = await inboxContents(store, { inbox, queryDate }).catch(() => undefined)
    const warning = contents === undefined ? undefined : mcpScopeWarning(contents, inbox, queryDate, db)
    if (warning !== undefined) console.warn(warning)
    return {
      // The benchmark's own tools: `read_email` cut at ARTE_READ_MAX_CHARS as in `agent-bench arte`.
      tools: createEmailTools(store, { inbox, queryDate }, { maxBodyChars: readMaxChars }),
      description: `the ART-E email tools of ${inbox} up to ${queryDate} (${db})`,
      instructions: arteSystemPrompt({ inbox_address: inbox, query_date: queryDate }),
      close: () => void store.close(),
    }
  },
}
