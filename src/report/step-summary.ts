import { appendFileSync } from 'node:fs'
import { redact } from '../core/redact.ts'
import { ARTE_METRIC_NAMES } from '../arte/results/results.ts'
import { NO_VERDICT, judgeCoverageText } from '../arte/results/format-statistics.ts'
import { formatCachedPart, paidCostUsd } from '../llm/usage.ts'
import type { Usage } from '../llm/types.ts'
import { ARTE_OPENPIPE_SCORE_NAMES, formatArteMetric } from './arte-view.ts'
import { fixed, money, signed, thousands } from './html.ts'
import { MPCBENCH_AXES, rowInterval } from './mpcbench-view.ts'
import type { ReportData } from './report-data.ts'
import { failedThresholds } from './verdict.ts'
import { MPCBENCH_PASS_SCORE } from '../mpcbench/summary/summary-statistics.ts'
import type { EvalSection } from './eval-section.ts'
import { valueText } from '../results/stored-value.ts'
import type { MpcbenchV2Section } from './mpcbench-v2-section.ts'

const WORST = 5

function cell(text: string, max = 80): string {
  const flat = text.replace(/\s+/g, ' ').trim()
  const clipped = flat.length > max ? `${flat.slice(0, max - 1)}…` : flat
  return clipped.replace(/\\/g, '\\\\').replace(/\|/g, '\\|').replace(/</g, '&lt;')
}

/**
 * What the calls cost as the terminal reporters say it: the paid cost (calls replayed from the response cache cost
 * nothing), then how many calls were paid and replayed.
 */
function costText(usage: Usage): string {
  return `cost ${money(paidCostUsd(usage))}${usage.cached === undefined ? '' : ' paid'}${formatCachedPart(usage)}`
}

function table(header: string[], rows: string[][]): string[] {
  return [`| ${header.join(' | ')} |`, `|${header.map(() => '---').join('|')}|`, ...rows.map((row) => `| ${row.join(' | ')} |`)]
}

/**
 * The run as GitHub-flavoured Markdown for the Actions job summary: first the thresholds the run failed (see
 * `failedThresholds`), then per ART-E results file the metrics (with their intervals when present), tokens, the paid
 * cost and the worst tasks that did not pass; per MPCBench summary the tokens, the paid cost, the agent × judge × task
 * type table and the worst tasks that did not pass.
 */
