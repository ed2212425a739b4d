import { BenchError, UsageError } from '../core/errors.ts'
import { redact } from '../core/redact.ts'
import { redactProcessOutput } from '../core/redact-output.ts'
import type { Command, CommandEntry, CommandTable } from './command.ts'
import { usageErrorFrom } from './define-command.ts'
// Not from flags.ts: that module loads zod, which `--help` must not pay for.
import { FlagValueError } from './flag-value-error.ts'

export type { CommandTable } from './command.ts'

/** Options of {@link runCli}. */
export interface RunCliOptions {
  /** Printed by `agent-bench --version`. */
  version?: string
}

function loaderOf(entry: CommandEntry): () => Promise<{ command: Command }> {
  return typeof entry === 'function' ? entry : entry.load
}

async function summaryOf(entry: CommandEntry): Promise<string> {
  if (typeof entry !== 'function') return entry.summary
  return (await entry()).command.summary ?? ''
}

async function help(commands: CommandTable): Promise<string> {
  const lines = ['Usage: agent-bench <command> [options]', '', 'Commands:']
  for (const [name, entry] of Object.entries(commands)) lines.push(`  ${name.padEnd(18)} ${await summaryOf(entry)}`)
  lines.push('', 'Options:', '  -h, --help         show this help', '  -v, --version      print the version')
  lines.push('', 'Run `agent-bench <command> --help` for the options of a command.')
  return lines.join('\n')
}

/** The message of an error the CLI did not expect: one line, never the stack (the cause chain is kept). */
function describeError(error: unknown): string {
  if (!(error instanceof Error)) return String(error)
  const causes: string[] = []
  for (let cause = error.cause; cause instanceof Error && causes.length < 3; cause = cause.cause) causes.push(`  cause: ${cause.message}`)
  return [error.message, ...causes].join('\n')
}

/**
 * Runs one command of `commands` from `argv` (`<command> [options]`); resolves to the process exit code:
 * 0 done, 1 failed (a {@link BenchError}, printed with its fix), 2 a bad command line (printed the same way): an unknown
 * command or option, a missing value or argument ({@link UsageError}), a flag value the flag cannot take or flags
 * that do not go together ({@link FlagValueError}).
 */
export async function runCli(commands: CommandTable, argv: string[], options: RunCliOptions = {}): Promise<number> {
  const [name, ...rest] = argv
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    console.log(await help(commands))
    return name === undefined ? 1 : 0
  }
  if (name === '--version' || name === '-v') {
    console.log(options.version ?? 'unknown')
    return 0
  }
  const entry = Object.hasOwn(commands, name) ? commands[name] : undefined
  if (entry === undefined) {
    console.error(`Unknown command ${JSON.stringify(name)}.\n\n${await help(commands)}`)
    return 2
  }
  try {
    const { command } = await loaderOf(entry)()
    if (rest.includes('--help') || rest.includes('-h')) {
      console.log(command.usage)
      return 0
    }
    // Whatever the command (or a library it calls) prints goes through the one redactor.
    redactProcessOutput({ stdout: command.protocolStdout !== true })
    return await command.run(rest)
  } catch (caught) {
    const error = usageErrorFrom(name, caught) ?? caught
    if (error instanceof BenchError) {
      console.error(redact(error.message.startsWith(`agent-bench ${name}`) ? error.message : `agent-bench ${name}: ${error.message}`))
      return error instanceof UsageError || error instanceof FlagValueError ? 2 : 1
    }
    // Not one of ours: its message and causes, never the stack, redacted (an SDK error may quote a key or a URL with a secret).
    console.error(
      redact(
        `agent-bench ${name}: unexpected error: ${describeError(error)}\n  Fix: check the inputs the message names; if it names none, this may be a bug in agent-bench: please report it with the command line you ran.`,
      ),
    )
    return 1
  }
}
