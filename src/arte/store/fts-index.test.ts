import Database from 'better-sqlite3'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { FtsIndexReader, prepareFtsIndexStatements, readVarints, singleSegment } from './fts-index.ts'

/**
 * The reader of FTS5's records against FTS5's own view of them (`fts5vocab`'s instance table): per row and column,
 * the instances of a term, on generated indexes whose document lists and position lists span many pages.
 */

function index(documents: Array<[string, string]>, optimize = true): Database.Database {
  const db = new Database(':memory:')
  db.exec(`CREATE VIRTUAL TABLE t USING fts5(subject, body, tokenize='porter ascii');
    CREATE VIRTUAL TABLE temp.vi USING fts5vocab(main, t, instance);`)
  const insert = db.prepare('INSERT INTO t (rowid, subject, body) VALUES (?, ?, ?)')
  db.transaction(() => documents.forEach(([subject, body], i) => insert.run(i * 3 + 1, subject, body)))()
  if (optimize) db.exec("INSERT INTO t(t) VALUES ('optimize')")
  return db
}

/** Per rowid, the weighted instances (subject 1000, body 1) of `term`, by fts5vocab. */
function expected(db: Database.Database, term: string): Map<number, number> {
  const rows = db.prepare('SELECT doc, col, count(*) AS n FROM temp.vi WHERE term = ? GROUP BY doc, col').all(term) as Array<{
    doc: number
    col: string
    n: number
  }>
  const counts = new Map<number, number>()
  for (const row of rows) counts.set(row.doc, (counts.get(row.doc) ?? 0) + row.n * (row.col === 'subject' ? 1000 : 1))
  return counts
}

const WORDS = ['gas', 'contract', 'price', 'power', 'desk', 'a', 'zz', 'caf\u00e9']

const documents = fc.array(
  fc.tuple(
    fc.array(fc.constantFrom(...WORDS), { maxLength: 4 }).map((words) => words.join(' ')),
    // Mostly short bodies, some of thousands of words: position lists over several pages.
    fc
      .oneof(
        { weight: 20, arbitrary: fc.array(fc.constantFrom(...WORDS), { maxLength: 12 }) },
        { weight: 1, arbitrary: fc.array(fc.constantFrom(...WORDS), { minLength: 2_000, maxLength: 5_000 }) },
      )
      .map((words) => words.join(' ')),
  ),
  { minLength: 300, maxLength: 2_500, size: 'max' },
)

describe('FtsIndexReader', () => {
  it("counts each row's instances of a term per column as fts5vocab does (generated indexes, every term, rows sampled)", () => {
    let multiPage = 0
    fc.assert(
      fc.property(documents, fc.double({ min: 0.001, max: 1, noNaN: true }), (docs, share) => {
        const db = index(docs)
        try {
          const statements = prepareFtsIndexStatements(db, 't')
          if ((db.prepare('SELECT count(*) FROM t_data WHERE id > 10').pluck().get() as number) > 10) multiPage++
          const all = docs.map((_, i) => i * 3 + 1)
          // Rows asked: a sample (sparse samples make the reader seek across pages), and rowids absent from the index.
          const rowids = all.filter((_, i) => (i * 7919) % 1000 < share * 1000).flatMap((rowid) => [rowid, rowid + 1])
          for (const term of ['ga', 'contract', 'price', 'power', 'desk', 'a', 'zz', 'caf\u00e9', 'absent']) {
            const counts = expected(db, term)
            const out = new Float64Array(rowids.length)
            const reader = FtsIndexReader.open(statements)
            expect(reader).toBeDefined()
            const holding = reader?.addFrequencies(Buffer.from(term, 'utf8'), rowids, [1000, 1], out)
            expect(Array.from(out)).toEqual(rowids.map((rowid) => counts.get(rowid) ?? 0))
            expect(holding).toBe(rowids.filter((rowid) => counts.has(rowid)).length)
          }
        } finally {
          db.close()
        }
      }),
      { numRuns: 25, seed: 5 },
    )
    expect(multiPage).toBeGreaterThan(10)
  })

  it('reads the rows a multi-page document list holds, from a seek to its last page', () => {
    const docs: Array<[string, string]> = Array.from({ length: 20_000 }, (_, i) => [i % 2 === 0 ? 'gas' : 'power', `gas ${'price '.repeat(i % 5)}`])
    const db = index(docs)
    try {
      const counts = expected(db, 'ga')
      const rowids = [1, 30_001, 59_998]
      const out = new Float64Array(rowids.length)
      expect(FtsIndexReader.open(prepareFtsIndexStatements(db, 't'))?.addFrequencies(Buffer.from('ga'), rowids, [1000, 1], out)).toBe(3)
      expect(Array.from(out)).toEqual(rowids.map((rowid) => counts.get(rowid)))
      expect(db.prepare('SELECT count(*) FROM t_data WHERE id > 10').pluck().get()).toBeGreaterThan(20)
    } finally {
      db.close()
    }
  })

  it('reads only an index of one segment in the legacy format', () => {
    const db = index([['gas', 'contract']], false)
    try {
      db.prepare('INSERT INTO t (rowid, subject, body) VALUES (1000, ?, ?)').run('gas', 'price')
      expect(FtsIndexReader.open(prepareFtsIndexStatements(db, 't'))).toBeUndefined()
      db.exec("INSERT INTO t(t) VALUES ('optimize')")
      expect(FtsIndexReader.open(prepareFtsIndexStatements(db, 't'))).toBeDefined()
    } finally {
      db.close()
    }
    // A V2 structure record (contentless_delete tables) and an empty one are not read.
    expect(singleSegment(Uint8Array.from([0, 0, 0, 4, 0xff, 0, 0, 1, 1, 1, 0]))).toBeUndefined()
    expect(singleSegment(Uint8Array.from([0, 0, 0, 4]))).toBeUndefined()
  })

  it('reads SQLite varints of one to nine bytes', () => {
    expect(readVarints(Uint8Array.from([0x05, 0x81, 0x00, 0xff, 0x7f]))).toEqual([5, 128, 16_383])
    expect(readVarints(Uint8Array.from([0x81, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01]))).toEqual([2 ** 57 + 1])
  })
})
