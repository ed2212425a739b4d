import { describe, expect, it } from 'vitest'
import { evaluationFiles, judgeInputPathForRunLog, judgeResultPathForInput, runLogFileName, safeModelName } from './file-names.ts'
import { mpcbenchLogDir } from '../settings.ts'

describe('MPCBench file names', () => {
  it('makes model ids safe for file names', () => {
    expect(safeModelName('openai/gpt-4.1')).toBe('openai_gpt-4.1')
    expect(safeModelName('ollama:llama3.1:8b')).toBe('ollama_llama3.1_8b')
    expect(safeModelName('gpt-5.1')).toBe('gpt-5.1')
    expect(safeModelName('a b\\c')).toBe('a_b_c')
    expect(safeModelName('..')).toBe('_..')
  })

  it('names the three files as the MPCBench README documents', () => {
    expect(runLogFileName('companyA_planning_v1', 'gpt-4o')).toBe('companyA_planning_v1__agent-gpt-4o_run.json')
    expect(evaluationFiles('/logs', 'companyA_planning_v1', 'openai/gpt-4o', 'gpt-5.1')).toEqual({
      runLog: '/logs/companyA_planning_v1__agent-openai_gpt-4o_run.json',
      judgeInput: '/logs/companyA_planning_v1__agent-openai_gpt-4o__judge-gpt-5.1_judge_input.json',
      judgeResult: '/logs/companyA_planning_v1__agent-openai_gpt-4o__judge-gpt-5.1_judge_result.json',
    })
  })

  it('derives the judge input and result paths from a run log path', () => {
    const input = judgeInputPathForRunLog('/l/t__agent-m_run.json', 'anthropic/claude')
    expect(input).toBe('/l/t__agent-m__judge-anthropic_claude_judge_input.json')
    expect(judgeResultPathForInput(input)).toBe('/l/t__agent-m__judge-anthropic_claude_judge_result.json')
    expect(() => judgeInputPathForRunLog('/l/t.json', 'x')).toThrow(/_run\.json/)
  })

  it('reads the log folder from MPCBENCH_LOG_DIR', () => {
    expect(mpcbenchLogDir({}, '/repo')).toBe('/repo/evaluation/logs')
    expect(mpcbenchLogDir({ MPCBENCH_LOG_DIR: 'out/logs' }, '/repo')).toBe('/repo/out/logs')
  })
})
