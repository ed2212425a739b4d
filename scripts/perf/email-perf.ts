/**
 * Email store performance: import rate on the real Enron maildir sample, and `search_emails` latency on it and
 * on a synthetic corpus (500K emails by default; `PERF_EMAIL_SYNTHETIC=N` for another size).
 * Prints numbers and their ratio to the targets (p50 < 1 ms real, < 5 ms synthetic); asserts nothing.
 *
 * Run alone: `npx tsx scripts/perf/email-perf.ts`.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { EmailInput, EmailScope } from '../../src/arte/store/email-store.ts'
import { EmailStore } from '../../src/arte/store/email-store.ts'
import { createEmailTools } from '../../src/arte/email-tools.ts'
import { importMaildir } from '../../src/arte/import/import-maildir.ts'

const REAL_MAILDIR = fileURLToPath(new URL('../../../shared/data/enron_agent_course/mail/', import.meta.url))
const TARGET_P50_REAL_MS = 1
const TARGET_P50_SYNTHETIC_MS = 5
const QUERIES = 500

/** mulberry32: a small seeded PRNG, so every run builds the same corpus and asks the same queries. */
function prng(seed: number): () => number {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN
}

function fmt(ms: number): string {
  return ms < 10 ? ms.toFixed(3) : ms.toFixed(1)
}

/** Runs `search_emails` through the tool handler for each query and prints p50/p95 against the target. */
async function measureSearch(label: string, store: EmailStore, queries: ReadonlyArray<{ keywords: string[]; scope: EmailScope }>, targetMs: number): Promise<void> {
  const times: number[] = []
  let hits = 0
  for (const { keywords, scope } of queries) {
    const search = createEmailTools(store, scope)[0]
    if (search === undefined) throw new Error('search_emails missing')
    const args = search.parameters.parse({ keywords, max_results: 10 })
    const start = process.hrtime.bigint()
    const result = (await search.handler(args, {})) as unknown[]
    times.push(Number(process.hrtime.bigint() - start) / 1e6)
    hits += result.length
  }
  times.sort((a, b) => a - b)
  const p50 = percentile(times, 50)
  const p95 = percentile(times, 95)
  console.log(
    `  ${label}: search_emails p50 ${fmt(p50)} ms (target < ${targetMs} ms, ratio ${(p50 / targetMs).toFixed(2)}), p95 ${fmt(p95)} ms, ${queries.length} queries, ${(hits / queries.length).toFixed(1)} hits/query`,
  )
}

async function realSample(dir: string): Promise<void> {
  console.log('Email store, real Enron maildir sample')
  if (!existsSync(REAL_MAILDIR)) {
    console.log(`  skipped: ${REAL_MAILDIR} is absent (real-data numbers need ../shared beside the checkout)`)
    return
  }
  using store = EmailStore.open(join(dir, 'real.db'))
  const start = performance.now()
  const report = await importMaildir(store, REAL_MAILDIR)
  const seconds = (performance.now() - start) / 1000
  store.optimize()
  const read = report.imported + report.duplicates + report.failed
  console.log(`  import: ${read} messages in ${seconds.toFixed(2)} s = ${Math.round(read / seconds)} emails/s (${report.imported} imported, ${report.duplicates} duplicates, ${report.failed} failed)`)

  const random = prng(7)
  const inboxes = store.db.prepare('SELECT DISTINCT inbox FROM emails ORDER BY inbox').pluck().all() as string[]
  const words = [
    ...new Set(
      (store.db.prepare('SELECT subject FROM emails ORDER BY message_id').pluck().all() as string[]).flatMap((subject) =>
        subject.toLowerCase().match(/[a-z]{4,}/g) ?? [],
      ),
    ),
  ]
  const pick = <T>(list: T[]): T => list[Math.floor(random() * list.length)] as T
  const queries = Array.from({ length: QUERIES }, () => ({
    keywords: random() < 0.5 ? [pick(words)] : [pick(words), pick(words)],
    scope: { inbox: pick(inboxes), queryDate: '2002-12-31' },
  }))
  await measureSearch('real sample (keywords from real subjects)', store, queries, TARGET_P50_REAL_MS)
}

function syntheticWordList(count: number, random: () => number): string[] {
  const syllables = ['ka', 'ro', 'mi', 'ten', 'sa', 'lo', 'ver', 'an', 'di', 'gu', 'pel', 'or', 'bri', 'nu', 'ex', 'tal', 'che', 'fo', 'rin', 'zu']
  const words = new Set<string>()
  while (words.size < count) {
    const length = 2 + Math.floor(random() * 3)
    let word = ''
    for (let i = 0; i < length; i++) word += syllables[Math.floor(random() * syllables.length)]
    words.add(word)
  }
  return [...words]
}

