/** Words per shingle when comparing an answer with the tool results. */
const SHINGLE_WORDS = 6

/** Share of the answer's shingles found verbatim in the tool results above which the answer is pasted tool output. */
export const PASTED_SHARE_LIMIT = 0.75

/** `"key": value` pairs of JSON; three or more in an answer means it pastes JSON. */
const JSON_PAIR = /"[\w .-]{1,40}"\s*:\s*["{[\d tfn-]/g

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

/**
 * Whether `answer` is pasted tool output rather than an answer: it holds JSON (three or more `"key": value` pairs), or
 * more than {@link PASTED_SHARE_LIMIT} of its 6-word runs appear verbatim in the tool results, read as JSON or as
 * their values in order (answers of fewer than 20 words are never called pasted). `detail` gives the evidence.
 */
export function pastedToolOutput(answer: string, toolResults: ReadonlyArray<unknown>): { pasted: boolean; detail: string } {
  const pairs = answer.match(JSON_PAIR)?.length ?? 0
  if (pairs >= 3) return { pasted: true, detail: `contains JSON (${pairs} "key": value pairs)` }
  const own = shingles(answer)
  if (own.length < 20 - SHINGLE_WORDS + 1) return { pasted: false, detail: '' }
  const source = new Set([
    ...toolResults.flatMap((result) => shingles(typeof result === 'string' ? result : (JSON.stringify(result) ?? ''))),
    ...shingles(toolResults.flatMap(leaves).join(' ')),
  ])
  const copied = own.filter((s) => source.has(s)).length
  const share = copied / own.length
  if (share > PASTED_SHARE_LIMIT) {
    return { pasted: true, detail: `${Math.round(share * 100)}% of its ${SHINGLE_WORDS}-word runs are copied from tool results` }
  }
  return { pasted: false, detail: '' }
}
