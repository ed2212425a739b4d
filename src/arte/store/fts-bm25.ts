import type Database from 'better-sqlite3'
import { FtsIndexReader, type FtsIndexStatements, readVarints } from './fts-index.ts'
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

/** The totals of FTS5's averages record (`%_data` id 1): rows, then each column's tokens. */
export function indexTotals(averages: Uint8Array): IndexTotals {
  const [rows = 0, ...columns] = readVarints(averages)
  return { rows, tokens: columns.reduce((sum, tokens) => sum + tokens, 0) }
}

/** The term of a one-token phrase as FTS5 stores it: the bytes {@link porterTerm} gives as a string of byte values. */
export function phraseTerm(token: string): Uint8Array {
  const term = porterTerm(token)
  const bytes = new Uint8Array(term.length)
  for (let i = 0; i < term.length; i++) bytes[i] = term.charCodeAt(i)
  return bytes
}

/**
 * The rowids of `candidates` (ascending rowids, each with its `emails_fts_docsize` blob) in bm25 order (ties by
 * rowid), the first `limit` of them; or `undefined` when the index holds something the reader does not read or a
 * candidate has no instance of any phrase of one of `groups` (the phrase indexes of each AND group: an index out of
 * step with its rows): the caller then ranks with SQLite.
 */
export function rankByBm25(
  ln: Database.Statement,
  statements: FtsIndexStatements,
  totals: IndexTotals,
  phrases: ReadonlyArray<Bm25Phrase>,
  weights: ReadonlyArray<number>,
  groups: ReadonlyArray<ReadonlyArray<number>>,
  candidates: { ids: Float64Array; sizes: ReadonlyArray<Uint8Array> },
  limit: number,
): number[] | undefined {
  const count = candidates.ids.length
  if (count === 0) return []
  const reader = FtsIndexReader.open(statements)
  if (reader === undefined) return undefined
  const nRow = totals.rows
  const avgdl = totals.tokens / nRow
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
    const [subject = 0, body = 0] = readVarints(candidates.sizes[i] as Uint8Array)
    const D = subject + body
    let score = 0
    for (let p = 0; p < phrases.length; p++) {
      const f = (freqs[p] as Float64Array)[i] as number
      score += (idf[p] as number) * ((f * (K1 + 1.0)) / (f + K1 * (1 - B + (B * D) / avgdl)))
    }
    scores[i] = -1.0 * score
  }
  const order = Array.from({ length: count }, (_, i) => i)
  order.sort((a, b) => (scores[a] as number) - (scores[b] as number) || (candidates.ids[a] as number) - (candidates.ids[b] as number))
  return order.slice(0, limit).map((i) => candidates.ids[i] as number)
}
