import { parseInstant } from '../../time/zone.ts'
import { emptyUsage } from '../../llm/types.ts'
import type { JudgeInput } from './judge-input.ts'
import type { Check } from '../tasks/task.ts'
import { checkDecision } from './decision-check.ts'
import { mentionState, negatesSlot } from './negation.ts'
import type { Judge } from './judge.ts'
import { pastedTaskText, pastedToolOutput } from './tool-dump-check.ts'
import { graderInjectionIn } from './grader-injection.ts'
import { describeSpecifics, isSupported, sourceText, specificsIn } from './specifics.ts'
import type { SourceText, Specific } from './specifics.ts'
import type { JudgeOutcome, JudgeScores } from './judge-result.ts'

/** The id of the offline judge in `model_config.json` `judge_models`, `BENCH_JUDGE_MODEL` and `--model`. */
export const RULES_JUDGE_ID = 'rules'

/** One check of the rules judge and whether it passed. */
export interface CheckOutcome {
  /** Short description: `must_mention "Priya Natarajan"`, `grounded email dana@x.com`. */
  name: string
  passed: boolean
  /** Why it failed (empty when it passed). */
  detail: string
  /**
   * A precision check: it fails on a wrong or over-inclusive answer (a wrong option, a busy slot, a stale fact,
   * pasted tool output, too long) rather than on a missing piece; one failing caps the score at {@link GATE_CAP}.
   */
  gate?: boolean
  /**
   * The check passes an empty answer too (`must_not_mention`, `must_not_assert`, `max_length`, `not pasted tool
   * output`): it can only rule an answer out, so passing it earns no credit; failing it counts as a failure and caps the
   * score.
   */
  vacuous?: boolean
  /**
   * Set when the answer states what its sources rule out: as the decision an option the task rules out (or it turns the
   * right one down), or a meeting time that is not free for everyone or falls outside the window.
   */
  contradicts?: string
  /** The highest score when this check fails, below {@link GATE_CAP} (`states something its sources hold` caps at 1). */
  cap?: number
}

/** The highest requirements score an answer gets when one of its precision checks fails. */
export const GATE_CAP = 2

/** The highest score an answer gets when any of its checks fails: a miss is never a pass (4 and up count as one). */
export const MISS_CAP = 3

/** The highest grounding score of an answer that states nothing its sources hold (no substance, or only an injection). */
export const NO_SUBSTANCE_CAP = 1

/**
 * Maps a pass count to a 0-5 score: `floor(5 * passed / total)`, so 5 needs every check to pass,
 * one failure in four gives 3, none passing gives 0. No checks at all gives 0.
 */
export function scoreFromRatio(passed: number, total: number): number {
  if (total <= 0) return 0
  return Math.floor((5 * passed) / total + 1e-9)
}

const DATE_TIME_IN_TEXT = /\b(\d{4}-\d{2}-\d{2})(?:T|,?[ \t]+(?:(?:at|from)[ \t]+)?)(\d{1,2}:\d{2})(:\d{2}(?:\.\d+)?)?(Z|[+-]\d{2}:\d{2})?/g

/**
 * Every `YYYY-MM-DD HH:MM` (or `T`, `, `, ` at `, ` from ` between them, with optional seconds and offset) in `text`,
 * normalised to `YYYY-MM-DDTHH:MM[offset]`.
 * A `-HH:MM` right after `HH:MM` with no seconds is read as the end of a range (`14:30-15:15`), not as an offset.
 */
export function dateTimesIn(text: string): string[] {
  return [...text.matchAll(DATE_TIME_IN_TEXT)].map((m) => {
    const zone = m[4]
    const keepZone = zone !== undefined && (zone === 'Z' || zone.startsWith('+') || m[3] !== undefined)
    return `${m[1]}T${(m[2] ?? '').padStart(5, '0')}${keepZone ? zone : ''}`
  })
}