export function stepSummaryMarkdown(data: ReportData, reportFile?: string): string {
  const lines: string[] = []
  // The verdict first: a failed threshold is why the job failed (exit code 1, the JUnit testcase `thresholds`).
  const failed = failedThresholds(data)
  if (failed.length > 0) lines.push(...failed.map((line) => `**failed: threshold** ${cell(line, 200)}`), '')
  for (const section of data.arte) {
    const { results } = section
    const kind = results.config.modelKind === 'baseline' ? ' (baseline, not an LLM)' : ''
    const rows = results.config.rows === undefined || results.config.rows === 'all' ? '' : ` · rows ${results.config.rows}`
    lines.push(`## ART-E · ${cell(results.config.model)}${kind} · ${results.totalTasks} task(s)${rows}`, '')
    const cis = section.extras.confidenceIntervals ?? {}
    const hasCi = Object.keys(cis).length > 0
    lines.push(
      ...table(
        hasCi ? ['metric', 'value', 'CI'] : ['metric', 'value'],
        [...ARTE_METRIC_NAMES, ...ARTE_OPENPIPE_SCORE_NAMES].flatMap((name) => {
          const value = results[name]
          if (value === undefined) {
            // A judge that gave no verdict on any task it was asked about: no value, never a 0.
            if (name !== 'llmJudgeAccuracy' || results.llmJudge === undefined) return []
            return [hasCi ? [name, NO_VERDICT, ''] : [name, NO_VERDICT]]
          }
          const ci = cis[name]
          const row = [name, formatArteMetric(name, value)]
          if (hasCi) row.push(ci === undefined ? '' : `[${fixed(ci.low)}, ${fixed(ci.high)}]`)
          return [row]
        }),
      ),
      '',
      `Tokens ${thousands(results.usage.totalTokens)} in ${thousands(results.usage.calls)} call(s), ${costText(results.usage)}.`,
      ...(results.llmJudge === undefined
        ? []
        : [
            `Judge ${cell(results.llmJudge.model)}: ${judgeCoverageText(results) ?? `${results.llmJudge.judgedTasks} task(s) judged, 0 judge error(s)`}; tokens ${thousands(results.llmJudge.usage.totalTokens)} in ${thousands(results.llmJudge.usage.calls)} call(s), ${costText(results.llmJudge.usage)}.`,
          ]),
      '',
    )
    // Only tasks that did not pass (no exact match) are among the worst. A task not run (an interrupted run) has no
    // score, as the metrics leave it out: it is not among them either.
    const worst = results.taskResults
      .filter((task) => task.outcome.kind !== 'not-run' && !task.exactMatch)
      .sort((a, b) => a.semanticScore - b.semanticScore)
      .slice(0, WORST)
    if (worst.length > 0) {
      lines.push(`Worst ${worst.length} task(s):`, '')
      lines.push(
        ...table(
          ['id', 'question', 'answer', 'ground truth', 'semantic'],
          worst.map((t) => [cell(t.taskId), cell(t.question), cell(t.agentAnswer || '(none)'), cell(t.groundTruth), fixed(t.semanticScore)]),
        ),
        '',
      )
    }
  }
  for (const section of data.mpcbench) {
    const { summary } = section
    lines.push(`## MPCBench · ${summary.tests} test(s)`, '')
    const { agents, judges, total } = summary.usage
    lines.push(
      `Tokens ${thousands(total.totalTokens)} (agents ${thousands(agents.totalTokens)}, judges ${thousands(judges.totalTokens)}) in ${thousands(total.calls)} call(s), ${costText(total)}.`,
      '',
    )
    lines.push(
      ...table(
        ['agent', 'judge', 'task type', 'requirements', 'grounding', 'n', 'failed'],
        summary.rows.map((row, i) => {
          const raw = section.rawRows[i] ?? {}
          const withCi = (value: number | null, axis: Parameters<typeof rowInterval>[1]) => {
            const ci = rowInterval(raw, axis)
            return `${fixed(value, 2)}${ci === undefined ? '' : ` [${fixed(ci.low, 2)}, ${fixed(ci.high, 2)}]`}`
          }
          return [
            cell(row.agent_model_kind === 'baseline' ? `${row.agent_model} (not an LLM)` : row.agent_model),
            cell(row.judge_kind === 'rules' ? `${row.judge_model} (not an LLM)` : row.judge_model),
            cell(row.task_type),
            withCi(row.mean_answer_requirements_satisfaction, MPCBENCH_AXES[0]),
            withCi(row.mean_source_grounded_reasoning, MPCBENCH_AXES[1]),
            String(row.count),
            String(row.failures),
          ]
        }),
      ),
      '',
    )
    // Only tasks that did not pass (requirements below MPCBENCH_PASS_SCORE, or an error) are among the worst. A task
    // the judge could not judge on requirements (the rules judge's null: no checks) has no score, as the row means leave
    // it out: it is not among them. A task that errored is, first.
    const worst = section.tasks
      .filter((t) => t.error !== null || (t.requirements !== null && t.requirements < MPCBENCH_PASS_SCORE))
      .sort((a, b) => (a.requirements ?? -1) - (b.requirements ?? -1) || (a.grounding ?? -1) - (b.grounding ?? -1))
      .slice(0, WORST)
    if (worst.length > 0) {
      lines.push(`Worst ${worst.length} task(s):`, '')
      lines.push(
        ...table(
          ['task', 'agent', 'judge', 'requirements', 'grounding', 'error'],
          worst.map((t) => [
            cell(t.trial === undefined ? t.taskId : `${t.taskId} [trial=${t.trial}]`),
            cell(t.agentModel),
            cell(t.judgeModel),
            String(t.requirements ?? '-'),
            String(t.grounding ?? '-'),
            cell(t.error ?? ''),
          ]),
        ),
        '',
      )
    }
  }
  for (const section of data.evals ?? []) lines.push(...evalSummaryLines(section))
  for (const section of data.mpcbenchV2 ?? []) lines.push(...mpcbenchV2SummaryLines(section))
  if (reportFile !== undefined && lines.length > 0)
    lines.push(`The HTML report (plots, traces) is \`${reportFile}\` (see the job's artifacts when the workflow uploads it).`, '')
  return lines.join('\n')
}

