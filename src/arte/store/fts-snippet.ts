import { ftsQueryGroups } from './fts-query.ts'

/**
 * FTS5's `snippet()` of the email index, computed in JavaScript over the text of the rows a search returns.
 *
 * A search returns a page of ten or so emails; SQLite's `snippet()` tokenizes each of them twice with the porter
 * stemmer and re-runs the MATCH per row to get the phrase positions, which was most of a search's cost. This module
 * does the same work once per email: the `ascii` tokenizer, SQLite's porter stemmer (stemming only the tokens that can
 * match: the first letter of a stem is the first letter of its word), the phrase instances as FTS5 lists them
 * (`xInst`: by column, offset, then phrase), and the snippet algorithm of SQLite's `fts5_aux.c` (fragment scoring
 * with the sentence bonus, coalesced highlights, ellipses), so that the output is byte for byte what
 * `snippet(emails_fts, -1, '[', ']', ' ... ', 24)` returns. The equivalence is tested against SQLite on generated text
 * and on the real Enron sample (`fts-snippet.test.ts`).
 */

/** The tokens of a snippet: FTS5 `snippet()`'s fifth argument in the store's search. */
export const SNIPPET_TOKENS = 24
const OPEN = '['
const CLOSE = ']'
const ELLIPSIS = ' ... '

/** Tokens longer than this many bytes are not stemmed (SQLite's `FTS5_PORTER_MAX_TOKEN`). */
const PORTER_MAX_TOKEN = 64

/** The `ascii` tokenizer's token characters below 0x80 (ASCII letters and digits); every other code unit above is one. */
const ASCII_TOKEN_CHAR = new Uint8Array(128)
for (let c = 0; c < 128; c++) {
  ASCII_TOKEN_CHAR[c] = (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) ? 1 : 0
}

/** ASCII letters to lower case, as the `ascii` tokenizer folds (other characters stay). */
function asciiFold(token: string): string {
  return /[A-Z]/.test(token) ? token.replace(/[A-Z]+/g, (letters) => letters.toLowerCase()) : token
}

// ---------------------------------------------------------------------------------------------------------------
// SQLite's porter stemmer (fts5_tokenize.c), over the UTF-8 bytes of a folded token.

const stemBuffer = new Uint8Array(PORTER_MAX_TOKEN + 64)

function isVowel(c: number, yIsVowel: boolean): boolean {
  return c === 97 || c === 101 || c === 105 || c === 111 || c === 117 || (yIsVowel && c === 121)
}

/** The end of the first vowel-consonant sequence of `stemBuffer[from, from + n)` (plus one), or 0. */
function gobbleVC(from: number, n: number, prevConsonant: boolean): number {
  let consonant = prevConsonant
  let i = 0
  for (; i < n; i++) {
    consonant = !isVowel(stemBuffer[from + i] as number, consonant)
    if (!consonant) break
  }
  for (i++; i < n; i++) {
    consonant = !isVowel(stemBuffer[from + i] as number, consonant)
    if (consonant) return i + 1
  }
  return 0
}

const mGt0 = (n: number): boolean => gobbleVC(0, n, false) !== 0
function mGt1(n: number): boolean {
  const m = gobbleVC(0, n, false)
  return m !== 0 && gobbleVC(m, n - m, true) !== 0
}
function mEq1(n: number): boolean {
  const m = gobbleVC(0, n, false)
  return m !== 0 && gobbleVC(m, n - m, true) === 0
}
/** `*o`: the stem ends consonant-vowel-consonant, the last not w, x or y. */
function oStar(n: number): boolean {
  const last = stemBuffer[n - 1]
  if (last === 119 || last === 120 || last === 121) return false
  let mask = 0
  let consonant = false
  for (let i = 0; i < n; i++) {
    consonant = !isVowel(stemBuffer[i] as number, consonant)
    mask = ((mask << 1) + (consonant ? 1 : 0)) | 0
  }
  return (mask & 7) === 5
}
const mGt1AndSOrT = (n: number): boolean => (stemBuffer[n - 1] === 115 || stemBuffer[n - 1] === 116) && mGt1(n)
function hasVowel(n: number): boolean {
  for (let i = 0; i < n; i++) if (isVowel(stemBuffer[i] as number, i > 0)) return true
  return false
}

