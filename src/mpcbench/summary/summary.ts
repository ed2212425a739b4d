import { z } from 'zod'
import { UsageSchema } from '../../agent/outcome-summary.ts'
import { ConfidenceIntervalSchema } from '../../stats/bootstrap.ts'
import { formatCachedPart, formatCost, paidCostUsd, sumUsage } from '../../llm/usage.ts'
import type { Usage } from '../../llm/types.ts'
import { RULES_JUDGE_LABEL } from '../judge/judge-result.ts'
import type { MpcbenchTestMeta } from '../run/mpcbench-meta.ts'
import { builtInAgentLabel } from '../run/run-log.ts'
import { GraderSuspectSchema, RowCiSchema, firstTrials, graderSuspects, meanCell, rowCi, rowKey, rowPassHatK } from './summary-statistics.ts'
import { ToolProfileSchema } from '../workplace/tool-profiles.ts'

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
  /** Tests of this agent and task type that reached this judge (trial 1 only when `BENCH_TRIALS` > 1). */
  count: z.number(),
  /** Tests that got a score from this judge. */
  scored: z.number(),
  /** Tests whose agent did not answer (error, max-turns, aborted) or whose judge gave no usable reply. */
  failures: z.number(),
  /** Scored tests whose judge could not judge the axis (score `null`, e.g. the `rules` judge on a task without checks). */
  unjudged_answer_requirements_satisfaction: z.number(),
  unjudged_source_grounded_reasoning: z.number(),
  /** Means over the tests judged on that axis (nulls skipped); null when none was. */
  mean_answer_requirements_satisfaction: z.number().nullable(),
  mean_source_grounded_reasoning: z.number().nullable(),
  /** Seeded bootstrap intervals over tasks of the two means; absent in summaries written before intervals existed. */
  ci: RowCiSchema.optional(),
  /**
   * With `BENCH_TRIALS` > 1: runs per task (the means and intervals are trial 1's) and pass^k (pass = requirements >= 4;
   * a trial that timed out or failed before its score counts as not passed; see `rowPassHatK`).
   */
  trials: z.int().positive().optional(),
  pass_hat_k: z.record(z.string(), z.number()).optional(),
  /** The tasks pass^k is over: those with an outcome (a score, or a failure) in every trial; absent in older summaries. */
  pass_hat_k_tasks: z.int().nonnegative().optional(),
  /**
   * A 95% interval of each pass^j (same keys as `pass_hat_k`): the seeded percentile bootstrap over the
   * `pass_hat_k_tasks` tasks of their values C(c, j) / C(n, j), one draw of tasks for every j; absent in older summaries.
   */
  pass_hat_k_ci: z.record(z.string(), ConfidenceIntervalSchema).optional(),
})

/** One row of the summary; see {@link SummaryRowSchema}. */
export type SummaryRow = z.infer<typeof SummaryRowSchema>

const PairScoreSchema = z.object({
  task_id: z.string(),
  task_type: z.string(),
  /** Set on trials after the first (`BENCH_TRIALS` > 1). */
  trial: z.int().positive().optional(),
  answer_requirements_satisfaction: z.number().nullable(),
  source_grounded_reasoning: z.number().nullable(),
  error: z.string().nullable(),
  /** The evaluation's OpenTelemetry trace id, when tracing was on. */
  otel_trace_id: z.string().optional(),
})

/** A selected test that has no scores: it timed out or failed before its agent run ended, or never ran. */
export const UnfinishedTestSchema = z.object({
  task_id: z.string(),
  task_type: z.string(),
  agent_model: z.string(),
  /** Which trial (`BENCH_TRIALS` > 1); absent for a run of one trial. */
  trial: z.int().positive().optional(),
  outcome: z.enum(['timed-out', 'failed', 'not-run']),
  message: z.string(),
  /** What a test cut off by an interrupted run had spent (its agent, its judges), counted in the summary's usage. */
  usage: z.object({ agents: UsageSchema, judges: UsageSchema }).optional(),
  /**
   * Set when the test's meta never reached the reporter (Vitest ended the cancelled run before the test's last update,
   * or the test timed out after its agent ran) and `usage` was read back from the files the test wrote in this run:
   * its run log, then its judge results (paths relative to the Vitest root).
   */
  usage_files: z.array(z.string()).optional(),
})

