/**
 * Anchor of `npm run perf -- store`: the raw better-sqlite3 insert of parsed rows into the email store's schema, as a
 * program that knows its input would write it: one transaction, the rows as given (no normalization, no duplicate
 * report), then one statement each for the FTS5 index and the address index; the pragmas of our bulk import.
 *
 * Usage: node scripts/perf/raw-insert.mjs ROWS.jsonl DB   (rows: message_id, subject, from, to, cc, bcc, date, body, file_name)
 */
import { closeSync, openSync, readSync } from 'node:fs'
import Database from 'better-sqlite3'
import { migrate } from '../../dist/arte/store/schema.js'

/** The non-empty lines of a UTF-8 file, read 16 MB at a time (a 500K-row file is more than one string holds). */
function* lines(file) {
  const fd = openSync(file, 'r')
  const chunk = Buffer.alloc(16 * 1024 * 1024)
  let rest = Buffer.alloc(0)
  try {
    for (let read = readSync(fd, chunk); read > 0; read = readSync(fd, chunk)) {
      const buffer = Buffer.concat([rest, chunk.subarray(0, read)])
      let start = 0
      for (let end = buffer.indexOf(10, start); end !== -1; end = buffer.indexOf(10, start)) {
        if (end > start) yield buffer.toString('utf8', start, end)
        start = end + 1
      }
      rest = Buffer.from(buffer.subarray(start))
    }
    if (rest.length > 0) yield rest.toString('utf8')
  } finally {
    closeSync(fd)
  }
}

const [rowsFile, dbFile] = process.argv.slice(2)
const db = new Database(dbFile)
db.pragma('journal_mode = WAL')
migrate(db, dbFile)
db.pragma('synchronous = OFF')
db.pragma('cache_size = -262144')
const insert =
  db.prepare(`INSERT OR IGNORE INTO emails (message_id, inbox, subject, sender, recipients, to_addresses, cc_addresses, bcc_addresses, date, body, file_name)
  VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`)
db.transaction(() => {
  db.exec('INSERT INTO bulk_import (active) VALUES (1)')
  for (const line of lines(rowsFile)) {
    const row = JSON.parse(line)
    const recipients = JSON.stringify([...new Set([...row.to, ...row.cc, ...row.bcc])])
    const inbox = row.inbox ?? `${(row.file_name ?? 'unknown').split('/')[0]}@perf.example`
    insert.run(
      row.message_id,
      inbox,
      row.subject,
      row.from,
      recipients,
      JSON.stringify(row.to),
      JSON.stringify(row.cc),
      JSON.stringify(row.bcc),
      row.date,
      row.body,
      row.file_name,
    )
  }
  db.exec(`INSERT INTO emails_fts (emails_fts) VALUES ('rebuild');
    INSERT OR IGNORE INTO email_addresses (address, email_rowid) SELECT j.value, e.rowid FROM emails e, json_each(e.recipients) j;
    DELETE FROM bulk_import;`)
})()
db.close()
