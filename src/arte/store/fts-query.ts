/**
 * Turning keywords from a model into a safe FTS5 `MATCH` expression.
 *
 * The rule: each keyword string is cut into the tokens the `ascii` tokenizer would see (runs of ASCII letters
 * and digits, or of non-ASCII characters: the `ascii` tokenizer treats every non-ASCII code point as a token
 * character). A keyword's tokens form one quoted phrase (`"gas contract"`), and the phrases are joined with
 * `AND`: every keyword must match, as in ART-E's original tool. FTS5 operators (`AND`, `OR`, `NOT`, `NEAR`,
 * `*`, `^`, `-`, `:`, parentheses, quotes) can never reach the parser: they are either dropped as separators
 * or sit inside a string literal, where they are plain text. A keyword with no tokens is ignored.
 *
 * Bounds, so that no input makes a search slow: each keyword is read up to {@link MAX_KEYWORD_CHARS} characters,
 * a keyword repeated (same tokens, ASCII case ignored) counts once, and only the first {@link MAX_SEARCH_KEYWORDS}
 * distinct keywords are used.
 */

/** Distinct keywords used by a search; later ones are ignored. */
export const MAX_SEARCH_KEYWORDS = 10
/** Characters of one keyword that are read; the rest is ignored. */
export const MAX_KEYWORD_CHARS = 200

// Lone surrogates are dropped: they are not valid in UTF-8 and would reach SQLite as replacement bytes.
const TOKEN = /(?:[A-Za-z0-9]|[\u0080-\uD7FF\uE000-\uFFFF]|[\uD800-\uDBFF][\uDC00-\uDFFF])+/g

/** The tokens of one keyword, as the FTS5 `ascii` tokenizer would split them. */
export function keywordTokens(keyword: string): string[] {
  return keyword.match(TOKEN) ?? []
}

/**
 * The FTS5 `MATCH` expression for `keywords`, or `undefined` when no keyword has any token
 * (the caller decides what an empty query means; {@link EmailStore.search} returns the latest mail).
 */
export function buildFtsQuery(keywords: ReadonlyArray<string>): string | undefined {
  const phrases = new Map<string, string>()
  for (const keyword of keywords) {
    if (phrases.size >= MAX_SEARCH_KEYWORDS) break
    const tokens = keywordTokens(keyword.slice(0, MAX_KEYWORD_CHARS))
    if (tokens.length === 0) continue
    const phrase = tokens.join(' ')
    const key = phrase.replace(/[A-Z]+/g, (letters) => letters.toLowerCase())
    if (!phrases.has(key)) phrases.set(key, `"${phrase.replaceAll('"', '""')}"`)
  }
  return phrases.size === 0 ? undefined : [...phrases.values()].join(' AND ')
}
