import type Database from 'better-sqlite3'
import { BenchError, ConfigError } from '../../core/errors.ts'

/** One schema step: `up` runs inside the transaction that also sets `PRAGMA user_version = version`. */
export interface Migration {
  readonly version: number
  readonly description: string
  readonly up: (db: Database.Database) => void
}

/**
 * Characters of a subject and of a body that the FTS5 index holds (the `emails_fts_content` view of schema
 * version 2): a word past them is not found. Bounds the work one huge email adds to every search
 * (a 50 MB body made each matching keyword cost about 0.2 s). Real Enron bodies stay far below it. Version 2
 * writes this number into the view and the triggers: changing it needs a new migration.
 */
export const FTS_INDEXED_CHARS = 1_000_000

/** The delete and update triggers of schema version 3: like version 2's, standing aside during a bulk import. */
const SCHEMA_V3_TRIGGERS = `
  DROP TRIGGER emails_ad;
  DROP TRIGGER emails_au;
  CREATE TRIGGER emails_ad AFTER DELETE ON emails WHEN NOT EXISTS (SELECT 1 FROM bulk_import) BEGIN
    INSERT INTO emails_fts(emails_fts, rowid, subject, body)
      VALUES ('delete', old.rowid, substr(old.subject, 1, ${FTS_INDEXED_CHARS}), substr(old.body, 1, ${FTS_INDEXED_CHARS}));
    DELETE FROM email_addresses WHERE email_rowid = old.rowid;
  END;
  CREATE TRIGGER emails_au AFTER UPDATE ON emails WHEN NOT EXISTS (SELECT 1 FROM bulk_import) BEGIN
    INSERT INTO emails_fts(emails_fts, rowid, subject, body)
      VALUES ('delete', old.rowid, substr(old.subject, 1, ${FTS_INDEXED_CHARS}), substr(old.body, 1, ${FTS_INDEXED_CHARS}));
    INSERT INTO emails_fts(rowid, subject, body)
      VALUES (new.rowid, substr(new.subject, 1, ${FTS_INDEXED_CHARS}), substr(new.body, 1, ${FTS_INDEXED_CHARS}));
    DELETE FROM email_addresses WHERE email_rowid = old.rowid;
    INSERT OR IGNORE INTO email_addresses(address, email_rowid)
      SELECT value, new.rowid FROM json_each(new.recipients);
  END;`

/** The columns of `emails` a row is made of (its rowid aside). */
const EMAIL_TABLE_COLUMNS = 'message_id, inbox, subject, sender, recipients, to_addresses, cc_addresses, bcc_addresses, date, body, file_name, created_at'

/**
 * The SQL that rewrites the rows with `rowid > since` mailbox by mailbox, keeping their order inside a mailbox, at
 * rowids from `since + 1`. Run with the `bulk_import` marker set and before the FTS5 and address rows of those rows are
 * written (they are written from the new rowids after).
 */
export function layoutByInboxSql(since: number): string {
  const after = Math.max(0, Math.trunc(since))
  return `
  CREATE TEMP TABLE emails_by_inbox AS
    SELECT ${EMAIL_TABLE_COLUMNS} FROM emails WHERE rowid > ${after} ORDER BY inbox, rowid;
  DELETE FROM emails WHERE rowid > ${after};
  INSERT INTO emails (${EMAIL_TABLE_COLUMNS}) SELECT ${EMAIL_TABLE_COLUMNS} FROM temp.emails_by_inbox ORDER BY rowid;
  DROP TABLE temp.emails_by_inbox;`
}

