/**
 * The words of `text` as the ART-E doc's Jaccard score sees them: lowercased,
 * every character matching `/[^\w\s]/` replaced by a space, split on whitespace,
 * empty strings dropped. `\w` is ASCII-only, so non-ASCII letters separate words too.
 */
export function jaccardWords(text: string): string[] {
  return text
    .toLowerCase()
    .replace(/[^\w\s]/g, ' ')
    .split(/\s+/)
    .filter((word) => word.length > 0)
}

/**
 * Jaccard similarity of the word sets of two strings, |A ∩ B| / |A ∪ B|,
 * and 0 when both sets are empty. Symmetric, in [0, 1].
 */
export function jaccardSimilarity(a: string, b: string): number {
  const wordsA = new Set(jaccardWords(a))
  const wordsB = new Set(jaccardWords(b))
  let intersection = 0
  for (const word of wordsA) if (wordsB.has(word)) intersection++
  const union = wordsA.size + wordsB.size - intersection
  return union === 0 ? 0 : intersection / union
}
