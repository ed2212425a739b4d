/**
 * The email store's rows of issue 41's table, measured as a user runs them (`npm run perf -- store`; asserts nothing):
 * each figure is a child process (the built CLI `bin/agent-bench.js`, or a script over the built package's public API),
 * its anchor run in the same window, interleaved round by round (the order rotating), `PERF_STORE_ROUNDS` rounds
 * (default 5). Imports are compared by CPU time, user + system of the child's whole process tree (this process's
 * `cutime + cstime` from `/proc/self/stat` around a waited-for child), as the median of the per-round ratios;
 * searches by the per-query latency (wall and CPU of the calling process) of each round, median over rounds.
 * The machine's load average is printed with each row: on a shared machine the ratios are what counts.
 *
 * Rows: `import-enron --jsonl` of the real rows (../shared, exported from a maildir import) against the raw
 * better-sqlite3 insert (`raw-insert.mjs`) and OpenPipe's build (`openpipe-populate.py`, python3); the same on the seeded
 * synthetic corpus (`PERF_EMAIL_SYNTHETIC`, default 50,000; 500,000 for the 500K row, one round unless
 * `PERF_STORE_ROUNDS` says otherwise); `import-enron --maildir` of the real sample against postal-mime + the raw insert
 * (`raw-maildir.mjs`); `search_emails` p50 / p95 over 200 realistic queries on the real store against OpenPipe's search
 * (`openpipe-search.py`); the synthetic store's common-word searches (top 20), which have no anchor.
 * `PERF_STORE_REAL=0` skips the real-data rows (e.g. for a 500K run alone). `PERF_STORE_ROWS` runs some rows only, a
 * comma-separated list of `maildir` (the maildir import), `jsonl` (the real rows' JSONL import), `search` (the real
 * store's searches), `synthetic` (the synthetic JSONL import), `common` (the synthetic store's searches); e.g.
 * `PERF_STORE_ROWS=jsonl,synthetic` for the import rows alone. The real store is imported once unmeasured when its
 * maildir row is skipped. `PERF_STORE_SEARCH_ONLY=1` is `PERF_STORE_ROWS=search,common`. `PERF_STORE_DIR=DIR` builds
 * the stores in DIR and keeps them; a later run with the same DIR that does not measure the synthetic import reuses a
 * synthetic store of the same size instead of building it again (the 500K build takes minutes).
 * Without python3 (and its sqlite3 with FTS5) the OpenPipe anchors are skipped with a message; nothing is downloaded.
 * OpenPipe's build runs python3's own interpreter (`sys.executable`), not a version manager's shim on the PATH.
 *
 * Needs the build (`npm run build`; built here when `dist/` is missing). Run alone: `npx tsx scripts/perf/store-perf.ts`.
 */
import { spawnSync } from 'node:child_process'
import { closeSync, existsSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync, writeSync } from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import Database from 'better-sqlite3'
import { seededRandom } from '../../src/stats/random.ts'
import { syntheticCorpus } from './email-perf.ts'

const ROOT = fileURLToPath(new URL('../../', import.meta.url))
const HERE = fileURLToPath(new URL('./', import.meta.url))
const BIN = join(ROOT, 'bin', 'agent-bench.js')
const REAL_MAILDIR = fileURLToPath(new URL('../../../shared/data/enron_agent_course/mail/', import.meta.url))
const TARGET = { importVsRaw: 1.2, searchP50Ms: 0.5, build500kSeconds: 60, commonWorstMs: 20 } as const
const CLOCK_TICKS = 100

/** CPU seconds of the children this process has waited for (their whole trees), from `/proc/self/stat`. */
function childrenCpuSeconds(): number {
  const stat = readFileSync('/proc/self/stat', 'utf8')
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  return (Number(fields[13]) + Number(fields[14])) / CLOCK_TICKS
}

interface Run {
  cpu: number
  wall: number
  stdout: string
}

