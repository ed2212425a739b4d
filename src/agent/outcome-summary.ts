import { z } from 'zod'
import type { AgentOutcome } from './trace.ts'

const UsageCountsSchema = z.object({
  promptTokens: z.number(),
  completionTokens: z.number(),
  totalTokens: z.number(),
  costUsd: z.number().nullable(),
  calls: z.number(),
})

/** `Usage` (from `src/llm/types.ts`) as stored in files, meta and results; `cached` is the part replayed from the cache. */
export const UsageSchema = UsageCountsSchema.extend({ cached: UsageCountsSchema.optional() })

/** How an agent run ended, as stored beside its answer: `AgentOutcome` without the answer text. */
export const OutcomeSummarySchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('answered'), via: z.enum(['final-tool', 'json', 'text']) }),
  z.object({ kind: z.literal('max-turns'), maxTurns: z.number() }),
  z.object({ kind: z.literal('error'), code: z.string(), message: z.string() }),
  z.object({ kind: z.literal('aborted'), reason: z.string() }),
])

/** How an agent run ended; see {@link OutcomeSummarySchema}. */
export type OutcomeSummary = z.infer<typeof OutcomeSummarySchema>

/** The outcome of a run without its answer (which files and meta store in their own fields). */
export function summarizeOutcome(outcome: AgentOutcome): OutcomeSummary {
  switch (outcome.kind) {
    case 'answered':
      return { kind: 'answered', via: outcome.via }
    case 'max-turns':
      return { kind: 'max-turns', maxTurns: outcome.maxTurns }
    case 'error':
      return { kind: 'error', code: outcome.code, message: outcome.message }
    case 'aborted':
      return { kind: 'aborted', reason: outcome.reason }
  }
}
