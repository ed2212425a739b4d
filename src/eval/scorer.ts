/** What a {@link Scorer} says about one output. */
export interface ScoreResult {
  /** In [0, 1]: 1 is a perfect output. */
  score: number
  /** Why, in a sentence (shown in the test's annotation). */
  reason?: string
}

/**
 * Scores one output of a task against the expected value. The function's `name` labels its score (in the test
 * meta and annotations), so give it one: `const mentionsPrice: Scorer = (input, output) => ({ score: ... })`.
 * The built-in `exactMatchScorer` and `jaccardScorer` are scorers of string answers.
 */
export type Scorer<Input = unknown, Output = string, Expected = Output> = (
  input: Input,
  output: Output,
  expected: Expected,
) => ScoreResult | Promise<ScoreResult>
