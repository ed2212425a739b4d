import type { z } from 'zod'
import type { ChatCompletionMessageParam, ChatModel } from '../../llm/types.ts'
import { addUsage, emptyUsage } from '../../llm/types.ts'
import { llmJudgeDelimitedMessage, llmJudgeMessage } from './judge-input.ts'
import type { JudgeInputFormat } from './judge-input.ts'
import type { Judge } from './judge.ts'
import type { JudgeOutcome } from './judge-result.ts'
import { JudgeScoresSchema } from './judge-result.ts'

/** Attempts an LLM judge gets to return valid JSON (the first try plus one retry with the error fed back). */
export const DEFAULT_JUDGE_ATTEMPTS = 2

/** Options of {@link createLlmJudge}. */
export interface LlmJudgeOptions {
  model: ChatModel
  /** The judge system prompt (`evaluation.judge.system_prompt` of `prompt_config.json`). */
  systemPrompt: string
  /**
   * Attempts before the reply is reported as a judge error.
   * @default 2
   */
  maxAttempts?: number
  /**
   * Sampling temperature sent to the judge.
   * @default 0
   */
  temperature?: number
  /**
   * How the judge input is shown: `upstream` (upstream's JSON, byte for byte: what makes scores comparable with
   * upstream's, with no defence against instructions inside the answer) or `delimited` (the answer, rationale and tool
   * results as delimited data, with the instruction that text inside them is content to grade).
   * @default 'upstream'
   */
  inputFormat?: JudgeInputFormat
}

function stripFence(text: string): string {
  const fenced = /^\s*```(?:json)?\s*\n([\s\S]*?)\n?```\s*$/.exec(text)
  return fenced?.[1] ?? text.trim()
}

type ParsedReply = { kind: 'ok'; scores: z.infer<typeof JudgeScoresSchema> } | { kind: 'invalid'; problem: string }

/** Parses a judge reply: JSON (optionally in a code fence) matching {@link JudgeScoresSchema}. */
export function parseJudgeReply(text: string): ParsedReply {
  let value: unknown
  try {
    value = JSON.parse(stripFence(text))
  } catch (error) {
    return { kind: 'invalid', problem: `the reply is not JSON (${(error as Error).message})` }
  }
  const result = JudgeScoresSchema.safeParse(value)
  if (result.success) return { kind: 'ok', scores: result.data }
  const issues = result.error.issues.slice(0, 8).map((issue) => `${issue.path.length === 0 ? '(root)' : issue.path.map(String).join('.')}: ${issue.message}`)
  return { kind: 'invalid', problem: `the JSON does not match the required shape:\n${issues.join('\n')}` }
}

function retryMessage(problem: string): string {
  return [
    `Your previous reply could not be used: ${problem}`,
    'Reply again with ONLY the JSON object {"answer_requirements_satisfaction": {"score": <integer 0-5>, "justification": "..."}, "source_grounded_reasoning": {"score": <integer 0-5>, "justification": "..."}} and no other keys or text.',
  ].join('\n')
}

/**
 * The LLM judge: no tools; the system prompt from `prompt_config.json`; the judge input as the user message, as
 * upstream's JSON (its upstream fields, see `llmJudgeMessage`) or delimited (`inputFormat: 'delimited'`, see
 * `llmJudgeDelimitedMessage`); no `response_format`, as upstream's `judge_runner.py` sends none (a
 * schema constrains what the judge model writes, so its scores could differ from upstream's). A reply that is not valid JSON of the required shape is retried with the
 * problem fed back; after `maxAttempts` it is a `judge-error` outcome, never a score. A model error (after the
 * client's own retries) is a `judge-error` too.
 */
export function createLlmJudge(options: LlmJudgeOptions): Judge {
  const maxAttempts = options.maxAttempts ?? DEFAULT_JUDGE_ATTEMPTS
  if (!Number.isInteger(maxAttempts) || maxAttempts < 1) {
    throw new TypeError(`Expected \`maxAttempts\` to be an integer from 1 and up, got ${maxAttempts}`)
  }
  const { model } = options
  return {
    id: model.id,
    kind: 'llm',
    async judge(input, callOptions = {}): Promise<JudgeOutcome> {
      const messages: ChatCompletionMessageParam[] = [
        { role: 'system', content: options.systemPrompt },
        { role: 'user', content: options.inputFormat === 'delimited' ? llmJudgeDelimitedMessage(input) : llmJudgeMessage(input) },
      ]
      let usage = emptyUsage()
      const replies: string[] = []
      let lastProblem = ''
      for (let attempt = 1; attempt <= maxAttempts; attempt++) {
        let content: string
        try {
          const result = await model.complete(
            { messages, temperature: options.temperature ?? 0, purpose: 'judge' },
            {
              signal: callOptions.signal,
              ...(callOptions.deadline === undefined ? {} : { deadline: callOptions.deadline }),
              ...(callOptions.cacheScope === undefined ? {} : { cacheScope: callOptions.cacheScope }),
            },
          )
          usage = addUsage(usage, result.usage)
          content = result.message.content ?? ''
        } catch (error) {
          const code = typeof (error as { code?: unknown }).code === 'string' ? (error as { code: string }).code : 'ERR_JUDGE_MODEL'
          return { kind: 'judge-error', code, message: (error as Error).message, attempts: attempt, replies, usage }
        }
        const parsed = parseJudgeReply(content)
        if (parsed.kind === 'ok') return { kind: 'scored', scores: parsed.scores, attempts: attempt, usage }
        replies.push(content)
        lastProblem = parsed.problem
        messages.push({ role: 'assistant', content }, { role: 'user', content: retryMessage(parsed.problem) })
      }
      return {
        kind: 'judge-error',
        code: 'ERR_JUDGE_REPLY',
        message: `Judge ${model.id} gave no usable reply in ${maxAttempts} attempt(s); last problem: ${lastProblem}`,
        attempts: maxAttempts,
        replies,
        usage,
      }
    },
  }
}
