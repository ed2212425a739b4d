import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser, Page } from 'playwright-core'
import type { AgentTrace } from '../agent/trace.ts'
import { computeArteMetrics, type ArteResults, type ArteTaskResult } from '../arte/results/results.ts'
import { TraceStore } from '../arte/results/trace-store.ts'
import { judgeResultFileName, runLogFileName } from '../mpcbench/tasks/file-names.ts'
import type { Summary } from '../mpcbench/summary/summary.ts'
import { NO_BROWSER_MESSAGE, systemChromium } from '../testing/system-browser.ts'
import { readResultsFile } from './report-data.ts'
import { writeReport } from './write-report.ts'
import { scaledMs } from '../testing/time-scale.ts'

/** Text a dataset, a model or an agent may hold that must show as written and never run. */
// biome-ignore lint/suspicious/noTemplateCurlyInString: a hostile string the page must show as text, `${...}` included
const HOSTILE = 'x<script>alert(1)</script>y</script><!-- --> "q" \'a\' ${alert(2)} `b` \u2028 <img src=x onerror=alert(3)> &amp;'

const usage = { promptTokens: 10, completionTokens: 5, totalTokens: 15, costUsd: 0.001, calls: 1 }
const chromiumPath = systemChromium()
const skipNote = chromiumPath === undefined ? ` (${NO_BROWSER_MESSAGE})` : ''

function arteTask(taskId: string, exactMatch: boolean, semanticScore: number, executionTimeMs: number, text = ''): ArteTaskResult {
  return {
    taskId,
    question: `${text}question ${taskId}?`,
    groundTruth: `${text}truth`,
    agentAnswer: `${text}answer`,
    exactMatch,
    semanticScore,
    traceId: `trace-${taskId}`,
    executionTimeMs,
    sources: [],
    inboxAddress: 'a@example.com',
    queryDate: '2023-01-01',
    outcome: { kind: 'answered', via: 'final-tool' },
    usage,
  }
}

function arteResults(tasks: ArteTaskResult[], model = 'openai/gpt-x', dataset = 'rows.jsonl'): ArteResults {
  return {
    ...computeArteMetrics(tasks),
    usage,
    config: { model, modelKind: 'llm', split: 'test', dataset, startedAt: '2026-01-02T00:00:00.000Z', finishedAt: '2026-01-02T00:00:00.000Z' },
    testRunEndReason: 'passed',
    thresholds: [],
    taskResults: tasks,
  }
}

function trace(traceId: string, text: string): AgentTrace {
  return {
    traceId,
    model: `openai/${text}`,
    modelKind: 'llm',
    messages: [
      { role: 'user', content: `find ${text}` },
      {
        role: 'assistant',
        content: '',
        tool_calls: [{ id: 'c1', type: 'function', function: { name: 'search_emails', arguments: JSON.stringify({ keywords: [text] }) } }],
      },
      { role: 'tool', tool_call_id: 'c1', content: `Email body: ${text}` },
    ],
    toolCalls: [
      {
        id: 'c1',
        turn: 1,
        name: 'search_emails',
        arguments: { keywords: [text] },
        result: `Email body: ${text}`,
        status: 'ok',
        startedAt: '2026-01-02T00:00:00.000Z',
        durationMs: 1,
      },
    ],
    outcome: { kind: 'answered', answer: text, sources: [], rationale: null, via: 'final-tool' },
    usage,
    turns: 2,
    startedAt: '2026-01-02T00:00:00.000Z',
    durationMs: 5,
  }
}

