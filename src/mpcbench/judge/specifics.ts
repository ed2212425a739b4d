/**
 * The specifics an answer states (ids, dates, times, email addresses, amounts, file names, names of people and
 * things) and which of them appear in none of its sources: the rules judge's check for made-up facts.
 */

/** The kinds of specific {@link specificsIn} finds. */
export type SpecificKind = 'email' | 'date' | 'time' | 'id' | 'amount' | 'file name' | 'phone' | 'address' | 'name'

/** One specific of an answer, as written. */
export interface Specific {
  kind: SpecificKind
  value: string
}

const EMAIL = /[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}/g
const ISO_DATE = /\b\d{4}-\d{2}-\d{2}\b/g
const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december']
const MONTH = '(?:Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May|June?|July?|Aug(?:ust)?|Sep(?:t(?:ember)?)?|Oct(?:ober)?|Nov(?:ember)?|Dec(?:ember)?)'
/** `March 20`, `March 20, 2026`, `20 March 2026` (not a bare `May`). */
const WRITTEN_DATE = new RegExp(
  String.raw`\b(?:${MONTH}\.?\s+(\d{1,2})(?:st|nd|rd|th)?\b(?:,?\s+\d{4})?|(\d{1,2})(?:st|nd|rd|th)?\s+${MONTH}\b\.?(?:,?\s+\d{4})?)`,
  'g',
)
const TIME = /\b([01]?\d|2[0-3]):([0-5]\d)\b/g
/** `ABC-123`, `INV-2026-0042`, `#48213`, `PO48213`; `UTC-07` / `GMT-5` are offsets. */
const ID = /\b(?!(?:UTC|GMT)-)[A-Z][A-Z0-9]{1,9}(?:-\d+)+\b|#\d{3,}\b|\b[A-Z]{2,}\d{3,}\b/g
/** `$19,000`, `€4.5k`, `12 %`, `71 percent`, `3,200 USD`. */
const AMOUNT = /[$€£]\s?\d[\d,]*(?:\.\d+)?(?:\s?[kKmM]\b)?|\b\d[\d,]*(?:\.\d+)?\s?(?:%|percent\b|per cent\b|USD\b|EUR\b|GBP\b|dollars\b|euros\b)/g
const FILE_NAME = /[\w-][\w.-]*\.(?:docx?|pdf|xlsx?|pptx?|csv|txt|md|gdoc|gsheet|gslides|zip|png|jpe?g)\b/gi
/** `+1 (555) 013-2290`, `+49 30 1234 5678`, `(555) 013-2290`, `555-013-2290`. */
const PHONE = /\+\d{1,3}(?:[\s.-]?\(?\d{1,4}\)?){2,5}\b|\(\d{3}\)\s?\d{3}[\s.-]\d{4}\b|\b\d{3}[.-]\d{3}[.-]\d{4}\b/g
/** `12 Harbor Street`, `4400 Mission Blvd`: a number, capitalised words, a street word. */
const ADDRESS =
  /\b\d{1,5}\s+(?:[A-Z][a-z]+\s+){1,3}(?:Street|St|Avenue|Ave|Road|Rd|Boulevard|Blvd|Lane|Ln|Drive|Dr|Way|Place|Pl|Plaza|Square|Sq|Court|Ct|Straße|Strasse|Weg|Platz|Laan|Straat)\b\.?/g
/** Two or three capitalised words in a row (`Dana Whitmore`, `Mary-Ann O'Neil`). */
const NAME = /\b[A-Z][a-z]+(?:['’-][A-Z]?[a-z]+)?(?:[^\S\n]+[A-Z][a-z]+(?:['’-][A-Z]?[a-z]+)?){1,2}\b/g

