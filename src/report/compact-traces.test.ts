import Database from 'better-sqlite3'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { describe, expect, it } from 'vitest'
import { FIXTURE_USAGE, arteTaskResult } from '../../fixtures/arte-results/task-result.ts'
import { COMPACT_TRACE_FIELD, compactTrace, expandTrace, isCompactTrace } from '../agent/compact-trace.ts'
import type { AgentTrace } from '../agent/trace.ts'
import { computeArteMetrics, type ArteResults, type ArteTaskResult } from '../arte/results/results.ts'
import { TraceStore } from '../arte/results/trace-store.ts'
import { NO_BROWSER_MESSAGE, systemChromium } from '../testing/system-browser.ts'
import { type ArteSection, buildArteSection, classifyResults } from './report-data.ts'
import { renderReport } from './render-report.ts'

const usage = FIXTURE_USAGE
const at = '2026-01-02T00:00:00.000Z'

function task(taskId: string, exactMatch: boolean): ArteTaskResult {
  return arteTaskResult(taskId, exactMatch)
}

function arteFile(tasks: ArteTaskResult[]) {
  const results: ArteResults = {
    ...computeArteMetrics(tasks),
    usage,
    config: { model: 'openai/gpt-x', modelKind: 'llm', split: 'test', dataset: 'rows.jsonl', startedAt: at, finishedAt: at },
    testRunEndReason: 'passed',
    thresholds: [],
    taskResults: tasks,
  }
  const classified = classifyResults(results, 'results.json')
  if (classified?.kind !== 'arte') throw new Error('not ART-E results')
  return classified
}

/**
 * An ART-E trace as the agent loop writes it: a search (an object result, its message the result's JSON), a read that
 * failed (the error text both ways), a formatted result (message text differs from the value) and the final answer.
 */
function agentTrace(traceId: string): AgentTrace {
  const hits = Array.from({ length: 8 }, (_, i) => ({
    message_id: `<${traceId}-${i}@mail.example>`,
    subject: `Budget "review" ${i}`,
    from: 'bob@example.com',
    date: at,
    snippet: 'the meeting moved to room 4B\n<b>see</b> & more',
  }))
  const call = (id: string, name: string, args: unknown) => ({ id, type: 'function' as const, function: { name, arguments: JSON.stringify(args) } })
  const record = (id: string, turn: number, name: string, args: unknown, result: unknown, status: AgentTrace['toolCalls'][number]['status'] = 'ok') => ({
    id,
    turn,
    name,
    arguments: args,
    result,
    status,
    startedAt: at,
    durationMs: 2,
  })
  const failure = 'Error: invalid arguments for read_email:\n✖ Invalid input: expected string, received number\n  → at message_id'
  return {
    traceId,
    model: 'openai/gpt-x',
    modelKind: 'llm',
    messages: [
      { role: 'system', content: 'You are an email research assistant.' },
      { role: 'user', content: 'Which room is the budget review in?' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [call('c1', 'search_emails', { keywords: ['budget'] }), call('c2', 'read_email', { message_id: 3 }), call('c3', 'table', {})],
      },
      { role: 'tool', tool_call_id: 'c1', content: JSON.stringify(hits) },
      { role: 'tool', tool_call_id: 'c2', content: failure },
      { role: 'tool', tool_call_id: 'c3', content: 'rows: a | b' },
      { role: 'assistant', content: null, tool_calls: [call('c4', 'return_final_answer', { answer: 'Room 4B', sources: [hits[0]?.message_id] })] },
      { role: 'tool', tool_call_id: 'c4', content: '"ok"' },
    ],
    toolCalls: [
      record('c1', 1, 'search_emails', { keywords: ['budget'] }, hits),
      record('c2', 1, 'read_email', { message_id: 3 }, failure, 'invalid-arguments'),
      record('c3', 1, 'table', {}, ['a', 'b']),
      record('c4', 2, 'return_final_answer', { answer: 'Room 4B', sources: [hits[0]?.message_id] }, 'ok'),
    ],
    outcome: { kind: 'answered', answer: 'Room 4B', sources: [hits[0]?.message_id ?? ''], rationale: null, via: 'final-tool' },
    usage,
    turns: 2,
    startedAt: at,
    durationMs: 5,
  }
}

const tasks = Array.from({ length: 6 }, (_, i) => task(String(i + 1), i % 2 === 0))

/** A traces database holding the trace of every task, written by this version. */
function tracesDb(dir: string): string {
  const file = join(dir, 'traces.db')
  using store = TraceStore.open(file)
  for (const t of tasks)
    store.save({
      runId: 'r',
      taskId: t.taskId,
      question: t.question,
      groundTruth: t.groundTruth,
      agentAnswer: t.agentAnswer,
      exactMatch: t.exactMatch,
      semanticScore: t.semanticScore,
      trace: agentTrace(t.traceId),
    })
  return file
}

