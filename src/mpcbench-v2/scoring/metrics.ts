import type { Candidate } from '../harness/parse-answer.ts'
import type { Level, OracleCandidate } from '../data/schemas.ts'

/** Upstream's metrics of one instance (`evaluation/metrics.py`, `calculate_f1`). */
export interface SchedulingMetrics {
  f1: number
  precision: number
  recall: number
  exact_match: boolean
}

/** A candidate as a set member: its fields joined by a separator no date-time or room id holds. */
function keyOf(candidate: ReadonlyArray<string>): string {
  return candidate.join('\u0000')
}

/**
 * Upstream's `calculate_f1(gold, pred)`: the candidates as sets (order and duplicates ignored; a candidate with a
 * room never equals one without); both empty is a perfect score; precision = |gold ∩ pred| / |pred|, recall =
 * |gold ∩ pred| / |gold| (0 for an empty side), F1 their harmonic mean, exact match = equal sets.
 */
export function calculateF1(gold: ReadonlyArray<ReadonlyArray<string>>, pred: ReadonlyArray<ReadonlyArray<string>>): SchedulingMetrics {
  const goldSet = new Set(gold.map(keyOf))
  const predSet = new Set(pred.map(keyOf))
  if (goldSet.size === 0 && predSet.size === 0) return { f1: 1, precision: 1, recall: 1, exact_match: true }
  let truePositives = 0
  for (const key of predSet) if (goldSet.has(key)) truePositives += 1
  const precision = predSet.size === 0 ? 0 : truePositives / predSet.size
  const recall = goldSet.size === 0 ? 0 : truePositives / goldSet.size
  const f1 = precision + recall === 0 ? 0 : (2 * (precision * recall)) / (precision + recall)
  const exactMatch = goldSet.size === predSet.size && truePositives === goldSet.size
  return { f1, precision, recall, exact_match: exactMatch }
}

/** Upstream's `candidates_from_oracle_output`: `[start, end]` at levels 1/2, `[start, end, room_id]` at level 3. */
export function goldCandidates(feasible: ReadonlyArray<OracleCandidate>, level: Level): Candidate[] {
  return feasible.map((candidate) => {
    if (level === 3) {
      if (candidate.room_id === undefined) throw new Error("'room_id'")
      return [candidate.start, candidate.end, candidate.room_id] as const
    }
    return [candidate.start, candidate.end] as const
  })
}
