/**
 * Word-level text matching shared by the search tools: text is split into lower-cased words
 * (Unicode letters and digits); a query word matches a text word that starts with it
 * (`meet` matches `meeting`), a quoted phrase matches consecutive words.
 */

const WORD = /[\p{L}\p{N}]+/gu

/** Lower-cased words of `text`, in order. */
export function words(text: string): string[] {
  return text.normalize('NFKC').toLowerCase().match(WORD) ?? []
}

/** Whether every word of `phrase` matches, in order and consecutively, somewhere in `textWords` (last word by prefix, others exactly). */
export function matchesPhrase(textWords: ReadonlyArray<string>, phrase: ReadonlyArray<string>): boolean {
  if (phrase.length === 0) return true
  if (phrase.length === 1) {
    const only = phrase[0] as string
    return textWords.some((word) => word.startsWith(only))
  }
  const last = phrase.length - 1
  outer: for (let i = 0; i + phrase.length <= textWords.length; i++) {
    for (let j = 0; j < phrase.length; j++) {
      const word = textWords[i + j] as string
      const want = phrase[j] as string
      if (j === last ? !word.startsWith(want) : word !== want) continue outer
    }
    return true
  }
  return false
}

/** Whether every word of `query` matches some word of `text` (by prefix), in any order. */
export function matchesAllWords(text: string, query: string): boolean {
  const textWords = words(text)
  return words(query).every((want) => textWords.some((word) => word.startsWith(want)))
}
