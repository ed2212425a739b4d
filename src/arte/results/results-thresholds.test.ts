import { describe, expect, it } from 'vitest'
import { ConfigError } from '../../core/errors.ts'
import type { ArteMetrics } from './results.ts'
import {
  checkArteThresholds,
  formatThresholdFailure,
  formatUnmeasuredThreshold,
  parseArteThresholds,
  resolveArteThresholds,
  unmeasuredThresholds,
} from './results-thresholds.ts'

const metrics: ArteMetrics = {
  exactMatchAccuracy: 0.25,
  avgSemanticScore: 5 / 12,
  avgExecutionTimeMs: 30,
  completedTasks: 3,
  failedTasks: 1,
  notRunTasks: 0,
  totalTasks: 4,
  totalTimeMs: 120,
  toolTimeouts: 0,
}

describe('parseArteThresholds', () => {
  it('parses comparisons separated by commas', () => {
    expect(parseArteThresholds('exactMatchAccuracy>=0.6, avgSemanticScore > 0.5,failedTasks<=2,totalTimeMs<1000')).toEqual([
      { metric: 'exactMatchAccuracy', op: '>=', value: 0.6 },
      { metric: 'avgSemanticScore', op: '>', value: 0.5 },
      { metric: 'failedTasks', op: '<=', value: 2 },
      { metric: 'totalTimeMs', op: '<', value: 1000 },
    ])
    expect(parseArteThresholds('')).toEqual([])
  })

  it('names the variable, the item and the metrics on bad input', () => {
    expect(() => parseArteThresholds('accuracy>=0.6')).toThrow(ConfigError)
    expect(() => parseArteThresholds('accuracy>=0.6')).toThrow(/"accuracy>=0\.6" in ARTE_THRESHOLDS: unknown metric "accuracy"[\s\S]*exactMatchAccuracy/)
    expect(() => parseArteThresholds('exactMatchAccuracy=0.6')).toThrow(/expected one of >=/)
    expect(() => parseArteThresholds('exactMatchAccuracy>=high')).toThrow(/expected a number after >=/)
  })

  it('refuses a value the metric can never reach, so a gate cannot silently always fail or always pass', () => {
    expect(() => parseArteThresholds('exactMatchAccuracy>=1.5')).toThrow(/exactMatchAccuracy is between 0 and 1, so 1\.5 can never decide the gate/)
    expect(() => parseArteThresholds('avgSemanticScore>-0.1')).toThrow(ConfigError)
    expect(() => parseArteThresholds('failedTasks<=-1')).toThrow(/failedTasks is never negative/)
    expect(() => resolveArteThresholds({ exactMatchAccuracy: 60 })).toThrow(/between 0 and 1/)
    expect(parseArteThresholds('exactMatchAccuracy>=1,failedTasks<=0')).toHaveLength(2)
  })

  it('reads a record as minimums, like coverage thresholds', () => {
    expect(resolveArteThresholds({ exactMatchAccuracy: 0.6 })).toEqual([{ metric: 'exactMatchAccuracy', op: '>=', value: 0.6 }])
    expect(() => resolveArteThresholds({ nope: 1 } as never)).toThrow(/unknown metric "nope"/)
  })
})

describe('checkArteThresholds', () => {
  it('reports each threshold with the measured value', () => {
    const checks = checkArteThresholds(metrics, parseArteThresholds('exactMatchAccuracy>=0.6,avgSemanticScore>=0.4,failedTasks<=0'))
    expect(checks.map((check) => [check.metric, check.measured, check.passed])).toEqual([
      ['exactMatchAccuracy', 0.25, false],
      ['avgSemanticScore', 5 / 12, true],
      ['failedTasks', 1, false],
    ])
    expect(formatThresholdFailure(checks[0]!)).toBe('ERROR: ART-E exactMatchAccuracy (0.25) does not meet threshold exactMatchAccuracy >= 0.6')
  })

  it('a measured value exactly at the threshold meets >= and <=, not > or <', () => {
    const checks = checkArteThresholds(metrics, parseArteThresholds('exactMatchAccuracy>=0.25,failedTasks<=1,exactMatchAccuracy>0.25,failedTasks<1'))
    expect(checks.map((check) => `${check.metric}${check.op}${check.value}:${check.passed}`)).toEqual([
      'exactMatchAccuracy>=0.25:true',
      'failedTasks<=1:true',
      'exactMatchAccuracy>0.25:false',
      'failedTasks<1:false',
    ])
    // A record is minimums: met exactly, it passes.
    expect(checkArteThresholds(metrics, resolveArteThresholds({ exactMatchAccuracy: 0.25 })).map((check) => check.passed)).toEqual([true])
  })
})

