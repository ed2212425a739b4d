import { describe, expect, it } from 'vitest'
import { annotateTest } from './annotate.ts'

describe('annotateTest', () => {
  it('records the annotation on the running test, with no location (as context.annotate does from library code)', async (context) => {
    await annotateTest(context, 'EM=1 J=1.00', 'arte')
    expect(context.task.annotations).toEqual([expect.objectContaining({ message: 'EM=1 J=1.00', type: 'arte' })])
    expect(context.task.annotations[0]?.location).toBeUndefined()
  })

  it('captures no stack while annotate runs and restores the limit, also when annotate throws', () => {
    const before = Error.stackTraceLimit
    const seen: number[] = []
    const annotate = (() => {
      seen.push(Error.stackTraceLimit)
      return Promise.resolve({ message: 'm', type: 't' })
    }) as Parameters<typeof annotateTest>[0]['annotate']
    void annotateTest({ annotate }, 'm', 't')
    expect(seen).toEqual([0])
    expect(Error.stackTraceLimit).toBe(before)
    const failing = (() => {
      throw new Error('outside the test run')
    }) as Parameters<typeof annotateTest>[0]['annotate']
    expect(() => annotateTest({ annotate: failing }, 'm', 't')).toThrow('outside the test run')
    expect(Error.stackTraceLimit).toBe(before)
  })

  it('leaves alone a test Vitest already ended (a cancelled run marked it skipped while its work went on)', async () => {
    const annotate = (() => {
      throw new Error('Cannot annotate tests outside of the test run. The test "2" finished running with the "skip" state already.')
    }) as Parameters<typeof annotateTest>[0]['annotate']
    await expect(annotateTest({ annotate, task: { result: { state: 'skip' } } }, 'm', 't')).resolves.toBeUndefined()
    expect(() => annotateTest({ annotate, task: { result: { state: 'run' } } }, 'm', 't')).toThrow('Cannot annotate tests outside of the test run')
  })
})
