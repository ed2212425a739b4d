import { existsSync } from 'node:fs'
import { BenchError, ConfigError } from '../core/errors.ts'

/**
 * A flag given a value it cannot take (`--limit abc`, `--split dev`), or flags that do not go together (`--agent-url`
 * with `--agent-model`, `--api-url` without `--agent`), or a path given by a flag that does not exist (`--config`,
 * `--results`): a bad command line, so `runCli` exits 2, as for an unknown option. A {@link ConfigError} (code
 * `ERR_CONFIG`), as a bad flag value was before it had its own class.
 */
export class FlagValueError extends ConfigError {}

/**
 * `error`, thrown on reading a path a flag named that does not exist, as a {@link FlagValueError} with the same message
 * and hint (exit 2); another error as it is. The caller checks that the path is missing: a file that exists but cannot
 * be read or holds bad contents stays an error of the file (exit 1).
 */
export function missingFlagPathError(error: unknown): unknown {
  return error instanceof BenchError && !(error instanceof FlagValueError) ? new FlagValueError(error.problem, { hint: error.hint, cause: error }) : error
}

/**
 * Throws a {@link FlagValueError} (exit 2) when `path`, named by the flag `flag` (`--task`), does not exist: `what`
 * names the path (`Task file`), `hint` says what to pass. A path that exists but holds something wrong is the
 * caller's error of the file (exit 1).
 */
export function assertFlagPathExists(flag: string, path: string, what: string, hint: string): void {
  if (!existsSync(path)) throw new FlagValueError(`${what} ${path} (${flag}) does not exist.`, { hint })
}
