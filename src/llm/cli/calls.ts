import { defineCommand } from '../../cli/define-command.ts'
import { wholeNumberFlag } from '../../cli/flags.ts'
import { BenchError } from '../../core/errors.ts'
import { DEFAULT_CALL_LOG_DIR, type LoggedCall, readCallLog } from '../call-log.ts'

function summaryLine(call: LoggedCall): string {
  const { entry } = call
  const outcome = entry.outcome.kind === 'error' ? `error ${entry.outcome.code}` : entry.cached ? 'cached' : 'response'
  const tokens = entry.usage === null ? '-' : String(entry.usage.totalTokens)
  return [call.id, entry.model, entry.purpose ?? '-', outcome, `${entry.latencyMs} ms`, `${tokens} tokens`].join('  ')
}

/** `agent-bench calls [ID]`: list logged model calls, or print one as JSON. */
export const command = defineCommand({
  name: 'calls',
  summary: 'List the logged model calls, or print one call (request, response, usage) by id',
  description: `Reads the LLM call log (one JSON line per call, keys redacted). Without an id, lists the calls, one line each:
id, model, purpose, outcome, latency, tokens. With an id, prints that call as JSON, its tool schemas restored.`,
  positionals: { usage: '[call-id]', min: 0, max: 1 },
  options: {
    dir: { type: 'string', value: 'DIR', description: 'call log folder (BENCH_LLM_LOG_DIR)', default: DEFAULT_CALL_LOG_DIR },
    limit: { type: 'string', value: 'N', description: 'list only the last N calls' },
  },
  async run({ values, positionals: [id] }) {
    const dir = values.dir ?? DEFAULT_CALL_LOG_DIR
    if (id !== undefined) {
      for (const call of readCallLog(dir)) {
        if (call.id === id) {
          console.log(JSON.stringify({ id: call.id, ...call.entry }, null, 2))
          return 0
        }
      }
      throw new BenchError('ERR_CALL_NOT_FOUND', `No call ${JSON.stringify(id)} in ${dir}.`, { hint: 'List the calls with `agent-bench calls`, or pass the --dir the run wrote to.' })
    }
    const lines = [...readCallLog(dir)].map(summaryLine)
    const limit = wholeNumberFlag('--limit', values.limit, { min: 1, example: 20 }) ?? lines.length
    console.log(lines.length === 0 ? `No calls logged in ${dir}.` : lines.slice(-limit).join('\n'))
    return 0
  },
})
