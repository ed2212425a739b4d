import { stem, words } from './text.ts'

/**
 * What kind of answer a question asks for, read from its wording. `sender` is a `who` question
 * about who wrote the mail (`who sent`, `who asked`), answered from the From header; `entity` is a
 * `which <noun>` question (`which company`), answered with a capitalised name; `code` is an
 * identifier (`PO number`, `confirmation number`, a phone number).
 */
export type AnswerType = 'number' | 'date' | 'time' | 'person' | 'sender' | 'place' | 'code' | 'address' | 'entity' | 'sentence'

/** The answer type with what else the question tells about the answer. */
export interface AnswerSpec {
  type: AnswerType
  /** The noun the question asks about: `pumps` in `how many pumps`, `company` in `which company`. */
  noun: string | undefined
  /** Keep a unit written after a number (`5 years`, `120 MW`): the question does not name the unit itself. */
  withUnit: boolean
}

const AUXILIARY = new Set([
  'is',
  'was',
  'are',
  'were',
  'does',
  'did',
  'do',
  'has',
  'have',
  'had',
  'will',
  'would',
  'can',
  'could',
  'should',
  'kind',
  'type',
  'sort',
])
const QUANTITY_WORDS =
  /\b(amount|price|cost|costs|percentage|percent|total|sum|rate|figure|budget|fee|fees|deposit|salary|capacity|size|length|term|duration|value|count|quantity|balance|revenue|spend|premium|per diem)\b/
const PLACE_NOUNS = /\b(?:what|which) (city|location|place|venue|room|hotel|restaurant|office|building|country|state|site|airport)\b/
const PERSON_NOUNS = /\b(?:what|which) (person|people|employee|contact|lawyer|attorney|manager|analyst|trader|representative|colleague|engineer|consultant)\b/