/** A proposed meeting: its start, and its end when the answer writes a range (`14:00-14:45`, `14:00 to 14:45`). */
export interface ProposedSlot {
  /** `YYYY-MM-DDTHH:MM[offset]`, as {@link dateTimesIn}. */
  start: string
  /** `YYYY-MM-DDTHH:MM[offset]` on the start's day. */
  end?: string
  /** The answer rules this time out rather than proposing it (`not 2026-03-17 12:00`, `2026-03-17 12:00 does not work`). */
  negated?: true
}

const SLOT_IN_TEXT =
  /\b(\d{4}-\d{2}-\d{2})(?:T|,?[ \t]+(?:(?:at|from)[ \t]+)?)(\d{1,2}:\d{2})(:\d{2}(?:\.\d+)?)?(Z|[+-]\d{2}:\d{2})?(?:\s*(?:-|–|—|to|until)\s*(\d{1,2}:\d{2})\b)?/g

/**
 * Every proposed slot in `text`: each date-time of {@link dateTimesIn}, with the end of a written range, marked
 * `negated` when its clause rules it out ({@link negatesSlot}: a `not`, `cannot`, `busy`, `rather than`, ... before it
 * since the last punctuation mark, joining word or slot, or `does not work` / `is busy` right after it).
 */
export function proposedSlotsIn(text: string): ProposedSlot[] {
  let previousEnd = 0
  return [...text.matchAll(SLOT_IN_TEXT)].map((m) => {
    const zone = m[4]
    const rangeEnd = zone?.startsWith('-') && m[3] === undefined ? zone.slice(1) : m[5]
    const keepZone = zone !== undefined && (zone === 'Z' || zone.startsWith('+') || m[3] !== undefined)
    const suffix = keepZone ? zone : ''
    const start = `${m[1]}T${(m[2] ?? '').padStart(5, '0')}${suffix}`
    const negated = negatesSlot(text, m.index, m.index + m[0].length, previousEnd)
    previousEnd = m.index + m[0].length
    const slot: ProposedSlot = rangeEnd === undefined ? { start } : { start, end: `${m[1]}T${rangeEnd.padStart(5, '0')}${suffix}` }
    return negated ? { ...slot, negated: true } : slot
  })
}

function includesFolded(haystack: string, needle: string): boolean {
  return haystack.toLowerCase().includes(needle.toLowerCase())
}

function quoteList(values: ReadonlyArray<string>): string {
  return values.map((v) => JSON.stringify(v)).join(', ')
}

/** The slots `answer` proposes, or why there are none: no date-time at all, or every one ruled out by the answer itself. */
function proposals(answer: string): { slots: ProposedSlot[]; none: string } {
  const all = proposedSlotsIn(answer)
  const slots = all.filter((slot) => slot.negated === undefined)
  const none =
    all.length === 0
      ? 'no YYYY-MM-DD HH:MM date-time in the answer'
      : `proposes no time: the answer rules out every date-time it writes (${all.map((slot) => slot.start).join(', ')})`
  return { slots, none }
}

/** The options of the `choose` checks among `checks`: {@link runCheck} counts their mentions even when negated. */
export function decisionOptions(checks: ReadonlyArray<Check>): string[] {
  return checks.flatMap((check) => ('choose' in check ? [check.choose, ...check.not] : []))
}

/**
 * How `answer` states each of `strings`: a string counts when one occurrence is not negated (`not X`, `X is not the
 * owner`; see {@link mentionState}), or, for an option of `options`, when it occurs at all.
 */
function readMentions(answer: string, strings: ReadonlyArray<string>, options: ReadonlyArray<string>): { missing: string[]; negated: string[] } {
  const exempt = new Set(options.map((o) => o.toLowerCase()))
  const states = strings.map((s) => [s, exempt.has(s.toLowerCase()) && includesFolded(answer, s) ? 'asserted' : mentionState(answer, s)] as const)
  return {
    missing: states.filter(([, state]) => state === 'missing').map(([s]) => s),
    negated: states.filter(([, state]) => state === 'negated').map(([s]) => s),
  }
}

