import Database from 'better-sqlite3'
import { FtsIndexReader, type FtsIndexStatements, prepareFtsIndexStatements, readVarints } from './fts-index.ts'
import { porterTerm } from './fts-snippet.ts'

/**
 * FTS5's `bm25()` computed in JavaScript, with the same doubles in the same order as `fts5Bm25Function` in SQLite's
 * `fts5_aux.c`, so that a search ranks its rows exactly as `ORDER BY bm25(emails_fts, 2.0, 1.0), rowid` does.
 *
 * Why: `bm25()` needs, per query and per phrase, the number of rows holding the phrase (its IDF), which FTS5 counts by
 * walking the phrase's whole document list on every query, whatever rows the query keeps: at 500,000 emails about 7
 * ms per common word. Here that number comes from a table the store fills at the end of a large import (`fts_term_docs`:
 * the document count of every term in many documents; a rarer term is counted when searched, which is cheap), and the
 * per-row part (each phrase's instances per column, the row's size in tokens) from FTS5's own records for the rows in
 * scope only (`fts-index.ts`, `emails_fts_docsize`).
 *
 * The formula (`fts5_aux.c`): nRow rows, avgdl = total tokens / nRow (FTS5's averages record); per phrase
 * idf = ln((nRow - nHit + 0.5) / (nHit + 0.5)), 1e-6 when not positive; per row, aFreq[phrase] is the sum of the
 * column weights of the phrase's instances and D its total tokens; score = -(sum over phrases of
 * idf * (aFreq * (k1 + 1)) / (aFreq + k1 * (1 - b + b * D / avgdl))), k1 = 1.2, b = 0.75. The logarithm is SQLite's
 * `ln()` (the C library's `log`, which bm25 calls): JavaScript's `Math.log` differs from it in the last bit for some
 * arguments.
 */

const K1 = 1.2
const B = 0.75

/** One phrase of a search for {@link rankByBm25}: a single term (its UTF-8 bytes) and the rows that hold it. */
export interface Bm25Phrase {
  term: Uint8Array
  /** Rows of the whole index that hold the term (FTS5's `nHit`). */
  rows: number
}

/** The index-wide numbers of bm25: rows and total tokens (FTS5's averages record). */
export interface IndexTotals {
  rows: number
  tokens: number
}

/** Reads FTS5's averages record of the store's index (`emails_fts_data` id 1; no row while the index is empty). */
export const AVERAGES_SQL = 'SELECT block FROM emails_fts_data WHERE id = 1'

/** The totals of FTS5's averages record (`%_data` id 1): rows, then each column's tokens. */
export function indexTotals(averages: Uint8Array): IndexTotals {
  const [rows = 0, ...columns] = readVarints(averages)
  return { rows, tokens: columns.reduce((sum, tokens) => sum + tokens, 0) }
}

/** A term as FTS5 stores it, from {@link porterTerm}'s string of byte values to those bytes. */
export function termBytes(term: string): Uint8Array {
  const bytes = new Uint8Array(term.length)
  for (let i = 0; i < term.length; i++) bytes[i] = term.charCodeAt(i)
  return bytes
}

/** The term of a one-token phrase as FTS5 stores it. */
export const phraseTerm = (token: string): Uint8Array => termBytes(porterTerm(token))

/** The ranking's inputs besides the candidates: SQLite's `ln()`, the reader's statements, the index's totals, the query. */
export interface Bm25Query {
  ln: Database.Statement
  statements: FtsIndexStatements
  totals: IndexTotals
  phrases: ReadonlyArray<Bm25Phrase>
  /** bm25's column weights (the store's search: subject 2, body 1). */
  weights: ReadonlyArray<number>
  /** The phrase indexes of each AND group of the query. */
  groups: ReadonlyArray<ReadonlyArray<number>>
}

/** Rows to rank: ascending rowids, each with its `%_docsize` blob. */
export interface Bm25Candidates {
  ids: Float64Array
  sizes: ReadonlyArray<Uint8Array>
}

/**
 * The bm25 score of each candidate, as `bm25()` returns it for that row; or `undefined` when the index holds something
 * the reader does not read, or a candidate has no instance of any phrase of one of the query's groups (an index out
 * of step with its rows).
 */
