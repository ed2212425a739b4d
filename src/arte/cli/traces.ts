import { DEFAULT_TRACES_DB, TraceStore } from '../results/trace-store.ts'
import { formatTraceSummaries } from '../results/trace-store-format.ts'
import { defineCommand } from '../../cli/define-command.ts'
import { tracesDbFor } from './trace.ts'
import { FlagValueError, wholeNumberFlag } from '../../cli/flags.ts'

/** `agent-bench traces --below 0.5`: list low-scoring traces. */
export const command = defineCommand({
  name: 'traces',
  summary: 'List stored ART-E traces scoring below a threshold (default 0.5)',
  description: 'Lists stored ART-E traces whose semantic score is below a value, lowest first.',
  options: {
    below: { type: 'string', value: 'SCORE', description: 'list traces scoring strictly below this (0-1; 1.01 lists all)', default: 0.5 },
    run: { type: 'string', value: 'ID', description: 'only traces of this run' },
    limit: { type: 'string', value: 'N', description: 'at most N traces', default: 100 },
    db: { type: 'string', value: 'FILE', description: 'traces database (ARTE_TRACES_DB)', default: DEFAULT_TRACES_DB },
    json: { type: 'boolean', description: 'print JSON (one array)' },
  },
  async run({ values }) {
    const below = Number(values.below ?? '0.5')
    if (!Number.isFinite(below))
      throw new FlagValueError(`Expected \`--below\` to be a number, got ${JSON.stringify(values.below)}.`, { hint: 'Pass e.g. --below 0.5.' })
    const limit = wholeNumberFlag('--limit', values.limit, { min: 1, example: 20 }) ?? 100
    using store = TraceStore.open(tracesDbFor(values.db))
    const rows = store.listBelow(below, { limit, ...(values.run === undefined ? {} : { runId: values.run }) })
    console.log(values.json === true ? JSON.stringify(rows, null, 2) : formatTraceSummaries(rows))
    return 0
  },
})