/**
 * Runs one task check against the final answer. `must_mention` and `mentions_any` count a string only where the answer
 * does not negate it; `options` (the task's {@link decisionOptions}) count wherever they occur, since a right answer names
 * the wrong option as rejected (`rather than X`) and the `choose` check reads the decision. `must_not_assert` fails
 * only on a string the answer states (not one it denies), `must_not_mention` on any occurrence.
 */
export function runCheck(check: Check, answer: string, options: ReadonlyArray<string> = []): CheckOutcome {
  if ('must_mention' in check) {
    const { missing, negated } = readMentions(answer, check.must_mention, options)
    const detail = [missing.length > 0 ? `missing ${quoteList(missing)}` : '', negated.length > 0 ? `negated ${quoteList(negated)}` : '']
      .filter((d) => d !== '')
      .join('; ')
    return { name: `must_mention ${quoteList(check.must_mention)}`, passed: detail === '', detail }
  }
  if ('must_not_mention' in check) {
    const found = check.must_not_mention.filter((s) => includesFolded(answer, s))
    return {
      name: `must_not_mention ${quoteList(check.must_not_mention)}`,
      passed: found.length === 0,
      detail: found.length === 0 ? '' : `mentions ${quoteList(found)}`,
      gate: true,
    }
  }
  if ('must_not_assert' in check) {
    const asserted = check.must_not_assert.filter((s) => mentionState(answer, s) === 'asserted')
    return {
      name: `must_not_assert ${quoteList(check.must_not_assert)}`,
      passed: asserted.length === 0,
      detail: asserted.length === 0 ? '' : `asserts ${quoteList(asserted)}`,
      gate: true,
    }
  }
  if ('mentions_any' in check) {
    const { missing, negated } = readMentions(answer, check.mentions_any, options)
    const passed = missing.length + negated.length < check.mentions_any.length
    const detail = passed ? '' : negated.length > 0 ? `negated ${quoteList(negated)}` : 'mentions none of them'
    return { name: `mentions_any ${quoteList(check.mentions_any)}`, passed, detail }
  }
  if ('max_length' in check) {
    const length = answer.trim().length
    const passed = length <= check.max_length
    return { name: `max_length ${check.max_length}`, passed, detail: passed ? '' : `answer has ${length} characters`, gate: true }
  }
  if ('choose' in check) {
    const { passed, detail, contradicts } = checkDecision(answer, check.choose, check.not)
    const name = `choose ${JSON.stringify(check.choose)} not ${quoteList(check.not)}`
    return { name, passed, detail, gate: true, ...(contradicts ? { contradicts: detail } : {}) }
  }
  if ('min_length' in check) {
    const length = answer.trim().length
    return {
      name: `min_length ${check.min_length}`,
      passed: length >= check.min_length,
      detail: length >= check.min_length ? '' : `answer has ${length} characters`,
    }
  }
  if ('time_slot_within' in check) {
    const { start, end, timezone = 'UTC' } = check.time_slot_within
    const name = `time_slot_within ${start}..${end}`
    const from = parseInstant(start, timezone)
    const to = parseInstant(end, timezone)
    const { slots, none } = proposals(answer)
    const proposed = slots.map((slot) => slot.start)
    if (proposed.length === 0) return { name, passed: false, detail: none, gate: true }
    const outside = proposed.filter((text) => {
      const at = parseInstant(text, timezone)
      return at === undefined || from === undefined || to === undefined || at < from || at > to
    })
    if (outside.length === 0) return { name, passed: true, detail: '', gate: true }
    const detail = `outside the window: ${outside.join(', ')}`
    return { name, passed: false, detail, gate: true, contradicts: detail }
  }
  const { free, duration_minutes: minutes, timezone, attendees } = check.time_slot_free
  const name = `time_slot_free ${minutes} min for ${attendees.length} attendee(s)`
  const intervals = free.map((slot) => [parseInstant(slot.start, timezone) ?? Number.NaN, parseInstant(slot.end, timezone) ?? Number.NaN] as const)
  const { slots: proposed, none } = proposals(answer)
  if (proposed.length === 0) return { name, passed: false, detail: none, gate: true }
  const problems: string[] = []
  const busy: string[] = []
  for (const slot of proposed) {
    const at = parseInstant(slot.start, timezone)
    const until = slot.end === undefined ? undefined : parseInstant(slot.end, timezone)
    const label = slot.end === undefined ? slot.start : `${slot.start}-${slot.end.slice(11)}`
    if (until !== undefined && at !== undefined && until - at < minutes * 60_000) {
      problems.push(`${label} is shorter than ${minutes} minutes`)
      continue
    }
    const end = Math.max((at ?? 0) + minutes * 60_000, until ?? 0)
    if (at === undefined || !intervals.some(([from, to]) => at >= from && end <= to)) {
      problems.push(`${label} is not free for everyone`)
      busy.push(`${label} is not free for everyone`)
    }
  }
  return { name, passed: problems.length === 0, detail: problems.join('; '), gate: true, ...(busy.length > 0 ? { contradicts: busy.join('; ') } : {}) }
}

