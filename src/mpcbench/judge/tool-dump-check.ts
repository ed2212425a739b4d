/** Words per shingle when comparing an answer with the tool results; also the shortest copied run. */
const SHINGLE_WORDS = 6

/** Share of the answer's shingles found verbatim in the tool results above which the answer is pasted tool output. */
export const PASTED_SHARE_LIMIT = 0.75

/** Answer words a copied run may skip between two copied words: the labels, list markers and filler a reformatted dump inserts. */
const SKIPPED_WORDS = 2

/**
 * Distinct tool-result records (a message, an issue, an event, a file, ...) a reformatted dump copies from, at least.
 * A focused answer copies from a few: the correct answers of the shipped tasks copy runs from at most 8.
 */
export const PASTED_RECORDS_MIN = 10

/** (answer word, source position) pairs the run search looks at, at most: a long answer is judged on its first words. */
const MATCH_BUDGET = 1_000_000

/** `"key": value` pairs of JSON; three or more in an answer means it pastes JSON. */
const JSON_PAIR = /"[\w .-]{1,40}"\s*:\s*["{[\d tfn-]/g

/** Never produced by {@link words}: put between records so no copied run spans two of them. */
const BREAK = '\u0000'

function words(text: string): string[] {
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim()
    .split(' ')
    .filter((w) => w !== '')
}

function shingles(text: string): string[] {
  const list = words(text)
  const out: string[] = []
  for (let i = 0; i + SHINGLE_WORDS <= list.length; i++) out.push(list.slice(i, i + SHINGLE_WORDS).join(' '))
  return out
}

/** The scalar leaves of a tool result, in order: what a pasted result reads like once its JSON syntax is gone. */
function leaves(value: unknown): string[] {
  if (value === null || value === undefined) return []
  if (Array.isArray(value)) return value.flatMap(leaves)
  if (typeof value === 'object') return Object.values(value).flatMap(leaves)
  return [String(value)]
}

/** The records of a tool result: the items of its lists (`{"issues": [...]}` gives each issue), else the result itself. */
function records(result: unknown): unknown[] {
  if (Array.isArray(result)) return result
  if (result !== null && typeof result === 'object') {
    const lists = Object.values(result).filter((v): v is unknown[] => Array.isArray(v) && v.length > 0)
    return lists.length > 0 ? lists.flat() : [result]
  }
  return [result]
}

/** Every record's words (as JSON and as its values in order), one record after another with a {@link BREAK} between them. */
function recordWords(toolResults: ReadonlyArray<unknown>): { source: string[]; recordAt: number[] } {
  const source: string[] = []
  const recordAt: number[] = []
  const seen = new Set<string>()
  for (const record of toolResults.flatMap(records)) {
    const json = typeof record === 'string' ? record : (JSON.stringify(record) ?? '')
    if (seen.has(json)) continue
    seen.add(json)
    const texts = typeof record === 'string' ? [record] : [json, leaves(record).join(' ')]
    for (const token of texts.flatMap((text) => [...words(text), BREAK])) {
      source.push(token)
      recordAt.push(seen.size - 1)
    }
  }
  return { source, recordAt }
}

function lowerBound(sorted: ReadonlyArray<number>, value: number): number {
  let lo = 0
  let hi = sorted.length
  while (lo < hi) {
    const mid = (lo + hi) >> 1
    if ((sorted[mid] as number) < value) lo = mid + 1
    else hi = mid
  }
  return lo < sorted.length && sorted[lo] === value ? lo : -1
}

/**
 * The answer words that lie in a copied run: at least {@link SHINGLE_WORDS} answer words found one after another in
 * one record's words, where the answer may put up to {@link SKIPPED_WORDS} words of its own between two copied ones
 * (`channel: general` lines, bullets, inserted connectives). Also the records those runs come from, and how many answer
 * words were judged: the first ones, within {@link MATCH_BUDGET}.
 */
function copiedRuns(answerWords: ReadonlyArray<string>, toolResults: ReadonlyArray<unknown>): { copied: number; judged: number; records: number } {
  const { source, recordAt } = recordWords(toolResults)
  const positions = new Map<string, number[]>()
  source.forEach((token, p) => {
    const list = positions.get(token)
    if (list === undefined) positions.set(token, [p])
    else list.push(p)
  })
  const answer: string[] = []
  let budget = MATCH_BUDGET
  for (const word of answerWords) {
    budget -= positions.get(word)?.length ?? 0
    if (budget < 0 && answer.length > 0) break
    answer.push(word)
  }
  const at = answer.map((word) => positions.get(word) ?? [])
  // run[i][k]: the longest run ending (forward) or starting (backward) with answer word i at source position at[i][k].
  const runs = (direction: 1 | -1): Int32Array[] => {
    const run: Int32Array[] = new Array(answer.length)
    const order = answer.map((_, i) => (direction === 1 ? i : answer.length - 1 - i))
    for (const i of order) {
      const here = at[i] as number[]
      const lengths = new Int32Array(here.length)
      here.forEach((p, k) => {
        let best = 0
        for (let gap = 1; gap <= SKIPPED_WORDS + 1; gap++) {
          const j = i - direction * gap
          if (j < 0 || j >= answer.length) break
          const index = lowerBound(at[j] as number[], p - direction)
          if (index >= 0) best = Math.max(best, (run[j] as Int32Array)[index] as number)
        }
        lengths[k] = best + 1
      })
      run[i] = lengths
    }
    return run
  }
  const forward = runs(1)
  const backward = runs(-1)
  let copied = 0
  const from = new Set<number>()
  answer.forEach((_, i) => {
    let inRun = false
    ;(at[i] as number[]).forEach((p, k) => {
      if (((forward[i] as Int32Array)[k] as number) + ((backward[i] as Int32Array)[k] as number) - 1 < SHINGLE_WORDS) return
      inRun = true
      from.add(recordAt[p] as number)
    })
    if (inRun) copied++
  })
  return { copied, judged: answer.length, records: from.size }
}

/** Share of `answer`'s 6-word runs in `source`, or `undefined` for an answer of fewer than 20 words (never called pasted). */
function shingleShare(answer: string, source: ReadonlySet<string>): number | undefined {
  const own = shingles(answer)
  if (own.length < 20 - SHINGLE_WORDS + 1) return undefined
  return own.filter((s) => source.has(s)).length / own.length
}

/**
 * Whether `answer` is pasted tool output rather than an answer: it holds JSON (three or more `"key": value` pairs); or
 * more than {@link PASTED_SHARE_LIMIT} of its 6-word runs appear verbatim in the tool results, read as JSON or as their
 * values in order; or, reformatted (as `key: value` lines, bullets, with words put in between), more than
 * {@link PASTED_SHARE_LIMIT} of its words lie in runs copied from at least {@link PASTED_RECORDS_MIN} different
 * tool-result records. Answers of fewer than 20 words are never called pasted. `detail` gives the evidence.
 */
export function pastedToolOutput(answer: string, toolResults: ReadonlyArray<unknown>): { pasted: boolean; detail: string } {
  const pairs = answer.match(JSON_PAIR)?.length ?? 0
  if (pairs >= 3) return { pasted: true, detail: `contains JSON (${pairs} "key": value pairs)` }
  const share = shingleShare(
    answer,
    new Set([
      ...toolResults.flatMap((result) => shingles(typeof result === 'string' ? result : (JSON.stringify(result) ?? ''))),
      ...shingles(toolResults.flatMap(leaves).join(' ')),
    ]),
  )
  if (share === undefined) return { pasted: false, detail: '' }
  if (share > PASTED_SHARE_LIMIT) {
    return { pasted: true, detail: `${Math.round(share * 100)}% of its ${SHINGLE_WORDS}-word runs are copied from tool results` }
  }
  const answerWords = words(answer)
  const { copied, judged, records: from } = copiedRuns(answerWords, toolResults)
  const wordShare = copied / judged
  if (wordShare > PASTED_SHARE_LIMIT && from >= PASTED_RECORDS_MIN) {
    return { pasted: true, detail: `${Math.round(wordShare * 100)}% of its words are copied, reformatted, from ${from} tool-result records` }
  }
  return { pasted: false, detail: '' }
}

/**
 * Whether `answer` is the task's own text given back (its prompt, its requirements): more than
 * {@link PASTED_SHARE_LIMIT} of its 6-word runs appear verbatim in `taskTexts` (each, or all in order). Answers of fewer
 * than 20 words never are.
 */
export function pastedTaskText(answer: string, taskTexts: ReadonlyArray<string>): { pasted: boolean; detail: string } {
  const share = shingleShare(answer, new Set([...taskTexts.flatMap(shingles), ...shingles(taskTexts.join(' '))]))
  if (share === undefined || share <= PASTED_SHARE_LIMIT) return { pasted: false, detail: '' }
  return { pasted: true, detail: `${Math.round(share * 100)}% of its ${SHINGLE_WORDS}-word runs are copied from the task's prompt and requirements` }
}