interface PorterRule {
  suffix: number[]
  condition: ((stem: number) => boolean) | undefined
  output: number[]
}
const bytes = (text: string): number[] => [...text].map((c) => c.charCodeAt(0))
const rules = (list: Array<[string, ((stem: number) => boolean) | undefined, string]>): PorterRule[] =>
  list.map(([suffix, condition, output]) => ({ suffix: bytes(suffix), condition, output: bytes(output) }))

const STEP2 = rules([
  ['ational', mGt0, 'ate'],
  ['tional', mGt0, 'tion'],
  ['enci', mGt0, 'ence'],
  ['anci', mGt0, 'ance'],
  ['izer', mGt0, 'ize'],
  ['logi', mGt0, 'log'],
  ['bli', mGt0, 'ble'],
  ['alli', mGt0, 'al'],
  ['entli', mGt0, 'ent'],
  ['eli', mGt0, 'e'],
  ['ousli', mGt0, 'ous'],
  ['ization', mGt0, 'ize'],
  ['ation', mGt0, 'ate'],
  ['ator', mGt0, 'ate'],
  ['alism', mGt0, 'al'],
  ['iveness', mGt0, 'ive'],
  ['fulness', mGt0, 'ful'],
  ['ousness', mGt0, 'ous'],
  ['aliti', mGt0, 'al'],
  ['iviti', mGt0, 'ive'],
  ['biliti', mGt0, 'ble'],
])
const STEP3 = rules([
  ['ical', mGt0, 'ic'],
  ['ness', mGt0, ''],
  ['icate', mGt0, 'ic'],
  ['iciti', mGt0, 'ic'],
  ['ful', mGt0, ''],
  ['ative', mGt0, ''],
  ['alize', mGt0, 'al'],
])
const STEP4 = rules([
  ['al', mGt1, ''],
  ['ance', mGt1, ''],
  ['ence', mGt1, ''],
  ['er', mGt1, ''],
  ['ic', mGt1, ''],
  ['able', mGt1, ''],
  ['ible', mGt1, ''],
  ['ant', mGt1, ''],
  ['ement', mGt1, ''],
  ['ment', mGt1, ''],
  ['ent', mGt1, ''],
  ['ion', mGt1AndSOrT, ''],
  ['ou', mGt1, ''],
  ['ism', mGt1, ''],
  ['ate', mGt1, ''],
  ['iti', mGt1, ''],
  ['ous', mGt1, ''],
  ['ive', mGt1, ''],
  ['ize', mGt1, ''],
])
const STEP1B2 = rules([
  ['at', undefined, 'ate'],
  ['bl', undefined, 'ble'],
  ['iz', undefined, 'ize'],
])

function endsWith(n: number, suffix: number[]): boolean {
  if (n <= suffix.length) return false
  const from = n - suffix.length
  for (let i = 0; i < suffix.length; i++) if (stemBuffer[from + i] !== suffix[i]) return false
  return true
}

/** Whether the last {@link applyStep} or {@link step1b} changed the word (SQLite's steps return it). */
let changed = false

/**
 * Applies the first rule of `list` whose suffix ends the word (SQLite's generated steps: a rule whose suffix matches
 * but whose condition fails ends the step). Returns the new length; {@link changed} says whether a rule was applied.
 */
function applyStep(n: number, list: PorterRule[]): number {
  changed = false
  for (const rule of list) {
    if (!endsWith(n, rule.suffix)) continue
    const stem = n - rule.suffix.length
    if (rule.condition !== undefined && !rule.condition(stem)) return n
    for (let i = 0; i < rule.output.length; i++) stemBuffer[stem + i] = rule.output[i] as number
    changed = true
    return stem + rule.output.length
  }
  return n
}