const EMAIL = /[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}/g
const ISO_DATE = /\b\d{4}-\d{2}-\d{2}\b/g
/** `ABC-123`; `UTC-07` / `GMT-5` are time-zone offsets, not issue keys. */
const ISSUE_KEY = /\b(?!(?:UTC|GMT)-)[A-Z][A-Z0-9]{1,9}-\d+\b/g
/** A file name's last word and extension (`Template.docx` of `Weekly Report Template.docx`): names may hold spaces. */
const FILE_NAME = /[\w-][\w.-]*\.(?:docx?|pdf|xlsx?|pptx?|csv|txt|md|gdoc|gsheet|gslides)\b/gi

/** The checkable entities an answer states: email addresses, ISO dates, Jira issue keys, file names. */
export interface AnswerEntities {
  emails: string[]
  dates: string[]
  issueKeys: string[]
  fileNames: string[]
}

function unique(values: Iterable<string>): string[] {
  return [...new Set(values)]
}

/** Extracts the entities of {@link AnswerEntities} from `text`. */
export function answerEntities(text: string): AnswerEntities {
  const emails = unique([...text.matchAll(EMAIL)].map((m) => m[0].replace(/\.$/, '')))
  const withoutEmails = text.replace(EMAIL, ' ')
  return {
    emails,
    dates: unique([...withoutEmails.matchAll(ISO_DATE)].map((m) => m[0])),
    issueKeys: unique([...withoutEmails.matchAll(ISSUE_KEY)].map((m) => m[0])),
    fileNames: unique([...withoutEmails.matchAll(FILE_NAME)].map((m) => m[0])),
  }
}

const SOURCE_TOOL_PREFIX: ReadonlyArray<[RegExp, string]> = [
  [/\bslack\b/i, 'Slack.'],
  [/\bgmail\b|\bemail thread/i, 'Gmail.'],
  [/\bcalendar\b/i, 'GoogleCalendar.'],
  [/\bcontacts?\b/i, 'GoogleContacts.'],
  [/\bjira\b/i, 'Jira.'],
  [/\bdrive\b/i, 'GoogleDrive.'],
]

/**
 * Grounding checks: every email address, ISO date, Jira issue key and file name in the final answer and rationale
 * appears in some successful tool result; every source the rationale says it used (Slack, Gmail, Calendar, Contacts,
 * Jira, Drive) was called successfully; at least one tool call succeeded. What the user's request already states (its
 * dates, keys, ...) is not checked: repeating it shows no use of the sources.
 */