function mpcbenchSummary(agent: string, judge: string, taskIds: string[]): Summary {
  return {
    generated_at: '2026-01-02T00:00:00.000Z',
    tests: taskIds.length,
    rows: [
      {
        agent_model: agent,
        agent_model_kind: 'llm',
        judge_model: judge,
        judge_kind: 'llm',
        task_type: 'planning',
        count: taskIds.length,
        scored: taskIds.length,
        failures: 0,
        unjudged_answer_requirements_satisfaction: 0,
        unjudged_source_grounded_reasoning: 0,
        mean_answer_requirements_satisfaction: 4,
        mean_source_grounded_reasoning: 3,
      },
    ],
    scores: {
      [`agent=${agent}__judge=${judge}`]: taskIds.map((id) => ({
        task_id: id,
        task_type: 'planning',
        answer_requirements_satisfaction: 4,
        source_grounded_reasoning: 3,
        error: null,
      })),
    },
    usage: { agents: usage, judges: usage, total: usage },
  }
}

/** Writes the results files and logs of one page under `dir` and the page itself; returns the page's path. */
function writePage(
  dir: string,
  arte: ArteResults,
  tracesOf: (traceId: string) => AgentTrace | undefined,
  summary: Summary,
  logText?: string,
  displayRoot = dir,
): string {
  mkdirSync(join(dir, 'logs'), { recursive: true })
  writeFileSync(join(dir, 'results.json'), JSON.stringify(arte))
  writeFileSync(join(dir, 'summary.json'), JSON.stringify(summary))
  {
    using store = TraceStore.open(join(dir, 'traces.db'))
    for (const t of arte.taskResults) {
      const stored = tracesOf(t.traceId)
      if (stored !== undefined)
        store.save({
          runId: 'r',
          taskId: t.taskId,
          question: t.question,
          groundTruth: t.groundTruth,
          agentAnswer: t.agentAnswer,
          exactMatch: t.exactMatch,
          semanticScore: t.semanticScore,
          trace: stored,
        })
    }
  }
  if (logText !== undefined) {
    for (const [pair, scores] of Object.entries(summary.scores)) {
      const [, agent = '', judge = ''] = /^agent=(.*)__judge=(.*)$/s.exec(pair) ?? []
      for (const score of scores) {
        const runLog = {
          task_id: score.task_id,
          task_type: 'planning',
          user_prompt: `prompt ${logText}`,
          tool_trace_steps: [],
          raw_tool_calls: [{ tool_name: 'Slack.search_messages', arguments: { query: logText }, result: { messages: [logText] }, status: 'ok' }],
          final_answer: `final ${logText}`,
          rationale: `rationale ${logText}`,
          agent_model: agent,
          agent_model_file_name: 'x',
          agent_model_kind: 'llm',
          scenario_id: 's',
          task_file: null,
          outcome: { kind: 'answered', via: 'json' },
          usage,
          turns: 1,
          trace_id: 't',
          started_at: '2026-01-02T00:00:00.000Z',
          duration_ms: 1,
          agent_trace: { note: logText },
        }
        const judgeResult = {
          kind: 'scored',
          task_id: score.task_id,
          agent_model: agent,
          agent_model_file_name: 'x',
          judge_model: judge,
          judge_model_file_name: 'y',
          judge_kind: 'llm',
          attempts: 1,
          usage,
          judged_at: '2026-01-02T00:00:00.000Z',
          answer_requirements_satisfaction: { score: 4, justification: `because ${logText}` },
          source_grounded_reasoning: { score: 3, justification: `grounded ${logText}` },
        }
        writeFileSync(join(dir, 'logs', runLogFileName(score.task_id, agent)), JSON.stringify(runLog))
        writeFileSync(join(dir, 'logs', judgeResultFileName(score.task_id, agent, judge)), JSON.stringify(judgeResult))
      }
    }
  }
  const out = join(dir, 'index.html')
  writeReport({
    results: [readResultsFile(join(dir, 'results.json')), readResultsFile(join(dir, 'summary.json'))],
    sources: { tracesDb: join(dir, 'traces.db'), logDir: join(dir, 'logs') },
    outFile: out,
    displayRoot,
  })
  return out
}

