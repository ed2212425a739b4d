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
 * Between a negation and a mention, a time bound or a verb of falling short that turns the negation into a statement of
 * the mention: `not later than X`, `not until X`, `will not miss X` and `won't slip past X` state X as the date, while
 * `not ready by X` denies it.
 */
const TIME_BOUND = /\b(?:until|till|before|after|beyond|past|prior to|(?:later|earlier|sooner) than|miss(?:es|ed|ing)?|exceed(?:s|ed|ing)?|overrun)\b/i

/** A change of date, plan or owner, as a verb or a noun: `moved`, `pushed back`, `slipped`, `a change`, `the delay`. */
const CHANGE = String.raw`(?:mov(?:e|ed|es|ing)|push(?:ed|es|ing)?|slip(?:s|ped|ping|page)?|chang(?:e|ed|es|ing)|shift(?:s|ed|ing)?|postpon(?:e|ed|es|ing|ement)|delay(?:s|ed|ing)?|reschedul(?:e|ed|es|ing)|bump(?:s|ed|ing)?|revis(?:e|ed|es|ing)|switch(?:es|ed|ing)?)`

/**
 * At the end of the clause before a mention, a change away from it: `moved from X`, `pushed back from the original X`,
 * `changed the target date from X`, `a delay from X`. Group 1 is a negation of the change (`has not moved from X`,
 * `no change from X`), which keeps X.
 */
const CHANGED_FROM = new RegExp(
  String.raw`(?:(\bnot|\bnever|n['’]t|\bno|\bnothing)[^\S\n]+(?:(?:been|be|yet|really|any|has|have|had)[^\S\n]+){0,2})?\b${CHANGE}(?:[^\S\n]+(?!from\b)[A-Za-z'’-]+){0,3}[^\S\n]+from[^\S\n]+(?:(?:the|our|its|an?|old|original|earlier|previous|initial|planned|current|jira|due|target|release)[^\S\n]+){0,3}(?:(?:date|target|estimate|eta|deadline)[^\S\n]+(?:of[^\S\n]+)?)?["“'‘]?$`,
  'i',
)

