import { z } from 'zod'
import { UsageSchema } from '../agent/outcome-summary.ts'
import { formatCost, sumUsage } from '../llm/usage.ts'
import type { Usage } from '../llm/types.ts'
import { RULES_JUDGE_LABEL } from './judge/judge-result.ts'
import type { MpcbenchTestMeta } from './vitest/mpcbench-meta.ts'
import { BASELINE_AGENT_LABEL } from './run-log.ts'
import { ToolProfileSchema } from './workplace/tool-profiles.ts'

/** One agent × judge × task type cell of the summary. */
export const SummaryRowSchema = z.object({
  agent_model: z.string(),
  agent_model_kind: z.enum(['llm', 'baseline']),
  /** Set when the agent is the `baseline`: says it is not an LLM. */
  agent_label: z.string().optional(),
  judge_model: z.string(),
  judge_kind: z.enum(['llm', 'rules']),
  /** Set when the judge is `rules`: says it is not an LLM. */
  judge_label: z.string().optional(),
  task_type: z.string(),
  /** The tool profile the agents ran with (absent for runs recorded before profiles existed). */
  tool_profile: ToolProfileSchema.optional(),
  /** Tests of this agent and task type that reached this judge. */
  count: z.number(),
  /** Tests that got a score from this judge. */
  scored: z.number(),
  /** Tests whose agent did not answer (error, max-turns, aborted) or whose judge gave no usable reply. */
  failures: z.number(),
  /** Means over scored tests; null when none was scored. */
  mean_answer_requirements_satisfaction: z.number().nullable(),
  mean_source_grounded_reasoning: z.number().nullable(),
})

/** One row of the summary; see {@link SummaryRowSchema}. */
export type SummaryRow = z.infer<typeof SummaryRowSchema>

const PairScoreSchema = z.object({
  task_id: z.string(),
  task_type: z.string(),
  answer_requirements_satisfaction: z.number().nullable(),
  source_grounded_reasoning: z.number().nullable(),
  error: z.string().nullable(),
})

/**
 * `evaluation/summary.json`, the seed's end-to-end summary over a whole run: mean scores per agent × judge ×
 * task type (`rows`, with `agent_label` / `judge_label` on the non-LLM `baseline` and `rules`), and every score keyed
 * by `agent={model}__judge={model}` (`scores`).
 */
export const SummarySchema = z.object({
  generated_at: z.string(),
  tests: z.number(),
  rows: z.array(SummaryRowSchema),
  scores: z.record(z.string(), z.array(PairScoreSchema)),
  /** Tokens and cost of the whole run: the agents' calls, the judges' calls, and both. */
  usage: z.object({ agents: UsageSchema, judges: UsageSchema, total: UsageSchema }),
})

/** The summary; see {@link SummarySchema}. */
export type Summary = z.infer<typeof SummarySchema>

function mean(values: number[]): number | null {
  if (values.length === 0) return null
  return Math.round((values.reduce((a, b) => a + b, 0) / values.length) * 100) / 100
}

