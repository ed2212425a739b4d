import type { Conversation } from '../../baseline/conversation.ts'
import { HEURISTIC, type BaselineStep } from '../../baseline/step.ts'
import type { Strategy } from '../../baseline/strategy.ts'
import { PolicyRuleSchema } from '../data/schemas.ts'
import { scheduleSlots } from './schedule.ts'

/** What the baseline reads from a level 1 task text and the prompt's participants. */
interface TaskFacts {
  participants: string[]
  policyId: string
  durationMin: number
  numOptions: number
  windowStart: string
  windowEnd: string
}

const DATE_TIME = String.raw`\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2})?(?:Z|[+-]\d{2}:\d{2})?`

/** Reads the facts of a task whose text names them (level 1's template), or `undefined`. */
export function readTaskFacts(userPrompt: string): TaskFacts | undefined {
  const task = /## Task\n([\s\S]*?)\n\n## /.exec(userPrompt)?.[1] ?? ''
  const participants = (/## Participants\n(.*)/.exec(userPrompt)?.[1] ?? '').split(', ').filter((name) => /^person_\w+$/.test(name))
  const policyId = /\b(POLICY_\w+)\b/.exec(task)?.[1]
  const duration = /(\d+)-minute/.exec(task)?.[1]
  const options = /Provide (\d+)/.exec(task)?.[1]
  const window = new RegExp(`(${DATE_TIME}) to (${DATE_TIME})`).exec(task)
  if (participants.length === 0 || policyId === undefined || duration === undefined || options === undefined || window === null) return undefined
  return {
    participants,
    policyId,
    durationMin: Number(duration),
    numOptions: Number(options),
    windowStart: window[1] as string,
    windowEnd: window[2] as string,
  }
}

function text(content: string): BaselineStep {
  return { kind: 'text', text: `${HEURISTIC}: ${content}` }
}

/**
 * The MPCBench v2 strategy of the non-LLM baseline, for tasks that name their participants, policy id, duration,
 * window and number of options (level 1): turn 1 asks for the time zone, each participant's calendar and the policy's
 * rules; turn 2 applies the rules as upstream's oracle does and answers with the earliest slots in upstream's JSON.
 * A task that does not name them (levels 2 and 3 hide them in documents and threads) gets a reply saying so, with
 * no candidates. Every reply starts with `baseline heuristic`.
 */
export const schedulingStrategy: Strategy = {
  name: 'mpcbench-v2',
  appliesTo: (tools) => tools.has('get_calendar_events') && tools.has('get_policy_rules') && tools.has('get_current_time'),
  next(conversation: Conversation): BaselineStep {
    const facts = readTaskFacts(conversation.user)
    if (facts === undefined)
      return text(
        'this task does not name its participants, policy, duration, window and number of options; the baseline answers level 1 tasks only.\n```json\n{"candidates": []}\n```',
      )
    if (conversation.calls.length === 0) {
      return {
        kind: 'call',
        note: `read the time zone, the calendars of ${facts.participants.join(', ')} and the rules of ${facts.policyId}`,
        calls: [
          { name: 'get_current_time', arguments: {} },
          ...facts.participants.map((person) => ({ name: 'get_calendar_events', arguments: { person_id: person } })),
          { name: 'get_policy_rules', arguments: { policy_id: facts.policyId } },
        ],
      }
    }
    const result = (name: string) => conversation.calls.filter((call) => call.name === name).map((call) => call.result as Record<string, unknown> | undefined)
    const timeZone = String(result('get_current_time')[0]?.timezone ?? 'Asia/Seoul')
    const busy = result('get_calendar_events').flatMap((events) =>
      Array.isArray(events?.events) ? (events.events as Array<{ start: string; end: string }>) : [],
    )
    const rules = (result('get_policy_rules')[0]?.rules as unknown[] | undefined) ?? []
    const parsedRules = rules.map((rule) => PolicyRuleSchema.safeParse(rule)).flatMap((parsed) => (parsed.success ? [parsed.data] : []))
    const slots = scheduleSlots({
      timeZone,
      windowStart: facts.windowStart,
      windowEnd: facts.windowEnd,
      durationMin: facts.durationMin,
      numOptions: facts.numOptions,
      busy,
      rules: parsedRules,
    })
    const ruleTypes = parsedRules.map((rule) => rule.type).join(', ') || 'none'
    return text(
      `the earliest ${facts.numOptions} ${facts.durationMin}-minute slots on the 15-minute grid free for every participant and kept by ${facts.policyId} (${ruleTypes}).\n\`\`\`json\n${JSON.stringify({ candidates: slots })}\n\`\`\``,
    )
  },
}