/** Right before a mention: `no X`. */
const NO_BEFORE = /\bno\s+["“'‘]?$/i

/** Words after `is not` that hedge a statement rather than deny it: `X is not final`, `X is not a firm date`. */
const HEDGE = String.raw`(?:final|finali[sz]ed|confirmed|guaranteed|firm|fixed|certain|definite|definitive|set|yet|committed|official|binding|locked|promised|hard)\b`

/** After `is not` / `will not be`, what denies a mention: `X is not the owner`, `X is not realistic`, `X is not an option`. */
const DENIED = String.raw`(?:(?:the|a|an|our|their|his|her|its)\s+(?!${HEDGE})|(?:correct|right|accurate|valid|true|realistic|possible|feasible|achievable|likely|happening|going\s+to|involved|responsible|in\s+charge|on\s+the\s+table)\b)`

/** After `does not` / `won't`, a verb that denies a mention: `X won't work`, `X does not hold`, `X will not be met`. */
const DENYING_VERB = String.raw`(?:work|happen|hold|apply|stand|own|lead|make\s+it|ship|land|deliver|be\s+(?:met|hit|ready|available|${DENIED}))\b`

const SPACE = String.raw`[^\S\n]`

/** A predicate that says a mention no longer holds: `is outdated`, `no longer applies`, `is no longer the date`. */
const NO_LONGER_HOLDS = [
  String.raw`no${SPACE}+longer${SPACE}+(?:holds?|applies|apply|stands?)\b`,
  String.raw`(?:is|are|was|were|['’]s)${SPACE}+no${SPACE}+longer${SPACE}+${DENIED}`,
  String.raw`(?:is|are|was|were|has${SPACE}+been|have${SPACE}+been)${SPACE}+(?:now${SPACE}+)?(?:wrong|incorrect|outdated|out${SPACE}+of${SPACE}+date|stale|obsolete|ruled${SPACE}+out|off${SPACE}+the${SPACE}+table|cancell?ed|withdrawn|superseded|replaced)\b`,
].join('|')

/**
 * Between a mention and its predicate, the noun it qualifies and the source it is written in: `X estimate`, `X date in
 * Jira` (`the earlier X estimate is outdated`).
 */
const QUALIFIER = String.raw`(?:${SPACE}+(?:(?:due|target|release|launch|go-live)${SPACE}+)?(?:date|target|estimate|eta|deadline|timeline|milestone)\b)?(?:${SPACE}+(?:in|from|on|per)${SPACE}+(?:the${SPACE}+)?(?:jira|slack|gmail|email|drive|calendar|ticket|tracker|[A-Z][A-Z0-9]*-\d+)\b)?`

/**
 * Right after a mention, a predicate that denies it (on the same line): `X is not the owner`, `X won't work`, `X is
 * outdated`, `X, which no longer holds`, and after the noun or source it qualifies only a predicate that it no longer
 * holds (`X estimate in Jira is stale`; `the X date on Slack is not the Jira date` does not deny X).
 */
const NEGATION_AFTER_MENTION = new RegExp(
  [
    String.raw`^["”'’]?(?:${SPACE}*(?:\([^)\n]*\)${SPACE}*)?(?:`,
    String.raw`(?:is|are|was|were|will${SPACE}+be|would${SPACE}+be|['’]s)${SPACE}+(?:not|never|no${SPACE}+longer)${SPACE}+${DENIED}`,
    String.raw`|(?:isn|aren|wasn|weren)['’]t${SPACE}+${DENIED}`,
    String.raw`|(?:(?:will|would|does|do|did|can|could)${SPACE}*(?:not|n['’]t)|won['’]t|cannot)${SPACE}+${DENYING_VERB}`,
    String.raw`|,${SPACE}*which${SPACE}+(?:${NO_LONGER_HOLDS})`,
    String.raw`)|${QUALIFIER}${SPACE}*(?:\([^)\n]*\)${SPACE}*)?(?:${NO_LONGER_HOLDS}))`,
  ].join(''),
  'i',
)

/**
 * Right after a date, a predicate that says it moved: `X has moved to Y`, `X slipped`, `X was pushed back`. Not read
 * after a name, an amount or an issue key, which can move without being denied (`FLT-212 was moved to the next sprint`).
 */
const MOVED_AFTER_MENTION = new RegExp(
  String.raw`^["”'’]?${QUALIFIER}${SPACE}*(?:\([^)\n]*\)${SPACE}*)?(?:(?:has|have|had|was|were|is|are)${SPACE}+(?:been${SPACE}+)?(?:now${SPACE}+)?)?(?:moved|pushed|slipped|postponed|delayed|shifted|rescheduled|bumped|changed)\b`,
  'i',
)

/** A date: `2026-04-17`, `April 17`, `Friday`. */
const DATE_LIKE = /^\d{4}-\d{2}-\d{2}|\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+\d|\b(?:mon|tues|wednes|thurs|fri|satur|sun)day\b/i

/** A negation that governs a verb, not the words after it (`have not heard from X`), unlike `rather than X` or `except X`. */
const VERB_NEGATION = /^(?:not|never|cannot|no longer|n['’]t)$/i

/** Between a verb negation and a mention, only words that tie the negation to the mention itself: `not X`, `not by X`, `not the X`. */
const GOVERNS_MENTION = /^(?:[^\S\n]*(?:by|to|from|for|with|of|at|on|in|the|a|an|even|just|yet|as|that|is|was|be|been)\b)*[^\S\n]*["“'‘]?$/i

/**
 * Right after a person, a relative clause that names their role, not negated: `X, who owns it`, `X who is in charge`,
 * `X, whose team leads the rollout`. It states X however the clause before X is negated (`I have not heard from X, who
 * owns it`).
 */
const ROLE_CLAUSE = new RegExp(
  [
    String.raw`^${SPACE}*,?${SPACE}*(?:who|whose${SPACE}+[A-Za-z-]+)${SPACE}+(?:(?:now|still|also|currently|actually)${SPACE}+)?(?:`,
    String.raw`(?:owns|leads|runs|manages|handles|drives|coordinates|approves|decides|confirms|signs${SPACE}+off|made${SPACE}+the${SPACE}+call|took${SPACE}+over)\b`,
    String.raw`|(?:is|was)${SPACE}+(?:(?:the|our|their)${SPACE}+(?:owner|lead|approver|assignee|decision(?:${SPACE}|-)maker|(?:point${SPACE}+of${SPACE}+)?contact)|responsible|accountable|in${SPACE}+charge|(?:owning|leading|running|managing|handling|driving|coordinating))\b`,
    String.raw`|(?:will|should|must|can|needs${SPACE}+to|has${SPACE}+to)${SPACE}+(?:own|lead|run|manage|handle|drive|coordinate|approve|decide|confirm|sign${SPACE}+off|follow${SPACE}+up)\b`,
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
 * Whether the mention at `start`..`end` of `text` is negated:
 * - a change away from it ends its clause (`moved from X`, `pushed back from the original X`), unless the change is
 *   itself negated (`has not moved from X` states X);
 * - a negation word in its clause before it (`will not be ready by X`, `not X`, `rather than X`, `except X`) unless a
 *   time bound or a verb of falling short comes between (`not later than X`, `not until X`, `will not miss X`), or the
 *   negation governs a verb and a relative clause right after X names X's role (`have not heard from X, who owns it`);
 * - `no` right before it;
 * - a denying predicate right after it or after the rest of its name (`X is not the owner`, `X won't work`, `X is
 *   outdated`, `X, which no longer holds`; `X is not final` hedges, it does not deny), or, after a date, a predicate
 *   that moves it (`X has moved to Y`).
 */
export function negatesMention(text: string, start: number, end: number): boolean {
  const clause = clauseBefore(text, start)
  const changed = CHANGED_FROM.exec(clause)
  if (changed !== null) return changed[1] === undefined
  const mention = text.slice(start, end)
  const after = text.slice(end)
  const afterName = /\p{L}$/u.test(mention) ? after.replace(NAME_REST, '') : after
  const negations = [...clause.matchAll(NEGATION_WORD)]
  const last = negations.at(-1)
  const between = last === undefined ? '' : clause.slice(last.index + last[0].length)
  const roleStated = last !== undefined && VERB_NEGATION.test(last[0]) && !GOVERNS_MENTION.test(between) && ROLE_CLAUSE.test(afterName)
  const negatedBefore = last !== undefined && !TIME_BOUND.test(between) && !roleStated
  const moved = DATE_LIKE.test(mention) && MOVED_AFTER_MENTION.test(after)
  return negatedBefore || NO_BEFORE.test(clause) || NEGATION_AFTER_MENTION.test(after) || NEGATION_AFTER_MENTION.test(afterName) || moved
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
