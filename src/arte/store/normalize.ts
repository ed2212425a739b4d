/** The canonical form of a Message-ID: trimmed and wrapped in angle brackets, `<...>`. */
export function canonicalMessageId(value: string): string {
  if (CANONICAL_MESSAGE_ID.test(value)) return value
  const inner = value.trim().replace(/^<+/, '').replace(/>+$/, '').trim()
  return inner === '' ? '' : `<${inner}>`
}

/** A Message-ID that {@link canonicalMessageId} returns as it is: in one pair of angle brackets, no space inside them at either end. */
const CANONICAL_MESSAGE_ID = /^<(?:[^\s<>]|[^\s<][^]*[^\s>])>$/

/** A display name followed by an address in angle brackets: `"Ann Lee" <ann@corp.test>`. */
const NAMED_ADDRESS = /<([^<>@\s]+@[^<>\s]+)>\s*$/

/**
 * An address as stored and compared: trimmed, lowercased, stray quotes and angle brackets removed; of a named
 * address (`Ann Lee <ann@corp.test>`), the address.
 */
export function normalizeAddress(value: string): string {
  return PLAIN_ADDRESS.test(value) ? value : normalizeAddressText(value)
}

/**
 * Text that {@link normalizeAddress} returns as it is (most stored and imported addresses): no upper case, name,
 * quote, angle bracket or space.
 */
const PLAIN_ADDRESS = /^[a-z0-9._@+-]+$/

/**
 * {@link normalizeAddress} without the shortcut for plain addresses.
 * @internal Exported for its test.
 */
export function normalizeAddressText(value: string): string {
  const named = NAMED_ADDRESS.exec(value)
  return (named?.[1] ?? value)
    .trim()
    .replace(/^['"<\s]+|['">\s]+$/g, '')
    .toLowerCase()
}

/**
 * Adds `values` to `into` as an address list is stored: normalized, non-empty, first-seen order, no duplicates (an
 * import reuses one set from row to row).
 */
export function addNormalizedAddresses(values: ReadonlyArray<string>, into: Set<string>): Set<string> {
  for (let i = 0; i < values.length; i++) {
    const address = normalizeAddress(values[i] as string)
    if (address !== '') into.add(address)
  }
  return into
}

/** A comment in a header value: `(PDT)`, `(Pacific Daylight Time)`. */
const COMMENT = /\([^()]*\)/g
/** A time zone at the end of a date string: a numeric offset, `Z`, or a zone name JavaScript's `Date` reads. */
const ZONE_AT_END = /(?:[+-]\d{2}:?\d{2}|(?:\b|\d)Z|\b(?:UTC?|GMT|[ECMP][SD]T))\s*$/i
/** An ISO 8601 day (or month, or year), which `Date` reads as UTC. */
const ISO_DAY = /^\d{4}(?:-\d{2}(?:-\d{2})?)?$/
/** ISO 8601 with a time but no zone, which `Date` would read in the process's local time zone. */
const ISO_LOCAL = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?$/

/**
 * `text` read as a date, a date without a time zone being read as UTC: `Date` alone reads it in the local time zone
 * of the process, so the same mail would be stored at different instants on different machines.
 */
function parseDate(text: string): Date {
  const trimmed = text.trim()
  if (ISO_LOCAL.test(trimmed)) return new Date(`${trimmed.replace(' ', 'T')}Z`)
  const date = new Date(trimmed)
  const bare = trimmed.replace(COMMENT, ' ').trim()
  if (Number.isNaN(date.getTime()) || ZONE_AT_END.test(bare) || ISO_DAY.test(bare)) return date
  const utc = new Date(`${bare} GMT`)
  return Number.isNaN(utc.getTime()) ? date : utc
}

/**
 * A date as stored: ISO 8601 UTC (`2001-05-14T23:39:00.000Z`), or `undefined` when `value` is not a date
 * in years 0000-9999 (outside that range `toISOString` changes shape and string ordering breaks).
 * A string without a time zone is read as UTC.
 */
export function toIsoDate(value: string | Date | null | undefined): string | undefined {
  if (value === null || value === undefined) return undefined
  // Already stored form (as JSONL exports give dates): kept when it names the instant it reads as.
  if (typeof value === 'string' && STORED_DATE.test(value)) {
    const date = new Date(value)
    if (!Number.isNaN(date.getTime()) && date.toISOString() === value) return value
  }
  const date = value instanceof Date ? value : parseDate(value)
  const time = date.getTime()
  if (Number.isNaN(time)) return undefined
  const year = date.getUTCFullYear()
  if (year < 0 || year > 9999) return undefined
  return date.toISOString()
}

/** A date as {@link toIsoDate} writes it (`Date.prototype.toISOString`, years 0000-9999). */
export const STORED_DATE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/

const DAY = /^\d{4}-\d{2}-\d{2}$/

/** Whether `value` is a calendar day `YYYY-MM-DD` that exists. */
export function isDay(value: string): boolean {
  if (!DAY.test(value)) return false
  const date = new Date(`${value}T00:00:00.000Z`)
  return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(value)
}