/** An eval's part of the job summary: its metrics with intervals, pass^k, the change since the previous run, the failing cases. */
function evalSummaryLines(section: EvalSection): string[] {
  const { results } = section
  const trials = results.trials > 1 ? ` × ${results.trials} trial(s)` : ''
  const interval = (ci: { low: number; high: number } | null | undefined) => (ci === null || ci === undefined ? '' : `[${fixed(ci.low)}, ${fixed(ci.high)}]`)
  const lines = [`## Eval · ${cell(results.name)} · ${results.tasks} case(s)${trials}`, '']
  lines.push(
    ...table(
      ['metric', 'value', 'CI'],
      [
        ['passRate', fixed(results.metrics.passRate.value), interval(results.metrics.passRate.ci)],
        ...results.scorers.map((scorer) => [cell(scorer), fixed(results.metrics[scorer]?.mean), interval(results.metrics[scorer]?.ci)]),
        ...(results.trials > 1 ? Object.keys(results.passHatK).map((k) => [`pass^${k}`, fixed(results.passHatK[k]), interval(results.passHatKCi[k])]) : []),
      ],
    ),
    '',
  )
  const previous = section.previous?.comparison
  if (previous !== undefined) {
    const delta = previous.metrics.passRate
    const change = delta?.delta === null || delta?.delta === undefined ? '' : `passRate ${signed(delta.delta)} ${interval(delta.ci)}, `
    lines.push(
      `Since the previous run: ${change}improved ${previous.improved.length}, regressed ${previous.regressed.length}${previous.pValue === null ? '' : `, p = ${fixed(previous.pValue)}`}.`,
      '',
    )
  }
  const failing = results.taskResults.filter((row) => row.trial === 1 && row.status !== 'not-run' && !row.passed).slice(0, WORST)
  if (failing.length > 0) {
    lines.push(`Failing case(s) (trial 1, first ${failing.length}):`, '')
    lines.push(
      ...table(
        ['id', 'mean', 'output', 'error'],
        failing.map((row) => [cell(row.id), fixed(row.mean), cell(valueText(row.output) || '(none)'), cell(row.error?.message ?? '')]),
      ),
      '',
    )
  }
  return lines
}

/**
 * An MPCBench v2 summary's part of the job summary: per level x data x model, Avg F1 and EM rate with their intervals,
 * errors and pass^k; the change since the previous run; the instances that were not an exact match.
 */
function mpcbenchV2SummaryLines(section: MpcbenchV2Section): string[] {
  const interval = (ci: { low: number; high: number } | null | undefined, digits = 2) =>
    ci === null || ci === undefined ? '' : ` [${fixed(ci.low, digits)}, ${fixed(ci.high, digits)}]`
  const lines = [`## MPCBench v2 · ${section.summary.levels.length} level × model`, '']
  lines.push(
    ...table(
      ['level', 'data', 'model', 'scored', 'Avg F1', 'EM rate', 'errors', 'pass^k'],
      section.summary.levels.map((level) => {
        const k = String(level.trials)
        const pass = level.trials > 1 && level.passHatK[k] !== undefined ? `pass^${k} ${fixed(level.passHatK[k], 2)}${interval(level.passHatKCi[k])}` : '-'
        return [
          String(level.level),
          cell(level.worldId),
          cell(level.modelKind === 'baseline' ? `${level.model} (non-LLM)` : level.model),
          String(level.scored),
          `${fixed(level.avgF1, 2)}${interval(level.avgF1Ci)}`,
          `${fixed(level.emRate, 2)}${interval(level.emRateCi)}`,
          String(level.errors),
          pass,
        ]
      }),
    ),
    '',
  )
  for (const entry of section.previous?.comparisons ?? []) {
    const c = entry.comparison
    const f1 = c.metrics.f1
    const change = f1?.delta === null || f1?.delta === undefined ? '' : `F1 ${signed(f1.delta)}${interval(f1.ci, 3)}, `
    lines.push(
      `Since the previous run (level ${entry.level} ${cell(entry.worldId)} ${cell(entry.model)}): ${change}improved ${c.improved.length}, regressed ${c.regressed.length}${c.pValue === null ? '' : `, p = ${fixed(c.pValue)}`}.`,
      '',
    )
  }
  const missed = section.summary.levels
    .flatMap((level) => level.results.filter((r) => r.trial === 1 && r.metrics?.exact_match !== true).map((r) => ({ level, r })))
    .slice(0, WORST)
  if (missed.length > 0) {
    lines.push(`Not an exact match (trial 1, first ${missed.length}):`, '')
    lines.push(
      ...table(
        ['instance', 'model', 'F1', 'error'],
        missed.map(({ level, r }) => [cell(r.instanceId), cell(level.model), fixed(r.metrics?.f1, 2), cell(r.error ?? '')]),
      ),
      '',
    )
  }
  return lines
}

/** Appends {@link stepSummaryMarkdown} to `file` (`GITHUB_STEP_SUMMARY`, see `report-settings.ts`); does nothing when it is undefined. */
export function appendStepSummary(data: ReportData, reportFile: string | undefined, file: string | undefined): string | undefined {
  if (file === undefined || file === '') return undefined
  const markdown = stepSummaryMarkdown(data, reportFile)
  if (markdown === '') return undefined
  // Like every file we write (see writeFileAtomic): the job summary is published with the workflow run.
  appendFileSync(file, `${redact(markdown)}\n`)
  return file
}