/** A Zipf(1) rank sampler over `n` ranks, by inverse CDF on the harmonic numbers. */
function zipf(n: number, random: () => number): () => number {
  const cdf = new Float64Array(n)
  let sum = 0
  for (let i = 0; i < n; i++) {
    sum += 1 / (i + 1)
    cdf[i] = sum
  }
  return () => {
    const target = random() * sum
    let lo = 0
    let hi = n - 1
    while (lo < hi) {
      const mid = (lo + hi) >>> 1
      if ((cdf[mid] ?? 0) < target) lo = mid + 1
      else hi = mid
    }
    return lo
  }
}

/** The seeded synthetic corpus: its vocabulary (most frequent first), its inboxes, and a generator of its emails. */
export function syntheticCorpus(size: number, seed = 42) {
  const random = prng(seed)
  const words = syntheticWordList(20_000, random)
  const rank = zipf(words.length, random)
  const inboxes = Array.from({ length: 150 }, (_, i) => `user${i}@corp.example`)
  const people = Array.from({ length: 3_000 }, (_, i) => `person${i}@${i % 5 === 0 ? 'partner.example' : 'corp.example'}`)
  const startDay = Date.UTC(1999, 0, 1)
  const spanMs = Date.UTC(2002, 11, 31) - startDay
  const pick = <T>(list: T[]): T => list[Math.floor(random() * list.length)] as T
  const sentence = (length: number): string => Array.from({ length }, () => words[rank()]).join(' ')
  function* emails(): Generator<EmailInput> {
    for (let i = 0; i < size; i++) {
      const inbox = pick(inboxes)
      const outgoing = random() < 0.3
      yield {
        messageId: `<${i}.synthetic@perf.example>`,
        inbox,
        subject: sentence(3 + Math.floor(random() * 5)),
        from: outgoing ? inbox : pick(people),
        to: outgoing ? [pick(people)] : [inbox],
        cc: random() < 0.3 ? [pick(people), pick(people)] : [],
        bcc: [],
        date: new Date(startDay + Math.floor(random() * spanMs)).toISOString(),
        body: sentence(40 + Math.floor(random() * 160)),
        fileName: null,
      }
    }
  }
  return { words, rank, inboxes, startDay, spanMs, random, pick, emails }
}

async function synthetic(dir: string, size: number): Promise<void> {
  console.log(`Email store, synthetic corpus of ${size.toLocaleString('en-US')} emails (seeded; PERF_EMAIL_SYNTHETIC=N to change)`)
  const { words, rank, inboxes, startDay, spanMs, random, pick, emails } = syntheticCorpus(size)
  using store = EmailStore.open(join(dir, 'synthetic.db'))
  store.db.pragma('synchronous = OFF')
  const start = performance.now()
  const batch: EmailInput[] = []
  for (const email of emails()) {
    batch.push(email)
    if (batch.length === 10_000) {
      store.insertEmails(batch)
      batch.length = 0
    }
  }
  store.insertEmails(batch)
  const seconds = (performance.now() - start) / 1000
  const optimizeStart = performance.now()
  store.optimize()
  console.log(
    `  build: ${store.count().toLocaleString('en-US')} emails in ${seconds.toFixed(1)} s = ${Math.round(size / seconds)} emails/s (generation included), then FTS optimize ${((performance.now() - optimizeStart) / 1000).toFixed(1)} s`,
  )

  // Models search for distinctive words: keywords come from the same Zipf law as the text, minus the 100 most frequent ranks.
  const keyword = (): string => {
    let r = rank()
    while (r < 100) r = rank()
    return words[r] as string
  }
  const queries = Array.from({ length: QUERIES }, () => ({
    keywords: random() < 0.5 ? [keyword()] : [keyword(), keyword()],
    scope: { inbox: pick(inboxes), queryDate: new Date(startDay + spanMs * (0.5 + random() / 2)).toISOString().slice(0, 10) },
  }))
  await measureSearch('synthetic', store, queries, TARGET_P50_SYNTHETIC_MS)
  const common = Array.from({ length: 50 }, () => ({ keywords: [words[Math.floor(random() * 20)] as string], scope: { inbox: pick(inboxes), queryDate: '2002-12-31' } }))
  await measureSearch('synthetic, one of the 20 most frequent words (worst case)', store, common, TARGET_P50_SYNTHETIC_MS)
}

/** Prints the email store's import rate and search latencies (see the file comment). */
export async function runEmailPerf(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'email-perf-'))
  try {
    await realSample(dir)
    const size = Number(process.env.PERF_EMAIL_SYNTHETIC ?? 500_000)
    if (!Number.isInteger(size) || size < 1) throw new Error(`Expected PERF_EMAIL_SYNTHETIC to be a whole number from 1 and up, got ${process.env.PERF_EMAIL_SYNTHETIC}`)
    await synthetic(dir, size)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  await runEmailPerf()
}