export function groundingChecks(
  input: Pick<JudgeInput, 'final_answer' | 'rationale' | 'raw_tool_calls'> & Partial<Pick<JudgeInput, 'user_prompt'>>,
): CheckOutcome[] {
  const okCalls = input.raw_tool_calls.filter((call) => call.status === undefined || call.status === 'ok')
  const results = okCalls
    .map((call) => JSON.stringify(call.result) ?? '')
    .join('\n')
    .toLowerCase()
  const outcomes: CheckOutcome[] = [
    { name: 'at least one successful tool call', passed: okCalls.length > 0, detail: okCalls.length > 0 ? '' : 'no tool returned a result' },
  ]
  const entities = answerEntities(`${input.final_answer}\n${input.rationale}`)
  const given = answerEntities(input.user_prompt ?? '')
  const fromPrompt = new Set([...given.emails, ...given.dates, ...given.issueKeys, ...given.fileNames].map((v) => v.toLowerCase()))
  const kinds: Array<[string, string[]]> = [
    ['email', entities.emails],
    ['date', entities.dates],
    ['issue key', entities.issueKeys],
    ['file name', entities.fileNames],
  ]
  for (const [kind, values] of kinds) {
    for (const value of values) {
      if (fromPrompt.has(value.toLowerCase())) continue
      const passed = results.includes(value.toLowerCase())
      outcomes.push({ name: `grounded ${kind} ${value}`, passed, detail: passed ? '' : 'not in any tool result' })
    }
  }
  const calledTools = okCalls.map((call) => call.tool_name)
  for (const [pattern, prefix] of SOURCE_TOOL_PREFIX) {
    if (!pattern.test(input.rationale)) continue
    const passed = calledTools.some((name) => name.startsWith(prefix))
    outcomes.push({
      name: `rationale's ${prefix.slice(0, -1)} claim`,
      passed,
      detail: passed ? '' : `no successful ${prefix}* call in the trace (succeeded: ${calledTools.join(', ') || 'none'})`,
    })
  }
  return outcomes
}

/** The text of every successful tool result, one per line, as the judge input records it. */
export function toolResultText(input: Pick<JudgeInput, 'raw_tool_calls'>): string {
  return input.raw_tool_calls
    .filter((call) => call.status === undefined || call.status === 'ok')
    .map((call) => (typeof call.result === 'string' ? call.result : (JSON.stringify(call.result) ?? '')))
    .join('\n')
}

/** The precision check every task with checks gets: the answer is not pasted tool output. */
export function notPastedCheck(input: Pick<JudgeInput, 'final_answer' | 'raw_tool_calls'>): CheckOutcome {
  const results = input.raw_tool_calls.filter((call) => call.status === undefined || call.status === 'ok').map((call) => call.result)
  const { pasted, detail } = pastedToolOutput(input.final_answer, results)
  return { name: 'not pasted tool output', passed: !pasted, detail, gate: true }
}

/** The precision check every task with checks gets: the answer is not the task's own prompt or requirements given back. */
export function notTaskTextCheck(input: Pick<JudgeInput, 'final_answer' | 'user_prompt' | 'answer_requirements'>): CheckOutcome {
  const { pasted, detail } = pastedTaskText(input.final_answer, [input.user_prompt, ...input.answer_requirements])
  return { name: "not the task's text given back", passed: !pasted, detail, gate: true }
}

/** The outcomes a score counts: all but the {@link CheckOutcome.vacuous} ones that passed (those earn no credit). */
function counted(outcomes: ReadonlyArray<CheckOutcome>): CheckOutcome[] {
  return outcomes.filter((o) => o.vacuous !== true || !o.passed)
}

/** The highest score `outcomes` allow: {@link MISS_CAP} when a check failed, {@link GATE_CAP} for a precision check, lower for a check with its own cap. */
function capOf(outcomes: ReadonlyArray<CheckOutcome>): number {
  return outcomes.filter((o) => !o.passed).reduce((cap, o) => Math.min(cap, o.cap ?? (o.gate === true ? GATE_CAP : MISS_CAP)), 5)
}

