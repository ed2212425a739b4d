/**
 * The HTML report at scale: a synthetic ART-E run (10,000 tasks by default, with realistic field lengths and traces in
 * a traces database) through the real `writeReport`, then the page in headless Chromium. Prints the page's size and
 * what makes it up, the time to write it, the time to the first render, and the time of a sort, a filter, opening a
 * trace and listing more rows (each measured in the page: the click or input handler plus the layout it forces, and
 * until the next frame). Asserts nothing; targets: first render < 1 s, a sort or a filter < 200 ms.
 *
 * Run alone: `npx tsx scripts/perf/report-perf.ts` (or `npm run perf -- report`). Sizes: `PERF_REPORT_TASKS` (default
 * 10000), `PERF_REPORT_TRIALS` (default 1; 2 adds a second trial and its trace per task), `PERF_REPORT_TRACES_MB`
 * (the page's trace budget, default that of `BENCH_REPORT_TRACES_MB`). `PERF_REPORT_PAGE=FILE` times a page written
 * before (another checkout's, say) instead of writing one; `PERF_REPORT_KEEP=DIR` keeps the files written.
 * Without a system Chromium (see `src/testing/system-browser.ts`) the browser part is skipped with a message.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import type { AgentTrace } from '../../src/agent/trace.ts'
import { computeArteMetrics, type ArteResults, type ArteTaskResult } from '../../src/arte/results/results.ts'
import { TraceStore } from '../../src/arte/results/trace-store.ts'
import { jsonForScript } from '../../src/report/html.ts'
import { readResultsFile } from '../../src/report/report-data.ts'
import { DEFAULT_REPORT_TRACES_MB } from '../../src/report/report-settings.ts'
import { writeReport } from '../../src/report/write-report.ts'
import { NO_BROWSER_MESSAGE, systemChromium } from '../../src/testing/system-browser.ts'

const WORDS = (
  'budget offsite venue contract invoice quarterly forecast meeting deadline review approval shipment vendor pricing ' +
  'renewal agenda schedule proposal headcount audit migration launch report customer warehouse travel policy ' +
  'expense hiring roadmap pipeline gas trading desk counterparty settlement storage capacity'
).split(' ')
const PEOPLE = ['maya.okafor', 'daniel.brandt', 'priya.raman', 'tomas.vidal', 'lena.cho', 'hannah.lindqvist', 'jeff.skilling', 'sally.beck']

/** A small deterministic generator, so two runs (before and after a change) time the same page. */
class Rng {
  #state: number
  constructor(seed: number) {
    this.#state = seed >>> 0
  }
  next(): number {
    this.#state = (Math.imul(this.#state, 1_664_525) + 1_013_904_223) >>> 0
    return this.#state / 2 ** 32
  }
  int(low: number, high: number): number {
    return low + Math.floor(this.next() * (high - low + 1))
  }
  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)] as T
  }
  words(low: number, high: number): string {
    return Array.from({ length: this.int(low, high) }, () => this.pick(WORDS)).join(' ')
  }
}

const address = (name: string): string => `${name}@enron.com`
const messageId = (rng: Rng): string => `<${rng.int(10_000_000, 99_999_999)}.${rng.int(1_000_000_000_000, 9_999_999_999_999)}.JavaMail.evans@thyme>`

