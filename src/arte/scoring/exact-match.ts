/**
 * Normalizes an answer for exact matching, as the ART-E doc defines it:
 * lowercase, trim, and collapse every run of whitespace into one space.
 */
export function normalizeForExactMatch(text: string): string {
  return text.toLowerCase().trim().replace(/\s+/g, ' ')
}

/** Whether two answers are equal after {@link normalizeForExactMatch}: `"John Smith"` matches `"john smith"`. */
export function exactMatch(agentAnswer: string, groundTruth: string): boolean {
  return normalizeForExactMatch(agentAnswer) === normalizeForExactMatch(groundTruth)
}
