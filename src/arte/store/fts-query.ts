/**
 * Turning keywords from a model into a safe FTS5 `MATCH` expression.
 *
 * The rule: each keyword string is cut into the tokens the `ascii` tokenizer would see (runs of ASCII letters
 * and digits, or of non-ASCII characters: the `ascii` tokenizer treats every non-ASCII code point as a token
 * character). A keyword's tokens form one quoted phrase (`"gas contract"`), and the phrases are joined with
 * `AND`: every keyword must match, as in ART-E's original tool. FTS5 operators (`AND`, `OR`, `NOT`, `NEAR`,
 * `*`, `^`, `-`, `:`, parentheses, quotes) can never reach the parser: they are either dropped as separators
 * or sit inside a string literal, where they are plain text. A keyword with no tokens is ignored.
 */

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
  const phrases: string[] = []
  for (const keyword of keywords) {
    const tokens = keywordTokens(keyword)
    if (tokens.length === 0) continue
    phrases.push(`"${tokens.join(' ').replaceAll('"', '""')}"`)
  }
  return phrases.length === 0 ? undefined : phrases.join(' AND ')
}
