import type { Vitest } from 'vitest/node'

/**
 * The file Vitest's `outputFile` setting names for the reporter `name` (`--outputFile.arte=out/arte.json`, or
 * `outputFile: {arte: ...}` in the config), as `json` and `junit` honour `outputFile.json` / `outputFile.junit`.
 * `undefined` when the setting is absent or is a single path (which belongs to Vitest's own reporters).
 */
export function reporterOutputFile(vitest: Vitest, name: string): string | undefined {
  const setting: unknown = vitest.config.outputFile
  if (setting === null || typeof setting !== 'object') return undefined
  const file = (setting as Record<string, unknown>)[name]
  return typeof file === 'string' && file.trim() !== '' ? file : undefined
}

/** Vitest's reporters that write one report (XML, JSON, TAP) to standard output unless given a file. */
const REPORT_TO_STDOUT = new Set(['junit', 'json', 'tap', 'tap-flat'])

/**
 * Whether one of Vitest's own report writers (`junit`, `json`, `tap`) writes its report to standard output (no
 * `outputFile` for it): then the benchmark reporters' lines go to standard error, so that `--reporter=junit > x.xml`
 * stays valid XML.
 */
export function stdoutHoldsReport(vitest: Vitest): boolean {
  const setting: unknown = vitest.config.outputFile
  return vitest.config.reporters.some((entry) => {
    const [name, options] = Array.isArray(entry) ? entry : [entry, undefined]
    if (typeof name !== 'string' || !REPORT_TO_STDOUT.has(name)) return false
    const own = (options as { outputFile?: unknown } | undefined)?.outputFile
    if (typeof own === 'string' && own.trim() !== '') return false
    if (typeof setting === 'string' && setting.trim() !== '') return false
    return reporterOutputFile(vitest, name) === undefined
  })
}
