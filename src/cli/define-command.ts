import { parseArgs } from 'node:util'
import { UsageError } from '../core/errors.ts'
import type { Command } from './command.ts'

/** One declared option of a command: it is parsed, and it is a line of the command's help. */
export interface OptionSpec {
  type: 'string' | 'boolean'
  /** The value's name in the help (`--db FILE`). @default 'VALUE' for string options */
  value?: string
  /** A one-letter alias (`-l`). */
  short?: string
  /** What the option does, one line. */
  description: string
  /** The default shown in the help; the command applies it. */
  default?: string | number
  /** A required option: missing, it is a usage error. @default false */
  required?: boolean
  /** The option may be given more than once; its value is a list. @default false */
  multiple?: boolean
}

/** The parsed values of declared options. */
export type OptionValues<O extends Record<string, OptionSpec>> = {
  [K in keyof O]?: O[K] extends { type: 'boolean' } ? boolean : O[K] extends { multiple: true } ? string[] : string
}

/** A command declared once: its options give the parser and the help. */
export interface CommandSpec<O extends Record<string, OptionSpec>> {
  /** The subcommand, as typed after `agent-bench`. */
  name: string
  /** One line for `agent-bench --help`. */
  summary: string
  /** Paragraphs printed under the usage line. */
  description: string
  /** Positional arguments as shown in the usage line (`<trace-id>`); without it, none are accepted. */
  positionals?: { usage: string; min: number; max: number }
  options: O
  /** Printed after the options (examples, what to run next). */
  epilog?: string
  run(args: { values: OptionValues<O>; positionals: string[] }): Promise<number>
}

/** Help lines are wrapped to this many columns. */
const HELP_WIDTH = 116

function wrap(text: string, width: number): string[] {
  const lines: string[] = []
  let line = ''
  for (const word of text.split(' ')) {
    if (line !== '' && line.length + 1 + word.length > width) {
      lines.push(line)
      line = word
    } else line = line === '' ? word : `${line} ${word}`
  }
  return [...lines, line]
}

function helpLines(options: Record<string, OptionSpec>): string[] {
  const rows = Object.entries(options).map(([name, option]) => {
    const long = option.type === 'boolean' ? `--${name}` : `--${name} ${option.value ?? 'VALUE'}`
    const flag = option.short === undefined ? long : `-${option.short}, ${long}`
    const notes = [
      option.required === true ? '(required)' : '',
      option.multiple === true ? '(repeatable)' : '',
      option.default === undefined ? '' : `default: ${option.default}`,
    ]
    return [flag, [option.description, ...notes.filter((note) => note !== '')].join('  ')] as const
  })
  rows.push(['-h, --help', 'show this help'])
  const width = Math.max(...rows.map(([flag]) => flag.length)) + 3
  return rows.flatMap(([flag, text]) => wrap(text, HELP_WIDTH - 2 - width).map((line, i) => `  ${(i === 0 ? flag : '').padEnd(width)}${line}`))
}

/** The help text of a declared command. */
export function commandUsage(spec: Pick<CommandSpec<Record<string, OptionSpec>>, 'name' | 'description' | 'positionals' | 'options' | 'epilog'>): string {
  const required = Object.entries(spec.options)
    .filter(([, option]) => option.required === true)
    .map(([name, option]) => `--${name} ${option.value ?? 'VALUE'}`)
  const line = ['Usage: agent-bench', spec.name, spec.positionals?.usage, ...required, '[options]'].filter((part) => part !== undefined).join(' ')
  return [line, '', spec.description.trim(), '', 'Options:', ...helpLines(spec.options), ...(spec.epilog === undefined ? [] : ['', spec.epilog.trim()])].join(
    '\n',
  )
}

/** Turns a `node:util` `parseArgs` failure (or an error caused by one) into a {@link UsageError} pointing at the command's help. */
export function usageErrorFrom(command: string, error: unknown): UsageError | undefined {
  const isParseError = (e: unknown): e is Error => e instanceof Error && String((e as { code?: unknown }).code).startsWith('ERR_PARSE_ARGS_')
  const parseError = isParseError(error) ? error : isParseError((error as { cause?: unknown } | null)?.cause) ? (error as { cause: Error }).cause : undefined
  if (parseError === undefined) return undefined
  const message = parseError.message
  const unknown = /^Unknown option '([^']+)'/.exec(message)
  const text = unknown === null ? message : `Unknown option ${unknown[1]}.`
  return new UsageError(`agent-bench ${command}: ${text}`, { hint: `Run \`agent-bench ${command} --help\` for its options.`, cause: parseError })
}

/**
 * Parses `argv` by declared options (strict: an unknown option or a missing value is a {@link UsageError} pointing at
 * the command's help). For commands that parse their own way but declare their options, so the help is generated too.
 */
export function parseDeclared<const O extends Record<string, OptionSpec>>(
  command: string,
  options: O,
  argv: string[],
  allowPositionals: boolean,
): { values: OptionValues<O>; positionals: string[] } {
  try {
    const parsed = parseArgs({
      args: argv,
      strict: true,
      allowPositionals,
      options: Object.fromEntries(
        Object.entries(options).map(([name, option]) => [
          name,
          { type: option.type, multiple: option.multiple ?? false, ...(option.short === undefined ? {} : { short: option.short }) },
        ]),
      ),
    })
    return { values: parsed.values as OptionValues<O>, positionals: parsed.positionals }
  } catch (error) {
    throw usageErrorFrom(command, error) ?? error
  }
}

/** A {@link Command} from its declaration: strict parsing, generated help, one error style for bad flags. */
export function defineCommand<const O extends Record<string, OptionSpec>>(spec: CommandSpec<O>): Command {
  const usage = commandUsage(spec)
  return {
    summary: spec.summary,
    usage,
    async run(argv) {
      const parsed = parseDeclared(spec.name, spec.options, argv, spec.positionals !== undefined)
      const values = parsed.values
      for (const [name, option] of Object.entries(spec.options)) {
        if (option.required === true && (values[name] === undefined || values[name] === '')) {
          throw new UsageError(`agent-bench ${spec.name}: missing --${name}.`, { hint: `Pass --${name} ${option.value ?? 'VALUE'} (${option.description}).` })
        }
      }
      const positionals = parsed.positionals
      const { min = 0, max = 0 } = spec.positionals ?? {}
      if (positionals.length < min || positionals.length > max) {
        const expected = spec.positionals === undefined ? 'no arguments' : spec.positionals.usage
        throw new UsageError(
          `agent-bench ${spec.name}: expected ${expected}, got ${positionals.length === 0 ? 'none' : positionals.map((p) => JSON.stringify(p)).join(' ')}.`,
          {
            hint: `Run \`agent-bench ${spec.name} --help\` for its usage.`,
          },
        )
      }
      return spec.run({ values, positionals })
    },
  }
}
