import { resolve } from 'node:path'

/** A key of a file that its schema does not know, and the known key it is closest to (a likely typo), if any. */
export interface UnknownKey {
  key: string
  closest: string | undefined
}

/** Edit distance counting an adjacent transposition as one edit (`chekcs` → `checks` is 1). */
function distance(a: string, b: string): number {
  const width = b.length + 1
  const d: number[] = []
  const at = (i: number, j: number): number => d[i * width + j] ?? 0
  for (let i = 0; i <= a.length; i++) {
    for (let j = 0; j <= b.length; j++) {
      if (i === 0 || j === 0) {
        d[i * width + j] = i + j
        continue
      }
      let best = Math.min(at(i - 1, j) + 1, at(i, j - 1) + 1, at(i - 1, j - 1) + (a[i - 1] === b[j - 1] ? 0 : 1))
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, at(i - 2, j - 2) + 1)
      d[i * width + j] = best
    }
  }
  return at(a.length, b.length)
}

/** The known key nearest to `key` (case ignored), when it is near enough to be a typo of it (a third of its length, at least 2 edits). */
export function closestKey(key: string, known: ReadonlyArray<string>): string | undefined {
  let best: { key: string; d: number } | undefined
  for (const candidate of known) {
    const d = distance(key.toLowerCase(), candidate.toLowerCase())
    if (best === undefined || d < best.d) best = { key: candidate, d }
  }
  return best !== undefined && best.d <= Math.max(2, Math.floor(key.length / 3)) ? best.key : undefined
}

/** The top-level keys of `value` (a JSON object) not in `known`, in file order. */
export function unknownKeys(value: unknown, known: ReadonlyArray<string>): UnknownKey[] {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return []
  return Object.keys(value)
    .filter((key) => !known.includes(key))
    .map((key) => ({ key, closest: closestKey(key, known) }))
}

/** The warning line of a file's unknown keys. */
export function unknownKeysWarning(keys: ReadonlyArray<UnknownKey>, label: string, file: string, known: ReadonlyArray<string>): string {
  const each = keys.map(
    ({ key, closest }) => `${JSON.stringify(key)} (${closest === undefined ? 'no known key is close' : `did you mean ${JSON.stringify(closest)}?`})`,
  )
  return `mpcbench: the ${label} file ${file} has key(s) this benchmark does not read: ${each.join(', ')}; they are ignored. Known keys: ${known.join(', ')}.`
}

const warned = new Set<string>()

/**
 * Warns (`console.warn`) about the top-level keys of a loaded file that its schema does not know, once per file and
 * process: unknown keys are kept, not rejected (upstream MPCBench files must load), but a typo (`chekcs`) would
 * otherwise silently drop what the key was meant to set.
 */
export function warnUnknownKeys(value: unknown, known: ReadonlyArray<string>, label: string, file: string): void {
  const keys = unknownKeys(value, known)
  const id = resolve(file)
  if (keys.length === 0 || warned.has(id)) return
  warned.add(id)
  console.warn(unknownKeysWarning(keys, label, file, known))
}
