import { Ajv, type ValidateFunction } from 'ajv'
import addFormatsModule, { type FormatsPlugin } from 'ajv-formats'
import { BenchError } from '../../core/errors.ts'
import type { ChatCompletionMessageParam, ChatModel } from '../../llm/types.ts'
import { describeAjvErrors, type SourceName, sourceValidationErrors } from '../workplace/validate-source.ts'
import type { Scenario } from '../tasks/scenario.ts'
import { type GeneratorRecord, type WorldState, WorldStateSchema } from '../tasks/world-state.ts'
import type { GenerationContext, Generator, SourceData } from './generator.ts'
import { fromStrictOutput, toStrictOutputSchema } from './strict-output-schema.ts'

// ajv-formats is CommonJS: Node's loader gives its `module.exports`, TypeScript's nodenext types the namespace.
const addFormats = ((addFormatsModule as { default?: FormatsPlugin }).default ?? addFormatsModule) as FormatsPlugin

const CUT_OFF_HINT =
  "The reply did not fit in the model's output token limit: use a data_generation_model with a larger output limit in model_config.json, lower the scenario's noise_level, or use --generator procedural."

/** The llm generator could not get schema-valid JSON for one file within its attempts. */
export class GenerationError extends BenchError {
  /** `world_state` or a source name. */
  readonly target: string
  /** Dotted JSON path of the first remaining error, `(root)` for unparsable output. */
  readonly path: string
  readonly reason: string

  constructor(target: string, scenarioId: string, attempts: number, errors: readonly string[], options: { cause?: unknown; hint?: string } = {}) {
    const first = errors[0] ?? '(root): no output'
    const separator = first.indexOf(': ')
    const path = separator < 0 ? '(root)' : first.slice(0, separator)
    const reason = separator < 0 ? first : first.slice(separator + 2)
    super(
      'ERR_GENERATION',
      `The data-generation model gave no valid ${target} for ${scenarioId} in ${attempts} attempt(s): ${path}: ${reason}${errors.length > 1 ? ` (and ${errors.length - 1} more)` : ''}`,
      {
        hint: `Try again, raise --max-attempts (maxAttempts), use a stronger data_generation_model in model_config.json, or use --generator procedural.`,
        ...options,
      },
    )
    this.target = target
    this.path = path
    this.reason = reason
  }
}

/** What the model sent: its text, why it stopped, and a refusal if it refused (strict structured outputs). */
interface Reply {
  content: string | null | undefined
  finishReason: string | null
  refusal?: string | null | undefined
}

/**
 * Parses a model reply as JSON (tolerating a ```json fence); errors come back as `(root): reason` lines, which say
 * when the reply was cut off at the output token limit or refused rather than only that it is not JSON.
 */
function parseReply(reply: Reply): { kind: 'json'; value: unknown } | { kind: 'invalid'; errors: string[] } {
  const { content, finishReason, refusal } = reply
  if (typeof refusal === 'string' && refusal.trim() !== '')
    return { kind: 'invalid', errors: [`(root): the model refused: ${JSON.stringify(refusal.slice(0, 300))}`] }
  if (finishReason === 'content_filter')
    return { kind: 'invalid', errors: ['(root): the reply was stopped by the provider\'s content filter (finish_reason "content_filter")'] }
  if (content === null || content === undefined || content.trim() === '') {
    return {
      kind: 'invalid',
      errors: [
        finishReason === 'length'
          ? '(root): the reply was empty: the output token limit was reached before any text (finish_reason "length")'
          : '(root): the reply was empty',
      ],
    }
  }
  const fenced = /^\s*```(?:json)?\s*([\s\S]*?)\s*```\s*$/.exec(content)
  try {
    return { kind: 'json', value: JSON.parse(fenced?.[1] ?? content) }
  } catch (error) {
    if (finishReason === 'length') {
      return {
        kind: 'invalid',
        errors: [
          `(root): the reply was cut off at the output token limit after ${content.length} characters (finish_reason "length"), so it is not complete JSON`,
        ],
      }
    }
    return { kind: 'invalid', errors: [`(root): not valid JSON (${(error as Error).message})`] }
  }
}

/**
 * Generation through a chat model: structured output with the target JSON Schema in the form strict mode accepts
 * (`toStrictOutputSchema`), the reply read back into the schema's own form and validated with ajv, and on invalid
 * output a retry that feeds the validation errors back as a user message (or, for a reply cut off at the output
 * token limit, asks for a shorter one).
 */
export class LlmGenerator implements Generator {
  readonly record: GeneratorRecord
  readonly reproducible = false
  readonly #model: () => ChatModel
  readonly #maxAttempts: number
  #worldValidator: { schema: Record<string, unknown>; validate: ValidateFunction } | undefined

