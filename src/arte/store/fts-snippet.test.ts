import Database from 'better-sqlite3'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { seededRandom } from '../../stats/random.ts'
import { describeWithSharedData, sharedDataPath } from '../../testing/shared-data.ts'
import { importMaildir } from '../import/import-maildir.ts'
import { EmailStore, SNIPPET_SCAN_CHARS } from './email-store.ts'
import { buildFtsQuery } from './fts-query.ts'
import { compileSnippetQuery, ftsMatches, ftsSnippet, mayMatch, porterTerm } from './fts-snippet.ts'
import { EMAIL_FTS_TOKENIZER, SNIPPET_SQL, SnippetScratch } from './snippet-scratch.ts'

/** SQLite's own terms for `tokens`: each token a row of a porter-ascii FTS5 table, read back through fts5vocab. */
function sqliteTerms(tokens: ReadonlyArray<string>): string[] {
  const db = new Database(':memory:')
  try {
    db.exec(`CREATE VIRTUAL TABLE t USING fts5(x, tokenize='${EMAIL_FTS_TOKENIZER}'); CREATE VIRTUAL TABLE v USING fts5vocab(t, 'instance');`)
    const insert = db.prepare('INSERT INTO t (rowid, x) VALUES (?, ?)')
    db.transaction(() => tokens.forEach((token, i) => insert.run(i + 1, token)))()
    const terms = new Array<string>(tokens.length).fill('')
    for (const row of db.prepare('SELECT doc, term FROM v').raw().iterate() as Iterable<[number, string]>) {
      // porterTerm gives a term as the string of its UTF-8 bytes.
      terms[row[0] - 1] = Buffer.from(row[1], 'utf8').toString('latin1')
    }
    return terms
  } finally {
    db.close()
  }
}

/** Words that reach each branch of the porter steps, and edges of the tokenizer (length 3 and 64, non-ASCII). */
const TRICKY_WORDS = [
  'caresses',
  'ponies',
  'ties',
  'caress',
  'cats',
  'feed',
  'agreed',
  'plastered',
  'bled',
  'motoring',
  'sing',
  'conflated',
  'troubled',
  'sized',
  'hopping',
  'tanned',
  'falling',
  'hissing',
  'fizzed',
  'failing',
  'filing',
  'happy',
  'sky',
  'relational',
  'conditional',
  'rational',
  'valenci',
  'hesitanci',
  'digitizer',
  'conformabli',
  'radicalli',
  'differentli',
  'vileli',
  'analogousli',
  'vietnamization',
  'predication',
  'operator',
  'feudalism',
  'decisiveness',
  'hopefulness',
  'callousness',
  'formaliti',
  'sensitiviti',
  'sensibiliti',
  'triplicate',
  'formative',
  'formalize',
  'electriciti',
  'electrical',
  'hopeful',
  'goodness',
  'revival',
  'allowance',
  'inference',
  'airliner',
  'gyroscopic',
  'adjustable',
  'defensible',
  'irritant',
  'replacement',
  'adjustment',
  'dependent',
  'adoption',
  'homologou',
  'communism',
  'activate',
  'angulariti',
  'homologous',
  'effective',
  'bowdlerize',
  'probate',
  'rate',
  'cease',
  'controll',
  'roll',
  'aing',
  'eing',
  'ies',
  'sses',
  'ays',
  'gas',
  'bated',
  'eed',
  'ed',
  'ing',
  'yyy',
  'y',
  'ay',
  'abys',
  'xing',
  'ying',
  'enron',
  'Enron',
  'ENRON',
  'contracts',
  'Contract',
  'caf\u00e9s',
  'CAF\u00c9S',
  'na\u00efves',
  '\u201cgas',
  'contract\u201d',
  '\u65e5\u672c\u8a9e',
  'x'.repeat(64),
  `${'x'.repeat(63)}s`,
  `${'x'.repeat(64)}s`,
  `${'\u00e9'.repeat(31)}s`,
  `${'\u00e9'.repeat(32)}s`,
  'as',
  'is',
  'sss',
  'xes',
  'oed',
  'ued',
  'hoped',
  'hoping',
  'agreeing',
]

