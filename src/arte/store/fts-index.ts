import type Database from 'better-sqlite3'

/**
 * Reads an FTS5 index's own records (its `%_data` and `%_idx` shadow tables), in the format `fts5_index.c` documents
 * at its top: what FTS5 gives only to auxiliary functions in C (a row's instances of a term, per column), read for the
 * rows a search needs and no others. better-sqlite3 cannot register an FTS5 auxiliary function, and FTS5's `bm25()`
 * counts each phrase's documents by walking its whole document list on every query; this reader lets the store compute
 * the same bm25 from the index's numbers (see `fts-bm25.ts`).
 *
 * Only the layout of an optimized index is read: the legacy structure record, one segment (after FTS5's `optimize`),
 * `detail=full` position lists. Anything else is reported as unreadable (`undefined`), and the caller uses SQLite's own
 * functions.
 */

/** An SQLite varint (big-endian, 7 bits a byte, the 9th byte 8 bits) at `buffer[at]`: its value and its length. */
function readVarint(buffer: Uint8Array, at: number): [value: number, length: number] {
  let value = 0
  for (let i = 0; i < 8; i++) {
    const byte = buffer[at + i] as number
    value = value * 128 + (byte & 0x7f)
    if ((byte & 0x80) === 0) return [value, i + 1]
  }
  return [value * 256 + (buffer[at + 8] as number), 9]
}

/** The varints of a record (the averages record, a docsize blob). */
export function readVarints(buffer: Uint8Array): number[] {
  const values: number[] = []
  let at = 0
  while (at < buffer.length) {
    const [value, length] = readVarint(buffer, at)
    values.push(value)
    at += length
  }
  return values
}

/** FTS5's rowid of leaf page `pgno` of segment `segid` in `%_data` (`FTS5_SEGMENT_ROWID`). */
const leafId = (segid: number, pgno: number): bigint => (BigInt(segid) << 37n) + BigInt(pgno)

/** The segment of an index in one segment, from its structure record; `undefined` for any other structure. */
export interface FtsSegment {
  segid: number
  firstPage: number
  lastPage: number
}

/** The one segment of a structure record in the legacy format, or `undefined` (V2, several segments, a merge under way). */
export function singleSegment(structure: Uint8Array): FtsSegment | undefined {
  // A 4-byte configuration cookie, then (legacy format) levels, segments, write counter.
  if (structure.length < 5 || structure[4] === 0xff) return undefined
  let at = 4
  const next = (): number => {
    const [value, length] = readVarint(structure, at)
    at += length
    return value
  }
  const levels = next()
  const segments = next()
  next()
  if (segments !== 1) return undefined
  let found: FtsSegment | undefined
  for (let level = 0; level < levels; level++) {
    const merging = next()
    const count = next()
    if (merging !== 0) return undefined
    for (let i = 0; i < count; i++) found = { segid: next(), firstPage: next(), lastPage: next() }
  }
  return found
}

/** A leaf page: its bytes, the end of its data (`szLeaf`), the offset of its first rowid (0: none before a term), its term offsets. */
interface Leaf {
  data: Uint8Array
  szLeaf: number
  firstRowid: number
  terms: number[]
}

/**
 * Per-row instance counts of terms in an FTS5 index of one segment. Create one per search (it keeps the leaf pages it
 * read); {@link FtsIndexReader.open} gives `undefined` when the index is not in the layout it reads.
 */
export class FtsIndexReader {
  readonly #leaf: Database.Statement
  readonly #seek: Database.Statement
  readonly #after: Database.Statement
  readonly #segment: FtsSegment
  readonly #pages = new Map<number, Leaf>()

  private constructor(statements: FtsIndexStatements, segment: FtsSegment) {
    this.#leaf = statements.leaf
    this.#seek = statements.seek
    this.#after = statements.after
    this.#segment = segment
  }

  /** A reader of the index, or `undefined` when it is not in one segment of the legacy format. */
  static open(statements: FtsIndexStatements): FtsIndexReader | undefined {
    const structure = statements.structure.get() as Uint8Array | undefined
    const segment = structure === undefined ? undefined : singleSegment(structure)
    return segment === undefined ? undefined : new FtsIndexReader(statements, segment)
  }

