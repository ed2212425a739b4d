import { isValidTimeZone, offsetMinutes, zonedToInstant } from '../../time/zone.ts'

/** Upstream's fallback offsets when Python's `ZoneInfo` does not know the world's zone; any other zone gets `+00:00`. */
const FALLBACK_OFFSETS: Readonly<Record<string, string>> = {
  'Asia/Seoul': '+09:00',
  UTC: '+00:00',
  'America/New_York': '-05:00',
  'America/Los_Angeles': '-08:00',
  'Europe/London': '+00:00',
  'Europe/Paris': '+01:00',
  'Asia/Tokyo': '+09:00',
}

function pad(n: number): string {
  return String(n).padStart(2, '0')
}

/**
 * Upstream's `SimulatedAPI._inject_timezone`: a date-time without an offset gets the world zone's offset *at
 * 2026-01-01 00:00 local time* (one offset for the whole world, DST ignored), written as Python's code writes it
 * (floor division: `-03:30` comes out `-04:30`). A zone whose offset then is zero (UTC, London) adds nothing; a zone
 * the runtime does not know gets upstream's fallback table. Empty text, text ending in `Z` or holding an offset stay.
 */
export function injectTimezone(text: string, timeZone: string): string {
  if (text === '') return text
  if (text.endsWith('Z')) return text
  if (text.length >= 6) {
    const last6 = text.slice(-6)
    if ((last6.startsWith('+') || last6.startsWith('-')) && last6.includes(':')) return text
  }
  if (!isValidTimeZone(timeZone)) return `${text}${FALLBACK_OFFSETS[timeZone] ?? '+00:00'}`
  const totalSeconds = offsetMinutes(zonedToInstant(2026, 1, 1, 0, 0, timeZone), timeZone) * 60
  if (totalSeconds === 0) return text
  const hours = Math.floor(totalSeconds / 3600)
  const minutes = Math.abs(Math.floor((((totalSeconds % 3600) + 3600) % 3600) / 60))
  const sign = totalSeconds >= 0 ? '+' : '-'
  return `${text}${sign}${pad(Math.abs(hours))}:${pad(minutes)}`
}
