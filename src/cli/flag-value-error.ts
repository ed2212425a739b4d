import { ConfigError } from '../core/errors.ts'

/**
 * A flag given a value it cannot take (`--limit abc`, `--split dev`), or flags that do not go together (`--agent-url`
 * with `--agent-model`, `--api-url` without `--agent`): a bad command line, so `runCli` exits 2, as for an unknown
 * option. A {@link ConfigError} (code `ERR_CONFIG`), as a bad flag value was before it had its own class.
 */
export class FlagValueError extends ConfigError {}
