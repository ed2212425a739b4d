import type { Scorer } from '../../eval/scorer.ts'
import { exactMatch } from './exact-match.ts'
import { jaccardSimilarity } from './jaccard.ts'

/** ART-E's exact match as a {@link Scorer}: 1 when the answers are equal after normalization, else 0. */
export const exactMatchScorer: Scorer<unknown, string, string> = function exactMatchScorer(_input, output, expected) {
  const equal = exactMatch(output, expected)
  return equal ? { score: 1 } : { score: 0, reason: `expected ${JSON.stringify(expected)}, got ${JSON.stringify(output)}` }
}

/** ART-E's Jaccard word overlap with the expected answer as a {@link Scorer}, in [0, 1]. */
export const jaccardScorer: Scorer<unknown, string, string> = function jaccardScorer(_input, output, expected) {
  return { score: jaccardSimilarity(expected, output) }
}