/** Step 1b: `eed` -> `ee` (m > 0); `ed`, `ing` removed after a vowel ({@link changed} then). */
function step1b(n: number): number {
  changed = false
  if (endsWith(n, EED)) return mGt0(n - 3) ? n - 1 : n
  const suffix = endsWith(n, ED) ? 2 : endsWith(n, ING) ? 3 : 0
  if (suffix === 0 || !hasVowel(n - suffix)) return n
  changed = true
  return n - suffix
}
const EED = bytes('eed')
const ED = bytes('ed')
const ING = bytes('ing')

/** The porter stem of the folded token held in `stemBuffer[0, length)`, as a string of its bytes. */
function stemBytes(length: number): string {
  let n = length
  // Step 1a.
  if (stemBuffer[n - 1] === 115) {
    if (stemBuffer[n - 2] === 101) {
      if ((n > 4 && stemBuffer[n - 4] === 115 && stemBuffer[n - 3] === 115) || (n > 3 && stemBuffer[n - 3] === 105)) n -= 2
      else n -= 1
    } else if (stemBuffer[n - 2] !== 115) {
      n -= 1
    }
  }
  // Step 1b.
  n = step1b(n)
  if (changed) {
    n = applyStep(n, STEP1B2)
    if (!changed) {
      const c = stemBuffer[n - 1] as number
      if (!isVowel(c, false) && c !== 108 && c !== 115 && c !== 122 && n >= 2 && c === stemBuffer[n - 2]) n--
      else if (mEq1(n) && oStar(n)) stemBuffer[n++] = 101
    }
  }
  // Step 1c.
  if (stemBuffer[n - 1] === 121 && hasVowel(n - 1)) stemBuffer[n - 1] = 105
  // Steps 2 to 4.
  n = applyStep(n, STEP2)
  n = applyStep(n, STEP3)
  n = applyStep(n, STEP4)
  // Step 5a.
  if (stemBuffer[n - 1] === 101 && (mGt1(n - 1) || (mEq1(n - 1) && !oStar(n - 1)))) n--
  // Step 5b.
  if (n > 1 && stemBuffer[n - 1] === 108 && stemBuffer[n - 2] === 108 && mGt1(n - 1)) n--
  let stem = ''
  for (let i = 0; i < n; i++) stem += String.fromCharCode(stemBuffer[i] as number)
  return stem
}

/** Terms by token as written (before folding), for the tokens seen last. */
const stems = new Map<string, string>()
const STEM_CACHE_SIZE = 50_000
const ENCODER = new TextEncoder()

/**
 * The term the `porter ascii` tokenizer indexes for `token` (one token of the ascii tokenizer), as a string of its
 * UTF-8 bytes: ASCII letters folded, then stemmed unless shorter than 3 or longer than 64 bytes.
 */
export function porterTerm(token: string): string {
  const cached = stems.get(token)
  if (cached !== undefined) return cached
  const folded = asciiFold(token)
  let length = folded.length
  let ascii = true
  for (let i = 0; i < folded.length; i++) {
    if (folded.charCodeAt(i) >= 0x80) {
      ascii = false
      break
    }
  }
  let term: string
  const utf8 = ascii ? undefined : ENCODER.encode(folded)
  if (utf8 !== undefined) length = utf8.length
  if (length > PORTER_MAX_TOKEN || length < 3) {
    term = utf8 === undefined ? folded : String.fromCharCode(...utf8)
  } else {
    if (utf8 === undefined) for (let i = 0; i < length; i++) stemBuffer[i] = folded.charCodeAt(i)
    else stemBuffer.set(utf8)
    term = stemBytes(length)
  }
  if (stems.size >= STEM_CACHE_SIZE) stems.clear()
  stems.set(token, term)
  return term
}

