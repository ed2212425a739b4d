import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { basename, join } from 'node:path'
import { Writable } from 'node:stream'
import { fileURLToPath } from 'node:url'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { startVitest } from 'vitest/node'
import { invalidTaskTestName } from './define-mpcbench-bench.ts'
import { scaledMs } from '../../testing/time-scale.ts'

const repo = fileURLToPath(new URL('../../../', import.meta.url))
const quiet = () => new Writable({ write: (_chunk, _encoding, done) => done() })

afterEach(() => {
  vi.unstubAllEnvs()
})

/**
 * A project root with the shipped prompt config, the lumen_robotics scenario and two of its planning tasks, plus a
 * second planning file repeating one task's id, an email_reply file repeating the other's, and a task whose
 * scenario has no data.
 */
function project(): string {
  const root = mkdtempSync(join(tmpdir(), 'mpc-bench-input-'))
  mkdirSync(join(root, 'scenarios'))
  mkdirSync(join(root, 'tasks', 'planning'), { recursive: true })
  mkdirSync(join(root, 'tasks', 'email_reply'), { recursive: true })
  copyFileSync(join(repo, 'prompt_config.json'), join(root, 'prompt_config.json'))
  copyFileSync(join(repo, 'scenarios', 'lumen_robotics.json'), join(root, 'scenarios', 'lumen_robotics.json'))
  const read = (name: string) => JSON.parse(readFileSync(join(repo, 'tasks', 'planning', name), 'utf8')) as Record<string, unknown>
  for (const name of ['lumen_release_sync_planning.json', 'lumen_charger_order_checkin_planning.json'])
    copyFileSync(join(repo, 'tasks', 'planning', name), join(root, 'tasks', 'planning', name))
  writeFileSync(join(root, 'tasks', 'planning', 'zz_dup.json'), JSON.stringify(read('lumen_release_sync_planning.json')))
  writeFileSync(
    join(root, 'tasks', 'email_reply', 'aa_reply.json'),
    JSON.stringify({ ...read('lumen_charger_order_checkin_planning.json'), task_type: 'email_reply' }),
  )
  const release = read('lumen_release_sync_planning.json')
  writeFileSync(
    join(root, 'tasks', 'planning', 'no_data.json'),
    JSON.stringify({ ...release, task_id: 'no_data', data_dependencies: { scenario_id: 'nosuch' } }),
  )
  writeFileSync(
    join(root, 'planning.eval.ts'),
    `import { defineMpcbenchBench } from ${JSON.stringify(join(repo, 'src/mpcbench/vitest/define-mpcbench-bench.ts'))}\ndefineMpcbenchBench({ taskType: 'planning', root: ${JSON.stringify(root)} })\n`,
  )
  return root
}

async function run(root: string) {
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
    'MPCBENCH_MODEL_CONFIG',
  ])
    vi.stubEnv(name, '')
  vi.stubEnv('BENCH_LLM_LOG_DIR', 'off')
  const vitest = await startVitest(
    'test',
    [],
    { root, include: ['*.eval.ts'], globalSetup: [join(repo, 'src/mpcbench/vitest/global-setup.ts')], watch: false, reporters: [{}], config: false },
    {},
    { stdout: quiet(), stderr: quiet() },
  )
  await vitest.close()
  const tests = vitest.state
    .getTestModules()
    .flatMap((module) =>
      [...module.children.allTests()].map((test) => ({ name: test.name, state: test.result().state, error: test.result().errors?.[0]?.message ?? '' })),
    )
  const moduleErrors = vitest.state.getTestModules().flatMap((module) => module.errors().map((error) => error.message))
  return { byName: Object.fromEntries(tests.map((test) => [test.name, test])), moduleErrors }
}

