import { parseArgs } from 'node:util'
import { DEFAULT_TRACES_DB, TraceStore } from '../results/trace-store.ts'
import { formatTraceSummaries } from '../results/trace-store-format.ts'
import { ConfigError } from '../../core/errors.ts'
import type { Command } from '../../cli/command.ts'
import { tracesDbFor } from './trace.ts'
import { wholeNumberFlag } from '../../cli/flags.ts'

const usage = `Usage: agent-bench traces [options]

Lists stored ART-E traces whose semantic score is below a value, lowest first.

Options:
  --below <score>   list traces scoring strictly below this (0-1; 1.01 lists all)   default: 0.5
  --run <id>        only traces of this run
  --limit <n>       at most n traces                                                default: 100
  --db <file>       traces database (ARTE_TRACES_DB)                                default: ${DEFAULT_TRACES_DB}
  --json            print JSON (one array)
  -h, --help        show this help`

/** `agent-bench traces --below 0.5`: list low-scoring traces. */
export const command: Command = {
  usage,
  async run(argv) {
    let values
    try {
      values = parseArgs({
        args: argv,
        options: { below: { type: 'string' }, run: { type: 'string' }, limit: { type: 'string' }, db: { type: 'string' }, json: { type: 'boolean' } },
      }).values
    } catch (error) {
      throw new ConfigError((error as Error).message, { hint: 'Run `agent-bench traces --help` for the options.', cause: error })
    }
    const below = Number(values.below ?? '0.5')
    if (!Number.isFinite(below)) throw new ConfigError(`Expected \`--below\` to be a number, got ${JSON.stringify(values.below)}.`, { hint: 'Pass e.g. --below 0.5.' })
    const limit = wholeNumberFlag('--limit', values.limit, { min: 1, example: 20 }) ?? 100
    using store = TraceStore.open(tracesDbFor(values.db))
    const rows = store.listBelow(below, { limit, ...(values.run === undefined ? {} : { runId: values.run }) })
    console.log(values.json === true ? JSON.stringify(rows, null, 2) : formatTraceSummaries(rows))
    return 0
  },
}
