import Database from 'better-sqlite3'

/** The FTS5 tokenizer of `emails_fts` (schema version 1); the scratch index must tokenize the same way. */
export const EMAIL_FTS_TOKENIZER = 'porter ascii'

/** The snippet expression of a search hit: matched terms in `[brackets]`, up to 24 tokens, ` ... ` between fragments. */
export const SNIPPET_SQL = "snippet(emails_fts, -1, '[', ']', ' ... ', 24)"

/** A subject and the bounded prefix of a body, to snippet. */
export interface ScratchDocument {
  id: number
  subject: string
  body: string
}

/**
 * A private in-memory FTS5 index, built per call, that gives SQLite's own snippets of documents: how the store
 * snippeted a long email (over a bounded prefix: FTS5 `snippet()` costs grow with the square of the matches in a
 * document, a 2 MB body took about 30 s) before `fts-snippet.ts` computed every snippet in JavaScript. Kept as the
 * reference the tests compare that port with: the same tokenizer, markers and token count as the store.
 * A separate connection, so it also works beside a read-only store.
 */
export class SnippetScratch {
  readonly #db: Database.Database
  readonly #insertContent: Database.Statement
  readonly #insertIndex: Database.Statement
  readonly #begin: Database.Statement
  readonly #rollback: Database.Statement
  readonly #snippets: Database.Statement

  constructor() {
    this.#db = new Database(':memory:')
    this.#db.exec(`
      CREATE TABLE docs (id INTEGER PRIMARY KEY, subject TEXT NOT NULL, body TEXT NOT NULL);
      CREATE VIRTUAL TABLE docs_fts USING fts5(subject, body, content=docs, content_rowid=id, tokenize='${EMAIL_FTS_TOKENIZER}');
    `)
    this.#insertContent = this.#db.prepare('INSERT INTO docs (id, subject, body) VALUES (@id, @subject, @body)')
    this.#insertIndex = this.#db.prepare('INSERT INTO docs_fts (rowid, subject, body) VALUES (@id, @subject, @body)')
    this.#begin = this.#db.prepare('BEGIN')
    this.#rollback = this.#db.prepare('ROLLBACK')
    this.#snippets = this.#db.prepare(`SELECT rowid AS id, ${SNIPPET_SQL.replace('emails_fts', 'docs_fts')} AS snippet
      FROM docs_fts WHERE docs_fts MATCH @match`)
  }

  /** The snippet of each document that matches `match` (an FTS5 expression), by id; documents that do not match are absent. */
  snippets(match: string, documents: ReadonlyArray<ScratchDocument>): Map<number, string> {
    // Rolled back, not committed: the documents are gone after the call without a delete, and FTS5 never writes
    // their index to the database's segments beyond what the query reads.
    this.#begin.run()
    try {
      for (const document of documents) {
        this.#insertContent.run(document)
        this.#insertIndex.run(document)
      }
      const rows = this.#snippets.all({ match }) as Array<{ id: number; snippet: string }>
      return new Map(rows.map((row) => [row.id, row.snippet]))
    } finally {
      this.#rollback.run()
    }
  }

  close(): void {
    if (this.#db.open) this.#db.close()
  }
}