describe('porterTerm', () => {
  it("gives SQLite's porter-ascii term for words that reach every step of the stemmer", () => {
    expect(TRICKY_WORDS.map(porterTerm)).toEqual(sqliteTerms(TRICKY_WORDS))
  })

  it("gives SQLite's term for 20,000 random words", () => {
    const random = seededRandom(3)
    const letters = 'aeiouybcdlmnrstgzxwpvaeiolnst'
    const suffixes = ['', '', 's', 'es', 'ies', 'ed', 'ing', 'eed', 'ational', 'ness', 'ful', 'ment', 'ion', 'ly', 'er', 'ize', 'y', 'e', 'll']
    const words = Array.from({ length: 20_000 }, () => {
      let word = ''
      const length = 1 + Math.floor(random() * 9)
      for (let i = 0; i < length; i++) word += letters[Math.floor(random() * letters.length)]
      return word + (suffixes[Math.floor(random() * suffixes.length)] as string)
    })
    const ours = words.map(porterTerm)
    const theirs = sqliteTerms(words)
    const differing = words.filter((_, i) => ours[i] !== theirs[i])
    expect(differing).toEqual([])
  })

  it('lets the scan skip no token that has a query term (its first two characters, y for i), over 20,000 words', () => {
    const random = seededRandom(4)
    const letters = 'aeiouyybcdlmnrstgzxwpvAEIOUY'
    const suffixes = ['', 's', 'es', 'ies', 'ed', 'ing', 'eed', 'ational', 'ness', 'ful', 'ly', 'y', 'e', 'ys', 'ying']
    const words = [
      ...TRICKY_WORDS,
      ...Array.from({ length: 20_000 }, () => {
        let word = ''
        const length = 1 + Math.floor(random() * 5)
        for (let i = 0; i < length; i++) word += letters[Math.floor(random() * letters.length)]
        return word + (suffixes[Math.floor(random() * suffixes.length)] as string)
      }),
    ]
    const byTerm = new Map<string, string[]>()
    for (const word of words) byTerm.set(porterTerm(word), [...(byTerm.get(porterTerm(word)) ?? []), word])
    let checked = 0
    for (const sharing of byTerm.values()) {
      const query = compileSnippetQuery([sharing[0] as string])
      if (query === undefined) continue
      for (const word of sharing) {
        expect(mayMatch(word, 0, word.length, query.asciiStart, query.firstUnits), `${word} (term of ${sharing[0]})`).toBe(true)
        checked++
      }
    }
    expect(checked).toBeGreaterThan(15_000)
    const query = compileSnippetQuery(['contract'])
    expect(query !== undefined && mayMatch('the', 0, 3, query.asciiStart, query.firstUnits)).toBe(false)
  })
})

/** An FTS5 table shaped as the store's (subject, body; porter ascii) to compare against SQLite's `snippet()`. */
class SnippetOracle {
  readonly db = new Database(':memory:')
  readonly #snippets: Database.Statement

  constructor(documents: ReadonlyArray<{ subject: string; body: string }>) {
    this.db.exec(`CREATE TABLE docs (id INTEGER PRIMARY KEY, subject TEXT NOT NULL, body TEXT NOT NULL);
      CREATE VIRTUAL TABLE docs_fts USING fts5(subject, body, content=docs, content_rowid=id, tokenize='${EMAIL_FTS_TOKENIZER}');`)
    const insert = this.db.prepare('INSERT INTO docs (id, subject, body) VALUES (?, ?, ?)')
    this.db.transaction(() => documents.forEach((document, i) => insert.run(i + 1, document.subject, document.body)))()
    this.db.exec("INSERT INTO docs_fts (docs_fts) VALUES ('rebuild')")
    this.#snippets = this.db.prepare(`SELECT rowid AS id, ${SNIPPET_SQL.replace('emails_fts', 'docs_fts')} AS snippet FROM docs_fts WHERE docs_fts MATCH ?`)
  }

  /** SQLite's snippet of each matching document, by index in the documents. */
  snippets(keywords: ReadonlyArray<string>): Map<number, string> {
    const match = buildFtsQuery(keywords)
    if (match === undefined) return new Map()
    const rows = this.#snippets.all(match) as Array<{ id: number; snippet: string }>
    return new Map(rows.map((row) => [row.id - 1, row.snippet]))
  }
}