/** A task file that could not be loaded (bad JSON, schema, task type, duplicate id): its tasks are in no other count. */
export const InvalidTaskFileSchema = z.object({
  /** Relative to the tasks folder, e.g. `tasks/planning/x.json`. */
  task_file: z.string(),
  task_type: z.string(),
  message: z.string(),
})

/** See {@link InvalidTaskFileSchema}. */
export type InvalidTaskFile = z.infer<typeof InvalidTaskFileSchema>

/** See {@link UnfinishedTestSchema}. */
export type UnfinishedTest = z.infer<typeof UnfinishedTestSchema>

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
  /** Tests whose agent answered empty yet scored >= 4 on requirements: their grader measures nothing. */
  grader_suspects: z.array(GraderSuspectSchema).optional(),
  /** Tokens and cost of the whole run: the agents' calls, the judges' calls, and both. */
  usage: z.object({ agents: UsageSchema, judges: UsageSchema, total: UsageSchema }),
  /**
   * Every selected test once: `completed` (the agent answered), `failed` (agent error, max-turns or abort, or the test
   * timed out or failed before its run ended), `not_run` (the run was interrupted first); they sum to `selected`.
   */
  task_counts: z
    .object({
      selected: z.number(),
      completed: z.number(),
      failed: z.number(),
      not_run: z.number(),
      /** Task files that could not be loaded (`invalid_task_files`), outside `selected`; absent when none. */
      invalid: z.number().optional(),
    })
    .optional(),
  /** The selected tests without scores (timed out, failed early, not run). */
  unfinished: z.array(UnfinishedTestSchema).optional(),
  /**
   * Test files an interrupted run never started (relative to the project root). Their tests were never collected;
   * those of a `defineMpcbenchBench({ taskType })` file on the project's tasks are counted in `task_counts` as `not_run`
   * all the same (see `not-started-tasks.ts`), those of other files are not. Absent when every file started.
   */
  not_started_files: z.array(z.string()).optional(),
  /** Task files that could not be loaded, each with why (its failing placeholder test's message). Absent when none. */
  invalid_task_files: z.array(InvalidTaskFileSchema).optional(),
})

/** The summary; see {@link SummarySchema}. */
export type Summary = z.infer<typeof SummarySchema>

function mean(values: number[]): number | null {
  if (values.length === 0) return null
  return Math.round((values.reduce((a, b) => a + b, 0) / values.length) * 100) / 100
}

function pairScore(meta: MpcbenchTestMeta, judge: MpcbenchTestMeta['judges'][number], taskType: string): Summary['scores'][string][number] {
  const failedAgent = meta.agentOutcome !== 'answered'
  return {
    task_id: meta.taskId,
    task_type: taskType,
    ...((meta.trial ?? 1) > 1 ? { trial: meta.trial } : {}),
    answer_requirements_satisfaction: judge.kind === 'scored' ? judge.answerRequirementsSatisfaction : null,
    source_grounded_reasoning: judge.kind === 'scored' ? judge.sourceGroundedReasoning : null,
    error: judge.kind === 'judge-error' ? `${judge.code}: ${judge.message}` : failedAgent ? `agent ${meta.agentOutcome}` : null,
    ...(meta.otelTraceId === undefined ? {} : { otel_trace_id: meta.otelTraceId }),
  }
}