/** The email store's schema versions, oldest first. Append; never edit a released step. */
export const MIGRATIONS: ReadonlyArray<Migration> = [
  {
    version: 1,
    description: 'emails, FTS5 index and its triggers, address index, ART-E tasks',
    up(db) {
      db.exec(`
        CREATE TABLE emails (
          message_id TEXT PRIMARY KEY,
          inbox TEXT NOT NULL,
          subject TEXT NOT NULL DEFAULT '',
          sender TEXT NOT NULL DEFAULT '',
          recipients TEXT NOT NULL DEFAULT '[]',     -- JSON array: to + cc + bcc, deduplicated
          to_addresses TEXT NOT NULL DEFAULT '[]',   -- JSON array
          cc_addresses TEXT NOT NULL DEFAULT '[]',   -- JSON array
          bcc_addresses TEXT NOT NULL DEFAULT '[]',  -- JSON array
          date TEXT,                                 -- ISO 8601 UTC (toISOString); NULL when the source had no parseable date
          body TEXT NOT NULL DEFAULT '',
          file_name TEXT,
          created_at TEXT DEFAULT CURRENT_TIMESTAMP
        );
        CREATE INDEX idx_emails_inbox ON emails(inbox);
        CREATE INDEX idx_emails_date ON emails(date);
        CREATE INDEX idx_emails_sender ON emails(sender);
        CREATE INDEX idx_emails_inbox_date ON emails(inbox, date);

        -- One row per (recipient address, email): makes "sent to this address" an index lookup.
        CREATE TABLE email_addresses (
          address TEXT NOT NULL,
          email_rowid INTEGER NOT NULL,
          PRIMARY KEY (address, email_rowid)
        ) WITHOUT ROWID;
        CREATE INDEX idx_email_addresses_rowid ON email_addresses(email_rowid);

        CREATE VIRTUAL TABLE emails_fts USING fts5(
          subject, body, content=emails, content_rowid=rowid, tokenize='porter ascii'
        );

        CREATE TRIGGER emails_ai AFTER INSERT ON emails BEGIN
          INSERT INTO emails_fts(rowid, subject, body) VALUES (new.rowid, new.subject, new.body);
          INSERT OR IGNORE INTO email_addresses(address, email_rowid)
            SELECT value, new.rowid FROM json_each(new.recipients);
        END;
        CREATE TRIGGER emails_ad AFTER DELETE ON emails BEGIN
          INSERT INTO emails_fts(emails_fts, rowid, subject, body) VALUES ('delete', old.rowid, old.subject, old.body);
          DELETE FROM email_addresses WHERE email_rowid = old.rowid;
        END;
        CREATE TRIGGER emails_au AFTER UPDATE ON emails BEGIN
          INSERT INTO emails_fts(emails_fts, rowid, subject, body) VALUES ('delete', old.rowid, old.subject, old.body);
          INSERT INTO emails_fts(rowid, subject, body) VALUES (new.rowid, new.subject, new.body);
          DELETE FROM email_addresses WHERE email_rowid = old.rowid;
          INSERT OR IGNORE INTO email_addresses(address, email_rowid)
            SELECT value, new.rowid FROM json_each(new.recipients);
        END;

        CREATE TABLE art_e_tasks (
          id TEXT PRIMARY KEY,
          question TEXT NOT NULL,
          answer TEXT NOT NULL,
          message_ids TEXT NOT NULL,  -- JSON array
          inbox_address TEXT NOT NULL,
          query_date TEXT NOT NULL,
          how_realistic REAL NOT NULL,
          split TEXT NOT NULL
        );
      `)
    },
  },
  {
    version: 2,
    description: 'FTS5 over a view bounding the indexed text; triggers skipped during a bulk import (bulk_import marker); no inbox-only index',
    up(db) {
      db.exec(`
        -- idx_emails_inbox_date serves every lookup by inbox; one index less to maintain on import.
        DROP INDEX idx_emails_inbox;
        DROP TRIGGER emails_ai;
        DROP TRIGGER emails_ad;
        DROP TRIGGER emails_au;
        DROP TABLE emails_fts;

        -- What the FTS5 index holds: the first ${FTS_INDEXED_CHARS} characters of the subject and the body.
        CREATE VIEW emails_fts_content AS
          SELECT rowid AS email_rowid, substr(subject, 1, ${FTS_INDEXED_CHARS}) AS subject, substr(body, 1, ${FTS_INDEXED_CHARS}) AS body
          FROM emails;
        CREATE VIRTUAL TABLE emails_fts USING fts5(
          subject, body, content=emails_fts_content, content_rowid=email_rowid, tokenize='porter ascii'
        );

        -- A row here, only inside an import transaction, means that transaction writes the FTS5 and address rows itself.
        CREATE TABLE bulk_import (active INTEGER NOT NULL);

        CREATE TRIGGER emails_ai AFTER INSERT ON emails WHEN NOT EXISTS (SELECT 1 FROM bulk_import) BEGIN
          INSERT INTO emails_fts(rowid, subject, body)
            VALUES (new.rowid, substr(new.subject, 1, ${FTS_INDEXED_CHARS}), substr(new.body, 1, ${FTS_INDEXED_CHARS}));
          INSERT OR IGNORE INTO email_addresses(address, email_rowid)
            SELECT value, new.rowid FROM json_each(new.recipients);
        END;
        CREATE TRIGGER emails_ad AFTER DELETE ON emails BEGIN
          INSERT INTO emails_fts(emails_fts, rowid, subject, body)
            VALUES ('delete', old.rowid, substr(old.subject, 1, ${FTS_INDEXED_CHARS}), substr(old.body, 1, ${FTS_INDEXED_CHARS}));
          DELETE FROM email_addresses WHERE email_rowid = old.rowid;
        END;
        CREATE TRIGGER emails_au AFTER UPDATE ON emails BEGIN
          INSERT INTO emails_fts(emails_fts, rowid, subject, body)
            VALUES ('delete', old.rowid, substr(old.subject, 1, ${FTS_INDEXED_CHARS}), substr(old.body, 1, ${FTS_INDEXED_CHARS}));
          INSERT INTO emails_fts(rowid, subject, body)
            VALUES (new.rowid, substr(new.subject, 1, ${FTS_INDEXED_CHARS}), substr(new.body, 1, ${FTS_INDEXED_CHARS}));
          DELETE FROM email_addresses WHERE email_rowid = old.rowid;
          INSERT OR IGNORE INTO email_addresses(address, email_rowid)
            SELECT value, new.rowid FROM json_each(new.recipients);
        END;

        INSERT INTO emails_fts(emails_fts) VALUES ('rebuild');
      `)
    },
  },
  {
    version: 3,
    description:
      'rows laid out mailbox by mailbox (a scoped search reads a rowid range of the FTS5 index); the delete and update triggers also stand aside during a bulk import; inbox index for the range',
    up(db) {
      db.exec(`
        ${SCHEMA_V3_TRIGGERS}
        CREATE INDEX idx_emails_inbox ON emails(inbox);
        INSERT INTO bulk_import (active) VALUES (1);
        ${layoutByInboxSql(0)}
        DELETE FROM email_addresses;
        INSERT OR IGNORE INTO email_addresses (address, email_rowid) SELECT j.value, e.rowid FROM emails e, json_each(e.recipients) j;
        -- A 64 MB in-memory budget while rebuilding: the index is written in a few segments (1 MB, FTS5's default, after).
        INSERT INTO emails_fts(emails_fts, rank) VALUES ('hashsize', 67108864);
        INSERT INTO emails_fts(emails_fts) VALUES ('rebuild');
        INSERT INTO emails_fts(emails_fts, rank) VALUES ('hashsize', 1048576);
        DELETE FROM bulk_import;
      `)
    },
  },
  {
    version: 4,
    description:
      "document counts of the index's common terms (fts_term_docs, filled at the end of a large import), so that a search ranks by bm25 without FTS5 counting them on every query; any write outside an import makes them stale",
    up(db) {
      db.exec(`
        -- The number of rows holding each term in at least fts_term_docs_state.min_docs rows (the term as FTS5 stores it).
        CREATE TABLE fts_term_docs (term BLOB PRIMARY KEY, docs INTEGER NOT NULL) WITHOUT ROWID;
        -- One row while fts_term_docs is current: the index's rows and tokens it was counted at, and its threshold.
        CREATE TABLE fts_term_docs_state (rows INTEGER NOT NULL, tokens INTEGER NOT NULL, min_docs INTEGER NOT NULL);
        CREATE TRIGGER fts_term_docs_ai AFTER INSERT ON emails WHEN NOT EXISTS (SELECT 1 FROM bulk_import) BEGIN
          DELETE FROM fts_term_docs_state;
        END;
        CREATE TRIGGER fts_term_docs_ad AFTER DELETE ON emails WHEN NOT EXISTS (SELECT 1 FROM bulk_import) BEGIN
          DELETE FROM fts_term_docs_state;
        END;
        CREATE TRIGGER fts_term_docs_au AFTER UPDATE ON emails WHEN NOT EXISTS (SELECT 1 FROM bulk_import) BEGIN
          DELETE FROM fts_term_docs_state;
        END;
      `)
    },
  },
]