/** Builds the summary from the meta of every MPCBench test in the run (order does not matter: output is sorted). */
export function buildSummary(metas: ReadonlyArray<MpcbenchTestMeta>, generatedAt: Date = new Date()): Summary {
  interface Cell {
    row: Omit<SummaryRow, 'mean_answer_requirements_satisfaction' | 'mean_source_grounded_reasoning'>
    ars: number[]
    sgr: number[]
  }
  const cells = new Map<string, Cell>()
  const scores: Summary['scores'] = {}
  const sorted = [...metas].sort((a, b) => a.taskId.localeCompare(b.taskId) || a.agentModel.localeCompare(b.agentModel))
  for (const meta of sorted) {
    const taskType = meta.taskType ?? 'unknown'
    for (const judge of meta.judges) {
      const key = JSON.stringify([meta.agentModel, judge.judgeModel, taskType, meta.toolProfile ?? null])
      let cell = cells.get(key)
      if (cell === undefined) {
        cell = {
          row: {
            agent_model: meta.agentModel,
            agent_model_kind: meta.agentModelKind,
            ...(meta.agentModelKind === 'baseline' ? { agent_label: BASELINE_AGENT_LABEL } : {}),
            judge_model: judge.judgeModel,
            judge_kind: judge.judgeKind,
            ...(judge.judgeKind === 'rules' ? { judge_label: RULES_JUDGE_LABEL } : {}),
            task_type: taskType,
            ...(meta.toolProfile === undefined ? {} : { tool_profile: meta.toolProfile }),
            count: 0,
            scored: 0,
            failures: 0,
          },
          ars: [],
          sgr: [],
        }
        cells.set(key, cell)
      }
      cell.row.count++
      const failedAgent = meta.agentOutcome !== 'answered'
      if (judge.kind === 'scored') {
        cell.row.scored++
        cell.ars.push(judge.answerRequirementsSatisfaction)
        cell.sgr.push(judge.sourceGroundedReasoning)
      }
      if (failedAgent || judge.kind === 'judge-error') cell.row.failures++
      const pair = `agent=${meta.agentModel}__judge=${judge.judgeModel}`
      ;(scores[pair] ??= []).push({
        task_id: meta.taskId,
        task_type: taskType,
        answer_requirements_satisfaction: judge.kind === 'scored' ? judge.answerRequirementsSatisfaction : null,
        source_grounded_reasoning: judge.kind === 'scored' ? judge.sourceGroundedReasoning : null,
        error: judge.kind === 'judge-error' ? `${judge.code}: ${judge.message}` : failedAgent ? `agent ${meta.agentOutcome}` : null,
      })
    }
  }
  const rows = [...cells.values()]
    .map((cell) => ({
      ...cell.row,
      mean_answer_requirements_satisfaction: mean(cell.ars),
      mean_source_grounded_reasoning: mean(cell.sgr),
    }))
    .sort(
      (a, b) =>
        a.agent_model.localeCompare(b.agent_model) ||
        a.judge_model.localeCompare(b.judge_model) ||
        a.task_type.localeCompare(b.task_type) ||
        (a.tool_profile ?? '').localeCompare(b.tool_profile ?? ''),
    )
  const orderedScores: Summary['scores'] = {}
  for (const key of Object.keys(scores).sort()) orderedScores[key] = scores[key] ?? []
  const agents = sumUsage(metas.map((meta) => meta.usage))
  const judges = sumUsage(metas.flatMap((meta) => meta.judges.map((judge) => judge.usage)))
  return {
    generated_at: generatedAt.toISOString(),
    tests: metas.length,
    rows,
    scores: orderedScores,
    usage: { agents, judges, total: sumUsage([agents, judges]) },
  }
}

function usageLine(label: string, usage: Usage): string {
  return `${label}: ${usage.totalTokens.toLocaleString('en-US')} tokens (${usage.promptTokens.toLocaleString('en-US')} prompt, ${usage.completionTokens.toLocaleString('en-US')} completion) in ${usage.calls} call(s), cost ${formatCost(usage.costUsd)}`
}

/** The run's token and cost totals, one line each for agents, judges and both. */
export function formatSummaryUsage(summary: Summary): string {
  const { agents, judges, total } = summary.usage
  return [usageLine('agents', agents), usageLine('judges', judges), usageLine('total ', total)].join('\n')
}

function cell(value: number | null): string {
  return value === null ? '-' : value.toFixed(2)
}

/**
 * The summary as a text table: one line per agent × judge × task type (× tool profile, a `tools` column when runs
 * recorded one) with the two mean scores (0-5),
 * the count and the failures. Non-LLM models are marked (`baseline (non-LLM)`, `rules (non-LLM)`).
 */
export function formatSummaryTable(summary: Summary): string {
  const withProfiles = summary.rows.some((row) => row.tool_profile !== undefined)
  const header = ['agent', 'judge', 'task type', ...(withProfiles ? ['tools'] : []), 'requirements', 'grounding', 'n', 'failed']
  const lines = summary.rows.map((row) => [
    row.agent_model_kind === 'baseline' ? `${row.agent_model} (non-LLM)` : row.agent_model,
    row.judge_kind === 'rules' ? `${row.judge_model} (non-LLM)` : row.judge_model,
    row.task_type,
    ...(withProfiles ? [row.tool_profile ?? '-'] : []),
    cell(row.mean_answer_requirements_satisfaction),
    cell(row.mean_source_grounded_reasoning),
    String(row.count),
    String(row.failures),
  ])
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => (l[i] ?? '').length)))
  const firstNumber = withProfiles ? 4 : 3
  const numeric = new Set([firstNumber, firstNumber + 1, firstNumber + 2, firstNumber + 3])
  const format = (cells: string[]): string =>
    cells.map((c, i) => (numeric.has(i) ? c.padStart(widths[i] ?? 0) : c.padEnd(widths[i] ?? 0))).join('  ').trimEnd()
  return [format(header), widths.map((w) => '-'.repeat(w)).join('  '), ...lines.map(format)].join('\n')
}