/** Capitalised words that start a sentence, greet, sign off, head a section or name a day or month: not names. */
const NOT_NAME = new Set([
  'a',
  'about',
  'action',
  'after',
  'agenda',
  'all',
  'also',
  'an',
  'and',
  'any',
  'as',
  'at',
  'attendees',
  'based',
  'before',
  'best',
  'both',
  'but',
  'by',
  'can',
  'cheers',
  'completed',
  'could',
  'current',
  'date',
  'dear',
  'decision',
  'due',
  'each',
  'either',
  'every',
  'follow',
  'for',
  'from',
  'given',
  'good',
  'great',
  'happy',
  'he',
  'hello',
  'her',
  'here',
  'hey',
  'hi',
  'highlights',
  'his',
  'hope',
  'how',
  'if',
  'in',
  'is',
  'it',
  'its',
  'just',
  'kind',
  'kindly',
  'let',
  'many',
  'metrics',
  'my',
  'next',
  'no',
  'not',
  'note',
  'of',
  'on',
  'once',
  'only',
  'option',
  'options',
  'or',
  'our',
  'owner',
  'participants',
  'per',
  'please',
  'question',
  'rationale',
  're',
  'regards',
  'risks',
  'she',
  'since',
  'so',
  'sorry',
  'status',
  'still',
  'subject',
  'sincerely',
  'thank',
  'thanks',
  'that',
  'the',
  'their',
  'then',
  'there',
  'these',
  'they',
  'this',
  'those',
  'timebox',
  'to',
  'today',
  'tomorrow',
  'until',
  'up',
  'we',
  'week',
  'what',
  'when',
  'where',
  'which',
  'while',
  'who',
  'why',
  'will',
  'with',
  'would',
  'yes',
  'yesterday',
  'you',
  'your',
  'warm',
  'warmly',
  'monday',
  'tuesday',
  'wednesday',
  'thursday',
  'friday',
  'saturday',
  'sunday',
  ...MONTHS,
  'jan',
  'feb',
  'mar',
  'apr',
  'jun',
  'jul',
  'aug',
  'sep',
  'sept',
  'oct',
  'nov',
  'dec',
])

/**
 * Last words of a capitalised phrase that is a role, a team or a thing rather than a person (`Customer Success Lead`,
 * `Platform Team`, `Weekly Sync`): not read as a name, since sources rarely spell out roles and a right sign-off names one.
 */
const NOT_NAME_END = new Set([
  'manager',
  'lead',
  'engineer',
  'director',
  'officer',
  'head',
  'owner',
  'designer',
  'analyst',
  'specialist',
  'coordinator',
  'assistant',
  'architect',
  'developer',
  'consultant',
  'representative',
  'president',
  'chief',
  'vp',
  'team',
  'teams',
  'department',
  'group',
  'division',
  'office',
  'success',
  'support',
  'operations',
  'engineering',
  'product',
  'design',
  'compliance',
  'sales',
  'marketing',
  'finance',
  'legal',
  'inc',
  'ltd',
  'llc',
  'gmbh',
  'corp',
  'company',
  'report',
  'sync',
  'meeting',
  'review',
  'notes',
  'update',
  'plan',
  'project',
  'release',
  'launch',
  'audit',
  'summary',
])

function unique(values: ReadonlyArray<Specific>): Specific[] {
  const seen = new Set<string>()
  return values.filter((s) => {
    const key = `${s.kind}\u0000${s.value.toLowerCase()}`
    if (seen.has(key)) return false
    seen.add(key)
    return true
  })
}

/** A run of capitalised words without the words of {@link NOT_NAME} at either end; a name needs two words left. */
function nameOf(run: string): string | undefined {
  const words = run.split(/[^\S\n]+/)
  while (words.length > 0 && NOT_NAME.has((words[0] ?? '').toLowerCase())) words.shift()
  while (words.length > 0 && NOT_NAME.has((words[words.length - 1] ?? '').toLowerCase())) words.pop()
  if (words.length < 2 || words.some((w) => NOT_NAME.has(w.toLowerCase())) || NOT_NAME_END.has((words[words.length - 1] ?? '').toLowerCase())) return undefined
  return words.join(' ')
}