// ---------------------------------------------------------------------------------------------------------------
// The query: phrases of terms, grouped as the MATCH expression of buildFtsQuery.

/** A search's MATCH expression, compiled for {@link ftsSnippet} and {@link ftsMatches}. */
export interface SnippetQuery {
  /** Each phrase's term ids, in FTS5's phrase order. */
  readonly phrases: ReadonlyArray<Int32Array>
  /** Phrase indexes of each AND group (one of them must match). */
  readonly groups: ReadonlyArray<ReadonlyArray<number>>
  /** Term id by term. */
  readonly terms: ReadonlyMap<string, number>
  /** The folded first code unit of every term: a token starting otherwise cannot match. */
  readonly firstUnits: ReadonlySet<number>
  /**
   * For tokens starting with an ASCII character: the starts `129 * first + second` (both folded; `second` 128 for
   * "any") that a token can have to have a query term. Porter keeps a word's first character, and its second unless
   * the stem is shorter than two or a final `y` at it became `i`. A few numbers: a short list is faster to make than a
   * table, and as fast to search.
   */
  readonly asciiStart: Int32Array
  /** Term id (or -1) of the tokens seen so far, as written in the text. */
  readonly tokenTerms: Map<string, number>
}

/** The compiled query of `keywords` (see {@link ftsQueryGroups}), or `undefined` when they hold no word. */
export function compileSnippetQuery(keywords: ReadonlyArray<string>): SnippetQuery | undefined {
  return compileSnippetGroups(ftsQueryGroups(keywords))
}

/** The compiled query of {@link ftsQueryGroups}' groups, or `undefined` when there are none. */
export function compileSnippetGroups(groups: ReadonlyArray<ReadonlyArray<ReadonlyArray<string>>>): SnippetQuery | undefined {
  if (groups.length === 0) return undefined
  const terms = new Map<string, number>()
  const firstUnits = new Set<number>()
  const phrases: Int32Array[] = []
  const phraseGroups: number[][] = []
  for (const alternatives of groups) {
    const members: number[] = []
    for (const tokens of alternatives) {
      members.push(phrases.length)
      phrases.push(
        Int32Array.from(tokens, (token) => {
          const term = porterTerm(token)
          let id = terms.get(term)
          if (id === undefined) {
            id = terms.size
            terms.set(term, id)
          }
          firstUnits.add(asciiFold(token).charCodeAt(0))
          return id
        }),
      )
    }
    phraseGroups.push(members)
  }
  const starts = new Set<number>()
  for (const alternatives of groups) {
    for (const tokens of alternatives) {
      for (const token of tokens) {
        const first = asciiFold(token).charCodeAt(0)
        if (first >= 0x80) continue
        const term = porterTerm(token)
        const second = term.length < 2 || term.charCodeAt(1) >= 0x80 ? 128 : term.charCodeAt(1)
        starts.add(129 * first + second)
        if (second === 105) starts.add(129 * first + 121)
      }
    }
  }
  return { phrases, groups: phraseGroups, terms, firstUnits, asciiStart: Int32Array.from(starts), tokenTerms: new Map() }
}

// ---------------------------------------------------------------------------------------------------------------
// One document: its columns' tokens, the phrase instances (FTS5's xInst), sentence starts.

/**
 * Token bounds of each column (`starts`, `ends`), reused from document to document (a snippet is computed before the
 * next document is scanned): allocating and zeroing them per column was a tenth of a scan.
 */
const startsBuffers: Int32Array[] = []
const endsBuffers: Int32Array[] = []
/** Positions and term ids of the tokens that have a query term, in order (the scan's candidates). */
let candidatePositions = new Int32Array(1024)
let candidateTerms = new Int32Array(1024)

interface Column {
  /** Tokens in the column (FTS5's xColumnSize). */
  size: number
  /** First tokens of sentences (the snippet's sentence finder). */
  firsts: number[]
  /** Start and end offsets of each token. */
  starts: Int32Array
  ends: Int32Array
}

