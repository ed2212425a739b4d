import { existsSync } from 'node:fs'
import { isAbsolute, relative, resolve, sep } from 'node:path'
import { arteSettings } from '../settings.ts'
import { DEFAULT_TRACES_DB, TraceStore } from '../results/trace-store.ts'
import { formatStoredTrace } from '../results/trace-store-format.ts'
import { BenchError, ConfigError } from '../../core/errors.ts'
import { defineCommand } from '../../cli/define-command.ts'
import { FlagValueError } from '../../cli/flag-value-error.ts'

/**
 * The traces database a command reads: `--db`, else `ARTE_TRACES_DB`, else the default; it must exist. A `--db` that
 * does not is a {@link FlagValueError} (a bad command line, exit 2); the variable's or the default's a {@link ConfigError}.
 */
export function tracesDbFor(flag: string | undefined): string {
  const file = flag ?? arteSettings().tracesDb
  if (!existsSync(file)) {
    const Problem = flag === undefined ? ConfigError : FlagValueError
    throw new Problem(`Traces database ${file} does not exist.`, {
      hint: 'Run the ART-E benchmark first (`agent-bench arte` or `npx vitest run bench/arte`), or pass --db FILE.',
    })
  }
  return file
}

/** `text` as one shell word: as is when it has only safe characters, else in single quotes. */
function shellWord(text: string): string {
  return /^[\w@%+=:,./-]+$/.test(text) ? text : `'${text.replaceAll("'", "'\\''")}'`
}

/**
 * The command that prints trace `traceId` of the traces database `tracesDb`: `agent-bench trace ID`, with
 * `--db FILE` when `tracesDb` is not the default one of `cwd` (FILE relative to `cwd` when inside it).
 */
export function traceCommandLine(traceId: string, tracesDb: string, cwd: string = process.cwd()): string {
  const file = resolve(cwd, tracesDb)
  if (file === resolve(cwd, DEFAULT_TRACES_DB)) return `agent-bench trace ${traceId}`
  const inside = relative(cwd, file)
  const outside = inside === '..' || inside.startsWith(`..${sep}`) || isAbsolute(inside)
  const shown = outside ? file : inside
  return `agent-bench trace ${traceId} --db ${shellWord(shown)}`
}

/** `agent-bench trace ID`: print one stored trace. */
export const command = defineCommand({
  name: 'trace',
  summary: 'Print one stored ART-E agent trace by id',
  description:
    'Prints one stored ART-E agent trace: question, ground truth, answer, scores, every message and tool call.\nTrace ids are in the results JSON and in `agent-bench traces`.',
  positionals: { usage: '<trace-id>', min: 1, max: 1 },
  options: {
    db: { type: 'string', value: 'FILE', description: 'traces database (ARTE_TRACES_DB)', default: DEFAULT_TRACES_DB },
    json: { type: 'boolean', description: 'print the stored record as JSON' },
  },
  async run({ values, positionals: [id] }) {
    const file = tracesDbFor(values.db)
    using store = TraceStore.open(file)
    const stored = store.get(id as string)
    if (stored === undefined) {
      throw new BenchError('ERR_TRACE_NOT_FOUND', `No trace ${JSON.stringify(id)} in ${file}.`, {
        hint: 'List stored traces with `agent-bench traces --below 1.01`, or pass the --db the run wrote to.',
      })
    }
    console.log(values.json === true ? JSON.stringify(stored, null, 2) : formatStoredTrace(stored))
    return 0
  },
})
