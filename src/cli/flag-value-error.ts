import { ConfigError } from '../core/errors.ts'

/**
 * A flag given a value it cannot take (`--limit abc`, `--split dev`): a bad command line, so `runCli` exits 2, as for
 * an unknown option. A {@link ConfigError} (code `ERR_CONFIG`), as a bad flag value was before it had its own class.
 */
export class FlagValueError extends ConfigError {}
