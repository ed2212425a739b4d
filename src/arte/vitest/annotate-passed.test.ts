import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { fixtureEnv, fixtureResponder, runFixtureVitest, scratchDir } from '../../../fixtures/arte-e2e/harness.ts'
import { type ScriptedServer, startScriptedServer } from '../../testing/scripted-server.ts'
import { ArteReporter } from './reporter.ts'

describe('ART-E annotations only where a reporter reads them (fixture project, scripted server)', () => {
  let server: ScriptedServer
  const scratch = scratchDir('arte-annotate-passed')

  beforeAll(async () => {
    server = await startScriptedServer(fixtureResponder())
  })

  afterAll(async () => {
    await server?.close()
    scratch.remove()
  })

  it('without a reader (the ART-E reporter alone) annotates only the failed test, which the default reporter prints', async () => {
    const run = await runFixtureVitest(fixtureEnv(server.baseURL, scratch.dir), { reporters: [new ArteReporter({ silent: true })] })
    expect(run.tests.map((test) => `${test.name}:${test.state}:${test.annotations.length}`)).toEqual([
      '101:passed:0',
      '102:passed:0',
      '103:passed:0',
      '104:failed:1',
    ])
    expect(run.tests[3]?.annotations[0]).toMatch(/^arte: EM=0 J=0\.00 max-turns in 2 turn\(s\)/)
  })

  it('with a reader (JUnit) annotates every test with its scores', async () => {
    const run = await runFixtureVitest(fixtureEnv(server.baseURL, scratch.dir, { ARTE_TRACES_DB: `${scratch.dir}/traces-2.db` }), {
      reporters: [['junit', { outputFile: `${scratch.dir}/junit.xml` }], new ArteReporter({ silent: true })],
    })
    expect(run.tests.map((test) => `${test.name}:${test.annotations.length}`)).toEqual(['101:1', '102:1', '103:1', '104:1'])
    expect(run.tests[0]?.annotations[0]).toMatch(/^arte: EM=1 J=1\.00 answered in 2 turn\(s\)/)
  })
})
