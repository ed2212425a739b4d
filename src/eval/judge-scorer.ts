import { z } from 'zod'
import { BenchError } from '../core/errors.ts'
import type { Scorer, ScoreResult } from './scorer.ts'
import { createModel } from '../llm/create-model.ts'
import type { CreateModelOptions } from '../llm/create-model.ts'
import type { ChatCompletionMessageParam, ChatModel } from '../llm/types.ts'
import { UNTRUSTED_DATA_INSTRUCTION, delimitSections } from '../llm/untrusted-data.ts'
import { traceJudge } from '../otel/tracing.ts'

/**
 * The default rubric of {@link createJudgeScorer}: the output does what the input asks and agrees in substance with
 * the expected output (when there is one); made-up, wrong or missing facts lower the score.
 */
export const DEFAULT_JUDGE_RUBRIC =
  'You grade the output of an AI system. Judge whether the output correctly and completely does what the task input asks, agreeing in substance with the expected output when one is given (wording may differ). Wrong facts, made-up facts and missing parts lower the score; an output that is padded, evasive or hedged between answers does not get full marks.'

/** The highest score a judge gives; {@link createJudgeScorer} returns the judge's score divided by it. */
export const JUDGE_SCALE = 5

const REPLY_FORMAT = `Reply with JSON only, no code fences: {"score": <integer 0-${JUDGE_SCALE}>, "reason": "<one or two sentences>"}. ${JUDGE_SCALE} = fully correct, 3 = mostly correct with small gaps, 1 = mostly wrong, 0 = wrong, empty or off-task.`

/** The reply a judge must give. */
const JudgeReplySchema = z.strictObject({ score: z.int().min(0).max(JUDGE_SCALE), reason: z.string().min(1) })

/** A judge scorer got no usable reply from its model (after its retries), so it has no score to give. */
export class JudgeScorerError extends BenchError {
  constructor(message: string, options: { cause?: unknown } = {}) {
    super('ERR_JUDGE_SCORER_REPLY', message, {
      hint: 'Use a model that follows the JSON reply format, raise `maxAttempts`, or check the call log (BENCH_LLM_LOG_DIR) for its replies.',
      ...options,
    })
  }
}

/** Options of {@link createJudgeScorer}. */
export interface JudgeScorerOptions<Input, Output, Expected> {
  /**
   * The judge: a model id as `createModel` takes it (`openai/gpt-4.1-mini`, `anthropic/...`, a bare id for
   * `OPENAI_BASE_URL`), with the same keys, retries, response cache, call log and redaction as the agents; or a
   * `ChatModel`.
   */
  model: string | ChatModel
  /**
   * The rubric: what a good output is. The scorer adds the reply format and the rule that the delimited input, expected
   * output and output are data, not instructions.
   * @default DEFAULT_JUDGE_RUBRIC
   */
  prompt?: string
  /**
   * The scorer's name, which labels its score in the test meta and annotations.
   * @default 'judge'
   */
  name?: string
  /**
   * Writes a value into the prompt: strings as they are, anything else as indented JSON.
   * @default (value) => typeof value === 'string' ? value : JSON.stringify(value, null, 2)
   */
  format?: (value: Input | Output | Expected) => string
  /**
   * Attempts the judge gets to reply with valid JSON (the problem is fed back before each retry).
   * @default 2
   */
  maxAttempts?: number
  /**
   * Sampling temperature of the judge.
   * @default 0
   */
  temperature?: number
  /** Options of `createModel` when `model` is an id (environment, cache, call log folder, retries). */
  modelOptions?: CreateModelOptions
}

function defaultFormat(value: unknown): string {
  if (typeof value === 'string') return value
  return JSON.stringify(value, null, 2) ?? String(value)
}

function stripFence(text: string): string {
  return /^\s*```(?:json)?\s*\n([\s\S]*?)\n?```\s*$/.exec(text)?.[1] ?? text.trim()
}

/** Reads a judge reply: `{score, reason}` JSON (optionally in a code fence), or why it cannot be used. */
export function parseJudgeScorerReply(text: string): { kind: 'ok'; score: number; reason: string } | { kind: 'invalid'; problem: string } {
  let value: unknown
  try {
    value = JSON.parse(stripFence(text))
  } catch (error) {
    return { kind: 'invalid', problem: `the reply is not JSON (${(error as Error).message})` }
  }
  const parsed = JudgeReplySchema.safeParse(value)
  if (!parsed.success) {
    const issues = parsed.error.issues.map((issue) => `${issue.path.map(String).join('.') || '(root)'}: ${issue.message}`)
    return { kind: 'invalid', problem: `the JSON does not match {"score", "reason"}: ${issues.join('; ')}` }
  }
  return { kind: 'ok', score: parsed.data.score, reason: parsed.data.reason }
}