function run(command: string, args: string[]): Run {
  const cpu = childrenCpuSeconds()
  const start = performance.now()
  const result = spawnSync(command, args, { cwd: ROOT, encoding: 'utf8', maxBuffer: 1 << 28 })
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} exited with ${result.status}: ${result.stderr || result.error?.message}`)
  return { cpu: childrenCpuSeconds() - cpu, wall: (performance.now() - start) / 1000, stdout: result.stdout }
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 === 1 ? (sorted[middle] as number) : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2
}
const percentile = (values: number[], p: number): number => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN
}
const load = (): string =>
  `load ${loadavg()
    .map((value) => value.toFixed(2))
    .join(' / ')} (1 / 5 / 15 min)`

/** Runs each variant once per round, the order rotating, and returns each variant's runs. */
function interleave<T>(rounds: number, variants: Record<string, () => T>): Record<string, T[]> {
  const names = Object.keys(variants)
  const runs: Record<string, T[]> = Object.fromEntries(names.map((name) => [name, []]))
  for (let round = 0; round < rounds; round++) {
    for (let i = 0; i < names.length; i++) {
      const name = names[(round + i) % names.length] as string
      runs[name]?.push((variants[name] as () => T)())
    }
  }
  return runs
}

/**
 * The interpreter `python3` runs (its `sys.executable`), or why the OpenPipe anchors are skipped. The import rows run
 * it by that path: `python3` on the PATH can be a version manager's shim (pyenv's is a shell script that execs
 * `pyenv`), which costs about 50 ms of CPU per process here, a tenth of the anchor, and is no part of OpenPipe's build.
 */
function findPython(): { executable: string } | { skip: string } {
  const check = spawnSync(
    'python3',
    ['-c', "import sqlite3, sys; sqlite3.connect(':memory:').execute('CREATE VIRTUAL TABLE t USING fts5(a)'); print(sys.executable)"],
    { encoding: 'utf8' },
  )
  const executable = check.stdout?.trim()
  if (check.error !== undefined || check.status !== 0 || !executable) {
    return { skip: `python3 with FTS5 not available (${check.error?.message ?? check.stderr.trim()})` }
  }
  return { executable }
}

/** Prints an import row: each variant's median CPU and wall, and the median of the per-round CPU ratios to `ours`. */
function importRow(label: string, rows: number, rounds: number, variants: Record<string, () => Run>): Record<string, Run[]> {
  if (rounds === 0) return {}
  console.log(`  ${label} (${rows.toLocaleString('en-US')} rows, ${rounds} interleaved round(s)); ${load()} before`)
  const runs = interleave(rounds, variants)
  const ours = runs.ours ?? []
  for (const [name, list] of Object.entries(runs)) {
    const ratios = list.map((item, round) => (ours[round]?.cpu ?? Number.NaN) / item.cpu)
    const ratio = name === 'ours' ? '' : `; ours / this: CPU ratio ${median(ratios).toFixed(2)} (rounds: ${ratios.map((r) => r.toFixed(2)).join(' ')})`
    console.log(
      `    ${name.padEnd(38)} CPU ${median(list.map((item) => item.cpu)).toFixed(2)} s, wall ${median(list.map((item) => item.wall)).toFixed(2)} s${ratio}`,
    )
  }
  console.log(`    ${load()} after`)
  return runs
}

interface ExportedRow {
  message_id: string
  subject: string
  from: string
  to: string[]
  cc: string[]
  bcc: string[]
  date: string | null
  body: string
  file_name: string | null
  inbox?: string
}

/** Writes the rows of `dbFile` as parsed-email JSONL, each line naming its inbox when `withInbox`; returns how many. */
function exportRows(dbFile: string, file: string, withInbox = false): number {
  const db = new Database(dbFile, { readonly: true })
  const rows = db
    .prepare('SELECT message_id, subject, sender, to_addresses, cc_addresses, bcc_addresses, date, body, file_name, inbox FROM emails ORDER BY rowid')
    .all() as Array<{
    message_id: string
    subject: string
    sender: string
    to_addresses: string
    cc_addresses: string
    bcc_addresses: string
    date: string | null
    body: string
    file_name: string | null
    inbox: string
  }>
  db.close()
  const lines = rows.map((row) =>
    JSON.stringify({
      message_id: row.message_id,
      subject: row.subject,
      from: row.sender,
      to: JSON.parse(row.to_addresses) as string[],
      cc: JSON.parse(row.cc_addresses) as string[],
      bcc: JSON.parse(row.bcc_addresses) as string[],
      date: row.date,
      body: row.body,
      file_name: row.file_name,
      ...(withInbox ? { inbox: row.inbox } : {}),
    } satisfies ExportedRow),
  )
  writeFileSync(file, `${lines.join('\n')}\n`)
  return rows.length
}

/** The synthetic corpus as a parsed-email JSONL, mailbox by mailbox (as real dumps come): `file_name` is `userN/inbox/i.`. */
function writeSynthetic(size: number, file: string): void {
  const byInbox = new Map<string, string[]>()
  let i = 0
  for (const email of syntheticCorpus(size).emails()) {
    const user = email.inbox.split('@')[0] as string
    const line = JSON.stringify({
      message_id: email.messageId,
      subject: email.subject,
      from: email.from,
      to: email.to,
      cc: email.cc,
      bcc: email.bcc,
      date: email.date,
      body: email.body,
      file_name: `${user}/inbox/${i++}.`,
    } satisfies ExportedRow)
    const list = byInbox.get(user)
    if (list === undefined) byInbox.set(user, [line])
    else list.push(line)
  }
  // One write per mailbox: the whole file is more than a string can hold at 500K.
  const fd = openSync(file, 'w')
  try {
    for (const lines of byInbox.values()) writeSync(fd, `${lines.join('\n')}\n`)
  } finally {
    closeSync(fd)
  }
}

interface Query {
  keywords: string[]
  inbox: string
  queryDate: string
  maxResults: number
}

interface SearchTimes {
  wall: number[]
  cpu: number[]
  hits: number
}

function searchRow(label: string, rounds: number, variants: Record<string, () => SearchTimes>): void {
  if (rounds === 0) return
  console.log(`  ${label}, ${rounds} interleaved round(s); ${load()} before`)
  const runs = interleave(rounds, variants)
  for (const [name, list] of Object.entries(runs)) {
    const stat = (pick: (times: SearchTimes) => number[], p: number): string => median(list.map((times) => percentile(pick(times), p))).toFixed(3)
    const hits = (list[0]?.hits ?? 0) / (list[0]?.wall.length || 1)
    console.log(
      `    ${name.padEnd(38)} wall p50 ${stat((t) => t.wall, 50)} ms, p95 ${stat((t) => t.wall, 95)} ms, max ${stat((t) => t.wall, 100)} ms; CPU p50 ${stat((t) => t.cpu, 50)} ms, p95 ${stat((t) => t.cpu, 95)} ms, max ${stat((t) => t.cpu, 100)} ms; ${hits.toFixed(1)} hits/query`,
    )
  }
  console.log(`    ${load()} after`)
}

const searchChild = (db: string, queries: string) => (): SearchTimes =>
  JSON.parse(run(process.execPath, [join(HERE, 'search-child.mjs'), db, queries]).stdout) as SearchTimes
const openPipeSearch = (db: string, queries: string) => (): SearchTimes =>
  JSON.parse(run('python3', [join(HERE, 'openpipe-search.py'), db, queries]).stdout) as SearchTimes

/** Import variants over one JSONL file, each into a fresh database removed after the run. */
function importVariants(dir: string, jsonl: string, python: string | undefined): Record<string, () => Run> {
  let n = 0
  const fresh = (run: (db: string) => Run) => (): Run => {
    const db = join(dir, `import-${n++}.db`)
    try {
      return run(db)
    } finally {
      for (const suffix of ['', '-wal', '-shm', '-journal']) rmSync(db + suffix, { force: true })
    }
  }
  return {
    ours: fresh((db) => run(process.execPath, [BIN, 'import-enron', '--db', db, '--jsonl', jsonl, '--json'])),
    'raw better-sqlite3 insert': fresh((db) => run(process.execPath, [join(HERE, 'raw-insert.mjs'), jsonl, db])),
    ...(python !== undefined ? { 'OpenPipe build (python3)': fresh((db) => run(python, [join(HERE, 'openpipe-populate.py'), jsonl, db])) } : {}),
  }
}

function realQueries(dbFile: string): Query[] {
  const db = new Database(dbFile, { readonly: true })
  const rows = db.prepare('SELECT inbox, body FROM emails ORDER BY rowid').all() as Array<{ inbox: string; body: string }>
  db.close()
  const random = seededRandom(7)
  return Array.from({ length: 200 }, () => {
    let row: { inbox: string; body: string } | undefined
    let words: string[] = []
    while (words.length === 0) {
      row = rows[Math.floor(random() * rows.length)]
      words = row?.body.toLowerCase().match(/[a-z]{3,}/g) ?? []
    }
    const word = (): string => words[Math.floor(random() * words.length)] as string
    return { keywords: random() < 0.5 ? [word()] : [word(), word()], inbox: row?.inbox ?? '', queryDate: '2002-12-31', maxResults: 10 }
  })
}

/** Prints the store rows (see the file comment). */
export async function runStorePerf(): Promise<void> {
  if (!existsSync(join(ROOT, 'dist', 'main.js'))) {
    console.log('store: building dist/ first (npm run build)')
    spawnSync('npm', ['run', 'build'], { cwd: ROOT, stdio: 'inherit' })
  }
  const rounds = Number(process.env.PERF_STORE_ROUNDS ?? 5)
  const only = process.env.PERF_STORE_SEARCH_ONLY === '1' ? ['search', 'common'] : process.env.PERF_STORE_ROWS?.split(',').map((name) => name.trim())
  const wanted = (row: 'maildir' | 'jsonl' | 'search' | 'synthetic' | 'common'): boolean => only === undefined || only.includes(row)
  const size = Number(process.env.PERF_EMAIL_SYNTHETIC ?? 50_000)
  const found = findPython()
  const skipPython = 'skip' in found ? found.skip : undefined
  const python = skipPython === undefined
  const pythonExecutable = 'executable' in found ? found.executable : undefined
  const keptDir = process.env.PERF_STORE_DIR
  if (keptDir !== undefined) mkdirSync(keptDir, { recursive: true })
  const dir = keptDir ?? mkdtempSync(join(tmpdir(), 'store-perf-'))
  console.log(`Email store as a user runs it (node ${process.version}, CPU = user + system of each child's process tree); ${load()}`)
  if (skipPython !== undefined) console.log(`  OpenPipe anchors skipped: ${skipPython}`)
  else console.log(`  OpenPipe's build runs ${pythonExecutable} (python3's interpreter, not a shim on the PATH)`)
  if (only !== undefined) console.log(`  rows: ${only.join(', ')} (a store a measured row needs is built once, unmeasured)`)
  try {
    if (process.env.PERF_STORE_REAL === '0' || !(wanted('maildir') || wanted('jsonl') || wanted('search'))) {
      console.log(`  real-data rows skipped (${process.env.PERF_STORE_REAL === '0' ? 'PERF_STORE_REAL=0' : 'PERF_STORE_ROWS'})`)
    } else if (existsSync(REAL_MAILDIR)) {
      const realDb = join(dir, 'real.db')
      const importMaildir = (): Run => {
        for (const suffix of ['', '-wal', '-shm', '-journal']) rmSync(realDb + suffix, { force: true })
        return run(process.execPath, [BIN, 'import-enron', '--db', realDb, '--maildir', REAL_MAILDIR, '--json'])
      }
      if (wanted('maildir')) {
        importRow('import-enron --maildir, the real Enron sample', 2_892, rounds, {
          ours: importMaildir,
          'postal-mime + raw insert': () => {
            const db = join(dir, 'raw-maildir.db')
            rmSync(db, { force: true })
            return run(process.execPath, [join(HERE, 'raw-maildir.mjs'), REAL_MAILDIR, db])
          },
        })
      } else {
        importMaildir()
      }
      const jsonl = join(dir, 'real.jsonl')
      const rows = exportRows(realDb, jsonl)
      if (wanted('jsonl')) {
        importRow('import-enron --jsonl, the real rows (exported from that import)', rows, rounds, importVariants(dir, jsonl, pythonExecutable))
        // The same rows naming their inbox (as an export of a store gives them): no owner inference, as the raw insert.
        const named = join(dir, 'real-inbox.jsonl')
        exportRows(realDb, named, true)
        importRow('import-enron --jsonl, the same rows each naming its inbox (no owner inference)', rows, rounds, importVariants(dir, named, pythonExecutable))
      }
      const queries = join(dir, 'real-queries.json')
      writeFileSync(queries, JSON.stringify(realQueries(realDb)))
      const openPipeDb = join(dir, 'openpipe-real.db')
      rmSync(openPipeDb, { force: true })
      if (python && wanted('search')) run('python3', [join(HERE, 'openpipe-populate.py'), jsonl, openPipeDb])
      searchRow(
        `search_emails on the real store, 200 realistic queries (1-2 words from real bodies), target p50 < ${TARGET.searchP50Ms} ms and below OpenPipe`,
        wanted('search') ? rounds : 0,
        {
          ours: searchChild(realDb, queries),
          ...(python ? { "OpenPipe's search (python3)": openPipeSearch(openPipeDb, queries) } : {}),
        },
      )
    } else {
      console.log(`  real-data rows skipped: ${REAL_MAILDIR} is absent (they need ../shared beside the checkout)`)
    }

    if (!wanted('synthetic') && !wanted('common')) return
    const syntheticJsonl = join(dir, `synthetic-${size}.jsonl`)
    const syntheticDb = join(dir, `synthetic-${size}.db`)
    const syntheticRounds = Number(process.env.PERF_STORE_ROUNDS ?? (size >= 200_000 ? 1 : 5))
    if (keptDir !== undefined && !wanted('synthetic') && existsSync(syntheticDb)) {
      console.log(`  reusing ${syntheticDb} (PERF_STORE_DIR)`)
    } else {
      writeSynthetic(size, syntheticJsonl)
      importRow(
        `import-enron --jsonl, the synthetic corpus (target <= ${TARGET.importVsRaw}x raw and below OpenPipe${size >= 500_000 ? `; 500K build < ${TARGET.build500kSeconds} s` : ''})`,
        size,
        wanted('synthetic') ? syntheticRounds : 0,
        importVariants(dir, syntheticJsonl, pythonExecutable),
      )
      if (!wanted('common')) return
      for (const suffix of ['', '-wal', '-shm', '-journal']) rmSync(syntheticDb + suffix, { force: true })
      run(process.execPath, [BIN, 'import-enron', '--db', syntheticDb, '--jsonl', syntheticJsonl, '--json'])
    }
    const { words, inboxes, random, pick } = syntheticCorpus(1)
    const common = (count: number): Query[] =>
      Array.from({ length: 50 }, () => ({
        keywords: Array.from({ length: count }, () => words[Math.floor(random() * 20)] as string),
        inbox: pick(inboxes),
        queryDate: '2002-12-31',
        maxResults: 20,
      }))
    for (const [label, count] of [
      ['one of the 20 most frequent words', 1],
      ['three of them together', 3],
    ] as const) {
      const file = join(dir, `common-${count}.json`)
      writeFileSync(file, JSON.stringify(common(count)))
      searchRow(`synthetic store, ${label}, 50 queries, top 20 (target worst < ${TARGET.commonWorstMs} ms)`, syntheticRounds, {
        ours: searchChild(syntheticDb, file),
      })
    }
  } finally {
    if (keptDir === undefined) rmSync(dir, { recursive: true, force: true })
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await runStorePerf()