/** Every {@link Specific} of `text`, each once, in the order of {@link SpecificKind}. */
export function specificsIn(text: string): Specific[] {
  const found: Specific[] = []
  const emails = [...text.matchAll(EMAIL)].map((m) => m[0].replace(/\.$/, ''))
  found.push(...emails.map((value) => ({ kind: 'email' as const, value })))
  const phones = [...text.replace(EMAIL, ' ').matchAll(PHONE)].map((m) => m[0].trim())
  found.push(...phones.map((value) => ({ kind: 'phone' as const, value })))
  const addresses = [...text.matchAll(ADDRESS)].map((m) => m[0].replace(/\.$/, ''))
  found.push(...addresses.map((value) => ({ kind: 'address' as const, value })))
  const rest = text.replace(EMAIL, ' ').replace(PHONE, ' ').replace(ADDRESS, ' ')
  found.push(...[...rest.matchAll(ISO_DATE)].map((m) => ({ kind: 'date' as const, value: m[0] })))
  found.push(...[...rest.matchAll(WRITTEN_DATE)].map((m) => ({ kind: 'date' as const, value: m[0].trim() })))
  found.push(...[...rest.matchAll(TIME)].map((m) => ({ kind: 'time' as const, value: `${m[1]?.padStart(2, '0')}:${m[2]}` })))
  found.push(...[...rest.matchAll(ID)].map((m) => ({ kind: 'id' as const, value: m[0] })))
  found.push(...[...rest.matchAll(AMOUNT)].map((m) => ({ kind: 'amount' as const, value: m[0].trim() })))
  found.push(...[...rest.matchAll(FILE_NAME)].map((m) => ({ kind: 'file name' as const, value: m[0] })))
  for (const m of rest.matchAll(NAME)) {
    const name = nameOf(m[0])
    if (name !== undefined) found.push({ kind: 'name', value: name })
  }
  return unique(found)
}

/** The number of an amount without separators, currency or unit: `$19,000` -> `19000`, `6%` -> `6`. */
function amountNumber(value: string): string {
  return (/\d[\d,]*(?:\.\d+)?/.exec(value)?.[0] ?? '').replace(/,/g, '').replace(/\.0+$/, '')
}

/** `-MM-DD` of a written date (`March 20` -> `-03-20`), or undefined. */
function monthDay(value: string): string | undefined {
  const lower = value.toLowerCase()
  const month = MONTHS.findIndex((name) => lower.includes(name.slice(0, 3)))
  const day = /\b(\d{1,2})(?:st|nd|rd|th)?\b(?!\d)/.exec(value.replace(/\d{4}/, ''))?.[1]
  if (month < 0 || day === undefined) return undefined
  return `-${String(month + 1).padStart(2, '0')}-${day.padStart(2, '0')}`
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}

/** Sources as {@link isSupported} reads them: lower-cased text, and the same without thousands separators. */
export interface SourceText {
  text: string
  numbers: string
}

/** Prepares `texts` (tool results, the task prompt, ...) for {@link isSupported}. */
export function sourceText(texts: ReadonlyArray<string>): SourceText {
  // JSON-encoded results escape line breaks and quotes: read them as the text they encode.
  const text = texts.join('\n').replace(/\\n/g, '\n').replace(/\\"/g, '"').toLowerCase()
  return { text, numbers: text.replace(/(\d),(?=\d{3}\b)/g, '$1') }
}

/**
 * Whether `specific` appears in `sources`: as written (case-insensitive); an amount as its number (`$19,000` in
 * `19000`); a written date as the same month and day in an ISO date; a time also as `T09:30`; a file name also by its
 * name without extension (`Weekly Report Template.docx` for the Drive file `Weekly Report Template`).
 */
export function isSupported(specific: Specific, sources: SourceText): boolean {
  const value = specific.value.toLowerCase()
  if (sources.text.includes(value)) return true
  switch (specific.kind) {
    case 'amount': {
      const number = amountNumber(value)
      return number !== '' && new RegExp(`(?<![\\d.])${escapeRegExp(number)}(?![\\d]|\\.\\d)`).test(sources.numbers)
    }
    case 'date': {
      const md = monthDay(value)
      return md !== undefined && sources.text.includes(md)
    }
    case 'file name': {
      const stem = value.replace(/\.[a-z]+$/, '')
      return stem.length >= 3 && sources.text.includes(stem)
    }
    case 'time':
      return value.startsWith('0') && sources.text.includes(value.slice(1))
    case 'phone': {
      const digits = value.replace(/\D/g, '')
      return digits.length >= 7 && sources.text.replace(/[^\d\n]/g, '').includes(digits)
    }
    default:
      return false
  }
}

/** The specifics of `answer` that appear nowhere in `sources` and are not in `exempt` (lower-cased values). */
export function unsupportedSpecifics(answer: string, sources: SourceText, exempt: ReadonlySet<string> = new Set()): Specific[] {
  return specificsIn(answer).filter((s) => !exempt.has(s.value.toLowerCase()) && !isSupported(s, sources))
}

/** `name "Dana Whitmore", amount "$7,350"`: the specifics as a justification lists them. */
export function describeSpecifics(specifics: ReadonlyArray<Specific>): string {
  return specifics.map((s) => `${s.kind} ${JSON.stringify(s.value)}`).join(', ')
}
