import { runAgent } from '../agent/run-agent.ts'
import { DEFAULT_MAX_TURNS, type AgentTrace } from '../agent/trace.ts'
import { createEmailTools, type EmailToolOptions, warnIfInboxEmpty } from './email-tools.ts'
import type { EmailReader } from './store/email-reader.ts'
import { TOOL_TIMEOUT_CODE } from './store/store-worker.ts'
import { type AgentUnderTest, createExternalAgent, type ExternalAgent, isExternalAgent, runExternalAgent } from '../agent/external-agent.ts'
import type { ArteAgentSettings } from './settings.ts'
import { scoreAnswer } from './scoring/score-answer.ts'
import { sourcesCorrect } from './scoring/sources-correct.ts'
import { type ArteJudgment, ArteJudgmentSchema, judgeArteAnswer } from './scoring/llm-judge.ts'
import type { ChatModel } from '../llm/types.ts'
import { summarizeOutcome } from '../agent/outcome-summary.ts'
import { MAX_STORED_ANSWER_CHARS, capText } from '../core/cap-stored.ts'
import type { ArteTestMeta } from './results/arte-meta.ts'
import type { ArteRow } from './dataset/row.ts'
import { type TaskSpan, traceJudge, traceTask } from '../otel/tracing.ts'

/** The system prompt of the ART-E agent for one row (inbox and date are part of the task). */
export function arteSystemPrompt(row: Pick<ArteRow, 'inbox_address' | 'query_date'>): string {
  return [
    `You are an email research assistant working in the mailbox of ${row.inbox_address}.`,
    `Today's date is ${row.query_date.slice(0, 10)}; you can only see mail sent on or before that day.`,
    'Use search_emails to find relevant messages and read_email to read them in full.',
    'When you know the answer, call return_final_answer with a short, precise answer (a name, number, date or phrase,',
    'not a sentence) and the Message-IDs of the emails it comes from as sources.',
    'If the mailbox does not contain the answer, answer "I don\'t know".',
  ].join('\n')
}

/** The task fields an external agent is POSTed for one row (`tools: {mcpUrl}` is added per run). */
export function arteAgentTask(row: Pick<ArteRow, 'id' | 'question' | 'inbox_address' | 'query_date'>): {
  taskId: string
  question: string
  inboxAddress: string
  queryDate: string
} {
  return { taskId: String(row.id), question: row.question, inboxAddress: row.inbox_address, queryDate: row.query_date.slice(0, 10) }
}

/** The {@link ExternalAgent} of {@link ArteAgentSettings}: named by its agent id, else by its URL. */
export function arteExternalAgent(settings: ArteAgentSettings): ExternalAgent {
  return createExternalAgent({
    url: settings.url,
    id: settings.agentId === undefined ? `agent:${settings.url}` : `agent:${settings.agentId}`,
    ...(settings.workspace === undefined ? {} : { headers: { 'X-Workspace-Id': settings.workspace } }),
    ...(settings.agentId === undefined ? {} : { body: { agentId: settings.agentId } }),
    timeoutMs: settings.timeoutMs,
    maxRetries: settings.maxRetries,
  })
}

/** Inputs of {@link runArteTask}. */
export interface RunArteTaskOptions {
  row: ArteRow
  store: EmailReader
  /** A chat model run in our tool loop, or an external agent (its own loop, our tools over MCP). */
  model: AgentUnderTest
  /** Cancels the agent run (Vitest's test `signal`). */
  signal?: AbortSignal
  /** Epoch ms by which each model call must end (from the test timeout, see `deadlineWithin`). */
  deadline?: number
  /** @default DEFAULT_MAX_TURNS */
  maxTurns?: number
  /** Dataset file the row came from, recorded in the meta. */
  dataset: string
  /** Bounds of the email tools' results (`ARTE_READ_MAX_CHARS`). */
  emailTools?: EmailToolOptions
  /** The response cache scope of the model calls, e.g. of a trial after the first (see `trialCacheScope`). */
  cacheScope?: string
  /** The LLM judge (`ARTE_JUDGE_MODEL`) asked after the agent whether its answer is correct; none by default. */
  judge?: ChatModel
  /** Which of the `BENCH_TRIALS` runs of the row this is (`bench.trial` of its OpenTelemetry span). @default 1 */
  trial?: number
}

