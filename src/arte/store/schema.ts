import type Database from 'better-sqlite3'
import { BenchError } from '../../core/errors.ts'

/** One schema step: `up` runs inside the transaction that also sets `PRAGMA user_version = version`. */
export interface Migration {
  readonly version: number
  readonly description: string
  readonly up: (db: Database.Database) => void
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
]

/** The schema version this code writes and reads. */
export const SCHEMA_VERSION: number = MIGRATIONS.at(-1)?.version ?? 0

/** The database was written by a newer (or unknown) version of the schema. */
export class SchemaVersionError extends BenchError {
  constructor(message: string, options: { hint: string; cause?: unknown }) {
    super('ERR_SCHEMA_VERSION', message, options)
  }
}

/**
 * Brings `db` to {@link SCHEMA_VERSION}: applies every migration newer than its `PRAGMA user_version`,
 * all in one transaction (a failing step rolls everything back and is rethrown, never swallowed).
 * @returns the version before migrating
 */
export function migrate(db: Database.Database, file: string, migrations: ReadonlyArray<Migration> = MIGRATIONS): number {
  const current = db.pragma('user_version', { simple: true }) as number
  const latest = migrations.at(-1)?.version ?? 0
  if (current > latest) {
    throw new SchemaVersionError(`Email database ${file} has schema version ${current}; this version of agent-bench knows up to ${latest}.`, {
      hint: 'Upgrade agent-bench, or re-import the mail into a new database file with `agent-bench import-enron`.',
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
