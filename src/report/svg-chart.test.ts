import { describe, expect, it } from 'vitest'
import { timeBins } from './svg-chart.ts'

describe('time histogram', () => {
  it('bins times in round widths with distinct short labels, the largest in the last bin', () => {
    expect(timeBins([0, 1, 2, 2, 3, 4])).toEqual({ labels: ['0-1', '1-2', '2-3', '3-4'], counts: [1, 1, 2, 2], unit: 'ms' })
    expect(timeBins([200, 45_198, 9_040, 20_000])).toEqual({ labels: ['0-10', '10-20', '20-30', '30-40', '40-50'], counts: [2, 0, 1, 0, 1], unit: 's' })
    expect(timeBins([1234, 1234])).toEqual({ labels: ['0.0-0.5', '0.5-1.0', '1.0-1.5'], counts: [0, 0, 2], unit: 's' })
    expect(timeBins([])).toEqual({ labels: ['0-1'], counts: [0], unit: 'ms' })
    expect(timeBins([0, 0])).toEqual({ labels: ['0-1'], counts: [2], unit: 'ms' })
  })
})
