import { BenchError, UsageError } from '../core/errors.ts'
import { redact } from '../core/redact.ts'
import type { Command } from './command.ts'
import { usageErrorFrom } from './define-command.ts'

/** Commands by name, each loaded on first use. */
export type CommandTable = Readonly<Record<string, () => Promise<{ command: Command }>>>

async function help(commands: CommandTable): Promise<string> {
  const lines = ['Usage: agent-bench <command> [options]', '', 'Commands:']
  for (const [name, load] of Object.entries(commands)) {
    const { command } = await load()
    lines.push(`  ${name.padEnd(18)} ${command.summary}`)
  }
  lines.push('', 'Run `agent-bench <command> --help` for the options of a command.')
  return lines.join('\n')
}

/**
 * Runs one command of `commands` from `argv` (`<command> [options]`); resolves to the process exit code:
 * 0 done, 1 failed (a {@link BenchError}, printed with its fix), 2 a bad command line (printed the same way).
 */
export async function runCli(commands: CommandTable, argv: string[]): Promise<number> {
  const [name, ...rest] = argv
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    console.log(await help(commands))
    return name === undefined ? 1 : 0
  }
  const load = Object.hasOwn(commands, name) ? commands[name] : undefined
  if (load === undefined) {
    console.error(`Unknown command ${JSON.stringify(name)}.\n\n${await help(commands)}`)
    return 2
  }
  const { command } = await load()
  if (rest.includes('--help') || rest.includes('-h')) {
    console.log(command.usage)
    return 0
  }
  try {
    return await command.run(rest)
  } catch (caught) {
    const error = usageErrorFrom(name, caught) ?? caught
    if (error instanceof BenchError) {
      console.error(redact(error.message.startsWith(`agent-bench ${name}`) ? error.message : `agent-bench ${name}: ${error.message}`))
      return error instanceof UsageError ? 2 : 1
    }
    // Not one of ours: shown with its stack, redacted (an SDK error may quote a key or a URL with a secret).
    console.error(`agent-bench ${name}: ${redact(error instanceof Error ? (error.stack ?? error.message) : String(error))}`)
    return 1
  }
}
