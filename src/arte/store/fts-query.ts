import { BenchError } from '../../core/errors.ts'

/**
 * Turning keywords from a model into a safe FTS5 `MATCH` expression.
 *
 * The rule: each keyword string is cut into the tokens the `ascii` tokenizer would see (runs of ASCII letters
 * and digits, or of non-ASCII characters: the `ascii` tokenizer treats every non-ASCII code point as a token
 * character). A keyword's tokens form one quoted phrase (`"gas contract"`), and the phrases are joined with
 * `AND`: every keyword must match, as in ART-E's original tool. FTS5 operators (`AND`, `OR`, `NOT`, `NEAR`,
 * `*`, `^`, `-`, `:`, parentheses, quotes) can never reach the parser: they are either dropped as separators
 * or sit inside a string literal, where they are plain text.
 *
 * Non-ASCII punctuation, spaces and symbols (curly quotes, dashes, no-break and zero-width spaces, emoji) would
 * be token characters to the `ascii` tokenizer, so a keyword holding one (`“gas contract”`, `Vince’s`) would only
 * match text holding the same character, and Enron's text is ASCII. Such a keyword also gets its folded form
 * (see {@link foldedTokens}) as an alternative phrase: `("“gas contract”" OR "gas contract")`. A keyword whose
 * folded form has no token (punctuation and symbols only) is ignored.
 *
 * Bounds, so that no input makes a search slow: each keyword is read up to {@link MAX_KEYWORD_CHARS} characters,
 * a keyword repeated (same expression, ASCII case ignored) counts once, and only the first {@link MAX_SEARCH_KEYWORDS}
 * distinct keywords are used.
 */

/** Distinct keywords used by a search; later ones are ignored. */
export const MAX_SEARCH_KEYWORDS = 10
/** Characters of one keyword that are read; the rest is ignored. */
export const MAX_KEYWORD_CHARS = 200

// Lone surrogates are dropped: they are not valid in UTF-8 and would reach SQLite as replacement bytes.
const TOKEN = /(?:[A-Za-z0-9]|[\u0080-\uD7FF\uE000-\uFFFF]|[\uD800-\uDBFF][\uDC00-\uDFFF])+/g
const FOLDED_TOKEN = /[\p{L}\p{N}]+/gu
const COMBINING_MARK = /\p{M}/gu

/** The tokens of one keyword, as the FTS5 `ascii` tokenizer would split them. */
export function keywordTokens(keyword: string): string[] {
  return keyword.match(TOKEN) ?? []
}

/**
 * The tokens of one keyword once folded: compatibility forms decomposed (full-width `ｇａｓ` -> `gas`), accents
 * dropped (`café` -> `cafe`), and every character that is not a letter or a digit a separator (`“gas–contract”`
 * -> `gas`, `contract`).
 */
export function foldedTokens(keyword: string): string[] {
  return keyword.normalize('NFKD').replace(COMBINING_MARK, '').match(FOLDED_TOKEN) ?? []
}

/** Keywords were given (not only blank ones), but none of them holds a word to search for. */
export class SearchKeywordsError extends BenchError {
  constructor(message: string, options: { hint: string }) {
    super('ERR_SEARCH_KEYWORDS', message, options)
  }
}

const phrase = (tokens: ReadonlyArray<string>): string => `"${tokens.join(' ').replaceAll('"', '""')}"`

/**
 * The phrases of a search, as {@link buildFtsQuery} writes them: one group per keyword that is used (all groups must
 * match), each group one phrase (its tokens) or two alternatives (the exact tokens, then the folded ones). Phrases
 * appear in the order of the expression, which is FTS5's phrase numbering.
 */
export function ftsQueryGroups(keywords: ReadonlyArray<string>): string[][][] {
  const groups = new Map<string, string[][]>()
  for (const keyword of keywords) {
    if (groups.size >= MAX_SEARCH_KEYWORDS) break
    const text = keyword.slice(0, MAX_KEYWORD_CHARS)
    const folded = foldedTokens(text)
    if (folded.length === 0) continue
    const exactTokens = keywordTokens(text)
    const exact = exactTokens.length === 0 ? folded : exactTokens
    const alternatives = phrase(exact) === phrase(folded) ? [exact] : [exact, folded]
    const key = groupExpression(alternatives).replace(/[A-Z]+/g, (letters) => letters.toLowerCase())
    if (!groups.has(key)) groups.set(key, alternatives)
  }
  return [...groups.values()]
}

const groupExpression = (alternatives: ReadonlyArray<ReadonlyArray<string>>): string =>
  alternatives.length === 1 ? phrase(alternatives[0] ?? []) : `(${alternatives.map(phrase).join(' OR ')})`

/**
 * The FTS5 `MATCH` expression for `keywords`, or `undefined` when no keyword has any token
 * (the caller decides what an empty query means; {@link EmailStore.search} returns the latest mail).
 */
export function buildFtsQuery(keywords: ReadonlyArray<string>): string | undefined {
  return ftsQueryOfGroups(ftsQueryGroups(keywords))
}

/** The FTS5 `MATCH` expression of {@link ftsQueryGroups}' groups, or `undefined` when there are none. */
export function ftsQueryOfGroups(groups: ReadonlyArray<ReadonlyArray<ReadonlyArray<string>>>): string | undefined {
  return groups.length === 0 ? undefined : groups.map(groupExpression).join(' AND ')
}