/** Reads the answer type (and noun, and whether a unit belongs to the answer) from a question's wording. */
export function answerSpecOf(question: string): AnswerSpec {
  const q = question.toLowerCase().replace(/[’']s\b/g, '')
  const spec = (type: AnswerType, noun?: string, withUnit = false): AnswerSpec => ({ type, noun, withUnit })
  const howMany = /\bhow many ([a-z-]+)/.exec(q)
  if (howMany !== null) return spec('number', howMany[1])
  if (/\bhow much\b/.test(q)) return spec('number')
  if (/\bwho (sent|wrote|emailed|e-mailed|asked|requested|forwarded|replied|contacted|reached out)\b/.test(q)) return spec('sender')
  if (/\bwho(m|se)?\b/.test(q) || PERSON_NOUNS.test(q)) return spec('person')
  if (/\bhow (long|big|large|far|old|tall|heavy)\b/.test(q)) return spec('number', undefined, true)
  if (/\b(what|which|at what) time\b|\bwhat hour\b/.test(q)) return spec('time')
  if (/\b(e-?mail|web) address\b/.test(q)) return spec('code')
  if (/\baddress\b/.test(q)) return spec('address')
  if (/\b(number|no\.|id|code|extension|reference)\b(?! of)/.test(q) && !/\bwhat number of\b/.test(q)) return spec('code')
  if (/\bwhen\b|\b(date|dates|day|days|month|year|deadline)\b/.test(q)) return spec('date')
  if (QUANTITY_WORDS.test(q)) return spec('number', undefined, true)
  if (/\bwhere\b/.test(q) || PLACE_NOUNS.test(q)) return spec('place', PLACE_NOUNS.exec(q)?.[1])
  const which = /\b(?:which|what) ([a-z-]+)/.exec(q)
  if (which?.[1] !== undefined && !AUXILIARY.has(which[1])) return spec('entity', which[1])
  return spec('sentence')
}

/** The answer type alone; see {@link answerSpecOf}. */
export function answerTypeOf(question: string): AnswerType {
  return answerSpecOf(question).type
}

const MONTH = String.raw`(?:Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May|June?|July?|Aug(?:ust)?|Sept?(?:ember)?|Oct(?:ober)?|Nov(?:ember)?|Dec(?:ember)?)`
const WEEKDAY = String.raw`(?:Mon|Tues?|Wed(?:nes)?|Thu(?:rs?)?|Fri|Sat(?:ur)?|Sun)(?:day)?`
const SMALL_NUMBERS = 'one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|thirty|forty|fifty|hundred'
/** Units kept after a number when the question does not name the unit. */
const UNIT = String.raw`(?:%|percent|years?|months?|weeks?|days?|hours?|minutes?|seconds?|[kMG]Wh?|MW(?:ac|dc)?|miles?|km|kilometers?|feet|ft|meters?|acres?|tons?|tonnes?|characters?|pages?|people|MMBtu|Bcf|barrels?|gallons?|kg|lbs?|pounds?)`
const MAGNITUDE = String.raw`(?:\s?(?:%|percent\b|million\b|billion\b|thousand\b|mm\b|bn\b|[kKmMbB]\b))?`
const NUMBER_CORE = String.raw`(?:[$£€]\s?)?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?`
const NAME_WORD = String.raw`[A-Z][\w&'’.-]*`

type SpanType = Exclude<AnswerType, 'sentence' | 'sender'>

const PATTERNS: Record<SpanType, RegExp[]> = {
  number: [new RegExp(String.raw`${NUMBER_CORE}${MAGNITUDE}`, 'g'), new RegExp(String.raw`\b(?:${SMALL_NUMBERS})\b`, 'gi')],
  date: [
    new RegExp(String.raw`\b${MONTH}\.?\s+\d{1,2}\s?[-–]\s?(?:${MONTH}\.?\s+)?\d{1,2}\b(?:,?\s+\d{4})?`, 'g'),
    new RegExp(String.raw`\b(?:${WEEKDAY},?\s+)?${MONTH}\.?\s+\d{1,2}(?:st|nd|rd|th)?(?:,?\s+\d{4})?\b`, 'g'),
    new RegExp(String.raw`\b(?:${WEEKDAY},?\s+)?(?:the\s+)?\d{1,2}(?:st|nd|rd|th)?\s+(?:of\s+)?${MONTH}\b(?:,?\s+\d{4})?`, 'g'),
    new RegExp(String.raw`\b${MONTH}\s+\d{4}\b`, 'g'),
    /\b\d{4}-\d{2}-\d{2}\b/g,
    /\b\d{1,2}\/\d{1,2}(?:\/\d{2,4})?\b/g,
    new RegExp(String.raw`\b(?:next|this|last)\s+(?:${WEEKDAY}|week|month|year)\b`, 'gi'),
    new RegExp(String.raw`\b${WEEKDAY}\b`, 'g'),
    /\b(?:tomorrow|today|tonight|yesterday)\b/gi,
  ],
  time: [
    /\b\d{1,2}(?::\d{2})?\s?(?:[ap]\.?m\b\.?)(?:\s?\(?(?:[A-Z]{1,2}[SD]T|GMT|UTC|Central|Eastern|Pacific|Mountain)\)?)?/gi,
    /\b\d{1,2}:\d{2}(?:\s?(?:[A-Z]{1,2}[SD]T|GMT|UTC))?\b/g,
    /\b(?:noon|midnight)\b/gi,
  ],
  person: [/\b[A-Z][a-z]+(?:\s+[A-Z]\.)?(?:\s+(?:[A-Z][a-z]+(?:[-'][A-Z]?[a-z]+)?))+\b/g],
  place: [
    new RegExp(String.raw`\b(?:at|in|to)\s+((?:the\s+)?${NAME_WORD}(?:\s+(?:${NAME_WORD}|of|de|\d+[A-Za-z]?))*)`, 'g'),
    /\b(?:[Rr]oom|[Ss]uite|[Ff]loor|[Gg]ate|[Dd]ock|[Bb]uilding)\s*#?\s*\d+[A-Za-z]?\b/g,
  ],
  code: [
    /(?:\+?1[-. ])?\(?\b\d{3}\)?[-. ]\d{3}[-. ]\d{4}\b/g,
    /\b[\w.+-]+@[\w-]+(?:\.[\w-]+)+\b/g,
    /\b(?=[A-Z0-9-]*\d)(?=[A-Z0-9-]*[A-Z])[A-Z0-9]+(?:-[A-Z0-9]+)+\b/g,
    /\b(?=[A-Za-z]*\d)[A-Z][A-Z0-9]*\d[A-Z0-9]*\b/g,
    /#\s?\d{3,}\b|\b\d{5,}\b/g,
  ],
  address: [
    /\b\d{1,6}\s+(?:[A-Z][\w.'-]*\s+){1,4}(?:Street|St\.?|Avenue|Ave\.?|Road|Rd\.?|Boulevard|Blvd\.?|Drive|Dr\.?|Lane|Ln\.?|Way|Parkway|Pkwy\.?|Place|Pl\.?|Court|Ct\.?|Square|Highway|Hwy\.?)(?:,?\s+(?:Suite|Ste\.?|Floor|Unit|Room|#)\s*#?\s*\w+)?/g,
  ],
  entity: [new RegExp(String.raw`\b(?:The\s+)?${NAME_WORD}(?:\s+(?:${NAME_WORD}|of|and|&|de))*(?:\s+[a-z]+)?`, 'g')],
}

/** Capitalised words that start no name. */
const NOT_NAME = new RegExp(
  String.raw`^(?:The|This|That|These|Those|A|An|I|We|You|He|She|It|They|Our|My|Your|Please|Thanks|Thank|Dear|Hi|Hello|Re|Fw|Fwd|Subject|From|To|Cc|Sent|Regards|Best|Mr|Mrs|Ms|Dr|If|And|But|Or|So|On|In|At|For|Of|By|With|During|After|Before|Following|Congratulations|Good|Great|Confirming|Also|Just|Note|Update|Per|As|All|Any|Some|No|Yes|Once|When|While|Since|Until|Then|There|Here|Today|Tomorrow|Yesterday|Let|Can|Could|Would|Will|${MONTH}|${WEEKDAY})$`,
)

interface Candidate {
  text: string
  start: number
  /** A vague match (`Friday`, `next week`) ranked after precise ones (`May 3`). */
  weak?: boolean
}

/** Date patterns from this index on give vague dates. */
const FIRST_WEAK_DATE_PATTERN = 6

/** Whether a number match sits inside a code (`KX-2024-118`, `PX-220`) rather than standing alone. */
function insideCode(sentence: string, start: number, end: number): boolean {
  const before = sentence[start - 1] ?? ' '
  const after = sentence.slice(end, end + 2)
  return /[A-Za-z0-9\-/.]/.test(before) || /^[A-Za-z0-9]/.test(after) || /^[-/]\d/.test(after)
}

function nameSpan(text: string, start: number, spec: AnswerSpec): Candidate | undefined {
  const parts = text.split(/\s+/)
  let offset = start
  const nounLower = spec.noun === undefined ? undefined : stem(spec.noun)
  const last = parts.at(-1) ?? ''
  const endsWithNoun = nounLower !== undefined && /^[a-z]/.test(last) && stem(last) === nounLower
  // A trailing lowercase word belongs to the name only when it is the noun asked about (`the Moreno family`).
  if (/^[a-z]/.test(last) && !endsWithNoun) parts.pop()
  // `The` stays when the name ends with the asked noun (`The Moreno family`) or is capitalised mid-sentence (`at The Lakeway Inn`).
  const keepThe = parts[0] === 'The' && (endsWithNoun || start > 0)
  while (parts.length > 0 && NOT_NAME.test(parts[0] ?? '') && !(keepThe && parts[0] === 'The')) offset += (parts.shift() ?? '').length + 1
  while (parts.length > 0 && /^(of|and|&|de)$/.test(parts.at(-1) ?? '')) parts.pop()
  if (parts.length === 0 || parts.every((p) => NOT_NAME.test(p) || /^[a-z]/.test(p))) return undefined
  return { text: parts.join(' '), start: offset }
}

function candidates(spec: AnswerSpec, sentence: string): Candidate[] {
  const type = spec.type as SpanType
  const out: Candidate[] = []
  const add = (text: string, start: number, weak = false) => {
    const clean = text.replace(/[.,;:]+$/, '').trim()
    if (clean.length > 0 && !out.some((c) => c.start === start)) out.push({ text: clean, start, weak })
  }
  // First, so it wins over the bare capitalised word at the same place.
  if (type === 'entity' && spec.noun !== undefined) {
    // `Dock 4`, `Gate 3`: the noun asked about followed by its number.
    for (const match of sentence.matchAll(new RegExp(String.raw`\b${spec.noun}\s+#?\d+[A-Za-z]?\b`, 'gi'))) add(match[0], match.index ?? 0)
  }
  for (const [patternIndex, pattern] of PATTERNS[type].entries()) {
    for (const match of sentence.matchAll(pattern)) {
      const index = match.index ?? 0
      const text = (type === 'place' && match[1] !== undefined ? match[1] : match[0]).trim()
      const start = index + match[0].indexOf(text)
      if (type === 'number') {
        if (/^\d/.test(text) && insideCode(sentence, start, start + (/^[\d,.]+/.exec(text)?.[0].length ?? 0))) continue
        if (/^(19|20)\d\d$/.test(text)) continue // a bare year is a date, not a quantity
        if (new RegExp(String.raw`\b${MONTH}\.?\s*$`).test(sentence.slice(0, start))) continue // the day of a date
        let full = text
        if (spec.withUnit) {
          const unit = new RegExp(String.raw`^\s?${UNIT}\b`, 'i').exec(sentence.slice(start + text.length))
          if (unit !== null && !/(%|percent)$/.test(text)) full = text + unit[0]
        }
        add(full, start)
      } else if (type === 'person') {
        const span = nameSpan(text, start, { ...spec, noun: undefined })
        if (span !== undefined && span.text.split(/\s+/).length >= 2) add(span.text, span.start)
      } else if (type === 'entity' || type === 'place') {
        const span = nameSpan(text, start, spec)
        if (span !== undefined) add(span.text, span.start)
      } else {
        add(text, start, type === 'date' && patternIndex >= FIRST_WEAK_DATE_PATTERN)
      }
    }
  }
  return out.sort((a, b) => a.start - b.start)
}

/** Positions in `sentence` of words whose stem is among the question's stems. */
function anchorPositions(sentence: string, questionStems: ReadonlySet<string>): number[] {
  const out: number[] = []
  for (const match of sentence.matchAll(/[A-Za-z0-9]+/g)) {
    if (questionStems.has(stem(match[0]))) out.push(match.index ?? 0)
  }
  return out
}

function mentionedIn(candidate: string, question: string): boolean {
  const q = new Set(words(question))
  const w = words(candidate)
  return w.length > 0 && w.every((x) => q.has(x))
}

/** Whether a candidate names the noun asked about: contains it (`Juniper Ridge Bank`) or is followed by it (`9 pumps`). */
function namesNoun(candidate: Candidate, sentence: string, noun: string | undefined): boolean {
  if (noun === undefined) return false
  const target = stem(noun)
  const own = words(candidate.text).map(stem)
  const following = words(sentence.slice(candidate.start + candidate.text.length))
    .slice(0, 3)
    .map(stem)
  return own.includes(target) || following.includes(target)
}

function spanCandidates(spec: AnswerSpec, sentence: string, question: string): Candidate[] {
  if (spec.type === 'sentence' || spec.type === 'sender') return []
  return candidates(spec, sentence).filter((c) => !mentionedIn(c.text, question))
}

/**
 * How well the sentence can answer: 0 when it holds no candidate of the asked type (outside the
 * question), 1 when it holds only vague ones, 2 for a precise one, 3 when one also names the asked noun.
 */
export function candidateStrength(spec: AnswerSpec, sentence: string, question: string): number {
  const found = spanCandidates(spec, sentence, question)
  if (found.length === 0) return 0
  if (found.some((c) => namesNoun(c, sentence, spec.noun))) return 3
  return found.some((c) => c.weak !== true) ? 2 : 1
}

/**
 * The span of `sentence` that answers the question: among the candidates of the asked type
 * (number, date, time, name, place, code, address), those that name the asked noun first, then
 * the one nearest to the words the sentence shares with the question. Candidates the question
 * itself contains are skipped. `undefined` when the sentence holds none.
 */
export function extractAnswer(spec: AnswerSpec, sentence: string, question: string, questionStems: ReadonlySet<string>): string | undefined {
  const found = spanCandidates(spec, sentence, question)
  if (found.length === 0) return undefined
  const anchors = anchorPositions(sentence, questionStems)
  const distance = (c: Candidate) => (anchors.length === 0 ? c.start : Math.min(...anchors.map((a) => Math.abs(a - c.start))))
  const ranked = found
    .map((c, index) => ({ c, index, rank: (namesNoun(c, sentence, spec.noun) ? 0 : 2) + (c.weak === true ? 1 : 0), distance: distance(c) }))
    .sort((a, b) => a.rank - b.rank || a.distance - b.distance || a.index - b.index)
  return ranked[0]?.c.text
}

/** A display name from a From header: `"Jane Doe" <jane@x.com>` → `Jane Doe`; `jane.doe@x.com` → `Jane Doe`. */
export function senderName(from: string): string {
  const display = from
    .replace(/<[^>]*>/g, '')
    .replace(/["']/g, '')
    .trim()
  if (display.length > 0 && !display.includes('@')) return display
  const address = (from.match(/[\w.+-]+@[\w.-]+/)?.[0] ?? from).split('@')[0] ?? ''
  return address
    .split(/[._-]+/)
    .filter((part) => part.length > 0)
    .map((part) => part[0]?.toUpperCase() + part.slice(1))
    .join(' ')
}