  #page(pgno: number): Leaf | undefined {
    let leaf = this.#pages.get(pgno)
    if (leaf !== undefined) return leaf
    const data = this.#leaf.get(leafId(this.#segment.segid, pgno)) as Uint8Array | undefined
    if (data === undefined || data.length < 4) return undefined
    const szLeaf = ((data[2] as number) << 8) | (data[3] as number)
    const terms: number[] = []
    let at = szLeaf
    let offset = 0
    while (at < data.length) {
      const [delta, length] = readVarint(data, at)
      offset += delta
      terms.push(offset)
      at += length
    }
    leaf = { data, szLeaf, firstRowid: ((data[0] as number) << 8) | (data[1] as number), terms }
    this.#pages.set(pgno, leaf)
    return leaf
  }

  /**
   * Adds, for each row of `rowids` (ascending), the instances of `term` (its UTF-8 bytes) in column c times
   * `weights[c]` to `out[i]` (the row's index in `rowids`), in the order FTS5's `bm25()` adds them (by column, then
   * offset: sums of small integers, exact in any order). Returns the number of those rows that hold the term, or
   * `undefined` when the index holds something this reader does not read (the caller then uses SQLite).
   */
  addFrequencies(term: Uint8Array, rowids: ArrayLike<number>, weights: ReadonlyArray<number>, out: Float64Array): number | undefined {
    if (rowids.length === 0) return 0
    const key = Buffer.alloc(term.length + 1)
    key[0] = 0x30 // FTS5_MAIN_PREFIX '0'
    key.set(term, 1)
    const start = this.#seek.get(this.#segment.segid, key) as number | undefined
    if (start === undefined) return 0
    const firstPage = Math.trunc(start / 2)
    const nextTerm = this.#after.get(this.#segment.segid, key) as number | undefined
    const lastPage = nextTerm === undefined ? this.#segment.lastPage : Math.trunc(nextTerm / 2)
    const leaf = this.#page(firstPage)
    if (leaf === undefined) return undefined
    // The term on its page: terms are prefix-compressed from the page's first one.
    let found = -1
    let previous = new Uint8Array(0)
    for (let t = 0; t < leaf.terms.length; t++) {
      let at = leaf.terms[t] as number
      let prefix = 0
      if (t > 0) {
        const [shared, length] = readVarint(leaf.data, at)
        prefix = shared
        at += length
      }
      const [size, length] = readVarint(leaf.data, at)
      at += length
      const current = new Uint8Array(prefix + size)
      current.set(previous.subarray(0, prefix))
      current.set(leaf.data.subarray(at, at + size), prefix)
      at += size
      const order = compareBytes(current, key)
      if (order === 0) {
        found = at
        break
      }
      if (order > 0) return 0
      previous = current
    }
    if (found < 0) return 0
    const doclist = new DoclistCursor(this, firstPage, lastPage, leaf, found)
    return doclist.addFrequencies(rowids, weights, out)
  }

  /** @internal For {@link DoclistCursor}. */
  page(pgno: number): Leaf | undefined {
    return this.#page(pgno)
  }
}

/** The statements of a reader over one FTS5 table, prepared once per store. */
export interface FtsIndexStatements {
  structure: Database.Statement
  leaf: Database.Statement
  seek: Database.Statement
  after: Database.Statement
}

/** Prepares the statements of {@link FtsIndexReader} for the FTS5 table `table` of `db`. */
export function prepareFtsIndexStatements(db: Database.Database, table: string): FtsIndexStatements {
  const name = (suffix: string): string => `"${`${table}_${suffix}`.replaceAll('"', '""')}"`
  return {
    structure: db.prepare(`SELECT block FROM ${name('data')} WHERE id = 10`).pluck(),
    leaf: db.prepare(`SELECT block FROM ${name('data')} WHERE id = ?`).pluck(),
    seek: db.prepare(`SELECT pgno FROM ${name('idx')} WHERE segid = ? AND term <= ? ORDER BY term DESC LIMIT 1`).pluck(),
    after: db.prepare(`SELECT pgno FROM ${name('idx')} WHERE segid = ? AND term > ? ORDER BY term ASC LIMIT 1`).pluck(),
  }
}

function compareBytes(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length)
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return (a[i] as number) - (b[i] as number)
  return a.length - b.length
}

/** A walk along one term's document list, page by page, seeking by rowid with the pages' first rowids. */
class DoclistCursor {
  readonly #reader: FtsIndexReader
  readonly #lastPage: number
  #pgno: number
  #leaf: Leaf
  #at: number
  /** The end of the document list's bytes on the current page. */
  #end: number
  rowid = 0
  /** Whether the next rowid on the current page is stored whole (the first of a page or of the list). */
  #absolute = true
  #broken = false

  constructor(reader: FtsIndexReader, firstPage: number, lastPage: number, leaf: Leaf, at: number) {
    this.#reader = reader
    this.#lastPage = lastPage
    this.#pgno = firstPage
    this.#leaf = leaf
    this.#at = at
    this.#end = endOfList(leaf, at)
  }

  /** Loads the next page of the list; false at its end. */
  #nextPage(): boolean {
    if (this.#end < this.#leaf.szLeaf || this.#pgno >= this.#lastPage) return false
    const leaf = this.#reader.page(this.#pgno + 1)
    if (leaf === undefined) {
      this.#broken = true
      return false
    }
    this.#pgno++
    this.#leaf = leaf
    this.#at = 4
    this.#end = endOfList(leaf, 4)
    return true
  }

