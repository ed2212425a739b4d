import { writeFileSync, mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { InvalidFormatError } from '../core/errors.ts'
import { DEFAULT_PRICES, costUsd, loadPriceTable, priceOf } from './pricing.ts'

describe('pricing', () => {
  it('prices known models per million tokens and returns null for unknown ones', () => {
    expect(costUsd('openai/gpt-4.1', 1_000_000, 500_000)).toBeCloseTo(2 + 4)
    expect(costUsd('llama3.1:8b', 1000, 1000)).toBeNull()
  })

  it('prices the cached part of the input at the cached-input price, and cannot price it without one', () => {
    expect(costUsd('openai/gpt-4.1', 1_000_000, 0, DEFAULT_PRICES, 1_000_000)).toBeCloseTo(0.5)
    expect(costUsd('openai/gpt-4.1', 1_000_000, 1_000_000, DEFAULT_PRICES, 250_000)).toBeCloseTo(0.75 * 2 + 0.25 * 0.5 + 8)
    expect(costUsd('x', 100, 0, { x: { inputPerMillion: 1, outputPerMillion: 1 } }, 10)).toBeNull()
    expect(costUsd('x', 1_000_000, 0, { x: { inputPerMillion: 1, outputPerMillion: 1 } }, 0)).toBe(1)
  })

  it('falls back to the bare model name and accepts override tables', () => {
    const prices = { 'my-model': { inputPerMillion: 1, outputPerMillion: 2 } }
    expect(priceOf('openai/my-model', prices)).toEqual({ inputPerMillion: 1, outputPerMillion: 2 })
    expect(priceOf('toString', prices)).toBeNull()
  })

  it('loads a price table file and rejects a malformed one naming the field', () => {
    const dir = mkdtempSync(join(tmpdir(), 'prices-'))
    const good = join(dir, 'good.json')
    writeFileSync(good, JSON.stringify({ 'x/y': { inputPerMillion: 0.5, outputPerMillion: 1, cachedInputPerMillion: 0.1 } }))
    expect(loadPriceTable(good)['x/y']).toEqual({ inputPerMillion: 0.5, outputPerMillion: 1, cachedInputPerMillion: 0.1 })
    const bad = join(dir, 'bad.json')
    writeFileSync(bad, JSON.stringify({ 'x/y': { inputPerMillion: -1, outputPerMillion: 1 } }))
    expect(() => loadPriceTable(bad)).toThrow(InvalidFormatError)
    expect(() => loadPriceTable(bad)).toThrow(/x\/y\.inputPerMillion/)
  })
})
