// (c) A user's own eval with the package's Vitest helper and scorers.
import { describeEval, exactMatchScorer, jaccardScorer, type Scorer } from 'vitest-agent-bench/vitest'

const CAPITALS: Record<string, string> = { France: 'Paris', Japan: 'Tokyo', Peru: 'Lima, Peru' }

const short: Scorer<string, string, string> = function short(_input, output) {
  return { score: output.length <= 12 ? 1 : 0 }
}

describeEval('capitals', {
  data: [
    { input: 'France', expected: 'Paris' },
    { input: 'Japan', expected: 'Tokyo' },
    { input: 'Peru', expected: 'Lima' },
  ],
  task: async (country: string) => CAPITALS[country] ?? 'unknown',
  scorers: [exactMatchScorer, jaccardScorer, short],
  threshold: 0.5,
})
