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

/** Whether every word of `wanted` is a prefix of some word of `textWords`, in any order. */
export function hasAllWords(textWords: ReadonlyArray<string>, wanted: ReadonlyArray<string>): boolean {
  return wanted.every((want) => textWords.some((word) => word.startsWith(want)))
}

/**
 * `compute` memoized per item object (kept while the item lives): for words derived from source items on demand
 * (a Jira field, a contact name) that a search would otherwise re-tokenize on every call. The large free-text
 * indexes (Slack text, mail subjects, Drive files) are built with the `Workplace` instead.
 */
export function memoizeByItem<T extends object, R>(compute: (item: T) => R): (item: T) => R {
  const cache = new WeakMap<T, R>()
  return (item) => {
    if (cache.has(item)) return cache.get(item) as R
    const value = compute(item)
    cache.set(item, value)
    return value
  }
}
