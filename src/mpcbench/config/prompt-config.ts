import { z } from 'zod'
import { readJsonFile } from '../../core/parse.ts'

const GeneratorPromptSchema = z.looseObject({
  system_prompt: z.string().min(1),
  /** Upstream also keeps a `{placeholder}` template of the user message; ours builds the user message in code. */
  user_prompt_template: z.string().optional(),
})
export type GeneratorPrompt = z.infer<typeof GeneratorPromptSchema>

/** `prompt_config.json`: system prompts of the agent, the judge and the data generators. Upstream's file parses too. */
export const PromptConfigSchema = z.looseObject({
  evaluation: z.looseObject({
    agent: z.looseObject({ system_message: z.string().min(1) }),
    judge: z.looseObject({
      system_prompt: z.string().min(1),
      /**
       * How the judge is shown what it grades: `upstream` (upstream's judge input JSON, byte for byte; upstream's file
       * has no such field) or `delimited` (the answer, rationale and tool results as delimited data to grade).
       * @default 'upstream'
       */
      input_format: z.enum(['upstream', 'delimited']).optional(),
    }),
  }),
  generator: z.looseObject({
    world_state: GeneratorPromptSchema,
    slack: GeneratorPromptSchema,
    gmail: GeneratorPromptSchema,
    calendar: GeneratorPromptSchema,
    contacts: GeneratorPromptSchema,
    jira: GeneratorPromptSchema,
    drive: GeneratorPromptSchema,
  }),
})
export type PromptConfig = z.infer<typeof PromptConfigSchema>

/** Reads and parses a prompt config file. */
export function loadPromptConfig(file: string): PromptConfig {
  return readJsonFile(PromptConfigSchema, file, 'prompt config')
}