/** Text labels of each chart of the page that overlap another label or stick out of the chart. */
async function chartLabelProblems(page: Page): Promise<string[]> {
  // A string, not a function: the page runs it as written.
  return page.evaluate(`[...document.querySelectorAll('svg.chart')].flatMap((svg) => {
    const chart = svg.getAttribute('data-chart')
    const root = svg.getBoundingClientRect()
    const boxes = [...svg.querySelectorAll('text')].map((t) => ({ text: t.textContent, box: t.getBoundingClientRect() }))
    const problems = []
    boxes.forEach((a, i) => {
      if (a.box.left < root.left - 0.5 || a.box.right > root.right + 0.5) problems.push(chart + ': "' + a.text + '" sticks out')
      boxes.slice(i + 1).forEach((b) => {
        if (a.box.left < b.box.right - 0.5 && b.box.left < a.box.right - 0.5 && a.box.top < b.box.bottom - 0.5 && b.box.top < a.box.bottom - 0.5) problems.push(chart + ': "' + a.text + '" overlaps "' + b.text + '"')
      })
    })
    return problems
  })`)
}

describe.skipIf(chromiumPath === undefined)(`the report page in headless Chromium${skipNote}`, () => {
  let browser: Browser

  beforeAll(async () => {
    const { chromium } = await import('playwright-core')
    browser = await chromium.launch({ executablePath: chromiumPath, args: ['--no-sandbox'] })
  }, scaledMs(60_000))

  afterAll(async () => {
    await browser?.close()
  })

  async function open(file: string): Promise<{ page: Page; problems: string[] }> {
    const page = await browser.newPage()
    const problems: string[] = []
    page.on('dialog', (dialog) => {
      problems.push(`dialog: ${dialog.message()}`)
      void dialog.dismiss()
    })
    page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`))
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(`console: ${message.text()}`)
    })
    await page.goto(pathToFileURL(file).href)
    return { page, problems }
  }

  it(
    'runs no script from the data and shows every string as written: questions, answers, models, paths, traces, run logs, judge reasons',
    async () => {
      const root = mkdtempSync(join(tmpdir(), 'report-hostile-'))
      const dir = join(root, `we<ird "dir' \${x} </script>`)
      const tasks = [arteTask(HOSTILE, false, 0.5, 10, HOSTILE), arteTask('2', true, 1, 20, HOSTILE)]
      const agent = `agent ${HOSTILE}`
      const file = writePage(
        dir,
        arteResults(tasks, `openai/${HOSTILE}`, `data/${HOSTILE}.jsonl`),
        (id) => trace(id, HOSTILE),
        mpcbenchSummary(agent, 'judge-1', ['t1']),
        HOSTILE,
        root,
      )
      const { page, problems } = await open(file)
      try {
        for (const button of await page.locator('button.open').all()) await button.click()
        const arte = page.locator('section[data-bench="arte"]')
        expect(await arte.locator('h2').textContent()).toContain(`we<ird "dir' \${x} </script>/results.json`)
        expect(await arte.locator('p.meta').first().textContent()).toContain(`model openai/${HOSTILE} · split test · data/${HOSTILE}.jsonl`)
        expect(await arte.locator('tr.task td:nth-child(2)').first().textContent()).toBe(`${HOSTILE}question ${HOSTILE}?`)
        const trace = arte.locator('tr.detail .trace').first()
        expect(await trace.locator('.tool-call').first().textContent()).toBe(`→ search_emails(${JSON.stringify({ keywords: [HOSTILE] })}) [c1]`)
        expect(await trace.locator('li.role-tool pre').first().textContent()).toBe(`Email body: ${HOSTILE}`)
        const mpc = page.locator('section[data-bench="mpcbench"]')
        expect(await mpc.locator('table.summary-rows td').first().textContent()).toBe(agent)
        const log = mpc.locator('tr.detail .trace')
        expect(await log.locator('.justification').first().textContent()).toBe(`because ${HOSTILE}`)
        expect(await log.locator('table.calls pre').first().textContent()).toBe(JSON.stringify({ query: HOSTILE }, null, 2))
        expect(await log.locator('details.agent-trace pre').first().textContent()).toBe(JSON.stringify({ note: HOSTILE }, null, 2))
        expect(await page.evaluate('document.scripts.length')).toBe(2)
        expect(await page.locator('img').count()).toBe(0)
        const embedded = (await page.evaluate(`JSON.parse(document.getElementById('report-data').textContent)`)) as { arte: Array<{ results: ArteResults }> }
        expect(embedded.arte[0]?.results.taskResults[0]?.taskId).toBe(HOSTILE)
        expect(problems).toEqual([])
      } finally {
        await page.close()
      }
    },
    scaledMs(60_000),
  )

  it(
    'opens a task that did not run as not run: no score, no missing-trace message',
    async () => {
      const notRun: ArteTaskResult = {
        ...arteTask('2', false, 0, 0),
        agentAnswer: '',
        traceId: '',
        outcome: { kind: 'not-run', reason: 'the run was interrupted before this task ran' },
      }
      const dir = mkdtempSync(join(tmpdir(), 'report-not-run-'))
      const file = writePage(dir, arteResults([arteTask('1', true, 1, 10), notRun]), (id) => trace(id, 'x'), mpcbenchSummary('a', 'j', ['t1']))
      const { page, problems } = await open(file)
      try {
        const arte = page.locator('section[data-bench="arte"]')
        await arte.locator('tr.task[data-task-id="2"] button.open').click()
        const detail = (await arte.locator('tr.detail').textContent()) ?? ''
        expect(detail).toContain('outcome: not run: the run was interrupted before this task ran')
        expect(detail).not.toContain('semantic 0.000')
        expect(detail).not.toContain('no trace for trace id')
        await arte.locator('select.status').selectOption('0')
        expect(await arte.locator('tr.task:not([hidden])').count()).toBe(0)
        await arte.locator('select.status').selectOption('not-run')
        expect(await arte.locator('tr.task:not([hidden])').getAttribute('data-task-id')).toBe('2')
        expect(problems).toEqual([])
      } finally {
        await page.close()
      }
    },
    scaledMs(60_000),
  )

  it(
    "lists a large run's tasks a page at a time, sorted and filtered over all of them, rows as the markup writes them, traces still opening",
    async () => {
      const notRunReason = 'the run was interrupted before this task ran'
      const tasks = Array.from({ length: 2000 }, (_, i): ArteTaskResult => {
        const id = String(i + 1)
        if (i % 97 === 5) return { ...arteTask(id, false, 0, 0), agentAnswer: '', traceId: '', outcome: { kind: 'not-run', reason: notRunReason } }
        // Times and scores whose shown text holds no "123" or "1999", so that the filters below match ids only.
        const task = arteTask(id, i % 3 === 0, i % 3 === 0 ? 1 : ((i * 37) % 20) / 20, 10 * (i % 7), i % 50 === 0 ? '<b>&x</b> ' : '')
        return i % 41 === 0 ? { ...task, agentAnswer: '', outcome: { kind: 'max-turns', maxTurns: 10 } } : task
      })
      const dir = mkdtempSync(join(tmpdir(), 'report-large-'))
      const summary = mpcbenchSummary(
        'agent-a',
        'judge-j',
        Array.from({ length: 250 }, (_, i) => `t${i + 1}`),
      )
      const { page, problems } = await open(writePage(dir, arteResults(tasks), (id) => trace(id, `text of ${id}`), summary, 'log'))
      try {
        const arte = page.locator('section[data-bench="arte"]')
        const pageRows = Number(await arte.locator('table.tasks').getAttribute('data-page-rows'))
        expect(pageRows).toBeGreaterThan(0)
        expect(pageRows).toBeLessThan(tasks.length)
        const listedIds = () => arte.locator('tr.task').evaluateAll((rows) => rows.map((row) => row.getAttribute('data-task-id')))
        const countText = () => arte.locator('.count').textContent()
        const ids = tasks.map((task) => task.taskId)
        expect(await listedIds()).toEqual(ids.slice(0, pageRows))
        expect(await countText()).toContain(`${pageRows} of ${tasks.length} listed`)

        // Rows the script makes from the data are those the markup holds (ART-E and MPCBench, shown after a filter).
        const rowsHtml = `[...document.querySelectorAll('table.tasks')].map((table) => [...table.tBodies[0].rows].map((row) => row.outerHTML.replace(/>\\s+</g, '><')))`
        const written = (await page.evaluate(rowsHtml)) as string[][]
        expect(written.map((rows) => rows.length)).toEqual([pageRows, pageRows])
        for (const section of await page.locator('section.bench').all()) {
          await section.locator('input.filter').fill('no such task')
          expect(await section.locator('tr.task').count()).toBe(0)
          await section.locator('input.filter').fill('')
        }
        expect(await page.evaluate(rowsHtml)).toEqual(written)

        await arte.locator('input.filter').fill('123')
        expect(await listedIds()).toEqual(ids.filter((id) => id.includes('123')))
        expect(await countText()).toBe(`12 of ${tasks.length} shown`)
        await arte.locator('input.filter').fill('')

        // Sorted by Jaccard over all tasks (a task not run sorts as -1, ties keep their order), a page at a time.
        const jaccard = (task: ArteTaskResult) => (task.outcome.kind === 'not-run' ? -1 : task.semanticScore)
        const byJaccard = [...tasks].sort((a, b) => jaccard(a) - jaccard(b)).map((task) => task.taskId)
        await arte.locator('th', { hasText: 'Jaccard' }).click()
        expect(await listedIds()).toEqual(byJaccard.slice(0, pageRows))
        await arte.locator('button.more').click()
        expect(await listedIds()).toEqual(byJaccard.slice(0, 2 * pageRows))
        const scores = await arte.locator('tr.task td[data-field="semanticScore"]').allTextContents()
        const shownScore = (id: string) => (tasks[Number(id) - 1]?.outcome.kind === 'not-run' ? '-' : (tasks[Number(id) - 1]?.semanticScore ?? 0).toFixed(3))
        expect(scores).toEqual(byJaccard.slice(0, 2 * pageRows).map(shownScore))
        await arte.locator('th', { hasText: 'id' }).first().click()
        await arte.locator('th', { hasText: 'id' }).first().click()
        expect(await listedIds()).toEqual([...ids].reverse().slice(0, pageRows))

        await arte.locator('select.status').selectOption('not-run')
        const notRun = [...ids].reverse().filter((id) => tasks[Number(id) - 1]?.outcome.kind === 'not-run')
        expect(await listedIds()).toEqual(notRun)
        expect(await countText()).toBe(`${notRun.length} of ${tasks.length} shown`)
        expect(await arte.locator('tr.task td:nth-child(4)').first().textContent()).toBe(`(not run: ${notRunReason})`)
        await arte.locator('select.status').selectOption('all')

        // A task found by its id opens its trace, which stays open beside its row while the filter changes.
        await arte.locator('input.filter').fill('1999')
        expect(await listedIds()).toEqual(['1999'])
        await arte.locator('tr.task button.open').click()
        const detail = arte.locator('tr.task[data-task-id="1999"] + tr.detail .trace')
        expect(await detail.locator('h4').first().textContent()).toBe('Task 1999')
        expect(await detail.locator('li.role-tool pre').textContent()).toBe('Email body: text of trace-1999')
        await arte.locator('input.filter').fill('199')
        expect(await listedIds()).toEqual(['1999', '1998', '1997', '1996', '1995', '1994', '1993', '1992', '1991', '1990', '1199', '199'])
        expect(await detail.count()).toBe(1)
        expect(await arte.locator('tr.task[data-task-id="1999"] button.open').getAttribute('aria-expanded')).toBe('true')

        // Every task at once, for the browser's find in page.
        await arte.locator('input.filter').fill('')
        await arte.locator('button.all').click()
        expect(await listedIds()).toEqual([...ids].reverse())
        expect(await countText()).toBe(`${tasks.length} of ${tasks.length} shown`)

        // An MPCBench task beyond the first page opens its run log.
        const mpc = page.locator('section[data-bench="mpcbench"]')
        await mpc.locator('button.more').click()
        expect(await mpc.locator('tr.task').count()).toBe(250)
        await mpc.locator('tr.task[data-task-id="t250"] button.open').click()
        expect(await mpc.locator('tr.detail .trace h4').first().textContent()).toBe('t250 · agent agent-a · judge judge-j')
        expect(problems).toEqual([])
      } finally {
        await page.close()
      }
    },
    scaledMs(120_000),
  )

  it(
    'keeps chart labels apart and inside their charts: thousands of tasks in a bin, times up to 45 s, long model names',
    async () => {
      const tasks = Array.from({ length: 1500 }, (_, i) => arteTask(String(i + 1), i % 3 === 0, i % 3 === 0 ? 1 : 0, 200 + ((i * 104_729) % 45_000)))
      const dir = mkdtempSync(join(tmpdir(), 'report-chart-labels-'))
      const summary = mpcbenchSummary('anthropic/claude-sonnet-4-5-20250929-with-a-long-suffix', 'openai/gpt-4.1-2025-04-14-judge', ['t1', 't2'])
      const { page, problems } = await open(writePage(dir, arteResults(tasks), () => undefined, summary))
      try {
        expect(await page.locator('svg.chart').count()).toBe(3)
        expect(await chartLabelProblems(page)).toEqual([])
        expect(problems).toEqual([])
      } finally {
        await page.close()
      }
    },
    scaledMs(60_000),
  )

  /** Writes a page of a judged ART-E run compared with an earlier kept run and an MPCBench summary whose first log a later run overwrote. */
  function writeJudgedPage(dir: string, agent = 'agent-a', judge = 'judge-j', taskIds = ['t1', 't2'], firstArteId = 1): string {
    const verdicts: Array<Partial<ArteTaskResult>> = [
      { llmJudgeCorrect: true },
      { llmJudgeCorrect: false },
      { llmJudgeCorrect: true },
      { llmJudgeError: { code: 'ERR_ARTE_JUDGE_REPLY', message: 'The judge replied "Maybe", neither True nor False.' } },
    ]
    // Long answers squeeze the id column of a wide window to its narrowest (an id wider than the open button).
    const long = 'the answer goes on about the thread, the meeting, the shipment and the invoice, '.repeat(8)
    const tasks = verdicts.map((verdict, i) => ({
      ...arteTask(String(firstArteId + i), i % 2 === 0 ? i === 0 : i === 1, i === 1 ? 1 : 0.25, 10 + i, long),
      ...verdict,
    }))
    const ci = (low: number, high: number) => ({ low, high, level: 0.95, method: 'Wilson score' })
    const results = {
      ...arteResults(tasks),
      llmJudgeAccuracy: 2 / 3,
      llmJudge: { model: 'judge/model', judgedTasks: 3, errors: 1, usage },
      confidenceIntervals: { exactMatchAccuracy: ci(0.1, 0.8), avgSemanticScore: ci(0.1, 0.9), llmJudgeAccuracy: ci(0.2, 0.9) },
    }
    mkdirSync(join(dir, 'history', 'run-1'), { recursive: true })
    mkdirSync(join(dir, 'history', 'run-2'), { recursive: true })
    const before = { ...arteResults(tasks.map((t) => ({ ...t, exactMatch: false }))), config: { ...results.config, startedAt: '2026-01-01T00:00:00.000Z' } }
    writeFileSync(join(dir, 'history', 'run-1', 'arte-results.json'), JSON.stringify(before))
    writeFileSync(join(dir, 'history', 'run-2', 'arte-results.json'), JSON.stringify(before).slice(0, 200))
    const summary = mpcbenchSummary(agent, judge, taskIds)
    const file = writePage(dir, results, (id) => trace(id, 'x'), summary, 'log')
    // A later run (after the summary's generated_at) overwrote the first task's run log.
    const runLogFile = join(dir, 'logs', runLogFileName(taskIds[0] ?? '', agent))
    const later = JSON.parse(readFileSync(runLogFile, 'utf8')) as Record<string, unknown>
    writeFileSync(runLogFile, JSON.stringify({ ...later, started_at: '2026-01-03T00:00:00.000Z', duration_ms: 104, final_answer: 'the later answer' }))
    writeReport({
      results: [readResultsFile(join(dir, 'results.json')), readResultsFile(join(dir, 'summary.json'))],
      sources: { tracesDb: join(dir, 'traces.db'), logDir: join(dir, 'logs'), historyDir: join(dir, 'history') },
      outFile: file,
      displayRoot: dir,
    })
    return file
  }

  it(
    "shows each ART-E task's judge verdict, filters where exact match and the judge disagree, and labels an MPCBench log a later run wrote",
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'report-judge-'))
      const { page, problems } = await open(writeJudgedPage(dir))
      try {
        const arte = page.locator('section[data-bench="arte"]')
        const listedIds = () => arte.locator('tr.task').evaluateAll((rows) => rows.map((row) => row.getAttribute('data-task-id')))
        expect(await arte.locator('tr.task td[data-field="llmJudge"]').allTextContents()).toEqual(['✓', '✗', '✓', 'error'])
        expect(await arte.locator('tr.task[data-task-id="4"] td[data-field="llmJudge"]').getAttribute('title')).toBe(
          'ERR_ARTE_JUDGE_REPLY: The judge replied "Maybe", neither True nor False.',
        )
        // Task 1: EM ✓, judge ✓; 2: EM ✓, judge ✗; 3: EM ✗, judge ✓; 4: EM ✗, judge error.
        await arte.locator('select.status').selectOption('em-not-judge')
        expect(await listedIds()).toEqual(['2'])
        await arte.locator('select.status').selectOption('judge-not-em')
        expect(await listedIds()).toEqual(['3'])
        await arte.locator('select.status').selectOption('judge-error')
        expect(await listedIds()).toEqual(['4'])
        await arte.locator('select.status').selectOption('all')
        // Sorted by the judge's verdict: error before ✗ before ✓.
        await arte.locator('table.tasks th', { hasText: /^judge$/ }).click()
        expect(await listedIds()).toEqual(['4', '2', '1', '3'])
        await arte.locator('tr.task[data-task-id="4"] button.open').click()
        expect(await arte.locator('tr.detail').textContent()).toContain(
          'LLM judge: error (judge/model): ERR_ARTE_JUDGE_REPLY: The judge replied "Maybe", neither True nor False. (no verdict: llmJudgeAccuracy leaves this task out)',
        )
        await arte.locator('tr.task[data-task-id="4"] button.open').click()
        await arte.locator('tr.task[data-task-id="2"] button.open').click()
        expect(await arte.locator('tr.detail').textContent()).toContain('LLM judge: not correct (judge/model), though an exact match')
        expect(await arte.locator('.compare [data-compare="skipped"]').textContent()).toContain(
          `${join('history', 'run-2', 'arte-results.json')} (not valid JSON: `,
        )

        const mpc = page.locator('section[data-bench="mpcbench"]')
        const t1 = mpc.locator('tr.task[data-task-id="t1"]')
        expect(await t1.locator('td').nth(6).textContent()).toBe('- (log overwritten)')
        expect(await t1.locator('td').nth(8).textContent()).toBe('-')
        expect(await mpc.locator('tr.task[data-task-id="t2"] td').nth(6).textContent()).toBe('answered')
        await t1.locator('button.open').click()
        const detail = mpc.locator('tr.detail .trace')
        expect(await detail.locator('p.other-run').first().textContent()).toBe(
          "This run log was written by a later run (started 2026-01-03T00:00:00.000Z, after this summary was generated at 2026-01-02T00:00:00.000Z); the summary's own log was overwritten.",
        )
        const other = detail.locator('details.other-run').first()
        expect(await other.locator(':scope > summary').textContent()).toBe("The other run's log (not this summary's)")
        expect(await other.getAttribute('open')).toBeNull()
        expect(await detail.locator('.justification').first().textContent()).toBe('because log')

        // Rows the script makes from the data are those the markup holds (judge column, a log of another run).
        const rowsHtml = `[...document.querySelectorAll('table.tasks')].map((table) => [...table.tBodies[0].rows].filter((row) => row.classList.contains('task')).map((row) => row.outerHTML.replace(/>\\s+</g, '><').replace(/ aria-expanded="[^"]*"|[▸▾]/g, '')))`
        await page.reload()
        const written = (await page.evaluate(rowsHtml)) as string[][]
        for (const section of await page.locator('section.bench').all()) {
          await section.locator('input.filter').fill('no such task')
          await section.locator('input.filter').fill('')
        }
        expect(await page.evaluate(rowsHtml)).toEqual(written)
        expect(problems).toEqual([])
      } finally {
        await page.close()
      }
    },
    scaledMs(60_000),
  )

  it(
    "is no wider than the window at 390 px (wide tables scroll in their own box, charts scale) nor at 1280 px, where the open button stays on the id's line",
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'report-layout-'))
      const longIds = ['tidewater_portal_sync_agenda_document_generation', 'lumen_charger_decision_document_generation']
      const file = writeJudgedPage(dir, 'anthropic/claude-sonnet-4-5-20250929-with-a-long-suffix', 'openai/gpt-4.1-2025-04-14-judge', longIds, 100_001)
      for (const [width, height] of [
        [390, 844],
        [1280, 800],
      ] as const) {
        const page = await browser.newPage({ viewport: { width, height } })
        try {
          await page.goto(pathToFileURL(file).href)
          for (const section of await page.locator('section.bench').all()) await section.locator('tr.task button.open').first().click()
          for (const summary of await page.locator('.compare details summary').all()) await summary.click()
          const sizes = (await page.evaluate(`({
          page: document.documentElement.scrollWidth,
          window: window.innerWidth,
          charts: [...document.querySelectorAll('svg.chart')].map((svg) => Math.ceil(svg.getBoundingClientRect().right)),
          // Each task id cell: how far the id's text sits below the open button (0 on one line).
          idDrop: [...document.querySelectorAll('tr.task > td:first-child')].map((td) => {
            const range = document.createRange()
            range.selectNodeContents(td.lastChild)
            return Math.round(range.getBoundingClientRect().top - td.querySelector('button').getBoundingClientRect().top)
          }),
        })`)) as { page: number; window: number; charts: number[]; idDrop: number[] }
          expect(sizes.window).toBe(width)
          expect(sizes.page, `page width at ${width} px`).toBeLessThanOrEqual(width)
          expect(sizes.charts.length).toBeGreaterThan(0)
          for (const right of sizes.charts) expect(right).toBeLessThanOrEqual(width)
          for (const drop of sizes.idDrop) expect(Math.abs(drop)).toBeLessThan(8)
          expect(await chartLabelProblems(page)).toEqual([])
        } finally {
          await page.close()
        }
      }
    },
    scaledMs(60_000),
  )
})