  /** The next varint of the list (across pages), or -1 at its end. */
  #varint(): number {
    while (this.#at >= this.#end) if (!this.#nextPage()) return -1
    const [value, length] = readVarint(this.#leaf.data, this.#at)
    this.#at += length
    return value
  }

  /** Moves to the next entry: sets {@link rowid} and returns its position list's size in bytes and delete flag, or -1 at the end. */
  #entry(): number {
    while (this.#at >= this.#end) if (!this.#nextPage()) return -1
    const absolute = this.#absolute || this.#at === this.#leaf.firstRowid
    const value = this.#varint()
    if (value < 0) return -1
    this.rowid = absolute ? value : this.rowid + value
    this.#absolute = false
    return this.#varint()
  }

  /** Skips `bytes` bytes of position list (across pages). */
  #skip(bytes: number): void {
    let left = bytes
    while (left > 0) {
      while (this.#at >= this.#end) if (!this.#nextPage()) return
      const step = Math.min(left, this.#end - this.#at)
      this.#at += step
      left -= step
    }
  }

  /**
   * Positions the walk at the last page of the list whose first rowid is at most `rowid` (binary search over the pages
   * after the current one), when that is past the current page.
   */
  #seek(rowid: number): boolean {
    let lo = this.#pgno + 1
    let hi = this.#lastPage
    let best = -1
    let bestRowid = 0
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1
      // The first page at or after mid with a rowid stored whole.
      let probe = mid
      let leaf = this.#reader.page(probe)
      while (leaf !== undefined && leaf.firstRowid === 0 && probe < hi) leaf = this.#reader.page(++probe)
      if (leaf === undefined || leaf.firstRowid === 0) {
        hi = mid - 1
        continue
      }
      const [first] = readVarint(leaf.data, leaf.firstRowid)
      if (first <= rowid) {
        best = probe
        bestRowid = first
        lo = probe + 1
      } else {
        hi = mid - 1
      }
    }
    if (best < 0 || bestRowid <= this.rowid) return false
    const leaf = this.#reader.page(best) as Leaf
    this.#pgno = best
    this.#leaf = leaf
    this.#at = leaf.firstRowid
    this.#end = endOfList(leaf, 4)
    this.#absolute = true
    return true
  }

  addFrequencies(rowids: ArrayLike<number>, weights: ReadonlyArray<number>, out: Float64Array): number | undefined {
    let holding = 0
    let size = this.#entry()
    for (let i = 0; i < rowids.length && size >= 0; i++) {
      const target = rowids[i] as number
      if (target > this.rowid) {
        // Far ahead (past this page's rows): seek among the next pages, then walk.
        if (this.#at < this.#end && this.#end === this.#leaf.szLeaf && this.#pgno < this.#lastPage) {
          const next = this.#reader.page(this.#pgno + 1)
          if (next !== undefined && next.firstRowid !== 0 && readVarint(next.data, next.firstRowid)[0] <= target && this.#seek(target)) {
            size = this.#entry()
          }
        }
        while (size >= 0 && this.rowid < target) {
          this.#skip(size >> 1)
          size = this.#entry()
        }
      }
      if (size < 0 || this.rowid !== target) continue
      // An entry without positions marks the row deleted (kept over older segments). In an index of one segment, the
      // delete flag of an entry with positions only says that the row was replaced in the same flush: they are its own.
      if (size >> 1 === 0) {
        size = this.#entry()
        continue
      }
      // The position list: offsets + 2 per column, 0x01 and a column number between columns.
      const stop = this.#positionsEnd(size >> 1)
      let column = 0
      let count = 0
      let sum = out[i] as number
      while (!this.#done(stop)) {
        const value = this.#varint()
        if (value === 1) {
          if (count > 0) sum += count * (weights[column] ?? 1)
          count = 0
          column = this.#varint()
        } else {
          count++
        }
      }
      if (count > 0) sum += count * (weights[column] ?? 1)
      out[i] = sum
      holding++
      size = this.#entry()
    }
    return this.#broken ? undefined : holding
  }

  /** Where a position list of `bytes` bytes from here ends: [page, offset]. */
  #positionsEnd(bytes: number): [number, number] {
    let pgno = this.#pgno
    let at = this.#at
    let end = this.#end
    let left = bytes
    let leaf = this.#leaf
    while (at + left > end) {
      left -= end - at
      const next = this.#reader.page(pgno + 1)
      if (next === undefined) {
        this.#broken = true
        return [pgno, end]
      }
      pgno++
      leaf = next
      at = 4
      end = endOfList(leaf, 4)
    }
    return [pgno, at + left]
  }

  #done([pgno, at]: [number, number]): boolean {
    return this.#broken || this.#pgno > pgno || (this.#pgno === pgno && this.#at >= at)
  }
}

/** The end of a document list that runs from `at` on `leaf`: the next term's offset, or the end of the page's data. */
function endOfList(leaf: Leaf, at: number): number {
  for (const offset of leaf.terms) if (offset >= at) return offset
  return leaf.szLeaf
}
