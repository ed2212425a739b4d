import { createHash } from 'node:crypto'
import { DEFAULT_ARTE_READ_MAX_CHARS } from '../settings.ts'

/**
 * What makes two ART-E runs of a task the same: a finished task of one can stand for the other (`--resume`). The LLM
 * judge is not part of it: it judges the agent's answer after the run, so a resumed run with another judge (or a judge
 * where there was none) keeps the agent's stored trace and asks only the judge.
 */
export interface ArteRunConfig {
  /** Agent model id. */
  model: string
  /** Dataset file (absolute). */
  dataset: string
  split: string
  maxTurns: number
  /** Email database file (absolute). */
  db: string
  /**
   * Characters of an email body that `read_email` returns (`ARTE_READ_MAX_CHARS`): with another cap the agent reads
   * other text, so a run with it is another configuration.
   * @default DEFAULT_ARTE_READ_MAX_CHARS
   */
  readMaxChars?: number
}

/** A short stable key of an {@link ArteRunConfig} (sha256, 16 hex characters), stored with each trace. */
export function arteConfigKey(config: ArteRunConfig): string {
  const { model, dataset, split, maxTurns, db } = config
  const readMaxChars = config.readMaxChars ?? DEFAULT_ARTE_READ_MAX_CHARS
  // The default cap adds nothing, so traces stored before it was part of the key still resume.
  const parts = [model, dataset, split, maxTurns, db, ...(readMaxChars === DEFAULT_ARTE_READ_MAX_CHARS ? [] : [{ readMaxChars }])]
  return createHash('sha256').update(JSON.stringify(parts)).digest('hex').slice(0, 16)
}