interface Instances {
  phrase: number[]
  column: number[]
  offset: number[]
}

/**
 * Whether the token `text[start, end)` can have one of the query's terms (see {@link SnippetQuery.asciiStart}).
 * @internal Exported for its test.
 */
export function mayMatch(text: string, start: number, end: number, asciiStart: Int32Array, firstUnits: ReadonlySet<number>): boolean {
  let first = text.charCodeAt(start)
  if (first >= 0x80) return firstUnits.has(first)
  if (first >= 65 && first <= 90) first += 32
  const any = 129 * first + 128
  // The token's start as a start of asciiStart, or -1 for a token of one character or a non-ASCII second one.
  let code = -1
  if (end - start >= 2) {
    const second = text.charCodeAt(start + 1)
    if (second < 0x80) code = 129 * first + (second >= 65 && second <= 90 ? second + 32 : second)
  }
  for (let i = 0; i < asciiStart.length; i++) {
    const allowed = asciiStart[i] as number
    if (allowed === any || allowed === code) return true
  }
  return false
}

/** The buffer `buffers[index]`, grown to hold `length` items. */
function buffer(buffers: Int32Array[], index: number, length: number): Int32Array {
  let found = buffers[index]
  if (found === undefined || found.length < length) {
    found = new Int32Array(Math.max(length, 2048))
    buffers[index] = found
  }
  return found
}

/**
 * Tokenizes one column as the ascii tokenizer does: its size, token bounds and sentence starts (a token after
 * whitespace that follows `.` or `:`), and its phrase instances appended to `out` in FTS5's order.
 */
function scanColumn(text: string, index: number, query: SnippetQuery, out: Instances): Column {
  const length = text.length
  // A column of n characters holds at most (n + 1) / 2 tokens: the buffers are sized once, before the scan.
  const tokensAtMost = (length + 1) >> 1
  const starts = buffer(startsBuffers, index, tokensAtMost + 1)
  const ends = buffer(endsBuffers, index, tokensAtMost + 1)
  const firsts: number[] = []
  const asciiStart = query.asciiStart
  const firstUnits = query.firstUnits
  const termCache = query.tokenTerms
  if (candidatePositions.length < tokensAtMost) {
    candidatePositions = new Int32Array(tokensAtMost)
    candidateTerms = new Int32Array(tokensAtMost)
  }
  let candidates = 0
  let size = 0
  let i = 0
  // The sentence finder's look-back, kept while reading: the last character that is not whitespace, and whether
  // whitespace followed it.
  let lastSolid = 0
  let spaced = false
  while (i < length) {
    let c = text.charCodeAt(i)
    if (c < 0x80 && ASCII_TOKEN_CHAR[c] === 0) {
      if (c === 32 || c === 9 || c === 10 || c === 13) {
        spaced = true
      } else {
        lastSolid = c
        spaced = false
      }
      i++
      continue
    }
    const start = i
    for (i++; i < length; i++) {
      c = text.charCodeAt(i)
      if (c < 0x80 && ASCII_TOKEN_CHAR[c] === 0) break
    }
    if (size === 0) firsts.push(0)
    else if (spaced && (lastSolid === 46 || lastSolid === 58)) firsts.push(size)
    lastSolid = 1
    spaced = false
    starts[size] = start
    ends[size] = i
    if (mayMatch(text, start, i, asciiStart, firstUnits)) {
      const token = text.slice(start, i)
      let term = termCache.get(token)
      if (term === undefined) {
        term = query.terms.get(porterTerm(token)) ?? -1
        termCache.set(token, term)
      }
      if (term >= 0) {
        candidatePositions[candidates] = size
        candidateTerms[candidates++] = term
      }
    }
    size++
  }
  // Instances by offset, then phrase (FTS5 merges the phrases' position lists, lowest phrase first on a tie). A
  // phrase's tokens are consecutive tokens with terms, so consecutive candidates.
  const phrases = query.phrases
  for (let j = 0; j < candidates; j++) {
    const offset = candidatePositions[j] as number
    const term = candidateTerms[j] as number
    for (let p = 0; p < phrases.length; p++) {
      const phrase = phrases[p] as Int32Array
      if (phrase[0] !== term || offset + phrase.length > size) continue
      let k = 1
      while (k < phrase.length && j + k < candidates && candidatePositions[j + k] === offset + k && candidateTerms[j + k] === phrase[k]) k++
      if (k < phrase.length) continue
      out.phrase.push(p)
      out.column.push(index)
      out.offset.push(offset)
    }
  }
  return { size, firsts, starts, ends }
}

