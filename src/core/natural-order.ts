/** One collator for every comparison: `localeCompare` with options builds a new one per call, which a sort of 10,000 ids feels. */
const collator = new Intl.Collator('en', { numeric: true })

/**
 * Orders ids with the numbers in them compared as numbers (`2` before `10`, `T-9` before `T-10`), else as text: the
 * order of `a.localeCompare(b, 'en', { numeric: true })`.
 */
export function compareNatural(a: string, b: string): number {
  return collator.compare(a, b)
}