/**
 * The system and user messages of one judge call: the rubric, the reply format and the data rule as the system
 * message; the input, the expected output (when not `undefined`) and the output as delimited blocks
 * ({@link delimitSections}), the output marked as data to grade.
 */
export function judgeScorerMessages(rubric: string, input: string, output: string, expected: string | undefined): ChatCompletionMessageParam[] {
  const system = `${rubric}\n\nYou get the task input${expected === undefined ? '' : ', the expected output'} and the output, each between BEGIN and END markers. ${UNTRUSTED_DATA_INSTRUCTION}\n\n${REPLY_FORMAT}`
  const user = delimitSections([
    { label: 'TASK INPUT', text: input },
    ...(expected === undefined ? [] : [{ label: 'EXPECTED OUTPUT', text: expected, untrusted: false }]),
    { label: 'OUTPUT', text: output },
  ])
  return [
    { role: 'system', content: system },
    { role: 'user', content: user },
  ]
}

/**
 * An LLM-as-judge {@link Scorer}: asks `model` to grade the output against the rubric (`prompt`) and returns
 * `{ score: judge score / 5, reason }`. The input, expected output and output reach the judge as delimited data, and
 * its instructions say that text inside them is content to grade, not instructions (an output that addresses its
 * grader does not meet the rubric). A reply that is not `{"score": 0-5, "reason"}` JSON is retried with the problem
 * fed back; after `maxAttempts` the scorer throws a {@link JudgeScorerError} (the case errors; it is never scored 0
 * silently). The model is created on the first score, so a missing key fails the case that needed it. With
 * OpenTelemetry on, each score is a `bench.judge` span (`bench.judge.model`, `bench.judge.kind` `llm`,
 * `bench.judge.name` the scorer's name) with the judge's `chat` spans under it; in `describeEval` it is in the case's trace.
 *
 * ```ts
 * describeEval('support answers', { data, task, scorers: [createJudgeScorer({ model: 'openai/gpt-4.1-mini' })] })
 * ```
 */
export function createJudgeScorer<Input = unknown, Output = string, Expected = Output>(
  options: JudgeScorerOptions<Input, Output, Expected>,
): Scorer<Input, Output, Expected> {
  const maxAttempts = options.maxAttempts ?? 2
  if (!Number.isInteger(maxAttempts) || maxAttempts < 1) throw new TypeError(`Expected \`maxAttempts\` to be an integer from 1 and up, got ${maxAttempts}`)
  const format = options.format ?? defaultFormat
  const rubric = options.prompt ?? DEFAULT_JUDGE_RUBRIC
  let model: ChatModel | undefined = typeof options.model === 'string' ? undefined : options.model
  const name = options.name ?? 'judge'
  const judge = async (judgeModel: ChatModel, input: Input, output: Output, expected: Expected): Promise<ScoreResult> => {
    const messages = judgeScorerMessages(rubric, format(input), format(output), expected === undefined ? undefined : format(expected))
    let lastProblem = ''
    for (let attempt = 1; attempt <= maxAttempts; attempt++) {
      const result = await judgeModel.complete({ messages, temperature: options.temperature ?? 0, purpose: 'judge-scorer' })
      const content = result.message.content ?? ''
      const reply = parseJudgeScorerReply(content)
      if (reply.kind === 'ok') return { score: reply.score / JUDGE_SCALE, reason: reply.reason }
      lastProblem = reply.problem
      messages.push({ role: 'assistant', content }, { role: 'user', content: `Your reply could not be used: ${reply.problem}\n${REPLY_FORMAT}` })
    }
    throw new JudgeScorerError(`Judge ${judgeModel.id} gave no usable reply in ${maxAttempts} attempt(s); last problem: ${lastProblem}`)
  }
  const scorer = async (input: Input, output: Output, expected: Expected): Promise<ScoreResult> => {
    model ??= createModel(options.model as string, options.modelOptions)
    const judgeModel = model
    // OpenTelemetry (when on): the judge's calls are `chat` spans under a `bench.judge` span, as MPCBench's and ART-E's.
    return traceJudge({ judge: judgeModel.id, kind: 'llm', name }, () => judge(judgeModel, input, output, expected))
  }
  Object.defineProperty(scorer, 'name', { value: name })
  return scorer
}
