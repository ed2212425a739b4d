/**
 * Where a clause ends: a punctuation mark, a line break, or a word that starts a new statement (`and`, `but`, `so`,
 * `because`, ...). A negation before one of these does not reach what comes after it ("I have not heard back; Priya owns
 * it", "the date is not final and may change").
 */
const CLAUSE_BREAK = /[.;:!?\n(),—]|\b(?:and|but|so|because|although|though|whereas|however)\b/gi

/**
 * A word that negates what follows it in its clause: `not X`, `cannot meet at X`, `rather than X`, `except X`; not
 * `not only X`, nor the courtesies that assert what follows (`don't hesitate to contact X`, `do not forget X`).
 */
const NEGATION_WORD =
  /\bnot\b(?!\s+(?:only|just|merely|hesitate|forget|fail)\b)|\bnever\b|n['’]t\b(?!\s+(?:hesitate|forget|fail)\b)|\bcannot\b|\bno longer\b|\bneither\b|\bnor\b|\bexcept\b|\bexcluding\b|\bavoid(?:ing)?\b|\binstead of\b|\brather than\b/gi

/** Before a meeting time, words that rule it out besides a negation: `busy at X`, `unavailable at X`. */
const UNAVAILABLE_WORD = /\bunavailable\b|\bbusy\b/i

/** Right after a meeting time, a predicate that rules it out: `... does not work`, `... is busy`. */
const NEGATION_AFTER_SLOT =
  /^\s*(?:\([^)]*\)\s*)?(?:(?:(?:does|do|will|would|is|are)\s*(?:not|n['’]t)|won['’]t|cannot|can['’]t)\s+(?:work|fit|suit|be free|free|available|possible|an option)|(?:is|are)\s+(?:busy|blocked|taken|unavailable)\b)/i

/**
 * Between a negation and a mention, a time bound that turns the negation into a statement of the mention: `not later
 * than X` and `not until X` state X as the date, while `not ready by X` denies it.
 */
const TIME_BOUND = /\b(?:until|till|before|after|beyond|prior to|(?:later|earlier|sooner) than)\b/i

/** Right before a mention: `no X`. */
const NO_BEFORE = /\bno\s+["“'‘]?$/i

/** Words after `is not` that hedge a statement rather than deny it: `X is not final`, `X is not a firm date`. */
const HEDGE = String.raw`(?:final|finali[sz]ed|confirmed|guaranteed|firm|fixed|certain|definite|definitive|set|yet|committed|official|binding|locked|promised|hard)\b`

/** After `is not` / `will not be`, what denies a mention: `X is not the owner`, `X is not realistic`, `X is not an option`. */
const DENIED = String.raw`(?:(?:the|a|an|our|their|his|her|its)\s+(?!${HEDGE})|(?:correct|right|accurate|valid|true|realistic|possible|feasible|achievable|likely|happening|going\s+to|involved|responsible|in\s+charge|on\s+the\s+table)\b)`

/** After `does not` / `won't`, a verb that denies a mention: `X won't work`, `X does not hold`, `X will not be met`. */
const DENYING_VERB = String.raw`(?:work|happen|hold|apply|stand|own|lead|make\s+it|ship|land|deliver|be\s+(?:met|hit|ready|available|${DENIED}))\b`

const SPACE = String.raw`[^\S\n]`

/** Right after a mention, a predicate that denies it (on the same line): `X is not the owner`, `X won't work`, `X is outdated`. */
const NEGATION_AFTER_MENTION = new RegExp(
  [
    String.raw`^["”'’]?${SPACE}*(?:\([^)\n]*\)${SPACE}*)?(?:`,
    String.raw`(?:is|are|was|were|will${SPACE}+be|would${SPACE}+be|['’]s)${SPACE}+(?:not|never|no${SPACE}+longer)${SPACE}+${DENIED}`,
    String.raw`|(?:isn|aren|wasn|weren)['’]t${SPACE}+${DENIED}`,
    String.raw`|(?:(?:will|would|does|do|did|can|could)${SPACE}*(?:not|n['’]t)|won['’]t|cannot)${SPACE}+${DENYING_VERB}`,
    String.raw`|no${SPACE}+longer${SPACE}+(?:holds?|applies|apply|stands?)\b`,
    String.raw`|(?:is|are|was|were|has${SPACE}+been|have${SPACE}+been)${SPACE}+(?:wrong|incorrect|outdated|out${SPACE}+of${SPACE}+date|stale|obsolete|ruled${SPACE}+out|off${SPACE}+the${SPACE}+table|cancell?ed|withdrawn|superseded)\b`,
    ')',
  ].join(''),
  'i',
)

/**
 * The clause of `text` that ends at `at`: the text after the last {@link CLAUSE_BREAK} before `at`, and not before
 * `from` (a previous date-time, say).
 */
export function clauseBefore(text: string, at: number, from = 0): string {
  const before = text.slice(from, at)
  return before.slice(Math.max(0, ...[...before.matchAll(CLAUSE_BREAK)].map((b) => b.index + b[0].length)))
}

/**
 * Whether the meeting time at `start`..`end` of `text` is ruled out by its clause: a negation, `busy` or `unavailable`
 * in the clause before it (since `from`), or `does not work` / `is busy` right after it.
 */
export function negatesSlot(text: string, start: number, end: number, from = 0): boolean {
  const clause = clauseBefore(text, start, from)
  return clause.search(NEGATION_WORD) >= 0 || UNAVAILABLE_WORD.test(clause) || NEGATION_AFTER_SLOT.test(text.slice(end))
}

/** Right after a mention ending in a letter, the rest of a name (`Luca` of `Luca Ferri is not the owner`): up to two capitalised words. */
const NAME_REST = /^(?:[^\S\n]+\p{Lu}[\p{L}'’-]*){0,2}/u

/**
 * Whether the mention at `start`..`end` of `text` is negated: a negation word in its clause before it (`will not be
 * ready by X`, `not X`, `rather than X`, `except X`) unless a time bound comes between (`not later than X`, `not
 * until X`), `no` right before it, or a denying predicate right after it or after the rest of its name (`X is not the
 * owner`, `X won't work`, `X is outdated`; `X is not final` hedges, it does not deny).
 */
export function negatesMention(text: string, start: number, end: number): boolean {
  const clause = clauseBefore(text, start)
  const negations = [...clause.matchAll(NEGATION_WORD)]
  const last = negations.at(-1)
  const negatedBefore = last !== undefined && !TIME_BOUND.test(clause.slice(last.index + last[0].length))
  const after = text.slice(end)
  const afterName = /\p{L}$/u.test(text.slice(start, end)) ? after.replace(NAME_REST, '') : after
  return negatedBefore || NO_BEFORE.test(clause) || NEGATION_AFTER_MENTION.test(after) || NEGATION_AFTER_MENTION.test(afterName)
}

/** How a text states a string: at least once not negated, only ever negated, or not at all. */
export type MentionState = 'asserted' | 'negated' | 'missing'

/** How `text` states `needle` (case-insensitive): `asserted` when one occurrence is not negated ({@link negatesMention}). */
export function mentionState(text: string, needle: string): MentionState {
  if (needle === '') return 'asserted'
  let state: MentionState = 'missing'
  for (const m of text.matchAll(new RegExp(needle.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'gi'))) {
    if (!negatesMention(text, m.index, m.index + m[0].length)) return 'asserted'
    state = 'negated'
  }
  return state
}
