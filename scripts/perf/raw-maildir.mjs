/**
 * Anchor of `npm run perf -- store` for the maildir import: every file of a maildir parsed with postal-mime (the MIME
 * parser a program would reach for), its rows inserted as in raw-insert.mjs.
 *
 * Usage: node scripts/perf/raw-maildir.mjs DIR DB
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import PostalMime from 'postal-mime'
import { migrate } from '../../dist/arte/store/schema.js'

const [dir, dbFile] = process.argv.slice(2)
const files = readdirSync(dir, { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile() && !entry.name.startsWith('.'))
const rows = []
for (const entry of files) {
  const path = join(entry.parentPath, entry.name)
  const email = await PostalMime.parse(readFileSync(path))
  const list = (addresses) => (addresses ?? []).map((address) => address.address ?? '').filter((address) => address !== '')
  const date = email.date === undefined ? null : new Date(email.date)
  rows.push({
    message_id: email.messageId ?? path,
    inbox: `${path.slice(dir.length).split('/').filter(Boolean)[0]}@perf.example`,
    subject: email.subject ?? '',
    from: email.from?.address ?? '',
    to: list(email.to),
    cc: list(email.cc),
    bcc: list(email.bcc),
    date: date === null || Number.isNaN(date.getTime()) ? null : date.toISOString(),
    body: email.text ?? '',
    file_name: path,
  })
}
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
  for (const row of rows) {
    const recipients = JSON.stringify([...new Set([...row.to, ...row.cc, ...row.bcc])])
    insert.run(
      row.message_id,
      row.inbox,
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