/** SQLite's snippet of one document. */
function sqliteSnippet(columns: [string, string], keywords: string[]): string | undefined {
  const oracle = new SnippetOracle([{ subject: columns[0], body: columns[1] }])
  try {
    return oracle.snippets(keywords).get(0)
  } finally {
    oracle.db.close()
  }
}

/** Generated text that exercises the snippet: sentence ends, odd whitespace, NUL, non-ASCII, repeats, long and short mail. */
function generatedDocuments(count: number, seed: number): { documents: Array<{ subject: string; body: string }>; words: string[] } {
  const random = seededRandom(seed)
  const words = [
    'gas',
    'contract',
    'contracts',
    'Contracting',
    'power',
    'deal',
    'deals',
    'Enron',
    'price',
    'pricing',
    'meeting',
    'meet',
    'caf\u00e9',
    'cafe',
    '\u201cgas',
    'contract\u201d',
    'the',
    'a',
    'of',
    'to',
    'and',
    'x1',
    '2001',
    'Vince\u2019s',
    'vince',
    'happy',
    'happiness',
    'relational',
    'relate',
    'agreed',
    'agree',
    '\u65e5\u672c',
    'ab',
    'hopping',
    'hop',
  ]
  const separators = [' ', ' ', ' ', ' ', '  ', ', ', '. ', '.\n', ':\t', '.\r\n', ' - ', '\u2014', '\u00a0', '\0', '. . ', '...', ': ', '\n\n']
  const pick = <T>(list: ReadonlyArray<T>): T => list[Math.floor(random() * list.length)] as T
  const text = (length: number): string => {
    let out = random() < 0.3 ? pick(separators) : ''
    for (let i = 0; i < length; i++) out += pick(words) + (i === length - 1 ? (random() < 0.5 ? '.' : '') : pick(separators))
    return out
  }
  const documents = Array.from({ length: count }, () => {
    const size = random() < 0.1 ? 200 + Math.floor(random() * 400) : Math.floor(random() * 60)
    return { subject: text(Math.floor(random() * 8)), body: text(size) }
  })
  return { documents, words }
}

describe('ftsSnippet', () => {
  const { documents, words } = generatedDocuments(600, 5)
  const oracle = new SnippetOracle(documents)
  afterAll(() => oracle.db.close())

  it("is byte for byte SQLite's snippet() for every matching document, and undefined for the others (300 generated queries)", () => {
    const random = seededRandom(9)
    const pick = (): string => words[Math.floor(random() * words.length)] as string
    let compared = 0
    for (let q = 0; q < 300; q++) {
      const keywords = Array.from({ length: 1 + Math.floor(random() * 3) }, () => (random() < 0.25 ? `${pick()} ${pick()}` : pick()))
      const query = compileSnippetQuery(keywords)
      if (query === undefined) continue
      const expected = oracle.snippets(keywords)
      documents.forEach((document, i) => {
        const columns = [document.subject, document.body]
        expect(ftsSnippet(columns, query), JSON.stringify({ keywords, i })).toBe(expected.get(i))
        expect(ftsMatches(columns, query)).toBe(expected.has(i))
      })
      compared += expected.size
    }
    expect(compared).toBeGreaterThan(4_000)
  })

  it('marks a phrase, coalesces overlapping matches, and cuts a fragment with ellipses', () => {
    const query = compileSnippetQuery(['gas contract', 'contracts'])
    if (query === undefined) throw new Error('no query')
    const body = `${'filler '.repeat(30)}The gas contract was signed. ${'more '.repeat(30)}`
    const snippet = ftsSnippet(['Re: deal', body], query)
    expect(snippet).toBe(sqliteSnippet(['Re: deal', body], ['gas contract', 'contracts']))
    expect(snippet).toMatch(/^ \.\.\. (filler )+The \[gas contract\] was signed\. (more )+\.\.\. $/)
  })
})