/** A trace like an LLM agent's ART-E run: system prompt, a search, reading one email, the final answer. */
function syntheticTrace(rng: Rng, traceId: string, task: ArteTaskResult): AgentTrace {
  const inbox = task.inboxAddress
  const hits = Array.from({ length: rng.int(3, 8) }, () => ({
    message_id: messageId(rng),
    subject: rng.words(3, 9),
    date: `2001-0${rng.int(1, 9)}-1${rng.int(0, 9)}T10:00:00.000Z`,
    from: address(rng.pick(PEOPLE)),
    snippet: `${rng.words(20, 30)} ...`,
  }))
  const read = { ...hits[0], to: [inbox, address(rng.pick(PEOPLE))], cc: [], bcc: [], body: `${rng.words(120, 400)}\n\n${rng.pick(PEOPLE)}\n` }
  const search = { keywords: task.question.split(' ').slice(0, 3) }
  const final = { answer: task.agentAnswer, sources: task.sources }
  const usage = task.usage
  return {
    traceId,
    model: 'openai/gpt-4.1-mini',
    modelKind: 'llm',
    messages: [
      {
        role: 'system',
        content: `You are an email research assistant working in the mailbox of ${inbox}.\nToday's date is ${task.queryDate}; you can only see mail sent on or before that day.\nUse search_emails to find relevant messages and read_email to read them in full.\nWhen you know the answer, call return_final_answer with a short, precise answer and the Message-IDs of the emails it comes from as sources.\nIf the mailbox does not contain the answer, answer "I don't know".`,
      },
      { role: 'user', content: task.question },
      {
        role: 'assistant',
        content: '',
        tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'search_emails', arguments: JSON.stringify(search) } }],
      },
      { role: 'tool', tool_call_id: 'call_1', content: JSON.stringify(hits) },
      {
        role: 'assistant',
        content: '',
        tool_calls: [{ id: 'call_2', type: 'function', function: { name: 'read_email', arguments: JSON.stringify({ message_id: read.message_id }) } }],
      },
      { role: 'tool', tool_call_id: 'call_2', content: JSON.stringify(read) },
      {
        role: 'assistant',
        content: '',
        tool_calls: [{ id: 'call_3', type: 'function', function: { name: 'return_final_answer', arguments: JSON.stringify(final) } }],
      },
      { role: 'tool', tool_call_id: 'call_3', content: JSON.stringify(final) },
    ],
    toolCalls: [
      {
        id: 'call_1',
        turn: 1,
        name: 'search_emails',
        arguments: search,
        result: hits,
        status: 'ok',
        startedAt: '2026-01-01T00:00:01.000Z',
        durationMs: rng.int(1, 30),
      },
      {
        id: 'call_2',
        turn: 2,
        name: 'read_email',
        arguments: { message_id: read.message_id },
        result: read,
        status: 'ok',
        startedAt: '2026-01-01T00:00:02.000Z',
        durationMs: rng.int(1, 10),
      },
      {
        id: 'call_3',
        turn: 3,
        name: 'return_final_answer',
        arguments: final,
        result: final,
        status: 'ok',
        startedAt: '2026-01-01T00:00:03.000Z',
        durationMs: 0,
      },
    ],
    outcome: { kind: 'answered', answer: task.agentAnswer, sources: task.sources, rationale: null, via: 'final-tool' },
    usage,
    turns: 3,
    startedAt: '2026-01-01T00:00:00.000Z',
    durationMs: task.executionTimeMs,
  }
}

