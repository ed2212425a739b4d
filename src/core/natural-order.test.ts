import { describe, expect, it } from 'vitest'
import { compareNatural } from './natural-order.ts'

describe('compareNatural', () => {
  it('orders numbers inside ids as numbers, the rest as text, as localeCompare with numeric does', () => {
    const ids = ['10', '9', 'T-10', 'T-9', 'b', 'a', '101', '2']
    expect([...ids].sort(compareNatural)).toEqual(['2', '9', '10', '101', 'a', 'b', 'T-9', 'T-10'])
    expect([...ids].sort(compareNatural)).toEqual([...ids].sort((a, b) => a.localeCompare(b, 'en', { numeric: true })))
  })
})
