/**
 * Words that announce a decision. Active forms name the choice after them (`we chose X`, `Decision: X`); passive
 * forms after `is`/`was`/`were`/`been` name it before them (`X was chosen`).
 */
const DECISION_CUE =
  /\b(decided|decision|decide|chose|chosen|choose|choosing|selected|select|picked|pick|going with|go with|went with|opted for|opt for|approved|recommend(?:ed|s|ation)?|awarded|settled on|winner|agreed on)\b/gi

const PASSIVE_BEFORE = /\b(?:is|was|were|been|be|got)\s+$/i

/** Words right before an option that say it is not (or not alone) the choice (`over X`, `rather than X`, `between X and Y`). */
const REJECTED_BEFORE = /\b(?:over|rather than|instead of|not|against|reject(?:ed|ing)?|vs\.?|versus|than|between|and|or|either)\s+(?:option\s+\w\W{0,3}|variant\s+\w\W{0,3})?["“']?$/i

/** Sentences of `text` (split after `.`, `!`, `?` followed by a space, and at line breaks). */
function sentences(text: string): string[] {
  return text.split(/(?<=[.!?])\s+(?=[A-Z"“(])|\n+/).filter((s) => s.trim() !== '')
}

interface Mention {
  option: string
  index: number
}

function mentions(sentence: string, options: ReadonlyArray<string>): Mention[] {
  const lower = sentence.toLowerCase()
  const found: Mention[] = []
  for (const option of options) {
    const needle = option.toLowerCase()
    for (let index = lower.indexOf(needle); index >= 0; index = lower.indexOf(needle, index + needle.length)) {
      found.push({ option, index })
    }
  }
  return found.sort((a, b) => a.index - b.index)
}

/**
 * The options `text` states as the decision: for each decision cue, the first option after it in the same sentence
 * that is not marked as rejected (`over X`), or for a passive cue (`X was chosen`) the last option before it.
 */
export function statedChoices(text: string, options: ReadonlyArray<string>): string[] {
  const chosen = new Set<string>()
  for (const sentence of sentences(text)) {
    const found = mentions(sentence, options)
    if (found.length === 0) continue
    for (const cue of sentence.matchAll(DECISION_CUE)) {
      const at = cue.index
      const before = sentence.slice(0, at)
      if (PASSIVE_BEFORE.test(before)) {
        const last = found.filter((m) => m.index < at).at(-1)
        if (last !== undefined) {
          chosen.add(last.option)
          continue
        }
      }
      const next = found.find((m) => m.index >= at + cue[0].length && !REJECTED_BEFORE.test(sentence.slice(at, m.index)))
      if (next !== undefined) chosen.add(next.option)
    }
  }
  return [...chosen]
}

/** Whether `answer` states `choose` as the decision and none of `not`; `detail` says what went wrong. */
export function checkDecision(answer: string, choose: string, not: ReadonlyArray<string>): { passed: boolean; detail: string } {
  const stated = statedChoices(answer, [choose, ...not])
  const wrong = stated.filter((option) => option !== choose)
  if (wrong.length > 0) return { passed: false, detail: `states ${wrong.map((w) => JSON.stringify(w)).join(', ')} as the decision` }
  if (stated.length === 0) return { passed: false, detail: `states no decision naming ${JSON.stringify(choose)}` }
  return { passed: true, detail: '' }
}
