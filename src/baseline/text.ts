/**
 * Word-level text helpers for the baseline agent: tokens, a light stemmer,
 * keyword extraction, sentence splitting and overlap scoring. Pure and deterministic.
 */

const STOPWORDS = new Set(
  `a about above after again against all also am an and any are as at be because been before being below between both
  but by can could did do does doing down during each either else ever few for from further had has have having he her
  here hers herself him himself his how i if in into is it its itself just least let me more most much must my myself
  neither no nor not now of off on once only or other ought our ours ourselves out over own per please same shall she
  should since so some such than that the their theirs them themselves then there these they this those through to too
  under until up upon us very was we were what whatever when whenever where whereas wherever whether which while who
  whoever whom whose why will with within without would yet you your yours yourself yourselves
  tell know find give get got did does done say said says mention mentioned mentions ask asked asking question
  email emails e-mail mail message messages sent send regarding re fw fwd according inbox`.split(/\s+/),
)

/** Words that carry the question's type but not its topic. */
const QUESTION_WORDS = new Set(['how', 'many', 'much', 'what', 'when', 'where', 'which', 'who', 'whom', 'whose', 'why', 'date', 'day', 'time'])

/** Lowercase word tokens (letters, digits, inner apostrophes, dots and hyphens kept inside numbers/words). */
export function words(text: string): string[] {
  return text.toLowerCase().match(/[a-z0-9]+(?:['’.-][a-z0-9]+)*/g) ?? []
}

/** A crude suffix-stripping stemmer, enough to match `meetings`/`meeting` and `scheduled`/`schedule`. */
export function stem(word: string): string {
  let w = word.toLowerCase().replace(/['’]s$/, '')
  if (/^\d/.test(w) || w.length <= 3) return w
  if (w.endsWith('ies') && w.length > 4) w = `${w.slice(0, -3)}y`
  else if (w.endsWith('sses')) w = w.slice(0, -2)
  else if (w.endsWith('es') && w.length > 4) w = w.slice(0, -2)
  else if (w.endsWith('s') && !w.endsWith('ss') && w.length > 3) w = w.slice(0, -1)
  for (const suffix of ['ing', 'ed']) {
    if (w.endsWith(suffix) && w.length - suffix.length >= 3) {
      w = w.slice(0, -suffix.length)
      break
    }
  }
  if (w.endsWith('e') && w.length > 4) w = w.slice(0, -1)
  return w
}

/** Whether a lowercase word is a stopword (function word or a word every question in this domain uses). */
export function isStopword(word: string): boolean {
  return STOPWORDS.has(word) || QUESTION_WORDS.has(word)
}

/** Content words of `text`, stemmed, as a set. */
export function contentStems(text: string): Set<string> {
  const out = new Set<string>()
  for (const w of words(text)) if (!isStopword(w)) out.add(stem(w))
  return out
}

/** One keyword with the reason it ranks where it does. */
export interface Keyword {
  /** The word as written (original case). */
  text: string
  /** Higher is more distinctive. */
  weight: number
}

/**
 * Keywords of a question, most distinctive first: capitalised names (not sentence-initial),
 * numbers, then longer words. Stopwords and question words are dropped; duplicates (by stem) too.
 * Ties keep the order of the question, so the result is deterministic.
 */
export function extractKeywords(text: string, extraStopwords: ReadonlySet<string> = new Set()): Keyword[] {
  const tokens = [...text.matchAll(/[A-Za-z0-9$£€]+(?:['’.&-][A-Za-z0-9]+)*/g)]
  const seen = new Set<string>()
  const out: Array<Keyword & { index: number }> = []
  tokens.forEach((match, index) => {
    const raw = match[0].replace(/^[$£€]+/, '').replace(/['’]s$/i, '')
    const lower = raw.toLowerCase()
    if (lower.length < 2 && !/^\d$/.test(lower)) return
    if (isStopword(lower) || extraStopwords.has(lower)) return
    const key = stem(lower)
    if (seen.has(key)) return
    seen.add(key)
    const position = match.index ?? 0
    const sentenceInitial = position === 0 || /[.?!]\s*$/.test(text.slice(0, position))
    let weight = Math.min(lower.length, 10) / 10
    if (/\d/.test(raw)) weight += 1.5
    else if (/^[A-Z]/.test(raw) && !sentenceInitial) weight += 2
    else if (/[A-Z]/.test(raw.slice(1))) weight += 1.5
    out.push({ text: raw, weight, index })
  })
  out.sort((a, b) => b.weight - a.weight || a.index - b.index)
  return out.map(({ text: t, weight }) => ({ text: t, weight }))
}

/** Splits text into sentences (and lines: mail bodies often lack final punctuation). */
export function splitSentences(text: string): string[] {
  const out: string[] = []
  for (const block of text.replace(/\r\n?/g, '\n').split(/\n\s*\n|\n(?=\s*[-*•>]|\s*\d+[.)]\s)/)) {
    const flat = block
      .split('\n')
      .map((line) => line.replace(/^[\s>]+/, '').trim())
      .filter((line) => line.length > 0)
      .join(' ')
    for (const piece of flat.split(/(?<=[.?!])\s+(?=[A-Z0-9"'(])/)) {
      const sentence = piece.trim()
      if (sentence.length > 0) out.push(sentence)
    }
  }
  return out
}

/** Sum of weights of question stems that occur in `candidate` (a stem counts once). */
export function overlapScore(questionStems: ReadonlyMap<string, number>, candidate: string): number {
  let score = 0
  for (const s of contentStems(candidate)) score += questionStems.get(s) ?? 0
  return score
}

/** Question keywords as stem → weight, for {@link overlapScore}. */
export function weightedStems(keywords: ReadonlyArray<Keyword>): Map<string, number> {
  const out = new Map<string, number>()
  for (const k of keywords) for (const w of words(k.text)) out.set(stem(w), Math.max(out.get(stem(w)) ?? 0, k.weight))
  return out
}

/** Truncates to `max` characters on a word boundary, adding an ellipsis. */
export function truncate(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim()
  if (flat.length <= max) return flat
  const cut = flat.slice(0, max)
  const space = cut.lastIndexOf(' ')
  return `${(space > max / 2 ? cut.slice(0, space) : cut).trimEnd()}…`
}
