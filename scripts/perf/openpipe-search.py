"""Anchor of `npm run perf -- store`: OpenPipe's ART-E `search_emails`, ported (a baseline, not part of the harness).

The query of OpenPipe/ART `examples/art-e` (`search_emails`): the keywords as quoted FTS5 phrases, mail from the inbox or
sent to it (their `recipients` table), sent before the day after the query date, `snippet()` inline, newest first.
Runs over the database `openpipe-populate.py` builds; a warm-up pass, then the measured one.

Usage: python3 openpipe-search.py DB QUERIES.json   (queries: [{keywords, inbox, queryDate, maxResults}])
Prints {"wall": [ms...], "cpu": [ms...], "hits": n}.
"""

import datetime
import json
import sqlite3
import sys
import time

SQL = """
SELECT e.message_id, snippet(emails_fts, -1, '<b>', '</b>', ' ... ', 15)
FROM emails e JOIN emails_fts fts ON e.id = fts.rowid
WHERE emails_fts MATCH ?
  AND (e.from_address = ? OR EXISTS (SELECT 1 FROM recipients r WHERE r.recipient_address = ? AND r.email_id = e.id))
  AND e.date < ?
ORDER BY e.date DESC
LIMIT ?
"""


def main():
    conn = sqlite3.connect(sys.argv[1])
    with open(sys.argv[2], encoding="utf-8") as handle:
        queries = json.load(handle)
    wall, cpu, hits = [], [], 0
    for measured in (False, True):
        for query in queries:
            match = " ".join('"' + keyword.replace('"', '""') + '"' for keyword in query["keywords"])
            before = (datetime.date.fromisoformat(query["queryDate"]) + datetime.timedelta(days=1)).isoformat()
            params = (match, query["inbox"], query["inbox"], before, query["maxResults"])
            start, start_cpu = time.perf_counter(), time.process_time()
            rows = conn.execute(SQL, params).fetchall()
            if measured:
                wall.append((time.perf_counter() - start) * 1000)
                cpu.append((time.process_time() - start_cpu) * 1000)
                hits += len(rows)
    print(json.dumps({"wall": wall, "cpu": cpu, "hits": hits}))


if __name__ == "__main__":
    main()
