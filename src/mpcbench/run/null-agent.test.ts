import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import fg from 'fast-glob'
import { afterAll, describe, expect, it } from 'vitest'
import { createAgentModel } from '../../agent/create-agent-model.ts'
import { BUILT_IN_AGENT_IDS, createModel } from '../../llm/create-model.ts'
import { mpcbenchStrategy } from '../baseline/mpcbench-strategy.ts'
import { createRulesJudge } from '../judge/rules-judge.ts'
import { evaluationMeta, runAndJudge, scenarioTools } from './run-task.ts'
import { MPCBENCH_PASS_SCORE } from '../summary/summary-statistics.ts'
import { buildSummary } from '../summary/summary.ts'
import { loadTask } from '../tasks/task.ts'

const repo = fileURLToPath(new URL('../../../', import.meta.url))

describe('the built-in null agent (grader check)', () => {
  const logDir = mkdtempSync(join(tmpdir(), 'null-agent-'))
  afterAll(() => rmSync(logDir, { recursive: true, force: true }))

  it('is a built-in non-LLM agent that answers empty and calls no tool', async () => {
    expect(BUILT_IN_AGENT_IDS).toContain('null')
    expect(() => createModel('null')).toThrow(/built-in non-LLM agent/)
    const model = createAgentModel('null', { baselineStrategies: [mpcbenchStrategy] })
    expect(model.kind).toBe('baseline')
    const reply = await model.complete({ messages: [{ role: 'user', content: 'anything' }] })
    expect(JSON.parse(reply.message.content ?? '')).toMatchObject({ final_answer: '', rationale: expect.stringContaining('not an LLM') })
    expect(reply.message.tool_calls).toBeUndefined()
    expect(reply.usage.totalTokens).toBe(0)
  })

  it('passes no shipped MPCBench task under the rules judge, so the summary lists no grader suspect', async () => {
    const files = fg.sync('tasks/*/*.json', { cwd: repo }).sort()
    expect(files.length).toBeGreaterThanOrEqual(15)
    const metas = []
    for (const file of files) {
      const task = loadTask(join(repo, file))
      const scenarioId = task.data_dependencies.scenario_id ?? ''
      const evaluation = await runAndJudge({
        task,
        taskFile: file,
        scenarioId,
        tools: scenarioTools(join(repo, 'data'), scenarioId),
        agent: createAgentModel('null', { baselineStrategies: [] }),
        systemMessage: 'Answer with {"final_answer", "rationale"}.',
        logDir,
        judges: [createRulesJudge()],
      })
      expect(evaluation.runLog.raw_tool_calls).toEqual([])
      expect(evaluation.runLog.final_answer).toBe('')
      expect(evaluation.runLog.agent_label).toContain('not an LLM')
      const meta = evaluationMeta(evaluation, scenarioId, repo)
      expect(meta.emptyAnswer).toBe(true)
      const judge = meta.judges[0]
      expect(judge?.kind === 'scored' ? judge.answerRequirementsSatisfaction : undefined, file).toBeLessThan(MPCBENCH_PASS_SCORE)
      metas.push(meta)
    }
    const summary = buildSummary(metas)
    expect(summary.grader_suspects).toEqual([])
    expect(summary.rows.every((row) => row.agent_label?.startsWith('null (offline, not an LLM)'))).toBe(true)
  })
})