/**
 * The oldest schema version a read-only open reads as it is: version 4 only adds the counts of the index's common
 * terms, and a search of a store without them ranks with SQLite's `bm25()` (the same results). An open for writing
 * migrates the store instead.
 */
export const OLDEST_READ_ONLY_VERSION = 3

/** The schema version from which a store keeps the counts of its common terms (`fts_term_docs`). */
export const TERM_DOCS_SCHEMA_VERSION = 4

/** The schema version this code writes and reads. */
export const SCHEMA_VERSION: number = MIGRATIONS.at(-1)?.version ?? 0

/** The database is not at the schema version this code reads: written by a newer version, or (opened read-only) empty or older. */
export class SchemaVersionError extends BenchError {
  constructor(message: string, options: { hint: string; cause?: unknown }) {
    super('ERR_SCHEMA_VERSION', message, options)
  }
}

/** The error for a database that holds something else than an email store, or `undefined`. */
function foreignDatabase(db: Database.Database, file: string, version: number): ConfigError | undefined {
  const tables = db
    .prepare("SELECT name FROM sqlite_master WHERE type IN ('table', 'view') AND name NOT LIKE 'sqlite%' ORDER BY name")
    .pluck()
    .all() as string[]
  if (tables.length === 0 || (version > 0 && tables.includes('emails'))) return undefined
  const shown = tables.slice(0, 5).join(', ') + (tables.length > 5 ? ', ...' : '')
  return new ConfigError(
    `${file} is not an email database: it has ${version === 0 ? 'no schema version' : `schema version ${version}`} and holds other tables (${shown}).`,
    {
      hint: 'Pass the .db file written by `agent-bench import-enron`, or a new file name for the import to create.',
    },
  )
}