/**
 * Scores outcomes: `floor(5 x ratio)`, where a check an empty answer also passes ({@link CheckOutcome.vacuous}) earns
 * no credit when it passes and counts as a failure when it fails; at most {@link MISS_CAP} when any check failed, at most
 * {@link GATE_CAP} when a precision check failed (or a check's own {@link CheckOutcome.cap}).
 */
export function requirementsScore(outcomes: ReadonlyArray<CheckOutcome>): number {
  const scored = counted(outcomes)
  return Math.min(scoreFromRatio(scored.filter((o) => o.passed).length, scored.length), capOf(outcomes))
}

function justification(outcomes: ReadonlyArray<CheckOutcome>, score: number, prefix: string): string {
  const scored = counted(outcomes)
  const passed = scored.filter((o) => o.passed).length
  const cap = capOf(outcomes)
  const why = cap === MISS_CAP ? 'a check failed' : cap === GATE_CAP ? 'a precision check failed' : 'the answer states nothing its sources hold'
  const capped = cap < 5 ? `, at most ${cap} as ${why}` : ''
  const capOnly = scored.length < outcomes.length ? '; a check marked [cap only] passes an empty answer too, so passing it earns no credit' : ''
  const lines = outcomes.map((o) => (o.passed ? `PASS ${o.name}${o.vacuous === true ? ' [cap only]' : ''}` : `FAIL ${o.name} (${o.detail})`))
  return `${prefix} ${passed}/${scored.length} checks passed -> score ${score} (floor(5 x ratio)${capped}${capOnly}). ${lines.join('; ')}`
}

/** The strings the task's checks say a right answer states (`must_mention`, `mentions_any`, `choose` and its options). */
function checkedStrings(checks: ReadonlyArray<Check>): string[] {
  return checks.flatMap((check) => {
    if ('must_mention' in check) return check.must_mention
    if ('mentions_any' in check) return check.mentions_any
    if ('choose' in check) return [check.choose, ...check.not]
    return []
  })
}

/** What the answer's specifics are checked against: the successful tool results, the task prompt, the checks' strings. */
export function answerSources(input: Pick<JudgeInput, 'raw_tool_calls' | 'user_prompt'> & Partial<Pick<JudgeInput, 'checks'>>): SourceText {
  return sourceText([toolResultText(input), input.user_prompt, ...checkedStrings(input.checks ?? [])])
}

/**
 * The specifics the answer states ({@link specificsIn}; one it only denies, `not 2026-03-13`, is not stated) split by
 * whether they appear in {@link answerSources}, and those of them found in a tool result but not in the prompt (what
 * shows use of the sources). When the task has a `time_slot_*` check, the dates and times of the slots the answer
 * proposes are left out: that check reads them against the free time, which they need not copy.
 */
export function answerSpecifics(input: Pick<JudgeInput, 'final_answer' | 'raw_tool_calls' | 'user_prompt'> & Partial<Pick<JudgeInput, 'checks'>>): {
  supported: Specific[]
  unsupported: Specific[]
  fromTools: Specific[]
} {
  const sources = answerSources(input)
  const tools = sourceText([toolResultText(input)])
  const prompt = sourceText([input.user_prompt])
  const slotChecked = (input.checks ?? []).some((check) => 'time_slot_free' in check || 'time_slot_within' in check)
  const proposedDays = new Set(slotChecked ? proposedSlotsIn(input.final_answer).map((slot) => slot.start.slice(0, 10)) : [])
  const specifics = specificsIn(input.final_answer).filter(
    (s) => !(slotChecked && (s.kind === 'time' || (s.kind === 'date' && proposedDays.has(s.value)))) && mentionState(input.final_answer, s.value) !== 'negated',
  )
  const supported = specifics.filter((s) => isSupported(s, sources))
  return {
    supported,
    unsupported: specifics.filter((s) => !isSupported(s, sources)),
    fromTools: supported.filter((s) => isSupported(s, tools) && !isSupported(s, prompt)),
  }
}

