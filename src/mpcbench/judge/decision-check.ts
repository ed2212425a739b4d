/**
 * Words that announce a decision. Active forms name the choice after them (`we chose X`, `Decision: X`); passive
 * forms after `is`/`was`/`were`/`been` name it before them (`X was chosen`).
 */
const DECISION_CUE =
  /\b(decided|decision|decide|chose|chosen|choose|choosing|selected|select|picked|pick|going with|go with|went with|opted for|opt for|approved|recommend(?:ed|s|ation)?|awarded|settled on|winner|agreed on|final answer|final choice|verdict)\b/gi

/** Right before a cue: `X was chosen`, or `X was not chosen` (group 1). */
const PASSIVE_BEFORE = /\b(?:is|was|were|been|be|got)\s+(not\s+|never\s+)?$/i

/** Right before a cue, a negation that turns it around: `did not choose X`, `decided not to go with X`, `decided against choosing X`. */
const NEGATED_CUE_BEFORE = /(?:\bnot|\bnever|\bno longer|n['’]t|\bagainst)\s+(?:\w+\s+){0,2}$/i

/** Between a cue and the first option after it, a negation: `decided not to go with X`, `decision: against X`. */
const NEGATION_BETWEEN = /(?:\bnot\b|\bnever\b|n['’]t\b|\bagainst\b|\bno longer\b)/i

/** Words right before an option that say it is not (or not alone) the choice (`over X`, `rather than X`, `between X and Y`). */
const REJECTED_BEFORE =
  /\b(?:over|rather than|instead of|not|against|reject(?:ed|ing)?|vs\.?|versus|than|between|and|or|either|neither|nor)\s+(?:option\s+\w\W{0,3}|variant\s+\w\W{0,3})?["“']?$/i

/** Words right after an option that reject it (`X was rejected`, `X is too expensive`, `X lost to Y`, `X could not deliver`). */
const REJECTED_AFTER =
  /^["”']?\s*(?:\([^)]*\)\s*)?,?\s*(?:(?:is|was|were|got|has been|had been)\s+(?:not\b|never\b|rejected|dropped|ruled out|discarded|declined|turned down|too\b|out\b)|(?:could|can|would|will|does|did|do)\s*(?:not\b|n['’]t\b)|(?:isn|wasn|doesn|didn|won|wouldn|couldn|can)['’]t\b|lost\b|loses\b|fails?\b|failed\b|miss(?:es|ed)?\b)/i

/** Between two options, a plain `or`/`and`: the second is stated with the first (`we recommend X or Y` is a hedge, not a decision). */
const JOINED = /^["”']?\s*,?\s*(?:or|and|and\/or|\/)\s+(?:(?:option|variant)\s+\w\W{0,3})?["“']?$/i

/** Sentences of `text` (split after `.`, `!`, `?` followed by a space, and at line breaks). */
function sentences(text: string): string[] {
  return text.split(/(?<=[.!?])\s+(?=[A-Z"“(])|\n+/).filter((s) => s.trim() !== '')
}

interface Mention {
  option: string
  index: number
  end: number
}

function mentions(sentence: string, options: ReadonlyArray<string>): Mention[] {
  const lower = sentence.toLowerCase()
  const found: Mention[] = []
  for (const option of options) {
    const needle = option.toLowerCase()
    for (let index = lower.indexOf(needle); index >= 0; index = lower.indexOf(needle, index + needle.length)) {
      found.push({ option, index, end: index + needle.length })
    }
  }
  return found.sort((a, b) => a.index - b.index)
}

function rejectedAfter(sentence: string, mention: Mention): boolean {
  return REJECTED_AFTER.test(sentence.slice(mention.end))
}

/** What one sentence's cues say of the options: the ones stated as the decision, and the ones expressly turned down. */
interface Statements {
  chosen: Set<string>
  rejected: Set<string>
}

/**
 * The options one active cue states: the first option after it that is not rejected, and any option joined to it by
 * `or`/`and`. Options it expressly turns down (`decided not to go with X`, `X was rejected`) go to `rejected`.
 */
function readActiveCue(sentence: string, found: ReadonlyArray<Mention>, cueEnd: number, into: Statements): void {
  const after = found.filter((m) => m.index >= cueEnd)
  const first = after[0]
  const firstNegated = first !== undefined && NEGATION_BETWEEN.test(sentence.slice(cueEnd, first.index))
  if (first !== undefined && firstNegated) into.rejected.add(first.option)
  for (const m of after) if (rejectedAfter(sentence, m)) into.rejected.add(m.option)
  const chosenAt = after.findIndex(
    (m, i) => !(i === 0 && firstNegated) && !REJECTED_BEFORE.test(sentence.slice(cueEnd, m.index)) && !rejectedAfter(sentence, m),
  )
  if (chosenAt < 0) return
  let previous = after[chosenAt] as Mention
  into.chosen.add(previous.option)
  for (const next of after.slice(chosenAt + 1)) {
    if (!JOINED.test(sentence.slice(previous.end, next.index)) || rejectedAfter(sentence, next)) break
    into.chosen.add(next.option)
    previous = next
  }
}

function statements(text: string, options: ReadonlyArray<string>): Statements {
  const into: Statements = { chosen: new Set(), rejected: new Set() }
  for (const sentence of sentences(text)) {
    const found = mentions(sentence, options)
    if (found.length === 0 || sentence.trim().endsWith('?')) continue
    for (const cue of sentence.matchAll(DECISION_CUE)) {
      const at = cue.index
      const before = sentence.slice(0, at)
      const passive = PASSIVE_BEFORE.exec(before)
      const last = passive === null ? undefined : found.filter((m) => m.end <= at).at(-1)
      if (last !== undefined) {
        if (passive?.[1] === undefined) into.chosen.add(last.option)
        else into.rejected.add(last.option)
        continue
      }
      if (NEGATED_CUE_BEFORE.test(before)) {
        const next = found.find((m) => m.index >= at + cue[0].length)
        if (next !== undefined) into.rejected.add(next.option)
        continue
      }
      readActiveCue(sentence, found, at + cue[0].length, into)
    }
  }
  return into
}

/**
 * The options `text` states as the decision. For each decision cue in a sentence: an active cue states the first option
 * after it that is not marked as rejected (`over X`, `X was rejected`, `X is too slow`), plus every option joined to that
 * one by `or`/`and` (a hedge states both); a passive cue (`X was chosen`) states the last option before it. A negated
 * cue (`did not choose X`, `decided not to go with X`, `X was not chosen`) states nothing, nor does a question
 * (`Decision: X?`).
 */
export function statedChoices(text: string, options: ReadonlyArray<string>): string[] {
  return [...statements(text, options).chosen]
}

/** What {@link checkDecision} found: whether the answer passes, what went wrong, and whether the answer contradicts the decision. */
export interface DecisionOutcome {
  passed: boolean
  detail: string
  /** The answer states an option of `not` as the decision, or expressly turns `choose` down (`we did not choose X`). */
  contradicts: boolean
}

/** Whether `answer` states `choose` as the decision and none of `not`; `detail` says what went wrong. */
export function checkDecision(answer: string, choose: string, not: ReadonlyArray<string>): DecisionOutcome {
  const { chosen, rejected } = statements(answer, [choose, ...not])
  const wrong = [...chosen].filter((option) => option !== choose)
  if (wrong.length > 0) {
    const hedge = chosen.has(choose) ? ` as well as ${JSON.stringify(choose)}` : ''
    return { passed: false, detail: `states ${wrong.map((w) => JSON.stringify(w)).join(', ')}${hedge} as the decision`, contradicts: true }
  }
  if (chosen.size === 0 && rejected.has(choose)) {
    return { passed: false, detail: `turns ${JSON.stringify(choose)} down and states no other decision`, contradicts: true }
  }
  if (chosen.size === 0) return { passed: false, detail: `states no decision naming ${JSON.stringify(choose)}`, contradicts: false }
  return { passed: true, detail: '', contradicts: false }
}
