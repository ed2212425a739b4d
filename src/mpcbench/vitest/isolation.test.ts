import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Writable } from 'node:stream'
import { fileURLToPath } from 'node:url'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { startVitest } from 'vitest/node'
import { SummarySchema } from '../summary/summary.ts'
import { invalidTaskTestName } from './define-mpcbench-bench.ts'
import { scaledMs } from '../../testing/time-scale.ts'
import MpcbenchReporter from './reporter.ts'

const repo = fileURLToPath(new URL('../../../', import.meta.url))
const quiet = () => new Writable({ write: (_chunk, _encoding, done) => done() })

afterEach(() => {
  vi.unstubAllEnvs()
})

/** A project root with the shipped prompt config, the two scenarios (tidewater's time zone broken) and planning tasks. */
function project(): string {
  const root = mkdtempSync(join(tmpdir(), 'mpc-isolation-'))
  mkdirSync(join(root, 'scenarios'))
  mkdirSync(join(root, 'tasks', 'planning'), { recursive: true })
  copyFileSync(join(repo, 'prompt_config.json'), join(root, 'prompt_config.json'))
  copyFileSync(join(repo, 'scenarios', 'lumen_robotics.json'), join(root, 'scenarios', 'lumen_robotics.json'))
  const tidewater = readFileSync(join(repo, 'scenarios', 'tidewater_clinics.json'), 'utf8')
  writeFileSync(join(root, 'scenarios', 'tidewater_clinics.json'), tidewater.replace(/"timezone":\s*"[^"]+"/, '"timezone": "Mars/Olympus_Mons"'))
  for (const name of ['lumen_release_sync_planning.json', 'lumen_charger_order_checkin_planning.json', 'tidewater_portal_sync_planning.json']) {
    copyFileSync(join(repo, 'tasks', 'planning', name), join(root, 'tasks', 'planning', name))
  }
  const good = JSON.parse(readFileSync(join(repo, 'tasks', 'planning', 'lumen_release_sync_planning.json'), 'utf8'))
  writeFileSync(join(root, 'tasks', 'planning', 'broken.json'), JSON.stringify({ ...good, task_id: 'broken', answer_requirements: [] }))
  writeFileSync(
    join(root, 'tasks', 'planning', 'escape.json'),
    JSON.stringify({ ...good, task_id: 'escape', data_dependencies: { scenario_id: '../../x/evil' } }),
  )
  writeFileSync(
    join(root, 'planning.eval.ts'),
    `import { defineMpcbenchBench } from ${JSON.stringify(join(repo, 'src/mpcbench/vitest/define-mpcbench-bench.ts'))}\ndefineMpcbenchBench({ taskType: 'planning', root: ${JSON.stringify(root)} })\n`,
  )
  return root
}

describe('bad MPCBench input fails only its own tests', () => {
  it(
    'an invalid task file, a scenario_id that escapes data/, and a bad scenario fail their tests; the rest pass',
    async () => {
      const root = project()
      for (const name of [
        'OPENAI_API_KEY',
        'ANTHROPIC_API_KEY',
        'GEMINI_API_KEY',
        'OPENAI_BASE_URL',
        'BENCH_AGENT_MODEL',
        'BENCH_JUDGE_MODEL',
        'MPCBENCH_SCENARIOS',
        'MPCBENCH_DATA_DIR',
        'MPCBENCH_SCENARIOS_DIR',
      ])
        vi.stubEnv(name, '')
      vi.stubEnv('MPCBENCH_LOG_DIR', join(root, 'logs'))
      vi.stubEnv('BENCH_LLM_LOG_DIR', 'off')
      const vitest = await startVitest(
        'test',
        [],
        {
          root,
          include: ['*.eval.ts'],
          globalSetup: [join(repo, 'src/mpcbench/vitest/global-setup.ts')],
          watch: false,
          reporters: [new MpcbenchReporter({ outputFile: join(root, 'summary.json'), print: false, history: false })],
          config: false,
        },
        {},
        { stdout: quiet(), stderr: quiet() },
      )
      await vitest.close()
      const results = vitest.state
        .getTestModules()
        .flatMap((module) =>
          [...module.children.allTests()].map((test) => ({ name: test.name, state: test.result().state, error: test.result().errors?.[0]?.message ?? '' })),
        )
      const byName = Object.fromEntries(results.map((result) => [result.name, result]))
      expect(Object.keys(byName).sort()).toEqual([
        invalidTaskTestName('tasks/planning/broken.json'),
        invalidTaskTestName('tasks/planning/escape.json'),
        'lumen_charger_order_checkin_planning [agent=baseline]',
        'lumen_release_sync_planning [agent=baseline]',
        'tidewater_portal_sync_planning [agent=baseline]',
      ])
      expect(byName['lumen_release_sync_planning [agent=baseline]']?.state).toBe('passed')
      expect(byName['lumen_charger_order_checkin_planning [agent=baseline]']?.state).toBe('passed')
      expect(byName[invalidTaskTestName('tasks/planning/broken.json')]).toMatchObject({
        state: 'failed',
        error: expect.stringMatching(/broken\.json[\s\S]*answer_requirements/),
      })
      expect(byName[invalidTaskTestName('tasks/planning/escape.json')]).toMatchObject({
        state: 'failed',
        error: expect.stringMatching(/escape\.json[\s\S]*data_dependencies\.scenario_id/),
      })
      expect(byName['tidewater_portal_sync_planning [agent=baseline]']).toMatchObject({
        state: 'failed',
        error: expect.stringMatching(/Scenario tidewater_clinics[\s\S]*timezone/),
      })
      // The invalid task files are counted in the summary, each with why.
      const summary = SummarySchema.parse(JSON.parse(readFileSync(join(root, 'summary.json'), 'utf8')))
      expect(summary.task_counts).toEqual({ selected: 3, completed: 2, failed: 1, not_run: 0, invalid: 2 })
      expect(summary.invalid_task_files?.map((file) => [file.task_file, file.task_type])).toEqual([
        ['tasks/planning/broken.json', 'planning'],
        ['tasks/planning/escape.json', 'planning'],
      ])
      expect(summary.invalid_task_files?.[0]?.message).toMatch(/answer_requirements/)
    },
    scaledMs(120_000),
  )
})
