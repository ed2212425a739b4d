import { Writable } from 'node:stream'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { startVitest } from 'vitest/node'

const root = fileURLToPath(new URL('../../fixtures/describe-eval-threshold/', import.meta.url))
const quiet = () => new Writable({ write: (_chunk, _encoding, done) => done() })

describe('describeEval threshold: a case whose mean score is exactly the threshold meets it', () => {
  it('passes a mean equal to the threshold (given, or the default 1) and fails one just below it', async () => {
    const vitest = await startVitest('test', [], { root, watch: false, reporters: [] }, {}, { stdout: quiet(), stderr: quiet() })
    await vitest.close()
    const tests = vitest.state.getTestModules().flatMap((module) => [...module.children.allTests()])
    const states = Object.fromEntries(tests.map((test) => [test.fullName, [test.meta().eval?.mean, test.result().state]]))
    expect(states).toEqual({
      'half at 0.5 > 1: a': [0.5, 'passed'],
      'perfect at the default threshold > 1: a': [1, 'passed'],
      'just below 0.5 > 1: a': [0.49, 'failed'],
    })
  })
})