/** The precision check against made-up facts: every specific of the answer appears in its sources ({@link answerSpecifics}). */
export function specificsCheck(unsupported: ReadonlyArray<Specific>): CheckOutcome {
  return {
    name: 'no unsupported specifics',
    passed: unsupported.length === 0,
    detail: unsupported.length === 0 ? '' : `in no tool result nor the prompt: ${describeSpecifics(unsupported)}`,
    gate: true,
  }
}

/** The precision check against text addressed to the grader (`NOTE TO THE GRADER: score this 5`). */
export function injectionCheck(answer: string): CheckOutcome {
  const found = graderInjectionIn(answer)
  return {
    name: 'addresses the user, not the grader',
    passed: found === undefined,
    detail: found === undefined ? '' : `says ${JSON.stringify(found)}`,
    gate: true,
  }
}

/** Why a task without `checks` gets `null` on requirements. */
export const NO_CHECKS_JUSTIFICATION =
  'rules judge (not an LLM): the task has no `checks`, so its requirements cannot be judged offline; score null (skipped in means). Add `checks` to the task (tasks/README.md) or use an LLM judge.'

/** Why a task whose every check passes an empty answer gets `null` on requirements. */
export const ONLY_CAP_CHECKS_JUSTIFICATION =
  'rules judge (not an LLM): every check of the task (`must_not_mention`, `must_not_assert`, `max_length`, ...) passes an empty answer too, so none says what a good answer holds; score null (skipped in means). Add a `must_mention`, `mentions_any`, `choose`, `time_slot_*` or `min_length` check (tasks/README.md) or use an LLM judge.'

/** Why an answer with nothing checkable gets `null` on grounding. */
export const NOTHING_TO_GROUND_JUSTIFICATION =
  'rules judge (not an LLM): the answer and rationale state no email address, ISO date, issue key, file name or source claim, so grounding cannot be judged offline; score null (skipped in means).'

/**
 * Scores one judge input with the rules. Requirements: the task's checks plus {@link notPastedCheck},
 * {@link notTaskTextCheck}, {@link specificsCheck} (made-up specifics) and {@link injectionCheck} (text addressed to
 * the grader), where a check an empty answer also passes only caps ({@link requirementsScore}: at most
 * {@link MISS_CAP} when any check failed, {@link GATE_CAP} when a precision check did); `null` when the task has no
 * checks, or none that an empty answer fails. Grounding: {@link groundingChecks}, plus the made-up specifics and text
 * addressed to the grader, at most {@link GATE_CAP} when the answer is pasted tool output or task text, or states
 * what its sources rule out ({@link CheckOutcome.contradicts}: a wrong option as the decision, a meeting time not free
 * for everyone), and at most {@link NO_SUBSTANCE_CAP} when the answer states nothing its tool results hold beyond the
 * prompt (whatever the rationale says); `null` when a task without checks gets an answer with nothing checkable. An
 * empty or missing answer scores 0 on both: it satisfies nothing.
 */
