import { describe, expect, it } from 'vitest'
import { notStartedLine } from './not-started-files.ts'

describe('notStartedLine', () => {
  it('names every file up to five, then how many more, and nothing when every file started', () => {
    expect(notStartedLine([])).toBeUndefined()
    expect(notStartedLine(['bench/planning/planning.eval.ts'])).toBe(
      '1 test file(s) never started, so their tasks are in no count: bench/planning/planning.eval.ts.',
    )
    const seven = Array.from({ length: 7 }, (_, i) => `p${i + 1}.eval.ts`)
    expect(notStartedLine(seven)).toBe(
      '7 test file(s) never started, so their tasks are in no count: p1.eval.ts, p2.eval.ts, p3.eval.ts, p4.eval.ts, p5.eval.ts, and 2 more.',
    )
  })
})
