import type { Conversation } from '../../baseline/conversation.ts'
import type { BaselineStep } from '../../baseline/step.ts'
import type { Strategy } from '../../baseline/strategy.ts'
import { WORKPLACE_TOOLS } from './common.ts'
import { documentStep } from './document-generation.ts'
import { emailReplyStep } from './email-reply.ts'
import { planningStep } from './planning.ts'

/** The three MPCBench task types the baseline tells apart. */
export type WorkplaceTaskType = 'planning' | 'email_reply' | 'document_generation'

/** Reads the task type from the user prompt's wording: replies, then meetings, else a document. */
export function workplaceTaskType(prompt: string): WorkplaceTaskType {
  const p = prompt.toLowerCase()
  if (/\b(reply|respond|response|answer (?:the|this|their) (?:email|customer|client))\b/.test(p)) return 'email_reply'
  if (/\b(meeting|meet|schedule|scheduling|slots?|sync|syncing|availability|available|calendar invite|1:1|one-on-one)\b/.test(p)) return 'planning'
  return 'document_generation'
}

const KNOWN = new Set<string>(Object.values(WORKPLACE_TOOLS))

/**
 * MPCBench: picks a plan by task type (planning, email reply, document generation); each plan
 * uses only the workplace tools offered and ends with the JSON answer `{final_answer, rationale}`.
 */
export const mpcbenchStrategy: Strategy = {
  name: 'mpcbench',
  appliesTo: (tools) => [...tools].some((tool) => KNOWN.has(tool)),
  next(conversation: Conversation): BaselineStep {
    const type = workplaceTaskType(conversation.user)
    if (type === 'planning') return planningStep(conversation)
    if (type === 'email_reply') return emailReplyStep(conversation)
    return documentStep(conversation)
  },
}
