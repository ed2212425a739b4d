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