const NEWER_HINT = 'Upgrade agent-bench, or re-import the mail into a new database file with `agent-bench import-enron`.'

/**
 * Checks that `db`, opened read-only, is an email store this code reads (versions {@link OLDEST_READ_ONLY_VERSION}
 * to {@link SCHEMA_VERSION}) and returns its version; throws a {@link ConfigError} (not an email database) or a
 * {@link SchemaVersionError} (empty, older or newer) saying how to get one.
 */
export function checkSchemaVersion(db: Database.Database, file: string): number {
  const version = db.pragma('user_version', { simple: true }) as number
  const foreign = foreignDatabase(db, file, version)
  if (foreign !== undefined) throw foreign
  if (version >= OLDEST_READ_ONLY_VERSION && version <= SCHEMA_VERSION) return version
  if (version === 0) {
    throw new SchemaVersionError(`Email database ${file} is empty.`, {
      hint: 'Build it with `agent-bench import-enron --db FILE --maildir DIR` (or --csv-path / --jsonl).',
    })
  }
  if (version > SCHEMA_VERSION) {
    throw new SchemaVersionError(
      `Email database ${file} has schema version ${version}, written by a newer agent-bench; this version knows up to ${SCHEMA_VERSION}.`,
      {
        hint: NEWER_HINT,
      },
    )
  }
  throw new SchemaVersionError(
    `Email database ${file} has schema version ${version}, older than the version ${OLDEST_READ_ONLY_VERSION} this agent-bench reads.`,
    {
      hint: 'Migrate it once by re-running `agent-bench import-enron --db FILE` with the mail it was built from (the import migrates the file and skips the mail already stored), or build a new file.',
    },
  )
}

/**
 * Brings `db` to {@link SCHEMA_VERSION}: applies every migration newer than its `PRAGMA user_version`,
 * all in one transaction (a failing step rolls everything back and is rethrown, never swallowed).
 * Refuses a database that holds something else (a {@link ConfigError}) or was written by a newer schema.
 * @returns the version before migrating
 */
export function migrate(db: Database.Database, file: string, migrations: ReadonlyArray<Migration> = MIGRATIONS): number {
  const current = db.pragma('user_version', { simple: true }) as number
  const latest = migrations.at(-1)?.version ?? 0
  const foreign = foreignDatabase(db, file, current)
  if (foreign !== undefined) throw foreign
  if (current > latest) {
    throw new SchemaVersionError(`Email database ${file} has schema version ${current}; this version of agent-bench knows up to ${latest}.`, {
      hint: NEWER_HINT,
    })
  }
  const pending = migrations.filter((step) => step.version > current)
  if (pending.length === 0) return current
  db.transaction(() => {
    for (const step of pending) {
      step.up(db)
      db.pragma(`user_version = ${step.version}`)
    }
  }).immediate()
  return current
}
