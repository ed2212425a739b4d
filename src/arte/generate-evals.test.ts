import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { REPO_ROOT, fixtureEnv, fixtureResponder, runFixtureVitest, scratchDir } from '../../fixtures/arte-e2e/harness.ts'
import ArteReporter from './vitest/reporter.ts'
import { type ScriptedServer, startScriptedServer } from '../testing/scripted-server.ts'
import { applyCheck } from './vitest/regression.ts'
import { ARTE_REGRESSION_MODULE, bucketOf, deriveCheck, generateEvals, planEvals, regressionImport, runInstructions } from './generate-evals.ts'
import { readArteResults } from './results/results.ts'

describe('bucketOf', () => {
  it('buckets as the ART-E doc: > 0.8 high, 0.5-0.8 medium, < 0.5 low', () => {
    expect([1, 0.81, 0.8, 0.5, 0.49, 0].map(bucketOf)).toEqual(['high', 'high', 'medium', 'medium', 'low', 'low'])
  })
})

describe('deriveCheck', () => {
  it('checks short answers exactly and long ones by keywords', () => {
    expect(deriveCheck('Room 4B')).toEqual({ kind: 'exact', expected: 'Room 4B' })
    expect(deriveCheck('Q3 Budget Report')).toEqual({ kind: 'exact', expected: 'Q3 Budget Report' })
    expect(deriveCheck('The launch party is at the old warehouse')).toEqual({ kind: 'keywords', keywords: ['launch', 'party', 'old', 'warehouse'] })
  })

  it('applies checks the way the scorer normalizes', () => {
    expect(applyCheck({ kind: 'exact', expected: 'Room 4B' }, '  room   4b ')).toEqual({ passed: true, missing: [] })
    expect(applyCheck({ kind: 'exact', expected: 'Room 4B' }, 'Room 4')).toEqual({ passed: false, missing: ['Room 4B'] })
    expect(applyCheck({ kind: 'keywords', keywords: ['old', 'warehouse'] }, 'At the Old Warehouse.')).toEqual({ passed: true, missing: [] })
    expect(applyCheck({ kind: 'keywords', keywords: ['old', 'warehouse'] }, 'the warehouse')).toEqual({ passed: false, missing: ['old'] })
  })
})

describe('regressionImport', () => {
  it("imports the runtime by a relative path inside this package's folder, by the package's exported path elsewhere", () => {
    expect(regressionImport(join(REPO_ROOT, 'bench/generated'))).toBe('../../src/arte/vitest/regression.ts')
    expect(regressionImport(mkdtempSync(join(tmpdir(), 'generated-')))).toBe(ARTE_REGRESSION_MODULE)
    expect(regressionImport(join(tmpdir(), 'not-yet', 'generated'))).toBe(ARTE_REGRESSION_MODULE)
  })

  it("imports a path package.json exports, whose target is the runtime's compiled twin", () => {
    const { exports } = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { exports: Record<string, { default?: string; types?: string }> }
    expect(exports[ARTE_REGRESSION_MODULE.replace(/^vitest-agent-bench/, '.')]).toEqual({
      types: './dist/arte/vitest/regression.d.ts',
      default: './dist/arte/vitest/regression.js',
    })
  })
})

describe('runInstructions', () => {
  it("in this package's checkout, names the bench project of its Vitest config", () => {
    expect(runInstructions('bench/generated', REPO_ROOT)).toEqual(['Run them with `npx vitest run --project bench bench/generated`.'])
  })

  it("in a user's project, gives the include and the ART-E global setup their Vitest config needs, and the run command", () => {
    const text = runInstructions('evals/generated', mkdtempSync(join(tmpdir(), 'project-'))).join('\n')
    expect(text).toContain("include: ['evals/generated/*.eval.ts'],")
    expect(text).toContain("globalSetup: ['vitest-agent-bench/vitest/arte-setup'],")
    expect(text).toContain('`npx vitest run evals/generated`')
    expect(text).not.toContain('--project bench')
  })
})

describe('generate-evals end to end', () => {
  let server: ScriptedServer
  const scratch = scratchDir('arte-generate')
  let env: Record<string, string>
  const resultsFile = () => join(scratch.dir, 'results.json')

  beforeAll(async () => {
    server = await startScriptedServer(fixtureResponder())
    env = fixtureEnv(server.baseURL, scratch.dir)
    await runFixtureVitest(env, { reporters: [new ArteReporter({ silent: true })] })
  })

  afterAll(async () => {
    await server?.close()
    scratch.remove()
  })

  it('plans one case per task in the bucket of its score', () => {
    const plan = planEvals(readArteResults(resultsFile()))
    expect(plan.high.map((item) => item.taskId)).toEqual(['101'])
    expect(plan.medium.map((item) => item.taskId)).toEqual(['102'])
    expect(plan.low.map((item) => item.taskId)).toEqual(['103', '104'])
    expect(plan.medium[0]).toMatchObject({ check: { kind: 'exact', expected: 'Harbor Street Deli' }, source: { agentAnswer: 'Harbor Deli' } })
  })

  it('writes eval files that run under vitest and name their source traces', async () => {
    const outDir = join(scratch.dir, 'generated')
    const files = generateEvals({ resultsFile: resultsFile(), outDir })
    expect(files.map((file) => [file.bucket, file.cases])).toEqual([
      ['high', 1],
      ['medium', 1],
      ['low', 2],
    ])
    const results = readArteResults(resultsFile())
    const low = readFileSync(join(outDir, 'arte-low.eval.ts'), 'utf8')
    expect(low).toContain("import { defineArteRegressionTests } from '../../../src/arte/vitest/regression.ts'")
    for (const task of results.taskResults.filter((t) => t.semanticScore < 0.5)) expect(low).toContain(`"sourceTraceId": "${task.traceId}"`)

    const junit = join(scratch.dir, 'generated.xml')
    const run = await runFixtureVitest(env, {
      include: [`${relative(REPO_ROOT, outDir)}/*.eval.ts`],
      reporters: [['junit', { outputFile: junit }]],
    })
    expect(run.tests.map((test) => `${test.name}:${test.state}`).sort()).toEqual(['101:passed', '102:failed', '103:failed', '104:failed'])
    const room = run.tests.find((test) => test.name === '101')!
    const source = results.taskResults.find((task) => task.taskId === '101')!.traceId
    expect(room.annotations).toContain(`arte-source: high: generated from trace ${source} (answer "room 4b", J=1.00)`)
    const xml = readFileSync(junit, 'utf8')
    expect(xml).toContain(`<property name="arte-source" value="high: generated from trace ${source}`)
    expect(xml).toMatch(/task 102: expected the answer to contain exactly &quot;Harbor Street Deli&quot;; got &quot;Harbor Deli&quot;/)
  })
})
