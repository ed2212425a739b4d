import type Database from 'better-sqlite3'
import { BenchError } from '../../core/errors.ts'
import { AVERAGES_SQL, indexTotals } from './fts-bm25.ts'

/**
 * The document counts of the FTS5 index's common terms (`fts_term_docs`, schema version 4), which let a search rank by
 * bm25 without FTS5 counting them on every query (see `fts-bm25.ts`). Counted at the end of an import into a store of
 * more than {@link TERM_DOCS_MIN_ROWS} rows (a walk of the whole index: about a second at 500,000 emails); a smaller
 * store keeps none (its searches cost little either way). Any write to `emails` outside an import empties
 * `fts_term_docs_state` (triggers), and a search checks the index's rows and tokens against the state's: stale counts
 * are never used.
 */

/** Stores with at most this many rows in their index keep no counts. */
export const TERM_DOCS_MIN_ROWS = 50_000

/**
 * Terms in fewer rows than this are not kept: FTS5 counts them quickly (about 15-20 ns a row), and a search ranks in
 * JavaScript only when one of its terms is kept (below it, the fixed cost of that ranking, about 0.05 ms, is about
 * what FTS5's count costs).
 */
export const TERM_DOCS_MIN_DOCS = 10_000

/**
 * Counting the common terms failed after an import was committed: the mail is stored and searchable (SQLite ranks it,
 * with the same results); only the counts that make large stores' searches faster are missing.
 */
export class TermCountsError extends BenchError {
  constructor(file: string, cause: unknown) {
    super(
      'ERR_TERM_COUNTS',
      `The import into ${file} is committed, but counting its common search terms failed: ${(cause as Error)?.message ?? String(cause)}`,
      {
        hint: 'Nothing is lost: searches rank without the counts (same results, slower on a large store). Re-run the same `agent-bench import-enron` (it adds nothing and counts again) once the cause is fixed.',
        cause,
      },
    )
  }
}

/** What `fts_term_docs_state` holds while the counts are current. */
export interface TermDocsState {
  rows: number
  tokens: number
  minDocs: number
}

/** The index's rows and tokens (FTS5's averages record). */
function totalsOf(db: Database.Database): { rows: number; tokens: number } {
  const averages = db.prepare(AVERAGES_SQL).pluck().get() as Uint8Array | undefined
  return averages === undefined ? { rows: 0, tokens: 0 } : indexTotals(averages)
}

/**
 * Counts the documents of every term of `emails_fts` in at least `minDocs` rows into `fts_term_docs`, when the index
 * holds more than `minRows` rows, and returns the new state; otherwise writes nothing (the counts stay as they are,
 * stale unless current) and returns `undefined`. Run outside a transaction (the index's records must be written: FTS5
 * holds an open transaction's new entries in memory); it runs its own.
 */
export function refreshTermDocs(db: Database.Database, options: { minRows?: number; minDocs?: number } = {}): TermDocsState | undefined {
  const minRows = options.minRows ?? TERM_DOCS_MIN_ROWS
  const minDocs = options.minDocs ?? TERM_DOCS_MIN_DOCS
  if (totalsOf(db).rows <= minRows) return undefined
  return db
    .transaction((): TermDocsState => {
      db.exec('DELETE FROM fts_term_docs; DELETE FROM fts_term_docs_state;')
      const totals = totalsOf(db)
      db.exec('CREATE VIRTUAL TABLE temp.fts_term_docs_vocab USING fts5vocab(main, emails_fts, row)')
      try {
        db.prepare('INSERT INTO fts_term_docs (term, docs) SELECT CAST(term AS BLOB), doc FROM temp.fts_term_docs_vocab WHERE doc >= ?').run(minDocs)
      } finally {
        db.exec('DROP TABLE temp.fts_term_docs_vocab')
      }
      const state = { rows: totals.rows, tokens: totals.tokens, minDocs }
      db.prepare('INSERT INTO fts_term_docs_state (rows, tokens, min_docs) VALUES (@rows, @tokens, @minDocs)').run(state)
      return state
    })
    .immediate()
}