describeWithSharedData('ftsSnippet on the real Enron sample', () => {
  let store: EmailStore
  let rows: Array<{ id: number; inbox: string; subject: string; body: string; bytes: number }>
  beforeAll(async () => {
    store = EmailStore.open(':memory:')
    await importMaildir(store, sharedDataPath('enron_agent_course', 'mail'))
    rows = store.db
      .prepare('SELECT rowid AS id, inbox, subject, body, octet_length(subject) + octet_length(body) AS bytes FROM emails ORDER BY rowid')
      .all() as typeof rows
  }, 120_000)
  afterAll(() => store?.close())

  /** The realistic queries of `npm run perf -- store`: one or two words of a random real body, in its inbox. */
  const realQueries = (count: number, seed: number): Array<{ keywords: string[]; inbox: string }> => {
    const random = seededRandom(seed)
    return Array.from({ length: count }, () => {
      let row: (typeof rows)[number] | undefined
      let words: string[] = []
      while (words.length === 0) {
        row = rows[Math.floor(random() * rows.length)]
        words = row?.body.toLowerCase().match(/[a-z]{3,}/g) ?? []
      }
      const word = (): string => words[Math.floor(random() * words.length)] as string
      return { keywords: random() < 0.5 ? [word()] : [word(), word()], inbox: row?.inbox ?? '' }
    })
  }

  it("gives SQLite's term for every distinct token of the sample", () => {
    const tokens = [...new Set(rows.flatMap((row) => `${row.subject} ${row.body}`.match(/(?:[A-Za-z0-9]|[^\0-\x7f])+/g) ?? []))]
    expect(tokens.length).toBeGreaterThan(20_000)
    const theirs = sqliteTerms(tokens)
    expect(tokens.filter((token, i) => porterTerm(token) !== theirs[i])).toEqual([])
  })

  it("is SQLite's snippet() of every matching email up to 30 KB (300 realistic queries, the first 40 matches of each)", () => {
    const snippet = store.db.prepare(`SELECT ${SNIPPET_SQL} FROM emails_fts WHERE emails_fts MATCH @match AND rowid = @id`).pluck()
    const matching = store.db.prepare('SELECT rowid FROM emails_fts WHERE emails_fts MATCH ? ORDER BY rowid LIMIT 40').pluck()
    const byId = new Map(rows.map((row) => [row.id, row]))
    let compared = 0
    for (const { keywords } of realQueries(300, 13)) {
      const match = buildFtsQuery(keywords) as string
      const query = compileSnippetQuery(keywords)
      if (query === undefined) throw new Error(`no query for ${keywords.join(' ')}`)
      for (const id of matching.all(match) as number[]) {
        const row = byId.get(id)
        if (row === undefined || row.bytes > 30_000) continue
        expect(ftsSnippet([row.subject, row.body], query), JSON.stringify({ keywords, id })).toBe(snippet.get({ match, id: BigInt(id) }))
        compared++
      }
    }
    expect(compared).toBeGreaterThan(3_000)
  })

  it('gives the search results of SQLite snippet() and the scratch index of long emails (the 200 queries of npm run perf -- store)', () => {
    const snippet = store.db.prepare(`SELECT ${SNIPPET_SQL} FROM emails_fts WHERE emails_fts MATCH @match AND rowid = @id`).pluck()
    const idOf = store.db.prepare('SELECT rowid FROM emails WHERE message_id = ?').pluck()
    const scratch = new SnippetScratch()
    const byId = new Map(rows.map((row) => [row.id, row]))
    let long = 0
    let hits = 0
    try {
      for (const { keywords, inbox } of realQueries(200, 7)) {
        const match = buildFtsQuery(keywords) as string
        for (const hit of store.search({ keywords, maxResults: 10 }, { inbox, queryDate: '2002-12-31' })) {
          const id = idOf.get(hit.messageId) as number
          const row = byId.get(id) as (typeof rows)[number]
          let expected: string
          if (row.bytes > SNIPPET_SCAN_CHARS) {
            long++
            const document = { id, subject: [...row.subject].slice(0, SNIPPET_SCAN_CHARS).join(''), body: [...row.body].slice(0, SNIPPET_SCAN_CHARS).join('') }
            expected = scratch.snippets(match, [document]).get(id) ?? document.body.slice(0, 200)
          } else {
            expected = snippet.get({ match, id: BigInt(id) }) as string
          }
          expect(hit.snippet, JSON.stringify({ keywords, id })).toBe(expected.replace(/\s+/g, ' ').trim())
          hits++
        }
      }
    } finally {
      scratch.close()
    }
    expect(hits).toBeGreaterThan(1_000)
    expect(long).toBeGreaterThan(50)
  })
})