/** A results file and traces database of `tasks` synthetic ART-E tasks under `dir`. */
function writeSyntheticRun(dir: string, tasks: number, trials: number): { resultsFile: string; tracesDb: string } {
  const rng = new Rng(20_260_101)
  const taskResults: ArteTaskResult[] = []
  const traces: Array<{ task: ArteTaskResult; traceId: string; trial: number }> = []
  for (let i = 0; i < tasks; i++) {
    const score = rng.next() < 0.55 ? 1 : Math.round(rng.next() * 100) / 100
    const groundTruth = rng.words(1, 6)
    const promptTokens = rng.int(2_000, 12_000)
    const completionTokens = rng.int(30, 400)
    const task: ArteTaskResult = {
      taskId: String(i + 1),
      question: `${rng.words(8, 22)}?`,
      groundTruth,
      agentAnswer: score === 1 ? groundTruth : rng.next() < 0.1 ? "I don't know" : rng.words(1, 30),
      exactMatch: score === 1,
      semanticScore: score,
      traceId: crypto.randomUUID(),
      executionTimeMs: rng.int(900, 45_000),
      sources: Array.from({ length: rng.int(0, 3) }, () => messageId(rng)),
      inboxAddress: address(rng.pick(PEOPLE)),
      queryDate: `2001-0${rng.int(1, 9)}-2${rng.int(0, 8)}`,
      outcome: { kind: 'answered', via: 'final-tool' },
      usage: {
        promptTokens,
        completionTokens,
        totalTokens: promptTokens + completionTokens,
        costUsd: (promptTokens * 0.4 + completionTokens * 1.6) / 1e6,
        calls: 3,
      },
    }
    traces.push({ task, traceId: task.traceId, trial: 1 })
    if (trials > 1) {
      task.trialResults = Array.from({ length: trials }, (_, t) => {
        const traceId = t === 0 ? task.traceId : crypto.randomUUID()
        if (t > 0) traces.push({ task, traceId, trial: t + 1 })
        return {
          trial: t + 1,
          exactMatch: task.exactMatch,
          semanticScore: task.semanticScore,
          agentAnswer: task.agentAnswer,
          traceId,
          executionTimeMs: rng.int(900, 45_000),
        }
      })
    }
    taskResults.push(task)
  }
  const metrics = computeArteMetrics(taskResults)
  const sum = (key: 'promptTokens' | 'completionTokens' | 'totalTokens' | 'calls' | 'costUsd'): number =>
    taskResults.reduce((n, task) => n + (task.usage[key] ?? 0), 0)
  const results: ArteResults = {
    ...metrics,
    usage: {
      promptTokens: sum('promptTokens'),
      completionTokens: sum('completionTokens'),
      totalTokens: sum('totalTokens'),
      costUsd: sum('costUsd'),
      calls: sum('calls'),
    },
    config: {
      model: 'openai/gpt-4.1-mini',
      modelKind: 'llm',
      split: 'test',
      dataset: 'data/arte-test.parquet',
      startedAt: '2026-01-01T00:00:00.000Z',
      finishedAt: '2026-01-01T04:00:00.000Z',
    },
    testRunEndReason: 'passed',
    thresholds: [],
    taskResults,
    ...(trials > 1 ? { trials } : {}),
  }
  const resultsFile = join(dir, 'results.json')
  const tracesDb = join(dir, 'traces.db')
  writeFileSync(resultsFile, JSON.stringify(results))
  using store = TraceStore.open(tracesDb)
  for (const { task, traceId, trial } of traces) {
    store.save({
      runId: 'perf',
      taskId: task.taskId,
      question: task.question,
      groundTruth: task.groundTruth,
      agentAnswer: task.agentAnswer,
      exactMatch: task.exactMatch,
      semanticScore: task.semanticScore,
      trace: syntheticTrace(rng, traceId, task),
      trial,
    })
  }
  return { resultsFile, tracesDb }
}

const mb = (chars: number): string => `${(chars / 1e6).toFixed(1)} MB`

/** What the page is made of: the task tables' markup, the embedded results and traces, the rest. */
function pageParts(html: string): string {
  const bytes = (text: string): number => Buffer.byteLength(text)
  const tables = [...html.matchAll(/<table class="tasks"[\s\S]*?<\/table>/g)].reduce((n, match) => n + bytes(match[0]), 0)
  const json = /<script id="report-data" type="application\/json">([\s\S]*?)<\/script>/.exec(html)?.[1] ?? ''
  const data = JSON.parse(json) as { arte: Array<{ results: unknown; traces: unknown }> }
  const results = data.arte.reduce((n, part) => n + bytes(jsonForScript(part.results)), 0)
  const traces = data.arte.reduce((n, part) => n + bytes(jsonForScript(part.traces)), 0)
  const total = bytes(html)
  return `page ${mb(total)}: task tables ${mb(tables)}, embedded JSON ${mb(bytes(json))} (ART-E results ${mb(results)}, traces ${mb(traces)}), other ${mb(total - tables - bytes(json))}`
}

