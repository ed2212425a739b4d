/** One `agent-bench` subcommand. */
export interface Command {
  /**
   * One line for `agent-bench --help`. Only read for a table entry that gives no `summary` of its own
   * (a bare loader); prefer the table's, which `--help` prints without importing the command.
   */
  summary?: string
  /** Full usage text, printed by `agent-bench <command> --help`. */
  usage: string
  /**
   * Whether stdout carries a protocol (MCP's JSON-RPC on stdio), written exactly: {@link runCli} then leaves stdout
   * as it is; otherwise every line the command prints on stdout and stderr is redacted (`src/core/redact-output.ts`).
   */
  protocolStdout?: boolean
  /** Runs the command with the arguments after its name; resolves to the exit code. */
  run(argv: string[]): Promise<number>
}

/** Imports a command's module on first use (`() => import('./my-command.ts')`). */
export type CommandLoader = () => Promise<{ command: Command }>

/**
 * One row of a command table: its `--help` line and how to load it. The module is imported only when the
 * command runs, so `agent-bench --help` stays fast however many commands there are. A bare loader also
 * works (its module is then imported for `--help` to read `command.summary`).
 */
export type CommandEntry = { summary: string; load: CommandLoader } | CommandLoader

/** Commands by name. */
export type CommandTable = Readonly<Record<string, CommandEntry>>