/** The trace and scored meta of one ART-E task. */
export interface ArteTaskRun {
  trace: AgentTrace
  meta: ArteTestMeta
  /** The LLM judge's judgment, when a judge was given (also in `meta`). */
  judgment?: ArteJudgment
}

/**
 * Runs the agent on one ART-E row with the email tools scoped to the row's inbox and query date, and scores its
 * answer (exact match, Jaccard, sources), then with `judge` asks the LLM judge (same signal, deadline and cache scope).
 * Never throws for agent or judge failures: they are in `meta.outcome` and `meta.llmJudgeError`. Warns once per
 * store and inbox when the row's inbox holds no email in the store (see `warnIfInboxEmpty`).
 */
export function runArteTask(options: RunArteTaskOptions): Promise<ArteTaskRun> {
  // OpenTelemetry (when on): the task is one trace, its root span carries the scores (see src/otel/tracing.ts).
  return traceTask({ benchmark: 'arte', taskId: String(options.row.id), trial: options.trial, agent: options.model.id }, (span) => runArteTaskIn(span, options))
}

async function runArteTaskIn(span: TaskSpan, options: RunArteTaskOptions): Promise<ArteTaskRun> {
  const { row, store, model } = options
  await warnIfInboxEmpty(store, row.inbox_address)
  const tools = createEmailTools(store, { inbox: row.inbox_address, queryDate: row.query_date.slice(0, 10) }, options.emailTools)
  const started = performance.now()
  const signal = options.signal === undefined ? {} : { signal: options.signal }
  const trace = isExternalAgent(model)
    ? await runExternalAgent({
        agent: model,
        task: arteAgentTask(row),
        prompt: row.question,
        tools,
        instructions: arteSystemPrompt(row),
        ...signal,
        ...(options.deadline === undefined ? {} : { deadline: options.deadline }),
      })
    : await runAgent({
        model,
        system: arteSystemPrompt(row),
        user: row.question,
        tools,
        maxTurns: options.maxTurns ?? DEFAULT_MAX_TURNS,
        purpose: 'arte',
        ...signal,
        ...(options.deadline === undefined ? {} : { deadline: options.deadline }),
        ...(options.cacheScope === undefined ? {} : { cacheScope: options.cacheScope }),
      })
  const executionTimeMs = Math.round(performance.now() - started)
  const judgment = options.judge === undefined ? undefined : await judgeRow(options.judge, row, trace, options)
  const meta = arteMetaFromTrace(row, trace, options.dataset, executionTimeMs, judgment)
  traceArteScores(span, meta)
  return judgment === undefined ? { trace, meta } : { trace, meta, judgment }
}

/**
 * Puts a scored ART-E task on its OpenTelemetry root span (when tracing is on): the scores as `bench.score.*`, pass /
 * fail, and the span's trace id as `meta.otelTraceId`. A resumed task's stored scores go on its own short span too.
 */
export function traceArteScores(span: TaskSpan, meta: ArteTestMeta): void {
  if (span.traceId === undefined) return
  meta.otelTraceId = span.traceId
  for (const [name, value] of [
    ['exact_match', meta.exactMatch],
    ['semantic_score', meta.semanticScore],
    ['sources_correct', meta.sourcesCorrect],
    ['llm_judge_correct', meta.llmJudgeCorrect],
  ] as const)
    span.score(name, value)
  // Passed as ART-E counts a pass everywhere (pass^k, compare, flips): an exact match.
  span.result(meta.exactMatch === true, meta.outcome.kind)
}

/**
 * The LLM judge's judgment of the answer in `trace` to `row` (see `judgeArteAnswer`), its call cancelled by
 * `options.signal` and ended by `options.deadline`.
 */
export function judgeRow(
  judge: ChatModel,
  row: Pick<ArteRow, 'question' | 'answer'>,
  trace: Pick<AgentTrace, 'outcome'>,
  options: Pick<RunArteTaskOptions, 'signal' | 'deadline' | 'cacheScope'> = {},
): Promise<ArteJudgment> {
  const answer = trace.outcome.kind === 'answered' ? trace.outcome.answer : undefined
  return traceJudge({ judge: judge.id, kind: judge.kind }, () =>
    judgeArteAnswer(
      judge,
      { question: row.question, groundTruth: row.answer, answer },
      {
        ...(options.signal === undefined ? {} : { signal: options.signal }),
        ...(options.deadline === undefined ? {} : { deadline: options.deadline }),
        ...(options.cacheScope === undefined ? {} : { cacheScope: options.cacheScope }),
      },
    ),
  )
}

