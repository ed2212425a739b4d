import { type Usage, addUsage, emptyUsage } from './types.ts'

/** Sums usages (e.g. the traces of a run); an unknown cost anywhere makes the total cost unknown. */
export function sumUsage(usages: Iterable<Usage>): Usage {
  let total = emptyUsage()
  for (const usage of usages) total = addUsage(total, usage)
  return total
}

/** `$0.0123` for a known cost, `unknown` for null (a model without a price). */
export function formatCost(costUsd: number | null): string {
  if (costUsd === null) return 'unknown'
  return `$${costUsd < 0.01 && costUsd > 0 ? costUsd.toPrecision(2) : costUsd.toFixed(2)}`
}
