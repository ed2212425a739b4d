import { existsSync, statSync } from 'node:fs'
import { defineCommand } from '../../cli/define-command.ts'
import { wholeNumberFlag } from '../../cli/flags.ts'
import { BenchError, ConfigError } from '../../core/errors.ts'
import { FlagValueError } from '../../cli/flag-value-error.ts'
import { DEFAULT_CALL_LOG_DIR, type LoggedCall, readCallLog } from '../call-log.ts'
import { modelSettingsFromEnv } from '../default-model.ts'

function summaryLine(call: LoggedCall): string {
  const { entry } = call
  const outcome = entry.outcome.kind === 'error' ? `error ${entry.outcome.code}` : entry.cached ? 'cached' : 'response'
  const tokens = entry.usage === null ? '-' : String(entry.usage.totalTokens)
  return [call.id, entry.model, entry.purpose ?? '-', outcome, `${entry.latencyMs} ms`, `${tokens} tokens`].join('  ')
}

/**
 * The call log folder: `--dir`, else `BENCH_LLM_LOG_DIR` (read by the model settings), else the default. A folder that
 * does not exist, and `BENCH_LLM_LOG_DIR=off` without `--dir`, are errors: nothing could have been logged there.
 */
function callLogDir(flag: string | undefined): string {
  const named = flag === undefined ? 'BENCH_LLM_LOG_DIR, default evaluation/logs/llm' : '--dir'
  const dir = flag ?? modelSettingsFromEnv().callLogDir
  if (dir === false) {
    throw new ConfigError('BENCH_LLM_LOG_DIR=off: the model calls are not logged, so there are none to list.', {
      hint: 'Pass the folder an earlier run logged to with --dir, or unset BENCH_LLM_LOG_DIR (default evaluation/logs/llm) before the run.',
    })
  }
  if (!existsSync(dir)) {
    // Named by --dir: a bad command line (exit 2), as every command's flag that names a missing path.
    throw new (flag === undefined ? ConfigError : FlagValueError)(`The call log folder ${dir} (${named}) does not exist.`, {
      hint: `Pass the folder the run logged to with --dir (or set BENCH_LLM_LOG_DIR to it); runs log to ${DEFAULT_CALL_LOG_DIR} unless BENCH_LLM_LOG_DIR says otherwise.`,
    })
  }
  if (!statSync(dir).isDirectory()) {
    throw new ConfigError(`The call log folder ${dir} (${named}) is a file, not a folder.`, { hint: 'Pass the folder that holds the call log (.jsonl) files.' })
  }
  return dir
}

/** `agent-bench calls [ID]`: list logged model calls, or print one as JSON. */
export const command = defineCommand({
  name: 'calls',
  summary: 'List the logged model calls, or print one call (request, response, usage) by id',
  description: `Reads the LLM call log (one JSON line per call, keys redacted). Without an id, lists the calls, one line each:
id, model, purpose, outcome, latency, tokens. With an id, prints that call as JSON, its tool schemas restored.`,
  positionals: { usage: '[call-id]', min: 0, max: 1 },
  options: {
    dir: { type: 'string', value: 'DIR', description: 'call log folder (default: BENCH_LLM_LOG_DIR, else evaluation/logs/llm)' },
    limit: { type: 'string', value: 'N', description: 'list only the last N calls' },
  },
  async run({ values, positionals: [id] }) {
    const limit = wholeNumberFlag('--limit', values.limit, { min: 1, example: 20 })
    const dir = callLogDir(values.dir)
    if (id !== undefined) {
      for (const call of readCallLog(dir)) {
        if (call.id === id) {
          console.log(JSON.stringify({ id: call.id, ...call.entry }, null, 2))
          return 0
        }
      }
      throw new BenchError('ERR_CALL_NOT_FOUND', `No call ${JSON.stringify(id)} in ${dir}.`, {
        hint: 'List the calls with `agent-bench calls`, or pass the --dir the run wrote to.',
      })
    }
    const lines = [...readCallLog(dir)].map(summaryLine)
    console.log(lines.length === 0 ? `No calls logged in ${dir}.` : lines.slice(-(limit ?? lines.length)).join('\n'))
    return 0
  },
})
