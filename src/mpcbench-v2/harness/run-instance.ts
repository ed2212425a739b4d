import type { ChatModel } from '../../llm/types.ts'
import { type TaskSpan, traceTask } from '../../otel/tracing.ts'
import { sanitize } from '../data/sanitize.ts'
import type { Instance, Level, OracleRow } from '../data/schemas.ts'
import { calculateF1, goldCandidates } from '../scoring/metrics.ts'
import type { ResultsRow } from '../scoring/results-row.ts'
import { type PolicyDocumentFormat, createSchedulingTools } from '../tools/scheduling-tools.ts'
import { type SchedulingOutcome, runSchedulingAgent } from './run-scheduling-agent.ts'

/** Options of {@link runInstance}. */
export interface RunInstanceOptions {
  level: Level
  /** The level's world, already sanitized (`sanitize(world)`), as upstream sanitizes it once per level. */
  sanitizedWorld: Record<string, unknown>
  instance: Instance
  /** The instance's oracle row; without one the gold list is empty, as in upstream. */
  oracle: OracleRow | undefined
  model: ChatModel
  /** @default 'e398410' */
  policyDocumentFormat?: PolicyDocumentFormat
  signal?: AbortSignal
  maxTurns?: number
  /** See `RunSchedulingAgentOptions.cacheScope`. */
  cacheScope?: string
  /** 1-based trial: the `bench.trial` of the instance's OpenTelemetry span. @default 1 */
  trial?: number
}

/** What one instance gave: upstream's results row, and how the run ended (`undefined` when it failed before the agent ran). */
export interface InstanceResult {
  row: ResultsRow
  outcome: SchedulingOutcome | undefined
  /** With OpenTelemetry on: the trace id of the instance's `invoke_agent` span. */
  otelTraceId?: string
}

/**
 * One instance as upstream's `run_eval.py` runs it: sanitize the instance, run the agent, score its candidates
 * against the oracle's. A failure becomes the row's `error` (Python's `str(e)`), as upstream writes it, with the
 * trace when the agent had run. With OpenTelemetry on, the instance is one trace: an `invoke_agent` root span
 * (`bench.benchmark` mpcbench-v2, `bench.task.id` the instance id, `bench.trial`, `bench.mpcbench_v2.level`) with the
 * model's `chat` spans and an `execute_tool` span per tool call under it, and on it the scores
 * (`bench.score.f1`, `precision`, `recall`, `exact_match`) and pass / fail (the run gave an answer, as the test says).
 */
export function runInstance(options: RunInstanceOptions): Promise<InstanceResult> {
  const start = {
    benchmark: 'mpcbench-v2',
    taskId: options.instance.instance_id,
    trial: options.trial ?? 1,
    agent: options.model.id,
    attributes: { 'bench.mpcbench_v2.level': options.level },
  }
  return traceTask(start, (span) => runInstanceIn(span, options))
}

async function runInstanceIn(span: TaskSpan, options: RunInstanceOptions): Promise<InstanceResult> {
  const row: ResultsRow = { instance_id: options.instance.instance_id, metrics: null, pred: null, gold: null, error: null }
  let outcome: SchedulingOutcome | undefined
  try {
    const instance = sanitize(options.instance) as Record<string, unknown>
    const tools = createSchedulingTools({ world: options.sanitizedWorld, instance, policyDocumentFormat: options.policyDocumentFormat ?? 'e398410' })
    const run = await runSchedulingAgent({
      model: options.model,
      instance,
      tools,
      ...(options.signal === undefined ? {} : { signal: options.signal }),
      ...(options.maxTurns === undefined ? {} : { maxTurns: options.maxTurns }),
      ...(options.cacheScope === undefined ? {} : { cacheScope: options.cacheScope }),
    })
    outcome = run.outcome
    row.trace = run.trace
    const gold = goldCandidates(options.oracle?.feasible_candidates ?? [], options.level)
    row.metrics = calculateF1(gold, run.candidates)
    row.pred = run.candidates.map((candidate) => [...candidate])
    row.gold = gold.map((candidate) => [...candidate])
  } catch (error) {
    if (options.signal?.aborted) throw error
    row.error = error instanceof Error ? error.message : String(error)
  }
  if (span.traceId === undefined) return { row, outcome }
  for (const [name, value] of Object.entries(row.metrics ?? {})) span.score(name, value)
  // Passed as v2 counts a pass in pass^k and compare: the candidates match the oracle's exactly.
  const exact = row.error === null && row.metrics?.exact_match === true
  span.result(exact, row.error !== null ? 'error' : (outcome?.kind ?? 'error'))
  return { row, outcome, otelTraceId: span.traceId }
}