export function bm25Scores(query: Bm25Query, candidates: Bm25Candidates): Float64Array | undefined {
  const { ln, phrases, weights, groups } = query
  const count = candidates.ids.length
  const reader = FtsIndexReader.open(query.statements)
  if (reader === undefined) return undefined
  const nRow = query.totals.rows
  const avgdl = query.totals.tokens / nRow
  const idf = new Float64Array(phrases.length)
  const freqs: Float64Array[] = []
  for (let p = 0; p < phrases.length; p++) {
    const phrase = phrases[p] as Bm25Phrase
    let value = ln.get((nRow - phrase.rows + 0.5) / (phrase.rows + 0.5)) as number | null
    if (value === null || value <= 0) value = 1e-6
    idf[p] = value
    const freq = new Float64Array(count)
    if (reader.addFrequencies(phrase.term, candidates.ids, weights, freq) === undefined) return undefined
    freqs.push(freq)
  }
  const scores = new Float64Array(count)
  for (let i = 0; i < count; i++) {
    // Every candidate matched the query: each AND group has a phrase with instances in it, unless the index is out of step.
    for (const group of groups) if (!group.some((p) => ((freqs[p] as Float64Array)[i] as number) > 0)) return undefined
    let D = 0
    for (const size of readVarints(candidates.sizes[i] as Uint8Array)) D += size
    let score = 0
    for (let p = 0; p < phrases.length; p++) {
      const f = (freqs[p] as Float64Array)[i] as number
      score += (idf[p] as number) * ((f * (K1 + 1.0)) / (f + K1 * (1 - B + (B * D) / avgdl)))
    }
    scores[i] = -1.0 * score
  }
  return scores
}

/**
 * The rowids of `candidates` in bm25 order (ties by rowid), the first `limit` of them; or `undefined` (see
 * {@link bm25Scores}): the caller then ranks with SQLite.
 */
export function rankByBm25(query: Bm25Query, candidates: Bm25Candidates, limit: number): number[] | undefined {
  if (candidates.ids.length === 0) return []
  const scores = bm25Scores(query, candidates)
  if (scores === undefined) return undefined
  const ids = candidates.ids
  const order = Array.from({ length: ids.length }, (_, i) => i)
  order.sort((a, b) => (scores[a] as number) - (scores[b] as number) || (ids[a] as number) - (ids[b] as number))
  return order.slice(0, limit).map((i) => ids[i] as number)
}

/** Whether {@link bm25Scores} gave SQLite's scores in this process (see {@link bm25AgreesWithSqlite}). */
let agreement: boolean | undefined

/**
 * Whether {@link bm25Scores} gives exactly SQLite's `bm25()` here: checked once per process on a small generated
 * index (about a millisecond), before the store first ranks in JavaScript. The same doubles need the same operations
 * and the same logarithm; a build of SQLite whose compiler fused bm25's multiply-adds (possible on arm64) could differ
 * in the last bit, and the store then ranks with SQLite.
 */
export function bm25AgreesWithSqlite(): boolean {
  agreement ??= compareWithSqlite()
  return agreement
}

function compareWithSqlite(): boolean {
  const db = new Database(':memory:')
  try {
    db.exec("CREATE VIRTUAL TABLE probe USING fts5(subject, body, tokenize='porter ascii')")
    // Words in a fifth to a half of the rows (a positive IDF, through the logarithm) and in most (IDF 1e-6), same stems.
    const words = ['gas', 'gases', 'price', 'pricing', 'power', 'desk', 'deal', 'dealer', 'risk', 'trade', 'trading', 'report']
    const insert = db.prepare('INSERT INTO probe (rowid, subject, body) VALUES (?, ?, ?)')
    let seed = 7
    const next = (n: number): number => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648
      return Math.floor((seed / 2_147_483_648) * n)
    }
    const text = (length: number): string => Array.from({ length }, () => words[next(2) === 0 ? 0 : next(words.length)]).join(' ')
    db.transaction(() => {
      for (let rowid = 1; rowid <= 400; rowid++) insert.run(rowid, text(next(4)), text(next(next(30) + 1)))
    })()
    db.exec("INSERT INTO probe(probe) VALUES ('optimize')")
    const statements = prepareFtsIndexStatements(db, 'probe')
    const totals = indexTotals(db.prepare('SELECT block FROM probe_data WHERE id = 1').pluck().get() as Uint8Array)
    const ln = db.prepare('SELECT ln(?)').pluck()
    const count = db.prepare('SELECT count(*) FROM probe WHERE probe MATCH ?').pluck()
    let compared = 0
    const queries = [...words.map((word) => [word]), ['price', 'desk'], ['power', 'deal'], ['gas', 'risk', 'trading'], ['dealer', 'report', 'gases']]
    for (const keywords of queries) {
      const match = keywords.map((word) => `"${word}"`).join(' AND ')
      const rows = db
        .prepare(
          `SELECT p.rowid AS id, d.sz, bm25(probe, 2.0, 1.0) AS score FROM probe p JOIN probe_docsize d ON d.id = p.rowid WHERE probe MATCH ? ORDER BY p.rowid`,
        )
        .all(match) as Array<{ id: number; sz: Uint8Array; score: number }>
      const phrases = keywords.map((word) => ({ term: phraseTerm(word), rows: count.get(`"${word}"`) as number }))
      const groups = keywords.map((_, i) => [i])
      const scores = bm25Scores(
        { ln, statements, totals, phrases, weights: [2.0, 1.0], groups },
        { ids: Float64Array.from(rows, (row) => row.id), sizes: rows.map((row) => row.sz) },
      )
      if (scores === undefined || rows.some((row, i) => !Object.is(row.score, scores[i]))) return false
      compared += rows.length
    }
    return compared > 1_000
  } finally {
    db.close()
  }
}
