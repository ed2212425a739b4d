/** The canonical form of a Message-ID: trimmed and wrapped in angle brackets, `<...>`. */
export function canonicalMessageId(value: string): string {
  const inner = value.trim().replace(/^<+/, '').replace(/>+$/, '').trim()
  return inner === '' ? '' : `<${inner}>`
}

/** An address as stored and compared: trimmed, lowercased, stray quotes and angle brackets removed. */
export function normalizeAddress(value: string): string {
  return value
    .trim()
    .replace(/^['"<\s]+|['">\s]+$/g, '')
    .toLowerCase()
}

/** Normalized, non-empty, first-seen order, no duplicates. */
export function normalizeAddresses(values: Iterable<string>): string[] {
  const seen = new Set<string>()
  for (const value of values) {
    const address = normalizeAddress(value)
    if (address !== '') seen.add(address)
  }
  return [...seen]
}

/**
 * A date as stored: ISO 8601 UTC (`2001-05-14T23:39:00.000Z`), or `undefined` when `value` is not a date
 * in years 0000-9999 (outside that range `toISOString` changes shape and string ordering breaks).
 */
export function toIsoDate(value: string | Date | null | undefined): string | undefined {
  if (value === null || value === undefined) return undefined
  const date = value instanceof Date ? value : new Date(value.trim())
  const time = date.getTime()
  if (Number.isNaN(time)) return undefined
  const year = date.getUTCFullYear()
  if (year < 0 || year > 9999) return undefined
  return date.toISOString()
}

const DAY = /^\d{4}-\d{2}-\d{2}$/

/** Whether `value` is a calendar day `YYYY-MM-DD` that exists. */
export function isDay(value: string): boolean {
  if (!DAY.test(value)) return false
  const date = new Date(`${value}T00:00:00.000Z`)
  return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(value)
}
