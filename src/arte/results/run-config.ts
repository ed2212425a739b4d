import { createHash } from 'node:crypto'

/** What makes two ART-E runs of a task the same: a finished task of one can stand for the other (`--resume`). */
export interface ArteRunConfig {
  /** Agent model id. */
  model: string
  /** Dataset file (absolute). */
  dataset: string
  split: string
  maxTurns: number
  /** Email database file (absolute). */
  db: string
}

/** A short stable key of an {@link ArteRunConfig} (sha256, 16 hex characters), stored with each trace. */
export function arteConfigKey(config: ArteRunConfig): string {
  const { model, dataset, split, maxTurns, db } = config
  return createHash('sha256').update(JSON.stringify([model, dataset, split, maxTurns, db])).digest('hex').slice(0, 16)
}