/** A document's columns (subject, body) with their instances. */
interface Scanned {
  columns: Column[]
  instances: Instances
}

function scan(columns: ReadonlyArray<string>, query: SnippetQuery): Scanned {
  const instances: Instances = { phrase: [], column: [], offset: [] }
  return { columns: columns.map((text, index) => scanColumn(text, index, query, instances)), instances }
}

/** Whether a document with these columns matches the query (every group has a phrase that occurs). */
function matchesScanned(scanned: Scanned, query: SnippetQuery): boolean {
  const seen = new Set(scanned.instances.phrase)
  return query.groups.every((group) => group.some((phrase) => seen.has(phrase)))
}

/** Whether a document with these columns (subject, body) matches the query's MATCH expression. */
export function ftsMatches(columns: ReadonlyArray<string>, query: SnippetQuery): boolean {
  return matchesScanned(scan(columns, query), query)
}

// ---------------------------------------------------------------------------------------------------------------
// The snippet (fts5_aux.c: fts5SnippetFunction, fts5SnippetScore, fts5HighlightCb, fts5CInstIterNext).

/** Text appended to a snippet as SQLite's `%.*s` appends it: up to the first NUL. */
function cStr(text: string): string {
  const nul = text.indexOf('\0')
  return nul < 0 ? text : text.slice(0, nul)
}

/**
 * The snippet of a document with columns `columns` (subject, body) for `query`, as FTS5's
 * `snippet(emails_fts, -1, '[', ']', ' ... ', 24)` returns it for that row; or `undefined` when the document does not
 * match the query. The texts must be what the index holds for the row (for the store: the whole subject and body of an
 * email up to `SNIPPET_SCAN_CHARS` bytes).
 */