/** Builds the summary from the meta of every MPCBench test in the run (order does not matter: output is sorted). */
export function buildSummary(
  metas: ReadonlyArray<MpcbenchTestMeta>,
  generatedAt: Date = new Date(),
  unfinished: ReadonlyArray<UnfinishedTest> = [],
  notStartedFiles: ReadonlyArray<string> = [],
  invalidTaskFiles: ReadonlyArray<InvalidTaskFile> = [],
): Summary {
  interface Cell {
    row: Omit<
      SummaryRow,
      'mean_answer_requirements_satisfaction' | 'mean_source_grounded_reasoning' | 'ci' | 'trials' | 'pass_hat_k' | 'pass_hat_k_tasks' | 'pass_hat_k_ci'
    >
    ars: number[]
    sgr: number[]
  }
  const cells = new Map<string, Cell>()
  const scores: Summary['scores'] = {}
  const sorted = [...metas].sort((a, b) => a.taskId.localeCompare(b.taskId) || a.agentModel.localeCompare(b.agentModel) || (a.trial ?? 1) - (b.trial ?? 1))
  const first = new Set(firstTrials(sorted))
  for (const meta of sorted) {
    const taskType = meta.taskType ?? 'unknown'
    for (const judge of meta.judges) {
      const pair = `agent=${meta.agentModel}__judge=${judge.judgeModel}`
      if (!first.has(meta)) {
        ;(scores[pair] ??= []).push(pairScore(meta, judge, taskType))
        continue
      }
      const key = rowKey(meta.agentModel, judge.judgeModel, taskType, meta.toolProfile)
      let cell = cells.get(key)
      if (cell === undefined) {
        cell = {
          row: {
            agent_model: meta.agentModel,
            agent_model_kind: meta.agentModelKind,
            ...(meta.agentModelKind === 'baseline' ? { agent_label: builtInAgentLabel(meta.agentModel) } : {}),
            judge_model: judge.judgeModel,
            judge_kind: judge.judgeKind,
            ...(judge.judgeKind === 'rules' ? { judge_label: RULES_JUDGE_LABEL } : {}),
            task_type: taskType,
            ...(meta.toolProfile === undefined ? {} : { tool_profile: meta.toolProfile }),
            count: 0,
            scored: 0,
            failures: 0,
            unjudged_answer_requirements_satisfaction: 0,
            unjudged_source_grounded_reasoning: 0,
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
        if (judge.answerRequirementsSatisfaction === null) cell.row.unjudged_answer_requirements_satisfaction++
        else cell.ars.push(judge.answerRequirementsSatisfaction)
        if (judge.sourceGroundedReasoning === null) cell.row.unjudged_source_grounded_reasoning++
        else cell.sgr.push(judge.sourceGroundedReasoning)
      }
      if (failedAgent || judge.kind === 'judge-error') cell.row.failures++
      ;(scores[pair] ??= []).push(pairScore(meta, judge, taskType))
    }
  }
  const trialStats = rowPassHatK(metas, unfinished)
  const rows = [...cells.entries()]
    .map(([key, cell]) => {
      const trials = trialStats.get(key)
      return {
        ...cell.row,
        mean_answer_requirements_satisfaction: mean(cell.ars),
        mean_source_grounded_reasoning: mean(cell.sgr),
        ci: rowCi(cell.ars, cell.sgr),
        ...(trials === undefined
          ? {}
          : { trials: trials.trials, pass_hat_k: trials.passHatK, pass_hat_k_tasks: trials.tasks, pass_hat_k_ci: trials.passHatKCi }),
      }
    })
    .sort(
      (a, b) =>
        a.agent_model.localeCompare(b.agent_model) ||
        a.judge_model.localeCompare(b.judge_model) ||
        a.task_type.localeCompare(b.task_type) ||
        (a.tool_profile ?? '').localeCompare(b.tool_profile ?? ''),
    )
  const orderedScores: Summary['scores'] = {}
  for (const key of Object.keys(scores).sort()) orderedScores[key] = scores[key] ?? []
  // What the run spent: every test's calls, including those of tests an interrupt cut off.
  const spent = unfinished.flatMap((test) => (test.usage === undefined ? [] : [test.usage]))
  const agents = sumUsage([...metas.map((meta) => meta.usage), ...spent.map((usage) => usage.agents)])
  const judges = sumUsage([...metas.flatMap((meta) => meta.judges.map((judge) => judge.usage)), ...spent.map((usage) => usage.judges)])
  const completed = metas.filter((meta) => meta.agentOutcome === 'answered').length
  const notRun = unfinished.filter((test) => test.outcome === 'not-run').length
  return {
    generated_at: generatedAt.toISOString(),
    tests: metas.length,
    rows,
    scores: orderedScores,
    grader_suspects: graderSuspects(metas),
    usage: { agents, judges, total: sumUsage([agents, judges]) },
    task_counts: {
      selected: metas.length + unfinished.length,
      completed,
      failed: metas.length - completed + unfinished.length - notRun,
      not_run: notRun,
      ...(invalidTaskFiles.length === 0 ? {} : { invalid: invalidTaskFiles.length }),
    },
    unfinished: [...unfinished].sort(
      (a, b) => a.task_id.localeCompare(b.task_id) || a.agent_model.localeCompare(b.agent_model) || (a.trial ?? 1) - (b.trial ?? 1),
    ),
    ...(notStartedFiles.length === 0 ? {} : { not_started_files: [...notStartedFiles] }),
    ...(invalidTaskFiles.length === 0 ? {} : { invalid_task_files: [...invalidTaskFiles].sort((a, b) => a.task_file.localeCompare(b.task_file)) }),
  }
}

/** The line that names the task files that could not be loaded, or `undefined` when there are none. */
export function invalidTaskFilesLine(files: ReadonlyArray<InvalidTaskFile>): string | undefined {
  if (files.length === 0) return undefined
  const names = files.map((file) => file.task_file).sort()
  const shown = names.length > 5 ? [...names.slice(0, 5), `and ${names.length - 5} more`] : names
  return `${files.length} invalid task file(s), counted as invalid in the summary (each fails its own test): ${shown.join(', ')}.`
}

function usageLine(label: string, usage: Usage): string {
  return `${label}: ${usage.totalTokens.toLocaleString('en-US')} tokens (${usage.promptTokens.toLocaleString('en-US')} prompt, ${usage.completionTokens.toLocaleString('en-US')} completion) in ${usage.calls} call(s), cost ${formatCost(paidCostUsd(usage))}${usage.cached === undefined ? '' : ' paid'}${formatCachedPart(usage)}`
}

/** The run's token and cost totals, one line each for agents, judges and both. */
export function formatSummaryUsage(summary: Summary): string {
  const { agents, judges, total } = summary.usage
  return [usageLine('agents', agents), usageLine('judges', judges), usageLine('total ', total)].join('\n')
}

/** `req/grounding` counts of tests the judge could not judge on each axis (`0/0` when every test was judged). */
function unjudgedCell(row: SummaryRow): string {
  return `${row.unjudged_answer_requirements_satisfaction}/${row.unjudged_source_grounded_reasoning}`
}

/**
 * The summary as a text table: one line per agent × judge × task type (× tool profile, a `tools` column when runs
 * recorded one) with the two mean scores (0-5), the count, the failures and the unjudged counts
 * (requirements/grounding; means skip them). Non-LLM models are marked (`baseline (non-LLM)`, `rules (non-LLM)`).
 */
export function formatSummaryTable(summary: Summary): string {
  const withProfiles = summary.rows.some((row) => row.tool_profile !== undefined)
  const header = ['agent', 'judge', 'task type', ...(withProfiles ? ['tools'] : []), 'requirements', 'grounding', 'n', 'failed', 'unjudged']
  const lines = summary.rows.map((row) => [
    row.agent_model_kind === 'baseline' ? `${row.agent_model} (non-LLM)` : row.agent_model,
    row.judge_kind === 'rules' ? `${row.judge_model} (non-LLM)` : row.judge_model,
    row.task_type,
    ...(withProfiles ? [row.tool_profile ?? '-'] : []),
    meanCell(row.mean_answer_requirements_satisfaction, row.ci?.answer_requirements_satisfaction),
    meanCell(row.mean_source_grounded_reasoning, row.ci?.source_grounded_reasoning),
    String(row.count),
    String(row.failures),
    unjudgedCell(row),
  ])
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => (l[i] ?? '').length)))
  const firstNumber = withProfiles ? 4 : 3
  const numeric = new Set([firstNumber, firstNumber + 1, firstNumber + 2, firstNumber + 3, firstNumber + 4])
  const format = (cells: string[]): string =>
    cells
      .map((c, i) => (numeric.has(i) ? c.padStart(widths[i] ?? 0) : c.padEnd(widths[i] ?? 0)))
      .join('  ')
      .trimEnd()
  return [format(header), widths.map((w) => '-'.repeat(w)).join('  '), ...lines.map(format)].join('\n')
}
