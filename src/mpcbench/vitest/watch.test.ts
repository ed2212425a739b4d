import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createVitest } from 'vitest/node'
import type { Reporter, TestModule, Vitest } from 'vitest/node'
import { mpcbenchWatchTriggerPatterns } from './watch.ts'
import { scaledMs } from '../../testing/time-scale.ts'

const repo = fileURLToPath(new URL('../../../', import.meta.url))
const fixture = join(repo, 'fixtures/mpcbench-watch')

/** An upstream v1 bench file, as `bench/planning/upstream-v1.eval.ts`: upstream's tasks, none of the project's inputs. */
const UPSTREAM_BENCH = "import { test } from 'vitest'\n\ntest('upstream_planning_task [agent=baseline]', () => {})\n"

/** A copy of the fixture in `parent`, with an upstream v1 planning bench beside the project's. */
function fixtureCopy(parent: string): string {
  const root = mkdtempSync(join(parent, 'mpcbench-watch-'))
  cpSync(fixture, root, { recursive: true })
  writeFileSync(join(root, 'bench/planning/upstream-v1.eval.ts'), UPSTREAM_BENCH)
  return root
}

/** Records which test files each watch rerun ran, and resolves a waiter when a run ends. */
class RunRecorder implements Reporter {
  runs: string[][] = []
  private waiting: Array<(files: string[]) => void> = []

  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const files = testModules.map((m) => m.moduleId).sort()
    this.runs.push(files)
    for (const resolve of this.waiting.splice(0)) resolve(files)
  }

  /** The files of the next run to end, or a rejection after `ms` (15 s on an idle machine, see docs/contributing.md). */
  nextRun(ms = scaledMs(15_000)): Promise<string[]> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no watch rerun within ${ms} ms (runs so far: ${JSON.stringify(this.runs)})`)), ms)
      this.waiting.push((files) => {
        clearTimeout(timer)
        resolve(files)
      })
    })
  }
}

describe('MPCBench watch triggers (pure)', () => {
  const root = fixtureCopy(mkdtempSync(join(tmpdir(), 'mpcbench-watch-pure-')))
  const runFor = (file: string, env: Record<string, string | undefined> = {}): string[] | undefined => {
    for (const { pattern, testsToRun } of mpcbenchWatchTriggerPatterns({ root, env })) {
      const match = pattern.exec(join(root, file))
      if (match !== null) return testsToRun(join(root, file), match)?.map((f) => relative(root, f))
    }
    return undefined
  }
  const run = (file: string): string[] | undefined => runFor(file)

  it('maps each input to the bench files it affects', () => {
    expect(run('prompt_config.json')).toEqual([
      'bench/document_generation/document_generation.eval.ts',
      'bench/email_reply/email_reply.eval.ts',
      'bench/planning/planning.eval.ts',
    ])
    expect(run('llm_context/api_usage_guidelines.md')).toEqual(run('prompt_config.json'))
    expect(run('tasks/email_reply/reply_beta.json')).toEqual(['bench/email_reply/email_reply.eval.ts'])
    expect(run('scenarios/alpha.json')).toEqual(['bench/planning/planning.eval.ts'])
    expect(run('scenarios/unused.json')).toBeUndefined()
    expect(run('data/alpha_slack.json')).toBeUndefined()
    expect(run('evaluation/logs/x_run.json')).toBeUndefined()
  })

  it('reruns the upstream v1 benches only for inputs they read: the model config, and prompts named by MPCBENCH_PROMPT_CONFIG / MPCBENCH_LLM_CONTEXT', () => {
    // They run upstream's tasks on upstream's data under upstream's prompts: a task, scenario or prompt edit of this
    // project would rerun them (model calls) for nothing.
    expect(run('tasks/planning/plan_alpha.json')).toEqual(['bench/planning/planning.eval.ts'])
    expect(run('scenarios/alpha.json')).toEqual(['bench/planning/planning.eval.ts'])
    expect(run('prompt_config.json')).not.toContain('bench/planning/upstream-v1.eval.ts')
    expect(run('model_config.json')).toEqual([
      'bench/document_generation/document_generation.eval.ts',
      'bench/email_reply/email_reply.eval.ts',
      'bench/planning/planning.eval.ts',
      'bench/planning/upstream-v1.eval.ts',
    ])
    expect(runFor('prompt_config.json', { MPCBENCH_PROMPT_CONFIG: 'prompt_config.json' })).toContain('bench/planning/upstream-v1.eval.ts')
    expect(runFor('llm_context/api_usage_guidelines.md', { MPCBENCH_LLM_CONTEXT: 'llm_context' })).toContain('bench/planning/upstream-v1.eval.ts')
  })
})

describe('vitest watch mode over fixtures/mpcbench-watch (node API, real file changes)', () => {
  let root: string
  let vitest: Vitest
  const recorder = new RunRecorder()
  const bench = (type: string) => join(root, `bench/${type}/${type}.eval.ts`)

  beforeAll(async () => {
    // A copy at the same depth as the fixture, so its config's `../../src/...` import resolves.
    mkdirSync(join(repo, '.tmp'), { recursive: true })
    root = fixtureCopy(join(repo, '.tmp'))
    vitest = await createVitest('test', { root, watch: true, reporters: [recorder] })
    const first = recorder.nextRun()
    await vitest.start()
    expect(await first).toHaveLength(5)
  })

  afterAll(async () => {
    await vitest?.close()
    if (root !== undefined) rmSync(root, { recursive: true, force: true })
  })

  it('a prompt_config.json edit reruns every MPCBench bench file of this project, not the ART-E or upstream ones', async () => {
    const next = recorder.nextRun()
    writeFileSync(join(root, 'prompt_config.json'), '{"evaluation": {"agent": {"system_message": "v2"}}}\n')
    expect(await next).toEqual([bench('document_generation'), bench('email_reply'), bench('planning')])
  })

  it('generated data/ and evaluation/ files rerun nothing; a task edit reruns only its type (not its upstream bench)', async () => {
    const next = recorder.nextRun()
    writeFileSync(join(root, 'data/alpha_slack.json'), '{"workspace_name": "regenerated", "channels": [], "messages": [], "users": []}\n')
    mkdirSync(join(root, 'evaluation/logs'), { recursive: true })
    writeFileSync(join(root, 'evaluation/logs/plan_alpha__agent-baseline_run.json'), '{}\n')
    writeFileSync(join(root, 'evaluation/summary.json'), '{}\n')
    writeFileSync(join(root, 'tasks/planning/plan_alpha.json'), '{"task_id": "plan_alpha_v2", "data_dependencies": {"scenario_id": "alpha"}}\n')
    expect(await next).toEqual([bench('planning')])
  })

  it('a scenario edit reruns the bench files whose tasks use that scenario', async () => {
    const next = recorder.nextRun()
    writeFileSync(join(root, 'scenarios/beta.json'), '{"scenario_id": "beta", "description": "edited"}\n')
    expect(await next).toEqual([bench('document_generation'), bench('email_reply')])
    // Initial run + one per edit above: the data/ and evaluation/ writes caused no run of their own.
    expect(recorder.runs).toHaveLength(4)
  })

  it('the watcher does not even watch generated scenario data or evaluation output', () => {
    const watched = vitest.vite.watcher.getWatched()
    expect(watched[join(root, 'scenarios')]).toContain('beta.json')
    expect(watched[join(root, 'data')] ?? []).not.toContain('alpha_slack.json')
    expect(watched[join(root, 'evaluation/logs')] ?? []).toEqual([])
  })
})
