import { exactMatch } from './exact-match.ts'
import { jaccardSimilarity } from './jaccard.ts'

/** The ART-E scores of one answer. */
export interface AnswerScore {
  /** The answers are equal after lowercasing, trimming and collapsing whitespace. */
  exactMatch: boolean
  /** Jaccard word overlap with the ground truth, in [0, 1]. */
  semanticScore: number
}

/** Scores an agent's answer against the ground truth with ART-E's exact match and Jaccard word overlap. */
export function scoreAnswer(agentAnswer: string, groundTruth: string): AnswerScore {
  return {
    exactMatch: exactMatch(agentAnswer, groundTruth),
    semanticScore: jaccardSimilarity(groundTruth, agentAnswer),
  }
}