  /** @param options.model called once, when the first request is made (so up-to-date files need no API key) */
  constructor(options: { model: () => ChatModel; modelId: string; seed: number; maxAttempts: number }) {
    this.#model = options.model
    this.#maxAttempts = Math.max(1, options.maxAttempts)
    this.record = { name: 'llm', model: options.modelId, seed: options.seed }
  }

  async worldState(scenario: Scenario, ctx: GenerationContext): Promise<WorldState> {
    const user = [
      'Scenario:',
      JSON.stringify(scenario, null, 2),
      '',
      `noise_level=${scenario.noise_level} (0 = no unrelated activity, 1 = a lot), depth=${scenario.depth} (0 = each fact stated once and directly, 1 = facts spread over several sources and only inferable by combining them).`,
      `Reference date ("today"): ${scenario.global_settings.reference_date ?? 'pick a Monday and state it in global_settings.reference_date'}. All timestamps are ISO 8601 with the offset of ${scenario.global_settings.timezone}.`,
      'Answer with the world state JSON only.',
    ].join('\n')
    const validate = this.#validatorFor(ctx.worldStateSchema)
    // Asked for our full shape; upstream MPCBench's shape (no company, reference_date, facts, events or
    // background_events) is accepted too, so upstream's recorded world states replay unchanged.
    const value = await this.#complete(
      'world_state',
      scenario.scenario_id,
      ctx.prompts.generator.world_state.system_prompt,
      user,
      ctx.worldStateSchema,
      ctx,
      (data) => {
        if (validate(data)) return []
        const upstreamShape = WorldStateSchema.safeParse(data)
        return upstreamShape.success ? [] : describeAjvErrors(validate.errors)
      },
    )
    return value as WorldState
  }

  async source(name: SourceName, scenario: Scenario, world: WorldState, ctx: GenerationContext): Promise<SourceData> {
    const user = [
      `World state of scenario ${scenario.scenario_id}:`,
      JSON.stringify(
        {
          global_settings: world.global_settings,
          people: world.people,
          projects: world.projects,
          sub_scenarios_expanded: world.sub_scenarios_expanded,
          noise_scenarios: world.noise_scenarios,
          background_events: world.background_events ?? [],
        },
        null,
        2,
      ),
      '',
      `noise_level=${world.noise_level ?? scenario.noise_level}, depth=${world.depth ?? scenario.depth}.`,
      `Answer with the ${name} JSON only, matching this JSON Schema:`,
      JSON.stringify(ctx.sourceSchemas[name]),
    ].join('\n')
    const value = await this.#complete(name, scenario.scenario_id, ctx.prompts.generator[name].system_prompt, user, ctx.sourceSchemas[name], ctx, (data) =>
      sourceValidationErrors(name, data),
    )
    return value as SourceData
  }

  #validatorFor(schema: Record<string, unknown>): ValidateFunction {
    if (this.#worldValidator?.schema !== schema) {
      const ajv = new Ajv({ allErrors: true, strict: false })
      addFormats(ajv)
      this.#worldValidator = { schema, validate: ajv.compile(schema) }
    }
    return this.#worldValidator.validate
  }

  async #complete(
    target: string,
    scenarioId: string,
    system: string,
    user: string,
    schema: Record<string, unknown>,
    ctx: GenerationContext,
    validate: (data: unknown) => string[],
  ): Promise<unknown> {
    const model = this.#model()
    const messages: ChatCompletionMessageParam[] = [
      { role: 'system', content: system },
      { role: 'user', content: user },
    ]
    const strictSchema = toStrictOutputSchema(schema)
    let errors: string[] = []
    let cutOff = false
    for (let attempt = 1; attempt <= this.#maxAttempts; attempt++) {
      const result = await model.complete(
        { messages, responseFormat: { type: 'json_schema', name: target, schema: strictSchema, strict: true }, purpose: `generator:${target}` },
        ctx.signal === undefined ? {} : { signal: ctx.signal },
      )
      const content = result.message.content
      const parsed = parseReply({ content, finishReason: result.finishReason, refusal: result.message.refusal })
      cutOff = parsed.kind === 'invalid' && result.finishReason === 'length'
      const value = parsed.kind === 'json' ? fromStrictOutput(parsed.value, schema) : undefined
      errors = parsed.kind === 'json' ? validate(value) : parsed.errors
      if (parsed.kind === 'json' && errors.length === 0) return value
      messages.push({ role: 'assistant', content: content ?? '' })
      messages.push({
        role: 'user',
        content: cutOff
          ? `That ${target} reply was cut off at the output token limit. Return the complete ${target} JSON only, shorter: fewer or briefer items, still covering every sub-scenario.`
          : `That ${target} JSON is not valid against the schema:\n${errors
              .slice(0, 20)
              .map((e) => `- ${e}`)
              .join('\n')}\nReturn the complete corrected JSON only.`,
      })
    }
    throw new GenerationError(target, scenarioId, this.#maxAttempts, errors, cutOff ? { hint: CUT_OFF_HINT } : {})
  }
}
