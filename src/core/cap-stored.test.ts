import { describe, expect, it } from 'vitest'
import { capLongStrings, capText } from './cap-stored.ts'

describe('capLongStrings', () => {
  it('returns the value itself when no string is longer than max, however large the whole', () => {
    const trace = { messages: Array.from({ length: 50 }, (_, i) => ({ role: 'tool', content: 'x'.repeat(20), id: i })) }
    expect(JSON.stringify(trace).length).toBeGreaterThan(100)
    expect(capLongStrings(trace, 100)).toBe(trace)
  })

  it('cuts every long string at any depth, naming its full length, and leaves the input as it was', () => {
    const long = 'y'.repeat(150)
    const trace = { answer: 'short', turns: [{ content: long, n: 1 }, [long, null, true]] }
    const capped = capLongStrings(trace, 100)
    expect(capped).toEqual({ answer: 'short', turns: [{ content: capText(long, 100), n: 1 }, [capText(long, 100), null, true]] })
    expect(capped.turns[0]).toMatchObject({ content: expect.stringMatching(/^y{100}\.\.\. \[truncated: 150 characters in full\]$/) })
    expect(trace.turns[0]).toEqual({ content: long, n: 1 })
  })
})
