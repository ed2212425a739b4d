"""OpenPipe's ART-E database build, ported for `npm run perf` (a baseline, not part of the harness).

Port of `create_database`, `populate_database` and `create_indexes_and_triggers` from OpenPipe/ART
`examples/art-e/art_e/data/local_email_db.py`: the same schema, pragmas, single insert transaction, then the
indexes, the FTS5 table and its fill in one statement (insert rows first, index after). Rows come from a JSONL
file (message_id, subject, from, to, cc, bcc, date, body, file_name) instead of the Hugging Face dataset, and
OpenPipe's row filters (body over 5,000 characters, over 30 recipients) are off unless --filters is given, so
both sides store the same rows; their (subject, body, from) de-duplication is kept.

Usage: python3 openpipe-populate.py ROWS.jsonl DB [--filters]
Prints one JSON line: {"seconds": build time without reading the JSONL, "cpu_seconds": its CPU time, "inserted": n,
"skipped": n, "duplicates": n}.
"""

import json
import sqlite3
import sys
import time

SQL_CREATE_TABLES = """
DROP TABLE IF EXISTS recipients;
DROP TABLE IF EXISTS emails_fts;
DROP TABLE IF EXISTS emails;

CREATE TABLE emails (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    message_id TEXT UNIQUE,
    subject TEXT,
    from_address TEXT,
    date TEXT,
    body TEXT,
    file_name TEXT
);

CREATE TABLE recipients (
    email_id INTEGER,
    recipient_address TEXT,
    recipient_type TEXT,
    FOREIGN KEY(email_id) REFERENCES emails(id) ON DELETE CASCADE
);
"""

SQL_CREATE_INDEXES_TRIGGERS = """
CREATE INDEX idx_emails_from ON emails(from_address);
CREATE INDEX idx_emails_date ON emails(date);
CREATE INDEX idx_emails_message_id ON emails(message_id);
CREATE INDEX idx_recipients_address ON recipients(recipient_address);
CREATE INDEX idx_recipients_type ON recipients(recipient_type);
CREATE INDEX idx_recipients_email_id ON recipients(email_id);
CREATE INDEX idx_recipients_address_email ON recipients(recipient_address, email_id);

CREATE VIRTUAL TABLE emails_fts USING fts5(
    subject,
    body,
    content='emails',
    content_rowid='id'
);

CREATE TRIGGER emails_ai AFTER INSERT ON emails BEGIN
    INSERT INTO emails_fts (rowid, subject, body)
    VALUES (new.id, new.subject, new.body);
END;

CREATE TRIGGER emails_ad AFTER DELETE ON emails BEGIN
    DELETE FROM emails_fts WHERE rowid=old.id;
END;

CREATE TRIGGER emails_au AFTER UPDATE ON emails BEGIN
    UPDATE emails_fts SET subject=new.subject, body=new.body WHERE rowid=old.id;
END;

INSERT INTO emails_fts (rowid, subject, body) SELECT id, subject, body FROM emails;
"""


def build(rows, db_path, filters):
    conn = sqlite3.connect(db_path)
    conn.executescript(SQL_CREATE_TABLES)
    conn.commit()
    conn.close()

    conn = sqlite3.connect(db_path)
    cursor = conn.cursor()
    conn.execute("PRAGMA synchronous = OFF;")
    conn.execute("PRAGMA journal_mode = MEMORY;")
    inserted = skipped = duplicates = 0
    seen = set()
    conn.execute("BEGIN TRANSACTION;")
    for row in rows:
        to_list = [str(a) for a in row["to"] if a]
        cc_list = [str(a) for a in row["cc"] if a]
        bcc_list = [str(a) for a in row["bcc"] if a]
        if filters and (len(row["body"]) > 5000 or len(to_list) + len(cc_list) + len(bcc_list) > 30):
            skipped += 1
            continue
        key = (row["subject"], row["body"], row["from"])
        if key in seen:
            duplicates += 1
            continue
        seen.add(key)
        cursor.execute(
            "INSERT INTO emails (message_id, subject, from_address, date, body, file_name) VALUES (?, ?, ?, ?, ?, ?)",
            (row["message_id"], row["subject"], row["from"], row["date"], row["body"], row["file_name"]),
        )
        email_id = cursor.lastrowid
        recipients = [(email_id, a, "to") for a in to_list] + [(email_id, a, "cc") for a in cc_list] + [(email_id, a, "bcc") for a in bcc_list]
        if recipients:
            cursor.executemany("INSERT INTO recipients (email_id, recipient_address, recipient_type) VALUES (?, ?, ?)", recipients)
        inserted += 1
    conn.commit()
    conn.close()

    conn = sqlite3.connect(db_path)
    conn.executescript(SQL_CREATE_INDEXES_TRIGGERS)
    conn.commit()
    conn.close()
    return inserted, skipped, duplicates


def main():
    rows_path, db_path = sys.argv[1], sys.argv[2]
    filters = "--filters" in sys.argv[3:]
    with open(rows_path, encoding="utf-8") as handle:
        rows = [json.loads(line) for line in handle if line.strip()]
    start, start_cpu = time.perf_counter(), time.process_time()
    inserted, skipped, duplicates = build(rows, db_path, filters)
    seconds, cpu_seconds = time.perf_counter() - start, time.process_time() - start_cpu
    print(json.dumps({"seconds": seconds, "cpu_seconds": cpu_seconds, "inserted": inserted, "skipped": skipped, "duplicates": duplicates}))


if __name__ == "__main__":
    main()
