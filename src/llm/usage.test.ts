import { describe, expect, it } from 'vitest'
import { formatCost, sumUsage } from './usage.ts'

const usage = (costUsd: number | null) => ({ promptTokens: 10, completionTokens: 5, totalTokens: 15, costUsd, calls: 1 })

describe('sumUsage', () => {
  it('sums tokens, calls and cost; an unknown cost makes the total unknown', () => {
    expect(sumUsage([usage(0.5), usage(0.25)])).toEqual({ promptTokens: 20, completionTokens: 10, totalTokens: 30, costUsd: 0.75, calls: 2 })
    expect(sumUsage([usage(0.5), usage(null)]).costUsd).toBeNull()
    expect(sumUsage([])).toEqual({ promptTokens: 0, completionTokens: 0, totalTokens: 0, costUsd: 0, calls: 0 })
  })

  it('formats costs', () => {
    expect(formatCost(null)).toBe('unknown')
    expect(formatCost(1.234)).toBe('$1.23')
    expect(formatCost(0.00123)).toBe('$0.0012')
  })
})
