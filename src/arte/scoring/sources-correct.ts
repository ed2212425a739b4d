import { canonicalMessageId } from '../store/normalize.ts'

/** The answer OpenPipe's ART-E rollout treats as no attempt: it is neither judged nor checked for sources. */
export const I_DONT_KNOW = "I don't know"

/**
 * Whether an answer's sources hold the row's first message id, OpenPipe's `sources_correct`
 * (`scenario.message_ids[0] in final_sources`, examples/art-e/art_e/rollout.py of OpenPipe/ART). As there, an answer
 * that is exactly {@link I_DONT_KNOW} and a row without message ids are never correct. Ids are compared in the form
 * the email store keys them by (`canonicalMessageId`: trimmed, in angle brackets, case kept), so a source the agent
 * cited without its angle brackets, which `read_email` accepts as the same email, counts.
 */
export function sourcesCorrect(messageIds: ReadonlyArray<string>, answer: string, sources: ReadonlyArray<string>): boolean {
  const first = messageIds[0]
  if (first === undefined || answer === I_DONT_KNOW) return false
  const wanted = canonicalMessageId(first)
  return wanted !== '' && sources.some((source) => canonicalMessageId(source) === wanted)
}
