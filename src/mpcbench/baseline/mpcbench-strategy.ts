import type { Conversation } from '../../baseline/conversation.ts'
import type { BaselineStep } from '../../baseline/step.ts'
import type { Strategy } from '../../baseline/strategy.ts'
import { WORKPLACE_TOOLS } from './common.ts'
import { documentStep } from './document-generation.ts'
import { emailReplyStep } from './email-reply.ts'
import { planningStep } from './planning.ts'
import { readAsExtended, UPSTREAM_WIRE_NAMES, writeForOffered } from './tool-dialect.ts'

/** The three MPCBench task types the baseline tells apart. */
export type WorkplaceTaskType = 'planning' | 'email_reply' | 'document_generation'

/** Reads the task type from the user prompt's wording: replies, then meetings, else a document. */
export function workplaceTaskType(prompt: string): WorkplaceTaskType {
  const p = prompt.toLowerCase()
  if (/\b(reply|respond|response|answer (?:the|this|their) (?:email|customer|client))\b/.test(p)) return 'email_reply'
  if (/\b(meeting|meet|schedule|scheduling|slots?|sync|syncing|availability|available|calendar invite|1:1|one-on-one)\b/.test(p)) return 'planning'
  return 'document_generation'
}

const KNOWN = new Set<string>([...Object.values(WORKPLACE_TOOLS), ...UPSTREAM_WIRE_NAMES])

/**
 * MPCBench: picks a plan by task type (planning, email reply, document generation); each plan
 * uses only the workplace tools offered and ends with the JSON answer `{final_answer, rationale}`.
 * Works with either tool profile (`upstream-v1` is translated, see `tool-dialect.ts`).
 */
export const mpcbenchStrategy: Strategy = {
  name: 'mpcbench',
  appliesTo: (tools) => [...tools].some((tool) => KNOWN.has(tool)),
  next(offered: Conversation): BaselineStep {
    const conversation = readAsExtended(offered)
    const type = workplaceTaskType(conversation.user)
    const step = type === 'planning' ? planningStep(conversation) : type === 'email_reply' ? emailReplyStep(conversation) : documentStep(conversation)
    return writeForOffered(step, offered.tools)
  },
}
