/**
 * `npm run perf -- store`: runs `search_emails` through the public API of the built package's `vitest-agent-bench/arte` entry (`createEmailTools` over a
 * read-only `EmailStore`, as a user's agent loop calls it; `EmailStore.search` for a page above the tool's 10) for each query of a JSON file, a warm-up pass then the
 * measured one; prints {"wall": [ms...], "cpu": [ms...], "hits": n}.
 *
 * Usage: node scripts/perf/search-child.mjs DB QUERIES.json   (queries: [{ keywords, inbox, queryDate, maxResults }])
 */
import { readFileSync } from 'node:fs'
import { createEmailTools, EmailStore } from '../../dist/arte/index.js'

const [dbFile, queriesFile] = process.argv.slice(2)
const store = EmailStore.open(dbFile, { readonly: true })
const queries = JSON.parse(readFileSync(queriesFile, 'utf8'))
const cpuMs = () => {
  const usage = process.cpuUsage()
  return (usage.user + usage.system) / 1000
}
const wall = []
const cpu = []
let hits = 0
for (const pass of [0, 1]) {
  for (const query of queries) {
    const scope = { inbox: query.inbox, queryDate: query.queryDate }
    const [search] = createEmailTools(store, scope)
    // The tool's max_results stops at 10; larger pages go through EmailStore.search, which it calls.
    const args = query.maxResults <= 10 ? search.parameters.parse({ keywords: query.keywords, max_results: query.maxResults }) : undefined
    const startCpu = cpuMs()
    const start = process.hrtime.bigint()
    const result = args === undefined ? store.search({ keywords: query.keywords, maxResults: query.maxResults }, scope) : await search.handler(args, {})
    if (pass === 1) {
      wall.push(Number(process.hrtime.bigint() - start) / 1e6)
      cpu.push(cpuMs() - startCpu)
      hits += result.length
    }
  }
}
store.close()
console.log(JSON.stringify({ wall, cpu, hits }))