export function ftsSnippet(columns: ReadonlyArray<string>, query: SnippetQuery): string | undefined {
  const scanned = scan(columns, query)
  if (!matchesScanned(scanned, query)) return undefined
  const { phrase, column, offset } = scanned.instances
  const count = phrase.length
  const phraseSize = (p: number): number => (query.phrases[p] as Int32Array).length
  const seen = new Int32Array(query.phrases.length)
  let generation = 0

  /**
   * fts5SnippetScore: the score of the window of `SNIPPET_TOKENS` tokens at `start` of a column of `size` tokens whose
   * instances are `[from, to)`, and the window's adjusted start.
   */
  const score = (start: number, size: number, from: number, to: number): [number, number] => {
    generation++
    const end = start + SNIPPET_TOKENS
    // The column's instances are [from, to), by offset: those in the window are a run of them.
    let lo = from
    let hi = to
    while (lo < hi) {
      const mid = (lo + hi) >>> 1
      if ((offset[mid] as number) < start) lo = mid + 1
      else hi = mid
    }
    let total = 0
    let first = -1
    let last = 0
    for (let i = lo; i < to && (offset[i] as number) < end; i++) {
      const p = phrase[i] as number
      total += seen[p] === generation ? 1 : 1000
      seen[p] = generation
      if (first < 0) first = offset[i] as number
      last = (offset[i] as number) + phraseSize(p)
    }
    let adjusted = first - Math.trunc((SNIPPET_TOKENS - (last - first)) / 2)
    if (adjusted + SNIPPET_TOKENS > size) adjusted = size - SNIPPET_TOKENS
    if (adjusted < 0) adjusted = 0
    return [total, adjusted]
  }

  let bestScore = 0
  let bestColumn = 0
  let bestStart = 0
  let columnSize = 0
  let from = 0
  for (let col = 0; col < scanned.columns.length; col++) {
    const { size, firsts } = scanned.columns[col] as Column
    let to = from
    while (to < count && column[to] === col) to++
    let sentence = 0
    for (let i = from; i < to; i++) {
      const at = offset[i] as number
      const [windowScore, adjusted] = score(at, size, from, to)
      if (windowScore > bestScore) {
        bestScore = windowScore
        bestColumn = col
        bestStart = adjusted
        columnSize = size
      }
      if (firsts.length > 0 && size > SNIPPET_TOKENS) {
        while (sentence < firsts.length - 1 && (firsts[sentence + 1] as number) <= at) sentence++
        const sentenceStart = firsts[sentence] as number
        if (sentenceStart < at) {
          const [sentenceScore] = score(sentenceStart, size, from, to)
          const total = sentenceScore + (sentenceStart === 0 ? 120 : 100)
          if (total > bestScore) {
            bestScore = total
            bestColumn = col
            bestStart = sentenceStart
            columnSize = size
          }
        }
      }
    }
    from = to
  }
  if (columnSize === 0) columnSize = (scanned.columns[bestColumn] as Column).size
  return highlight(columns[bestColumn] ?? '', bestColumn, scanned.columns[bestColumn] as Column, bestStart, columnSize, scanned.instances, phraseSize)
}

/** The highlighted fragment of column `col` from token `rangeStart` (fts5HighlightCb over a range, as snippet() runs it). */
function highlight(
  text: string,
  col: number,
  { size, starts, ends }: Column,
  rangeStart: number,
  columnSize: number,
  instances: Instances,
  phraseSize: (phrase: number) => number,
): string {
  const rangeEnd = rangeStart + SNIPPET_TOKENS - 1
  // The coalesced instance iterator (fts5CInstIterNext) over the column's instances.
  let next = 0
  let iterStart = -1
  let iterEnd = -1
  const advance = (): void => {
    iterStart = -1
    iterEnd = -1
    while (next < instances.phrase.length) {
      if (instances.column[next] === col) {
        const at = instances.offset[next] as number
        const end = at - 1 + phraseSize(instances.phrase[next] as number)
        if (iterStart < 0) {
          iterStart = at
          iterEnd = end
        } else if (at <= iterEnd) {
          if (end > iterEnd) iterEnd = end
        } else {
          break
        }
      }
      next++
    }
  }
  advance()
  let out = rangeStart > 0 ? ELLIPSIS : ''
  while (iterStart >= 0 && iterStart < rangeStart) advance()

  let copied = 0
  let open = false
  const last = Math.min(rangeEnd, size - 1)
  for (let at = rangeStart; at <= last; at++) {
    const start = starts[at] as number
    const end = ends[at] as number
    if (rangeStart > 0 && at === rangeStart) copied = start
    if (open && (at <= iterStart || iterStart < 0) && start > copied) {
      out += CLOSE
      open = false
    }
    if (at === iterStart && !open) {
      out += cStr(text.slice(copied, start)) + OPEN
      copied = start
      open = true
    }
    if (at === iterEnd) {
      if (!open) {
        out += OPEN
        open = true
      }
      out += cStr(text.slice(copied, end))
      copied = end
      advance()
    }
    if (at === rangeEnd) {
      if (open) {
        if (iterStart >= 0 && at >= iterStart) {
          out += cStr(text.slice(copied, end))
          copied = end
        }
        out += CLOSE
        open = false
      }
      out += cStr(text.slice(copied, end))
      copied = end
    }
  }
  if (open) out += CLOSE
  out += rangeEnd >= columnSize - 1 ? cStr(text.slice(copied)) : ELLIPSIS
  return out
}