/** Timings measured in the page (ms); see the file's doc comment. */
const IN_PAGE = `(async () => {
  const out = {}
  const frame = () => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)))
  const time = async (name, act) => {
    const t0 = performance.now()
    act()
    void document.body.offsetHeight
    const t1 = performance.now()
    await frame()
    out[name] = Math.round(t1 - t0) + ' ms (next frame ' + Math.round(performance.now() - t0) + ' ms)'
  }
  const nav = performance.getEntriesByType('navigation')[0]
  const paint = performance.getEntriesByName('first-contentful-paint')[0]
  const lcp = await new Promise((resolve) => {
    new PerformanceObserver((list) => resolve(list.getEntries().at(-1).startTime)).observe({ type: 'largest-contentful-paint', buffered: true })
    setTimeout(() => resolve(NaN), 2000)
  })
  out['DOMContentLoaded (page script done)'] = Math.round(nav.domContentLoadedEventEnd) + ' ms'
  out['first contentful paint'] = Math.round(paint ? paint.startTime : NaN) + ' ms'
  out['largest contentful paint'] = Math.round(lcp) + ' ms'
  const section = document.querySelector('section[data-bench="arte"]')
  const rows = () => section.querySelectorAll('tr.task:not([hidden])').length
  out['task rows in the DOM'] = String(rows())
  const header = (text) => [...section.querySelectorAll('table.tasks th')].find((th) => th.textContent === text)
  await time('sort by Jaccard', () => header('Jaccard').click())
  await time('sort by Jaccard, descending', () => header('Jaccard').click())
  await time('sort by id', () => header('id').click())
  const filter = section.querySelector('input.filter')
  const input = (value) => { filter.value = value; filter.dispatchEvent(new Event('input')) }
  await time('filter by a task id (4711)', () => input('4711'))
  out['rows after the filter'] = String(rows()) + ' (' + section.querySelector('.count').textContent + ')'
  await time('clear the filter', () => input(''))
  const status = section.querySelector('select.status')
  await time('status: no exact match', () => { status.value = '0'; status.dispatchEvent(new Event('change')) })
  await time('status: all', () => { status.value = 'all'; status.dispatchEvent(new Event('change')) })
  const open = section.querySelector('tr.task button.open')
  await time('open the first task\\'s trace', () => open.click())
  await time('close it', () => open.click())
  const more = section.querySelector('button.more')
  if (more) await time('list more rows', () => more.click())
  return out
})()`

/** Prints the numbers; see the file's doc comment. */
export async function runReportPerf(): Promise<void> {
  const tasks = Number(process.env.PERF_REPORT_TASKS ?? 10_000)
  const trials = Number(process.env.PERF_REPORT_TRIALS ?? 1)
  const tracesMb = Number(process.env.PERF_REPORT_TRACES_MB ?? DEFAULT_REPORT_TRACES_MB)
  const given = process.env.PERF_REPORT_PAGE
  const keep = process.env.PERF_REPORT_KEEP
  const dir = keep === undefined ? mkdtempSync(join(tmpdir(), 'perf-report-')) : resolve(keep)
  mkdirSync(dir, { recursive: true })
  try {
    let page: string
    if (given !== undefined) {
      page = resolve(given)
      console.log(`report page ${page}`)
    } else {
      console.log(`report page of ${tasks.toLocaleString('en-US')} ART-E tasks (${trials} trial(s) each, traces budget ${tracesMb} MB)`)
      let t = performance.now()
      const { resultsFile, tracesDb } = writeSyntheticRun(dir, tasks, trials)
      console.log(
        `  synthetic run written in ${Math.round(performance.now() - t)} ms (results.json ${mb(statSync(resultsFile).size)}, traces.db ${mb(statSync(tracesDb).size)})`,
      )
      page = join(dir, 'index.html')
      t = performance.now()
      writeReport({ results: [readResultsFile(resultsFile)], sources: { tracesDb, traceBudgetChars: tracesMb * 1024 * 1024 }, outFile: page, displayRoot: dir })
      console.log(`  writeReport ${Math.round(performance.now() - t)} ms`)
    }
    console.log(`  ${pageParts(readFileSync(page, 'utf8'))}`)
    const executablePath = systemChromium()
    if (executablePath === undefined) {
      console.log(`  in the browser: ${NO_BROWSER_MESSAGE}`)
      return
    }
    const { chromium } = await import('playwright-core')
    const browser = await chromium.launch({ executablePath, args: ['--no-sandbox'] })
    try {
      const tab = await browser.newPage({ viewport: { width: 1400, height: 900 } })
      const errors: string[] = []
      tab.on('pageerror', (error) => errors.push(error.message))
      const t = performance.now()
      await tab.goto(pathToFileURL(page).href, { timeout: 120_000 })
      console.log(
        `  in Chromium ${browser.version()} (targets: first render < 1 s, a sort or a filter < 200 ms): load event after ${Math.round(performance.now() - t)} ms (from outside the page)`,
      )
      const timings = (await tab.evaluate(IN_PAGE)) as Record<string, string>
      for (const [name, value] of Object.entries(timings)) console.log(`    ${name}: ${value}`)
      if (errors.length > 0) console.log(`    page errors: ${errors.join('; ')}`)
    } finally {
      await browser.close()
    }
  } finally {
    if (keep === undefined) rmSync(dir, { recursive: true, force: true })
  }
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) await runReportPerf()
