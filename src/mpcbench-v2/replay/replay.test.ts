import { existsSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createModel } from '../../llm/create-model.ts'
import { type ReceivedRequest, type ScriptedServer, scriptedError, startScriptedServer } from '../../testing/scripted-server.ts'
import { describeWithSharedData, sharedDataPath } from '../../testing/shared-data.ts'
import { type LevelData, loadLevel } from '../data/load-data.ts'
import { sanitize } from '../data/sanitize.ts'
import { type Candidate, parseAnswer } from '../harness/parse-answer.ts'
import { SYSTEM_PROMPT, buildUserPrompt } from '../harness/prompts.ts'
import { runInstance } from '../harness/run-instance.ts'
import { upstreamToolDefinitions } from '../harness/tool-definitions.ts'
import { calculateF1 } from '../scoring/metrics.ts'
import { formatResultsRow } from '../scoring/results-row.ts'
import { executeSchedulingToolCall } from '../tools/execute-scheduling-tool.ts'
import { createSchedulingTools } from '../tools/scheduling-tools.ts'
import { type RecordedResults, type RecordedRow, policyDocumentFormatOf, readRecordedResults } from './recorded-results.ts'

/**
 * THE PROOF: every row upstream recorded (real gpt-4o, gpt-5 and o4-mini runs, `results/eval_*.jsonl` at e398410) is
 * replayed through our harness over real HTTP. A scripted server answers the k-th request of a conversation (matched
 * by its first user message) with the k-th assistant message upstream recorded; we check that every request we send
 * holds upstream's system prompt, the recorded conversation so far (our user prompt and every tool result equal to
 * the recording) and upstream's tools and sampling settings, and that our row equals upstream's, byte for byte.
 *
 * 20 rows were recorded against instance files upstream regenerated before e398410 (the task text or thread text
 * changed), so the e398410 instances in ../shared cannot replay them. For those the test checks what the e398410
 * data can: the recorded final answer parses to upstream's `pred`, the metrics follow from `pred` and `gold`, and every
 * tool result drawn from the world (unchanged since) equals the recording. When `../shared/data/mpcbench/v2_<commit>/
 * generate/output` holds upstream's data files of the commit a row was recorded with (bece830, 0ee0acb), the row is
 * replayed in full against them instead: the 12 such rows then pass like the others (checked with those files).
 */

/** Rows whose instance changed after the run, by file, with the upstream commit whose data they were recorded with. */
const RECORDED_AGAINST_OLDER_INSTANCES: Record<string, { ids: string[]; data: string }> = {
  // bece830 regenerated nothing after these runs, but 0ee0acb rewrote level 2's task texts and oracle rows.
  'eval_L2_exp1_gpt-4o_20260202_143539.jsonl': {
    ids: ['instance_level2_exp1_000', 'instance_level2_exp1_001', 'instance_level2_exp1_002', 'instance_level2_exp1_004'],
    data: 'bece830',
  },
  // Recorded before bece830 was committed: the thread text they read ("Please provide 3 options, and sort by ...")
  // is in no commit of upstream's; later 0ee0acb and 80ac003 also rewrote level 3's task texts.
  'eval_L3_exp1_gpt-4o_20260202_144409.jsonl': {
    ids: ['instance_level3_exp1_000', 'instance_level3_exp1_001', 'instance_level3_exp1_002', 'instance_level3_exp1_004'],
    data: '(uncommitted, before bece830)',
  },
  'eval_L3_exp1_gpt-4o_20260202_150024.jsonl': {
    ids: ['instance_level3_exp1_000', 'instance_level3_exp1_001', 'instance_level3_exp1_002', 'instance_level3_exp1_004'],
    data: '(uncommitted, before bece830)',
  },
  'eval_L3_exp1_gpt-4o_20260202_150645.jsonl': {
    ids: ['instance_level3_exp1_000', 'instance_level3_exp1_001', 'instance_level3_exp1_002', 'instance_level3_exp1_004'],
    data: 'bece830',
  },
  'eval_L3_exp1_gpt-4o_20260202_154154.jsonl': {
    ids: ['instance_level3_exp1_000', 'instance_level3_exp1_001', 'instance_level3_exp1_002', 'instance_level3_exp1_004'],
    data: '0ee0acb',
  },
}

/** Tools whose result depends on the instance (its time window or threads), not on the world alone. */
const INSTANCE_TOOLS = new Set(['get_current_time', 'list_thread_ids', 'read_communication_thread'])