describe('defineMpcbenchBench on bad task input', () => {
  it(
    'fails a task file that repeats an earlier task_id (same or other folder) and a task whose scenario has no data, saying which and why',
    async () => {
      const root = project()
      vi.stubEnv('MPCBENCH_LOG_DIR', join(root, 'logs'))
      const { byName } = await run(root)
      expect(Object.keys(byName).sort()).toEqual([
        invalidTaskTestName('tasks/planning/lumen_charger_order_checkin_planning.json'),
        invalidTaskTestName('tasks/planning/zz_dup.json'),
        'lumen_release_sync_planning [agent=baseline]',
        'no_data [agent=baseline]',
      ])
      expect(byName['lumen_release_sync_planning [agent=baseline]']?.state).toBe('passed')
      expect(byName[invalidTaskTestName('tasks/planning/zz_dup.json')]).toMatchObject({
        state: 'failed',
        error: expect.stringContaining(
          'Task tasks/planning/zz_dup.json has task_id "lumen_release_sync_planning", which tasks/planning/lumen_release_sync_planning.json already has',
        ),
      })
      expect(byName[invalidTaskTestName('tasks/planning/lumen_charger_order_checkin_planning.json')]).toMatchObject({
        state: 'failed',
        error: expect.stringContaining('which tasks/email_reply/aa_reply.json already has'),
      })
      const noData = byName['no_data [agent=baseline]']
      expect(noData?.state).toBe('failed')
      expect(noData?.error).toContain('data_dependencies.scenario_id "nosuch" of task tasks/planning/no_data.json names a scenario with no data')
      expect(noData?.error).toContain('to a scenario with data (lumen_robotics)')
      expect(noData?.error).not.toContain('<id>')
    },
    scaledMs(120_000),
  )

  it(
    'refuses a log folder that cannot be written before any task runs, naming MPCBENCH_LOG_DIR',
    async () => {
      const root = project()
      vi.stubEnv('MPCBENCH_LOG_DIR', '/dev/null/logs')
      const { byName, moduleErrors } = await run(root)
      expect(byName).toEqual({})
      expect(moduleErrors.join('\n')).toContain('Cannot write MPCBench logs to /dev/null/logs (MPCBENCH_LOG_DIR=/dev/null/logs): /dev/null is not a folder.')
    },
    scaledMs(120_000),
  )
})

/** A project root with copies of the shipped scenarios and a planning bench file over `root`; `tasks` copies one task too. */
function projectWith(options: { tasks: boolean }): string {
  const root = mkdtempSync(join(tmpdir(), 'mpc-bench-root-'))
  mkdirSync(join(root, 'scenarios'))
  for (const id of ['lumen_robotics', 'tidewater_clinics']) copyFileSync(join(repo, 'scenarios', `${id}.json`), join(root, 'scenarios', `${id}.json`))
  if (options.tasks) {
    mkdirSync(join(root, 'tasks', 'planning'), { recursive: true })
    copyFileSync(join(repo, 'tasks', 'planning', 'lumen_release_sync_planning.json'), join(root, 'tasks', 'planning', 'lumen_release_sync_planning.json'))
    copyFileSync(join(repo, 'prompt_config.json'), join(root, 'prompt_config.json'))
  }
  writeFileSync(
    join(root, 'planning.eval.ts'),
    `import { defineMpcbenchBench } from ${JSON.stringify(join(repo, 'src/mpcbench/vitest/define-mpcbench-bench.ts'))}\ndefineMpcbenchBench({ taskType: 'planning', root: ${JSON.stringify(root)} })\n`,
  )
  return root
}

/** A relative `MPCBENCH_LOG_DIR` under `.tmp/` of the working directory, removed after `body`. */
async function withRelativeLogDir(root: string, body: (logDir: string) => Promise<void>): Promise<void> {
  const logDir = join('.tmp', basename(root), 'logs')
  vi.stubEnv('MPCBENCH_LOG_DIR', logDir)
  try {
    await body(logDir)
  } finally {
    rmSync(join(process.cwd(), '.tmp', basename(root)), { recursive: true, force: true })
  }
}

describe('defineMpcbenchBench with a root other than the working directory', () => {
  it(
    "resolves MPCBENCH_LOG_DIR against the working directory of the run (where the summary and report go), not the bench file's root",
    async () => {
      const root = projectWith({ tasks: true })
      await withRelativeLogDir(root, async (logDir) => {
        const { byName } = await run(root)
        expect(byName['lumen_release_sync_planning [agent=baseline]']?.state).toBe('passed')
        expect(readdirSync(join(process.cwd(), logDir))).toContain('lumen_release_sync_planning__agent-baseline_run.json')
        expect(existsSync(join(root, logDir))).toBe(false)
      })
    },
    scaledMs(120_000),
  )

  it(
    "runs the package's tasks with the package's prompt config when the root has none",
    async () => {
      const root = projectWith({ tasks: false })
      await withRelativeLogDir(root, async (logDir) => {
        const { byName } = await run(root)
        const files = readdirSync(join(repo, 'tasks', 'planning')).sort()
        const shipped = files.map((file) => (JSON.parse(readFileSync(join(repo, 'tasks', 'planning', file), 'utf8')) as { task_id: string }).task_id)
        expect(Object.keys(byName).sort()).toEqual(shipped.map((id) => `${id} [agent=baseline]`).sort())
        expect(Object.values(byName).map((test) => test.state)).toEqual(shipped.map(() => 'passed'))
        const runLog = JSON.parse(readFileSync(join(process.cwd(), logDir, `${shipped[0]}__agent-baseline_run.json`), 'utf8')) as { task_file: string }
        expect(runLog.task_file).toBe(`tasks/planning/${files[0]}`)
      })
    },
    scaledMs(120_000),
  )
})
