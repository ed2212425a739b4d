import { z } from 'zod'
import { UsageSchema } from '../../agent/outcome-summary.ts'
import { MAX_STORED_ANSWER_CHARS, capText } from '../../core/cap-stored.ts'
import type { CallOptions, ChatCompletionMessageParam, ChatModel } from '../../llm/types.ts'
import { emptyUsage } from '../../llm/types.ts'
import { MIN_ATTEMPT_MS } from '../../llm/retry.ts'
import { I_DONT_KNOW } from './sources-correct.ts'

/**
 * The judge's system prompt, verbatim from `determine_if_answer_is_correct` in examples/art-e/art_e/rollout.py of
 * OpenPipe/ART (Apache-2.0, Copyright OpenPipe), so that `llmJudgeAccuracy` compares with OpenPipe's answer accuracy.
 */
export const ARTE_JUDGE_SYSTEM_PROMPT =
  'You will be given an question and two different answers to the question, the correct answer and the answer given by an AI. Your job is to determine if the answer given by the AI is correct. Return True if the answer is semantically similar to the correct answer, and False otherwise. Return only the word True or False, no other text.'

/** The judge's user message, in the same source's format (OpenPipe/ART, Apache-2.0). */
export function arteJudgeUserMessage(question: string, correctAnswer: string, aiAnswer: string): string {
  return `Question: ${question}\nCorrect answer: ${correctAnswer}\nAI answer: ${aiAnswer}`
}

/** Error code of a judge reply that is neither True nor False. */
export const JUDGE_REPLY_CODE = 'ERR_ARTE_JUDGE_REPLY'

/**
 * The judgment of one answer by the LLM judge (`ARTE_JUDGE_MODEL`): a verdict, or an error (the model call failed, or
 * the reply was neither True nor False), never both. Stored with the trace (`llmJudge`), so a resumed task keeps it.
 */
export const ArteJudgmentSchema = z.object({
  /** The judge model id, e.g. `openai/gpt-4.1-mini`. */
  model: z.string(),
  /** The verdict: the judge said True (or False); false without a call when there was no answer to judge. */
  correct: z.boolean().optional(),
  /** Why there is no verdict: the model call's error code, or {@link JUDGE_REPLY_CODE} with the reply. */
  error: z.object({ code: z.string(), message: z.string() }).optional(),
  /** The judge's tokens and cost, apart from the agent's (zero calls when no call was needed). */
  usage: UsageSchema,
})

/** See {@link ArteJudgmentSchema}. */
export type ArteJudgment = z.infer<typeof ArteJudgmentSchema>

/** Markdown and quote marks a judge may put before its verdict (`**True**`, `"False"`, `> True`). */
const VERDICT_LEAD = /^[\s*_`"'\u201C\u201D\u2018\u2019\u00AB>#~]*/u

/** The verdict word, then the end of the reply, whitespace, punctuation or a symbol (`True.`, `False, because`, `True**`). */
const VERDICT_WORD = /^(true|false)(?=$|[\s\p{P}\p{S}])/iu

/** A reply that names both options (`True or False`, `True/False`): the prompt echoed, no verdict. */
const BOTH_OPTIONS = /^(true|false)\s*(\bor\b|\/)\s*(true|false)\b/iu

/**
 * The verdict in a judge reply: its first word (after any markdown or quote marks) when that word is exactly `True` or
 * `False` in any case, followed by the end, whitespace or punctuation (`True, the answer matches.`, `**False**. The
 * answer ...`); else `undefined`. Stricter than OpenPipe's `startswith("t")`, which reads any other reply as False:
 * here such a reply (`Yes`, `Answer: True`, `Trueish`, `True or False`) is a judge error, not a wrong answer.
 */
export function parseJudgeVerdict(reply: string): boolean | undefined {
  const text = reply.replace(VERDICT_LEAD, '')
  if (BOTH_OPTIONS.test(text)) return undefined
  const word = VERDICT_WORD.exec(text)?.[1]?.toLowerCase()
  return word === 'true' ? true : word === 'false' ? false : undefined
}

/** What {@link judgeArteAnswer} judges. */
export interface ArteJudgeInput {
  question: string
  groundTruth: string
  /** The agent's answer; `undefined` when the run ended without one. */
  answer: string | undefined
}

/**
 * Asks the judge model OpenPipe's question (is the AI answer correct?) at temperature 0, through the model's client
 * (retries, call log with purpose `arte-judge`, response cache). As in OpenPipe's rollout, no call is made for a run
 * without an answer nor for the answer {@link I_DONT_KNOW}: both are not correct. A failed call (cancelled, out of
 * retries) or a reply that is not True/False gives an `error`; it never throws.
 */
export async function judgeArteAnswer(model: ChatModel, input: ArteJudgeInput, options: CallOptions = {}): Promise<ArteJudgment> {
  if (input.answer === undefined || input.answer === I_DONT_KNOW) return { model: model.id, correct: false, usage: emptyUsage() }
  const messages: ChatCompletionMessageParam[] = [
    { role: 'system', content: ARTE_JUDGE_SYSTEM_PROMPT },
    { role: 'user', content: arteJudgeUserMessage(input.question, input.groundTruth, input.answer) },
  ]
  try {
    const result = await model.complete({ messages, temperature: 0, purpose: 'arte-judge' }, options)
    const reply = result.message.content ?? ''
    const correct = parseJudgeVerdict(reply)
    if (correct !== undefined) return { model: model.id, correct, usage: result.usage }
    const shown = capText(reply, 200)
    return {
      model: model.id,
      error: { code: JUDGE_REPLY_CODE, message: `The judge replied ${JSON.stringify(shown)}, neither True nor False.` },
      usage: result.usage,
    }
  } catch (error) {
    const code = typeof (error as { code?: unknown }).code === 'string' ? (error as { code: string }).code : 'ERR_ARTE_JUDGE_MODEL'
    const text = error instanceof Error ? error.message : String(error)
    const message = capText(atDeadline(code, options.deadline) ? deadlineMessage(model.id, text) : text, MAX_STORED_ANSWER_CHARS)
    return { model: model.id, error: { code, message }, usage: emptyUsage() }
  }
}

/** Whether a timed-out judge call ended at the caller's deadline (the test timeout) rather than at its own per-request timeout. */
function atDeadline(code: string, deadline: number | undefined): boolean {
  return code === 'ERR_MODEL_TIMEOUT' && deadline !== undefined && deadline - Date.now() < MIN_ATTEMPT_MS
}

/** The message of a judge call the test's deadline cut off: which limit it was, and what to raise (the model error's own hint names BENCH_LLM_TIMEOUT_MS). */
function deadlineMessage(modelId: string, error: string): string {
  const first = error.split('\n')[0] ?? error
  return `The judge call to ${modelId} was cut off by the test timeout (each call must end before it), not by BENCH_LLM_TIMEOUT_MS: ${first}\n  Fix: Raise the test timeout (BENCH_TEST_TIMEOUT_MS; Vitest's testTimeout, --testTimeout in your own config), or lower ARTE_MAX_TURNS so the agent leaves the judge time.`
}