describe('thresholds on the OpenPipe-comparable scores', () => {
  it('accepts sourcesAccuracy and llmJudgeAccuracy, as rates between 0 and 1', () => {
    expect(parseArteThresholds('sourcesAccuracy>=0.5,llmJudgeAccuracy>0.4')).toEqual([
      { metric: 'sourcesAccuracy', op: '>=', value: 0.5 },
      { metric: 'llmJudgeAccuracy', op: '>', value: 0.4 },
    ])
    expect(resolveArteThresholds({ llmJudgeAccuracy: 0.7 })).toEqual([{ metric: 'llmJudgeAccuracy', op: '>=', value: 0.7 }])
    expect(() => parseArteThresholds('sourcesAccuracy>=2')).toThrow(/sourcesAccuracy is between 0 and 1/)
    expect(() => resolveArteThresholds({ llmJudgeAccuracy: 70 })).toThrow(/llmJudgeAccuracy is between 0 and 1/)
    expect(() => parseArteThresholds('nope>=1')).toThrow(/sourcesAccuracy, llmJudgeAccuracy/)
  })

  it('checks them against the measured scores; one on a score not measured (no judge) fails apart, never as a 0', () => {
    const thresholds = parseArteThresholds('sourcesAccuracy>=0.5,llmJudgeAccuracy>=0.5')
    const withJudge = { ...metrics, sourcesAccuracy: 0.75, llmJudgeAccuracy: 0.25 }
    expect(checkArteThresholds(withJudge, thresholds).map((check) => [check.metric, check.measured, check.passed])).toEqual([
      ['sourcesAccuracy', 0.75, true],
      ['llmJudgeAccuracy', 0.25, false],
    ])
    expect(unmeasuredThresholds(withJudge, thresholds)).toEqual([])
    const noJudge = { ...metrics, sourcesAccuracy: 0.75 }
    expect(checkArteThresholds(noJudge, thresholds).map((check) => check.metric)).toEqual(['sourcesAccuracy'])
    const unmeasured = unmeasuredThresholds(noJudge, thresholds)
    expect(unmeasured).toEqual([{ metric: 'llmJudgeAccuracy', op: '>=', value: 0.5 }])
    expect(formatUnmeasuredThreshold(unmeasured[0]!)).toContain('llmJudgeAccuracy was not measured, as no LLM judge ran (set ARTE_JUDGE_MODEL')
  })

  it('a threshold on llmJudgeAccuracy is not met while some task has no verdict, either way; with no value it cannot be checked', () => {
    const thresholds = parseArteThresholds('llmJudgeAccuracy>=0.5,llmJudgeAccuracy<=0.3,sourcesAccuracy>=0.5')
    const erred = { ...metrics, sourcesAccuracy: 0.75, llmJudgeAccuracy: 0 }
    const judge = { tasks: 4, errors: 2 }
    expect(checkArteThresholds(erred, thresholds, judge).map((check) => check.metric)).toEqual(['sourcesAccuracy'])
    const unchecked = unmeasuredThresholds(erred, thresholds, judge)
    expect(unchecked.map((threshold) => `${threshold.metric}${threshold.op}${threshold.value}`)).toEqual(['llmJudgeAccuracy>=0.5', 'llmJudgeAccuracy<=0.3'])
    expect(formatUnmeasuredThreshold(unchecked[0]!, judge)).toBe(
      'ERROR: ART-E threshold llmJudgeAccuracy >= 0.5 cannot be checked: 2 of 4 task(s) have no verdict (judge errors); `agent-bench arte --resume` asks the judge again for those only.',
    )
    const noValue = { ...metrics, sourcesAccuracy: 0.75 }
    expect(unmeasuredThresholds(noValue, thresholds, judge)).toHaveLength(2)
    expect(formatUnmeasuredThreshold(unchecked[1]!, { tasks: 4, errors: 0 })).toContain('cannot be checked: no task of 4 has a verdict')
    // Every task judged: checked as any threshold.
    expect(checkArteThresholds(erred, thresholds, { tasks: 4, errors: 0 }).map((check) => [check.metric, check.passed])).toEqual([
      ['llmJudgeAccuracy', false],
      ['llmJudgeAccuracy', true],
      ['sourcesAccuracy', true],
    ])
  })
})
