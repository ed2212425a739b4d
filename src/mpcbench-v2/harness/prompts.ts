import { PythonError, isDict, pyGet, pyType, truthy } from '../tools/python-values.ts'
import { pyStr } from '../../core/python-format.ts'

/**
 * Upstream MPCBench v2's system prompt (`OpenAIAgent.SYSTEM_PROMPT`, `evaluation/agents/openai_agent.py` at
 * e398410), byte for byte. It was last changed in 787ad09 (2026-02-02 14:57 +0900); upstream's recorded runs keep no
 * system message, so which prompt an earlier run had cannot be checked from its row.
 */
export const SYSTEM_PROMPT = `You are a precise scheduling engine.

Systemic constraints:
- Time grid: All candidate start/end times must align to 15-minute intervals (:00, :15, :30, :45).
- Dense packing: When enumerating candidates, include overlapping time windows (e.g., 9:00-9:30 and 9:15-9:45 are both valid).
- Output count: Return EXACTLY the number of options requested in the task. No more, no less.
- Output format: All datetime strings must include timezone offset (e.g., +09:00).

Information gathering:
- You must use the provided tools to actively query information you need.
- Use list_* tools to discover available resources (policies, documents, threads, rooms, etc.).
- Read all relevant sources to understand the complete requirements before scheduling.

Policy compliance:
- Only follow policies that are explicitly mentioned in the task or communication threads.
- Do not apply other policies even if you discover them through API calls.

**IMPORTANT: Chain-of-Thought Required**
Before providing the final JSON output, you MUST explain your reasoning process step-by-step:
1. List the constraints you identified (time windows, excluded times, required duration, etc.).
2. Explain how you filtered the candidates (e.g., which slots were eliminated and why).
3. Explain why you selected specific time slots or rooms (if applicable).
4. Finally, provide the JSON object wrapped in \`\`\`json ... \`\`\` block.

**OUTPUT FORMAT (Strict JSON):**
Return a JSON object with a "candidates" array.
Each candidate must have "start" and "end" fields.
If the task involves room assignment, each candidate must also include "room_id".

Example:
\`\`\`json
{
  "candidates": [
    {"start": "2026-01-20T09:00:00+09:00", "end": "2026-01-20T10:00:00+09:00"},
    {"start": "2026-01-20T09:15:00+09:00", "end": "2026-01-20T10:15:00+09:00"}
  ]
}
\`\`\``

/**
 * Upstream's `OpenAIAgent._build_user_prompt(task_text, instance)` over the sanitized instance, byte for byte:
 * the task, the references the instance names (`policy_doc_id`, `comm_thread_ids` as Python prints a list), the
 * participants joined by `, ` (or `None`), and the output instructions. Participants that are not strings fail as
 * Python's `", ".join` does.
 */
export function buildUserPrompt(taskText: string, instance: Record<string, unknown>): string {
  const sourcesRef = pyGet(instance, 'sources_ref', {})
  const slots = pyGet(instance, 'slots', {})
  const participants = pyGet(slots, 'participants', [])
  const refs: string[] = []
  const policyDocId = pyGet(sourcesRef, 'policy_doc_id', null)
  if (truthy(policyDocId)) refs.push(`policy_doc_id: ${pyStr(policyDocId)}`)
  const threadIds = pyGet(sourcesRef, 'comm_thread_ids', null)
  if (truthy(threadIds)) refs.push(`comm_thread_ids: ${pyStr(threadIds)}`)
  const availableRefs = refs.length > 0 ? refs.join('\n') : 'Use list_* tools to discover available resources.'
  let participantsText = 'None'
  if (truthy(participants)) {
    const items = Array.isArray(participants) ? participants : isDict(participants) ? Object.keys(participants) : [...String(participants)]
    items.forEach((item, index) => {
      if (typeof item !== 'string') throw new PythonError(`sequence item ${index}: expected str instance, ${pyType(item)} found`)
    })
    participantsText = items.join(', ')
  }
  return `## Task
${taskText}

## Available References
${availableRefs}

## Participants
${participantsText}

## Instructions
Use the provided tools to query information you need (calendar events, policy rules, communication threads, etc.).
After gathering all necessary information, return a JSON object with a "candidates" key containing meeting slot objects.

For Level 1/2 tasks (no room assignment):
{"candidates": [{"start": "ISO8601_datetime", "end": "ISO8601_datetime"}, ...]}

For Level 3 tasks (with room assignment):
{"candidates": [{"start": "ISO8601_datetime", "end": "ISO8601_datetime", "room_id": "room_xxx"}, ...]}

Ensure all datetime strings include timezone offset (e.g., +09:00).`
}
