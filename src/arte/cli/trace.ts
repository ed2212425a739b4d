import { existsSync } from 'node:fs'
import { parseArgs } from 'node:util'
import { DEFAULT_TRACES_DB, TraceStore } from '../results/trace-store.ts'
import { formatStoredTrace } from '../results/trace-store-format.ts'
import { BenchError, ConfigError } from '../../core/errors.ts'
import type { Command } from '../../cli/command.ts'

const usage = `Usage: agent-bench trace <trace-id> [options]

Prints one stored ART-E agent trace: question, ground truth, answer, scores, every message and tool call.

Options:
  --db <file>   traces database (ARTE_TRACES_DB)   default: ${DEFAULT_TRACES_DB}
  --json        print the stored record as JSON
  -h, --help    show this help`

/** The traces database a command reads: `--db`, else `ARTE_TRACES_DB`, else the default; it must exist. */
export function tracesDbFor(flag: string | undefined): string {
  const file = flag ?? process.env.ARTE_TRACES_DB ?? DEFAULT_TRACES_DB
  if (!existsSync(file)) {
    throw new ConfigError(`Traces database ${file} does not exist.`, {
      hint: 'Run the ART-E benchmark first (`agent-bench arte` or `npx vitest run bench/arte`), or pass --db FILE.',
    })
  }
  return file
}

/** `agent-bench trace ID`: print one stored trace. */
export const command: Command = {
  usage,
  async run(argv) {
    let parsed
    try {
      parsed = parseArgs({ args: argv, allowPositionals: true, options: { db: { type: 'string' }, json: { type: 'boolean' } } })
    } catch (error) {
      throw new ConfigError((error as Error).message, { hint: 'Run `agent-bench trace --help` for the options.', cause: error })
    }
    const [id, ...extra] = parsed.positionals
    if (id === undefined || extra.length > 0) {
      throw new ConfigError('Expected exactly one trace id.', { hint: 'Pass a trace id, e.g. from `agent-bench traces --below 0.5` or a results JSON.' })
    }
    const file = tracesDbFor(parsed.values.db)
    using store = TraceStore.open(file)
    const stored = store.get(id)
    if (stored === undefined) {
      throw new BenchError('ERR_TRACE_NOT_FOUND', `No trace ${JSON.stringify(id)} in ${file}.`, {
        hint: 'List stored traces with `agent-bench traces --below 1.01`, or pass the --db the run wrote to.',
      })
    }
    console.log(parsed.values.json === true ? JSON.stringify(stored, null, 2) : formatStoredTrace(stored))
    return 0
  },
}
