import { toIsoDate } from '../store/normalize.ts'

/**
 * Dates outside these years are kept but reported as odd (Enron has 1979-12-31 PST, i.e. epoch-0, and 2044 dates).
 * Such mail is searched by its date as stored, as OpenPipe's ART-E does: a 1979 date is before every question's.
 */
const PLAUSIBLE_YEARS = { from: 1985, to: 2030 } as const

/**
 * The stored date for a raw `Date` value, and a note when it is odd: absent, unparseable (stored as `null`),
 * or outside {@link PLAUSIBLE_YEARS} (stored as parsed).
 */
export function readDate(raw: string | undefined): { date: string | null; dateNote: string | undefined } {
  if (raw === undefined || raw.trim() === '') return { date: null, dateNote: 'no date' }
  const iso = toIsoDate(raw)
  if (iso === undefined) return { date: null, dateNote: `unparseable date ${JSON.stringify(raw.slice(0, 80))}` }
  const year = Number(iso.slice(0, 4))
  if (year < PLAUSIBLE_YEARS.from || year > PLAUSIBLE_YEARS.to) return { date: iso, dateNote: `implausible date ${iso}` }
  return { date: iso, dateNote: undefined }
}
