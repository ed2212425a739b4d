/** One `agent-bench` subcommand. */
export interface Command {
  /** One line for `agent-bench --help`. */
  summary: string
  /** Full usage text, printed by `agent-bench <command> --help`. */
  usage: string
  /** Runs the command with the arguments after its name; resolves to the exit code. */
  run(argv: string[]): Promise<number>
}