type AssistantTurn = Extract<NonNullable<RecordedRow['trace']>[number], { role: 'assistant' }>

function assistantTurns(row: RecordedRow): AssistantTurn[] {
  return (row.trace ?? []).filter((message): message is AssistantTurn => message.role === 'assistant')
}

/** The recorded conversation before the k-th (0-based) assistant message: what the k-th request must carry. */
function conversationBefore(row: RecordedRow, k: number): unknown[] {
  const trace = row.trace ?? []
  let seen = -1
  for (let i = 0; i < trace.length; i += 1) {
    if (trace[i]?.role === 'assistant') seen += 1
    if (seen === k) return trace.slice(0, i)
  }
  return trace
}

function firstUserMessage(request: ReceivedRequest): string {
  const user = (request.body.messages ?? []).find((message) => message.role === 'user')
  return typeof user?.content === 'string' ? user.content : ''
}

const dataDir = sharedDataPath('mpcbench', 'v2_e398410')

describeWithSharedData('MPCBench v2 replay of upstream recorded runs', () => {
  const resultsDir = join(dataDir, 'results')
  const files = readdirSync(resultsDir)
    .filter((name) => name.endsWith('.jsonl'))
    .sort()
  const levels = new Map<string, LevelData>()
  const levelOf = (results: RecordedResults, output = join(dataDir, 'generate', 'output')): LevelData => {
    const key = `${results.level}_${results.suffix}`
    let data = levels.get(`${output}:${key}`)
    if (data === undefined) {
      data = loadLevel({
        world: join(output, `world_level${key}.json`),
        instances: join(output, `instances_level${key}.jsonl`),
        oracle: join(output, `oracle_level${key}.jsonl`),
      })
      levels.set(`${output}:${key}`, data)
    }
    return data
  }

  it('covers every results file and row upstream published (13 files, 74 rows)', () => {
    expect(files).toHaveLength(13)
    expect(files.reduce((sum, name) => sum + readRecordedResults(join(resultsDir, name)).rows.length, 0)).toBe(74)
  })

  for (const name of files) {
    describe(name, () => {
      const results = readRecordedResults(join(resultsDir, name))
      const data = levelOf(results)
      const sanitizedWorld = sanitize(data.world) as Record<string, unknown>
      const format = policyDocumentFormatOf(results)
      const older = RECORDED_AGAINST_OLDER_INSTANCES[name]
      const byPrompt = new Map(results.rows.map(({ row }) => [row.trace?.[0]?.content ?? '', row]))
      let server: ScriptedServer

      beforeAll(async () => {
        server = await startScriptedServer((request) => {
          const row = byPrompt.get(firstUserMessage(request))
          const k = (request.body.messages ?? []).filter((message) => message.role === 'assistant').length
          const turn = row === undefined ? undefined : assistantTurns(row)[k]
          if (turn === undefined) return scriptedError(500, { body: { error: { message: `no recorded assistant message ${k + 1} for this conversation` } } })
          return {
            kind: 'reply',
            content: turn.content,
            toolCalls: (turn.tool_calls ?? []).map((call) => ({ id: call.id, name: call.function.name, arguments: call.function.arguments })),
          }
        })
      })
      afterAll(async () => {
        await server?.close()
      })

      it('lists exactly the rows recorded against older instance files as not replayable from e398410 data', () => {
        const stale = results.rows
          .filter(({ row }) => {
            const instance = data.instances.find((candidate) => candidate.instance_id === row.instance_id)
            return instance === undefined || buildUserPrompt(instance.task_text, sanitize(instance) as Record<string, unknown>) !== row.trace?.[0]?.content
          })
          .map(({ row }) => row.instance_id)
        expect(stale).toEqual(older?.ids ?? [])
      })

      /** Runs a recorded row through the harness against `levelData` and checks every request and the row. */
      const replayRow = async (recorded: RecordedRow, text: string, levelData: LevelData): Promise<void> => {
        const instance = levelData.instances.find((candidate) => candidate.instance_id === recorded.instance_id)
        expect(instance, `instance ${recorded.instance_id} in ../shared`).toBeDefined()
        if (instance === undefined) return
        const model = createModel(results.model, {
          env: { OPENAI_BASE_URL: server.baseURL, OPENAI_API_KEY: 'scripted-replay' },
          cache: { mode: 'off' },
          callLogDir: false,
          maxRetries: 0,
        })
        const before = server.requests.length
        const { row, outcome } = await runInstance({
          level: results.level,
          sanitizedWorld: sanitize(levelData.world) as Record<string, unknown>,
          instance,
          oracle: levelData.oracle.get(instance.instance_id),
          model,
          policyDocumentFormat: format,
        })
        const requests = server.requests.slice(before)
        const turns = assistantTurns(recorded)
        expect(requests).toHaveLength(turns.length)
        const tools = upstreamToolDefinitions(createSchedulingTools({ world: {}, instance: {} }))
        requests.forEach((request, k) => {
          const [system, ...conversation] = request.body.messages ?? []
          expect(system).toEqual({ role: 'system', content: SYSTEM_PROMPT })
          expect(conversation, `request ${k + 1}`).toEqual(conversationBefore(recorded, k))
          expect(request.body.tools).toEqual(tools)
          expect(request.body.model).toBe(results.model)
          if (results.model === 'gpt-4o') {
            expect(request.body).toMatchObject({ max_tokens: 4096, temperature: 0 })
            expect(request.body).not.toHaveProperty('max_completion_tokens')
          } else {
            expect(request.body).toMatchObject({ max_completion_tokens: 16384 })
            expect(request.body).not.toHaveProperty('temperature')
            expect(request.body).not.toHaveProperty('max_tokens')
          }
        })
        // A row without candidates ran out of requests (15 recorded replies) or, in upstream, hit a failed call (`break`).
        const expected = (recorded.pred ?? []).length > 0 ? 'answered' : turns.length === 15 ? 'max-turns' : 'model-error'
        expect(outcome?.kind).toBe(expected)
        expect(row.trace).toEqual(recorded.trace)
        expect(row.pred).toEqual(recorded.pred)
        expect(row.gold).toEqual(recorded.gold)
        expect(row.metrics).toEqual(recorded.metrics)
        expect(row.error).toBeNull()
        expect(formatResultsRow(row)).toBe(text)
      }

      for (const { row: recorded, text } of results.rows) {
        const history = older === undefined ? undefined : sharedDataPath('mpcbench', `v2_${older.data}`, 'generate', 'output')
        if (older?.ids.includes(recorded.instance_id) && history !== undefined && existsSync(history)) {
          it(`${recorded.instance_id}: against ${older.data}'s data, every request, tool result and the row equal upstream's`, () =>
            replayRow(recorded, text, levelOf(results, history)))
          continue
        }
        if (older?.ids.includes(recorded.instance_id)) {
          it(`${recorded.instance_id}: recorded with ${older.data} data; its answer, score and world tool results match`, async () => {
            const turns = assistantTurns(recorded)
            const last = turns.at(-1)
            const answer: Candidate[] = last?.content == null || (last.tool_calls ?? []).length > 0 ? [] : parseAnswer(last.content)
            expect(answer.map((candidate) => [...candidate])).toEqual(recorded.pred)
            // Upstream stops at the first reply without tool calls that parses to candidates: no earlier one did.
            for (const turn of turns.slice(0, -1))
              if ((turn.tool_calls ?? []).length === 0 && turn.content !== null) expect(parseAnswer(turn.content)).toEqual([])
            expect(calculateF1(recorded.gold ?? [], recorded.pred ?? [])).toEqual(recorded.metrics)
            const instance = data.instances.find((candidate) => candidate.instance_id === recorded.instance_id)
            const tools = createSchedulingTools({
              world: sanitizedWorld,
              instance: sanitize(instance ?? {}) as Record<string, unknown>,
              policyDocumentFormat: format,
            })
            const contents = new Map(
              (recorded.trace ?? []).flatMap((message) => (message.role === 'tool' ? [[message.tool_call_id, message.content] as const] : [])),
            )
            let checked = 0
            for (const turn of turns) {
              for (const call of turn.tool_calls ?? []) {
                if (INSTANCE_TOOLS.has(call.function.name)) continue
                const executed = await executeSchedulingToolCall(tools, call.function.name, call.function.arguments)
                expect(executed.content, `${call.function.name}(${call.function.arguments})`).toBe(contents.get(call.id))
                checked += 1
              }
            }
            expect(checked).toBeGreaterThan(0)
          })
          continue
        }
        it(`${recorded.instance_id}: every request, tool result and the row equal upstream's`, () => replayRow(recorded, text, data))
      }
    })
  }
})