/** A traces database as version 3 wrote it: whole traces, no trace_format. */
function version3Db(dir: string): string {
  const file = join(dir, 'traces-v3.db')
  const db = new Database(file)
  db.exec(`CREATE TABLE traces (trace_id TEXT PRIMARY KEY, run_id TEXT NOT NULL, task_id TEXT NOT NULL, model TEXT NOT NULL,
    model_kind TEXT NOT NULL, outcome TEXT NOT NULL, exact_match INTEGER NOT NULL, semantic_score REAL NOT NULL, question TEXT NOT NULL,
    ground_truth TEXT NOT NULL, agent_answer TEXT NOT NULL, created_at TEXT NOT NULL, trace_json TEXT NOT NULL, config_key TEXT, trial INTEGER NOT NULL DEFAULT 1)`)
  const insert = db.prepare(`INSERT INTO traces VALUES (?, 'r', ?, 'openai/gpt-x', 'llm', 'answered', ?, ?, 'q', 'truth', 'an answer', ?, ?, NULL, 1)`)
  for (const t of tasks) insert.run(t.traceId, t.taskId, t.exactMatch ? 1 : 0, t.semanticScore, at, JSON.stringify(agentTrace(t.traceId)))
  db.pragma('user_version = 3')
  db.close()
  return file
}

const fullSize = JSON.stringify(agentTrace('trace-1')).length
const compactSize = JSON.stringify(compactTrace(agentTrace('trace-1'))).length

describe('the report embeds traces in their compact form', () => {
  it('holds more traces in the same budget: each tool result counts once', () => {
    const dir = mkdtempSync(join(tmpdir(), 'report-compact-'))
    expect(compactSize).toBeLessThan(fullSize * 0.75)
    // Room for all six compact traces, which is room for four whole ones.
    const budget = 6 * compactSize
    expect(Math.floor(budget / fullSize)).toBe(4)
    const section = buildArteSection(arteFile(tasks), { tracesDb: tracesDb(dir), traceBudgetChars: budget })
    expect(Object.keys(section.traces).sort()).toEqual(tasks.map((t) => t.traceId).sort())
    expect(section.notes).toEqual([])
    for (const t of tasks) {
      const held = section.traces[t.traceId]
      expect(isCompactTrace(held)).toBe(true)
      expect(JSON.stringify(isCompactTrace(held) ? expandTrace(held) : held)).toBe(JSON.stringify(agentTrace(t.traceId)))
    }
  })

  it('reads a traces database of an earlier version (whole traces) and embeds the same compact traces', () => {
    const dir = mkdtempSync(join(tmpdir(), 'report-compact-v3-'))
    const budget = 6 * compactSize
    const old = buildArteSection(arteFile(tasks), { tracesDb: version3Db(dir), traceBudgetChars: budget })
    const current = buildArteSection(arteFile(tasks), { tracesDb: tracesDb(dir), traceBudgetChars: budget })
    expect(old.traces).toEqual(current.traces)
    expect(old.traces['trace-1']).toHaveProperty(COMPACT_TRACE_FIELD, 1)
  })

  it.skipIf(systemChromium() === undefined)(
    `the page shows every trace exactly as it did with whole traces, in headless Chromium${systemChromium() === undefined ? ` (${NO_BROWSER_MESSAGE})` : ''}`,
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'report-compact-page-'))
      const compact = buildArteSection(arteFile(tasks), { tracesDb: tracesDb(dir) })
      // What the page embedded before: the whole traces.
      const whole: ArteSection = { ...compact, traces: Object.fromEntries(tasks.map((t) => [t.traceId, agentTrace(t.traceId)])) }
      const pages = { compact, whole }
      const shown: Record<string, string[]> = {}
      const { chromium } = await import('playwright-core')
      const browser = await chromium.launch({ executablePath: systemChromium(), args: ['--no-sandbox'] })
      try {
        for (const [name, section] of Object.entries(pages)) {
          const file = join(dir, `${name}.html`)
          writeFileSync(file, renderReport({ generatedAt: 'now', arte: [section], mpcbench: [] }))
          const page = await browser.newPage()
          await page.goto(pathToFileURL(file).href)
          shown[name] = []
          for (let i = 0; i < tasks.length; i++) {
            await page.locator(`tr.task[data-task-index="${i}"] button.open`).click()
            shown[name].push(
              await page
                .locator('tr.detail .trace')
                .first()
                .evaluate((box) => box.outerHTML),
            )
            await page.locator(`tr.task[data-task-index="${i}"] button.open`).click()
          }
          await page.close()
        }
      } finally {
        await browser.close()
      }
      expect(shown.compact).toEqual(shown.whole)
      expect(shown.compact?.[0]).toContain('Tool calls (4)')
      expect(shown.compact?.[0]).toContain('"subject": "Budget \\"review\\" 0"')
      expect(shown.compact?.[0]).toContain('✖ Invalid input: expected string, received number')
    },
    60_000,
  )
})