/**
 * The scored meta of one ART-E task from its agent trace and, when a judge ran, its judgment (also used to resume
 * from a stored trace).
 */
export function arteMetaFromTrace(row: ArteRow, trace: AgentTrace, dataset: string, executionTimeMs: number, judgment?: ArteJudgment): ArteTestMeta {
  const answered = trace.outcome.kind === 'answered' ? trace.outcome : undefined
  const agentAnswer = answered?.answer ?? ''
  const score = answered === undefined ? { exactMatch: false, semanticScore: 0 } : scoreAnswer(agentAnswer, row.answer)
  const toolTimeouts = trace.toolCalls.filter((call) => call.errorCode === TOOL_TIMEOUT_CODE).length
  return {
    taskId: String(row.id),
    question: row.question,
    groundTruth: row.answer,
    agentAnswer: capText(agentAnswer, MAX_STORED_ANSWER_CHARS),
    ...(agentAnswer.length > MAX_STORED_ANSWER_CHARS ? { agentAnswerChars: agentAnswer.length } : {}),
    sources: answered?.sources ?? [],
    exactMatch: score.exactMatch,
    semanticScore: score.semanticScore,
    sourcesCorrect: answered === undefined ? false : sourcesCorrect(row.message_ids, answered.answer, answered.sources),
    ...(judgment === undefined ? {} : judgmentMeta(judgment)),
    traceId: trace.traceId,
    executionTimeMs,
    ...(toolTimeouts > 0 ? { toolTimeouts } : {}),
    usage: { ...trace.usage },
    model: trace.model,
    modelKind: trace.modelKind,
    outcome: summarizeOutcome(trace.outcome),
    inboxAddress: row.inbox_address,
    queryDate: row.query_date,
    split: row.split,
    dataset,
  }
}

/** The judge fields of a task's meta. */
function judgmentMeta(judgment: ArteJudgment): Pick<ArteTestMeta, 'llmJudgeModel' | 'llmJudgeCorrect' | 'llmJudgeError' | 'llmJudgeUsage'> {
  return {
    llmJudgeModel: judgment.model,
    ...(judgment.error === undefined && judgment.correct !== undefined ? { llmJudgeCorrect: judgment.correct } : {}),
    ...(judgment.error === undefined ? {} : { llmJudgeError: judgment.error }),
    llmJudgeUsage: { ...judgment.usage },
  }
}

/**
 * The short per-test annotation, e.g. `EM=1 J=0.83 answered in 3 turns, 1,234 tokens, trace ..., agent ...`, then the
 * sources and, with a judge, its verdict.
 */
export function arteAnnotation(meta: ArteTestMeta, trace: AgentTrace): string {
  const status = meta.outcome.kind === 'answered' ? 'answered' : meta.outcome.kind
  const judge =
    meta.llmJudgeModel === undefined
      ? ''
      : `, judge ${meta.llmJudgeModel}: ${meta.llmJudgeError === undefined ? (meta.llmJudgeCorrect === true ? 'correct' : 'not correct') : `error ${meta.llmJudgeError.code}`}`
  return `EM=${meta.exactMatch ? 1 : 0} J=${meta.semanticScore.toFixed(2)} ${status} in ${trace.turns} turn(s), ${meta.usage.totalTokens} tokens, trace ${meta.traceId}, agent ${meta.model}${meta.modelKind === 'baseline' ? ' (not an LLM)' : ''}, sources ${meta.sourcesCorrect === true ? 'correct' : 'not correct'}${judge}`
}

/** A stored ART-E trace: the agent's trace and, when a judge ran, its judgment of the answer (kept for resumed runs). */
export type StoredArteTrace = AgentTrace & { llmJudge?: ArteJudgment }

/** The judgment stored with a trace (as `llmJudge`), or `undefined` when there is none or it is not one. */
export function storedJudgment(trace: AgentTrace): ArteJudgment | undefined {
  const parsed = ArteJudgmentSchema.safeParse((trace as StoredArteTrace).llmJudge)
  return parsed.success ? parsed.data : undefined
}