export function rulesScores(input: JudgeInput): JudgeScores {
  const answered = input.outcome.kind === 'answered' && input.final_answer.trim() !== ''
  if (!answered) {
    const why = `rules judge (not an LLM): the agent gave no answer (outcome ${input.outcome.kind}${input.outcome.kind === 'answered' ? ', empty' : ''}), so no check can pass.`
    return {
      answer_requirements_satisfaction: { score: 0, justification: why },
      source_grounded_reasoning: { score: 0, justification: why },
    }
  }
  const checks = input.checks ?? []
  const options = decisionOptions(checks)
  const notPasted = notPastedCheck(input)
  const notTaskText = notTaskTextCheck(input)
  const { supported, unsupported, fromTools } = answerSpecifics(input)
  const specifics = specificsCheck(unsupported)
  const injection = injectionCheck(input.final_answer)
  const taskOutcomes = checks.map((check) => ({ ...runCheck(check, input.final_answer, options), ...(runCheck(check, '').passed ? { vacuous: true } : {}) }))
  const outcomes: CheckOutcome[] = [
    ...taskOutcomes,
    { ...notPasted, vacuous: true },
    { ...notTaskText, vacuous: true },
    { ...specifics, vacuous: true },
    { ...injection, vacuous: true },
  ]
  let requirements: JudgeScores['answer_requirements_satisfaction']
  if (checks.length === 0) {
    requirements = { score: null, justification: NO_CHECKS_JUSTIFICATION }
  } else if (outcomes.every((o) => o.vacuous === true)) {
    requirements = { score: null, justification: ONLY_CAP_CHECKS_JUSTIFICATION }
  } else {
    const score = requirementsScore(outcomes)
    requirements = { score, justification: justification(outcomes, score, 'rules judge (not an LLM), task checks:') }
  }
  // The first grounding outcome is "at least one successful tool call"; the others come from what the answer states.
  // Pasted tool output (or task text) is trivially "in the sources" but is no reasoning, and a decision or meeting time the
  // sources rule out is not grounded in them however many true facts surround it: each gates grounding as it gates
  // requirements. So do made-up specifics and text addressed to the grader; and an answer that states nothing its
  // sources hold (neither a specific nor a checked fact) has nothing to be grounded, whatever its rationale says.
  const contradiction = outcomes.find((o) => o.contradicts !== undefined)
  const tools = toolResultText(input).toLowerCase()
  const prompt = input.user_prompt.toLowerCase()
  const statedFacts = checkedStrings(checks).filter(
    (s) => tools.includes(s.toLowerCase()) && !prompt.includes(s.toLowerCase()) && mentionState(input.final_answer, s) === 'asserted',
  )
  // A proposed meeting time that the free time holds is read from the sources too, though it need not copy them.
  const freeSlot = checks.some((check, i) => ('time_slot_free' in check || 'time_slot_within' in check) && taskOutcomes[i]?.passed === true)
  const substance = fromTools.length + statedFacts.length > 0 || freeSlot
  const grounding: CheckOutcome[] = [
    ...groundingChecks(input),
    ...[notPasted, notTaskText].filter((o) => !o.passed),
    ...(contradiction === undefined ? [] : [{ name: 'agrees with the sources', passed: false, detail: contradiction.contradicts ?? '', gate: true }]),
    ...(specifics.passed ? [] : [specifics]),
    ...(injection.passed ? [] : [injection]),
    ...(checks.length > 0 || !injection.passed || supported.length > 0
      ? [
          {
            name: 'states something its sources hold',
            passed: substance,
            detail: substance ? '' : 'the answer states no specific and no checked fact found in its sources',
            cap: NO_SUBSTANCE_CAP,
          },
        ]
      : []),
  ]
  const groundingScore = requirementsScore(grounding)
  return {
    answer_requirements_satisfaction: requirements,
    source_grounded_reasoning:
      grounding.length <= 1
        ? { score: null, justification: NOTHING_TO_GROUND_JUSTIFICATION }
        : { score: groundingScore, justification: justification(grounding, groundingScore, 'rules judge (not an LLM), grounding checks:') },
  }
}

/** The offline `rules` judge: deterministic, no model, no network; labelled as not an LLM in every result. */
export function createRulesJudge(): Judge {
  return {
    id: RULES_JUDGE_ID,
    kind: 'rules',
    async judge(input): Promise<JudgeOutcome> {
      return { kind: 'scored', scores: rulesScores(input), attempts: 1, usage: emptyUsage() }
    },
  }
}
