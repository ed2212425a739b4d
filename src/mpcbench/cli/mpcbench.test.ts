import { execFile, spawn } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ConfigError, UsageError } from '../../core/errors.ts'
import { packageModule } from '../../core/package-root.ts'
import { FlagValueError } from '../../cli/flags.ts'
import { childEnv } from '../../testing/child-env.ts'
import { scriptedText, startScriptedServer } from '../../testing/scripted-server.ts'
import { RunLogSchema } from '../run/run-log.ts'
import { SummarySchema } from '../summary/summary.ts'
import { TASK_TYPES } from '../tasks/task-types.ts'
import { assertMpcbenchRunSettings, assertTasksToRun, planMpcbenchRun, withMpcbenchReporters } from './mpcbench.ts'
import { scaledMs } from '../../testing/time-scale.ts'

const run = promisify(execFile)
const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url))
const BIN = join(REPO_ROOT, 'bin/agent-bench.js')
const PACKAGE_LINE = /^MPCBench: no (.+) in the current folder: using the package's \(/m

/** Runs `agent-bench` (the built `dist/`) in a child process in `cwd`, with a clean, offline environment. */
async function agentBench(args: string[], cwd: string, env: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [BIN, ...args], { cwd, env: childEnv({ NO_COLOR: '1', ...env }), timeout: scaledMs(110_000) })
    return { code: 0, stdout, stderr }
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string }
    return { code: typeof failed.code === 'number' ? failed.code : -1, stdout: failed.stdout ?? '', stderr: failed.stderr ?? '' }
  }
}

describe('planMpcbenchRun', () => {
  it('maps the flags to the variables the bench reads, paths resolved against the current folder', () => {
    const plan = planMpcbenchRun(
      [
        'planning',
        '--agent-model',
        'a/one',
        '--agent-model',
        'a/two',
        '--judge-model',
        'rules',
        '--tools',
        'extended',
        '--max-turns',
        '9',
        '--trials',
        '3',
        '--resume',
        '--concurrency',
        '2',
        '--prompt-config',
        'p.json',
        '--log-dir',
        'out/logs',
        '-o',
        'out/s.json',
        '-t',
        'lumen',
      ],
      '/project',
    )
    expect(plan).toEqual({
      env: {
        BENCH_AGENT_MODEL: 'a/one,a/two',
        BENCH_JUDGE_MODEL: 'rules',
        MPCBENCH_TOOLS: 'extended',
        MPCBENCH_MAX_TURNS: '9',
        BENCH_TRIALS: '3',
        BENCH_RESUME: '1',
        BENCH_CONCURRENCY: '2',
        MPCBENCH_PROMPT_CONFIG: resolve('/project', 'p.json'),
        MPCBENCH_LOG_DIR: resolve('/project', 'out/logs'),
      },
      taskTypes: ['planning'],
      reporters: [],
      outputFile: { mpcbench: resolve('/project', 'out/s.json') },
      testNamePattern: 'lumen',
    })
    expect(planMpcbenchRun([]).taskTypes).toEqual([...TASK_TYPES])
    expect(planMpcbenchRun(['--agent-url', 'http://127.0.0.1:3000/run', '--agent-timeout-ms', '500']).env).toEqual({
      MPCBENCH_AGENT_URL: 'http://127.0.0.1:3000/run',
      MPCBENCH_AGENT_TIMEOUT_MS: '500',
    })
    expect(planMpcbenchRun(['--reporter=junit', '--outputFile.junit=r.xml'], '/project')).toMatchObject({
      reporters: ['junit'],
      outputFile: { junit: resolve('/project', 'r.xml') },
    })
  })

  it('refuses a task type, a flag value or a pair of flags it cannot take, naming them', () => {
    expect(() => planMpcbenchRun(['plannning'])).toThrow(UsageError)
    expect(() => planMpcbenchRun(['plannning'])).toThrow(
      '"plannning" is not a task type.\n  Fix: Name task types from planning, email_reply, document_generation, or none to run them all.',
    )
    expect(() => planMpcbenchRun(['--tools', 'v2'])).toThrow(FlagValueError)
    expect(() => planMpcbenchRun(['--trials', '0'])).toThrow(FlagValueError)
    expect(() => planMpcbenchRun(['--agent-url', 'notaurl'])).toThrow('Expected `--agent-url` to be an http(s) URL, got "notaurl".')
    expect(() => planMpcbenchRun(['-o', 'a.json', '--outputFile.mpcbench=b.json'])).toThrow(ConfigError)
    const both = planMpcbenchRun(['--agent-url', 'http://127.0.0.1:3000/run', '--agent-model', 'a/one'])
    expect(() => assertMpcbenchRunSettings({ ...both.env }, both)).toThrow(
      '`--agent-model` and an agent URL (--agent-url / MPCBENCH_AGENT_URL) both choose the agent.',
    )
    const timeout = planMpcbenchRun(['--agent-timeout-ms', '5'])
    expect(() => assertMpcbenchRunSettings({ ...timeout.env }, timeout)).toThrow('`--agent-timeout-ms` needs an external agent.')
    // Flags that do not go together are a bad command line (exit 2), as a bad flag value is.
    expect(() => planMpcbenchRun(['-o', 'a.json', '--outputFile.mpcbench=b.json'])).toThrow(FlagValueError)
    expect(() => assertMpcbenchRunSettings({ ...both.env }, both)).toThrow(FlagValueError)
    expect(() => assertMpcbenchRunSettings({ ...timeout.env }, timeout)).toThrow(FlagValueError)
    expect(() => planMpcbenchRun(['--agent-url', 'http://127.0.0.1:3000/run', '--agent-timeout-ms', '0'])).toThrow('Pass e.g. --agent-timeout-ms 120000.')
    expect(() => assertMpcbenchRunSettings({ BENCH_HISTORY_KEEP: 'many' }, planMpcbenchRun([]))).toThrow(/BENCH_HISTORY_KEEP/)
  })

  it('adds the MPCBench reporter and the HTML report to the user reporters, once each', () => {
    const ours = [packageModule('src/mpcbench/vitest/reporter.ts'), packageModule('src/report/report-reporter.ts')]
    expect(withMpcbenchReporters([])).toEqual(['default', ...ours])
    expect(withMpcbenchReporters(['junit', ours[0] ?? ''])).toEqual(['junit', ...ours])
  })
})

describe('assertTasksToRun', () => {
  it('refuses a tasks folder with no task file for the selected types (the run would pass having run nothing)', () => {
    const root = mkdtempSync(join(tmpdir(), 'mpcbench-tasks-'))
    mkdirSync(join(root, 'tasks'))
    writeFileSync(join(root, 'tasks/build.js'), '')
    expect(() => assertTasksToRun(root, ['planning', 'email_reply'])).toThrow(ConfigError)
    expect(() => assertTasksToRun(root, ['planning'])).toThrow(/No MPCBench task to run: no \.json task file in .*tasks\/planning\./)
    mkdirSync(join(root, 'tasks/planning'))
    writeFileSync(join(root, 'tasks/planning/mine.json'), '{}')
    expect(() => assertTasksToRun(root, ['planning', 'email_reply'])).not.toThrow()
    expect(() => assertTasksToRun(root, ['email_reply'])).toThrow(ConfigError)
  })
})

describe('agent-bench mpcbench and the MPCBench commands from a folder outside the repository (child processes)', () => {
  const project = mkdtempSync(join(tmpdir(), 'mpcbench-user-project-'))
  let agent: ReturnType<typeof createServer>
  let agentUrl: string
  const posted: Array<{ taskId?: string }> = []

  beforeAll(async () => {
    if (!existsSync(join(REPO_ROOT, 'dist/main.js'))) throw new Error('dist/ is missing: run `npm run build` first.')
    // An agent of the user's behind HTTP (not ours): it answers every task with one line.
    agent = createServer((request, response) => {
      let body = ''
      request.on('data', (chunk: Buffer) => void (body += chunk.toString('utf8')))
      request.on('end', () => {
        posted.push(JSON.parse(body) as { taskId?: string })
        response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ answer: 'Thursday 10:00 works for everyone.' }))
      })
    })
    await new Promise<void>((done) => agent.listen(0, '127.0.0.1', done))
    agentUrl = `http://127.0.0.1:${(agent.address() as AddressInfo).port}/run`
  })

  afterAll(async () => {
    // Not started when the beforeAll failed (no dist/): waiting on it would hang the hook until its timeout.
    if (agent !== undefined) await new Promise((done) => agent.close(done))
  })

  it(
    "runs the package's benchmark offline, writing logs, summary, history and report under the current folder, which `agent-bench report` then finds",
    async () => {
      expect(resolve(project).startsWith(resolve(REPO_ROOT))).toBe(false)
      const { code, stdout, stderr } = await agentBench(['mpcbench'], project, { CI: '1', BENCH_HISTORY_DIR: 'evaluation/history' })
      expect(code, stderr).toBe(0)
      expect(PACKAGE_LINE.exec(stderr)?.[1]).toBe('tasks/, scenarios/, data/, prompt_config.json, model_config.json')
      expect(stdout).toMatch(/^agent {2}.*judge {2}.*task type/m)
      for (const type of TASK_TYPES) expect(stdout).toMatch(new RegExp(`^baseline \\(non-LLM\\) +rules \\(non-LLM\\) +${type} `, 'm'))
      expect(stdout).toContain(`Summary written to ${join(project, 'evaluation/summary.json')}`)
      const summary = SummarySchema.parse(JSON.parse(readFileSync(join(project, 'evaluation/summary.json'), 'utf8')))
      const tasks = readdirSync(join(REPO_ROOT, 'tasks')).flatMap((type) => (type.endsWith('.md') ? [] : readdirSync(join(REPO_ROOT, 'tasks', type))))
      expect(summary.task_counts).toEqual({ selected: tasks.length, completed: tasks.length, failed: 0, not_run: 0 })
      const logs = readdirSync(join(project, 'evaluation/logs'))
      expect(logs.filter((name) => name.endsWith('_run.json'))).toHaveLength(tasks.length)
      expect(logs.filter((name) => name.endsWith('__judge-rules_judge_result.json'))).toHaveLength(tasks.length)
      expect(existsSync(join(project, 'evaluation/report/index.html'))).toBe(true)
      const history = readdirSync(join(project, 'evaluation/history'))
      expect(history).toHaveLength(1)
      expect(readdirSync(join(project, 'evaluation/history', history[0] ?? ''))).toContain('mpcbench-summary.json')
      // Besides Vitest's own cache (node_modules/.vite), the run writes only under evaluation/.
      expect(readdirSync(project).filter((name) => name !== 'node_modules')).toEqual(['evaluation'])

      const report = await agentBench(['report'], project)
      expect(report.code, report.stderr).toBe(0)
      expect(`${report.stdout}${report.stderr}`).not.toContain('not found')
      expect(readFileSync(join(project, 'evaluation/report/index.html'), 'utf8')).not.toContain('run log(s) not found')
    },
    scaledMs(240_000),
  )

  it(
    'Ctrl-C writes what finished once (one summary, one history entry), exits 130 and says to rerun with --resume',
    async () => {
      const folder = mkdtempSync(join(tmpdir(), 'mpcbench-user-interrupt-'))
      let onRequest = (): void => {}
      // Every model reply waits ten minutes (never reached): the run is interrupted while the agents wait on the model,
      // so a run that waited for the replies would not end within this test's timeout.
      await using server = await startScriptedServer(() => {
        onRequest()
        return { ...scriptedText(JSON.stringify({ final_answer: 'late', rationale: 'late' })), delayMs: 600_000 }
      })
      const env = childEnv({
        NO_COLOR: '1',
        CI: '1',
        BENCH_HISTORY_DIR: 'evaluation/history',
        OPENAI_BASE_URL: server.baseURL,
        OPENAI_API_KEY: 'test-key',
        BENCH_LLM_LOG_DIR: 'off',
        BENCH_CACHE: 'off',
        BENCH_LLM_MAX_RETRIES: '0',
      })
      const child = spawn(process.execPath, [BIN, 'mpcbench', 'planning', '--agent-model', 'scripted/agent', '--judge-model', 'rules'], {
        cwd: folder,
        env,
        detached: true,
      })
      let output = ''
      child.stdout.on('data', (chunk: Buffer) => void (output += chunk.toString('utf8')))
      child.stderr.on('data', (chunk: Buffer) => void (output += chunk.toString('utf8')))
      const exited = new Promise<number | null>((done) => child.on('exit', (code) => done(code)))
      // Ctrl+C in a terminal: SIGINT to the whole process group, once the first agent waits on the model.
      onRequest = () => {
        onRequest = () => {}
        if (child.pid !== undefined) process.kill(-child.pid, 'SIGINT')
      }
      try {
        expect(await exited, output).toBe(130)
      } finally {
        // The child has its own process group: a test that fails before its exit must not leave the run going.
        if (child.pid !== undefined && child.exitCode === null && child.signalCode === null) process.kill(-child.pid, 'SIGKILL')
      }
      expect(output).toContain('run the same command again with --resume added')
      expect(output.match(/^MPCBench: mean scores/gm), output).toHaveLength(1)
      expect(readdirSync(join(folder, 'evaluation/history')), 'one history entry for the interrupted run').toHaveLength(1)
      const summary = SummarySchema.parse(JSON.parse(readFileSync(join(folder, 'evaluation/summary.json'), 'utf8')))
      expect(summary.task_counts?.not_run).toBeGreaterThan(0)
    },
    scaledMs(120_000),
  )

  it(
    'runs one task type, filtered by name, with your agent behind HTTP (--agent-url)',
    async () => {
      const folder = mkdtempSync(join(tmpdir(), 'mpcbench-user-agent-'))
      posted.length = 0
      const { code, stdout, stderr } = await agentBench(['mpcbench', 'planning', '-t', 'lumen_release_sync', '--agent-url', agentUrl], folder, { CI: '1' })
      expect(code, stderr).toBe(0)
      expect(posted.map((body) => body.taskId)).toEqual(['lumen_release_sync_planning'])
      expect(stdout).toMatch(new RegExp(`^agent:${agentUrl.replaceAll('.', '\\.')} +rules \\(non-LLM\\) +planning `, 'm'))
      expect(readdirSync(join(folder, 'evaluation/logs')).filter((name) => name.endsWith('_run.json'))).toEqual([
        expect.stringMatching(/^lumen_release_sync_planning__agent-agent_http/),
      ])
    },
    scaledMs(240_000),
  )

  it(
    "run-task, run-and-judge (--agent-url too), tool and mcp use the package's task, data and configs when the folder has none, saying so",
    async () => {
      const folder = mkdtempSync(join(tmpdir(), 'mpcbench-user-cli-'))
      const task = 'tasks/planning/lumen_release_sync_planning.json'
      const runTask = await agentBench(['run-task', '--task', task], folder)
      expect(runTask.code, runTask.stderr).toBe(0)
      expect(PACKAGE_LINE.exec(runTask.stderr)?.[1]).toBe(`${task}, data/, prompt_config.json, model_config.json`)
      const runLog = RunLogSchema.parse(JSON.parse(readFileSync(join(folder, 'evaluation/logs/lumen_release_sync_planning__agent-baseline_run.json'), 'utf8')))
      expect(runLog.outcome.kind).toBe('answered')

      posted.length = 0
      const judged = await agentBench(['run-and-judge', '--task', task, '--agent-url', agentUrl], folder)
      expect(judged.code, judged.stderr).toBe(0)
      expect(posted.map((body) => body.taskId)).toEqual(['lumen_release_sync_planning'])
      expect(judged.stdout).toContain(`agent agent:${agentUrl}: answered`)
      expect(judged.stdout).toMatch(/judge rules \(not an LLM\): answer_requirements_satisfaction \d\/5/)

      const tool = await agentBench(
        ['tool', '--scenario-id', 'lumen_robotics', '--name', 'GoogleContacts_SearchContactsByName', '--args', '{"name": "a"}'],
        folder,
      )
      expect(tool.code, tool.stderr).toBe(0)
      expect(PACKAGE_LINE.exec(tool.stderr)?.[1]).toBe('data/')
      expect(JSON.parse(tool.stdout)).toBeTypeOf('object')

      const transport = new StdioClientTransport({
        command: process.execPath,
        args: [BIN, 'mcp', '--data-dir', 'data', '--scenario-id', 'lumen_robotics', '--quiet'],
        cwd: folder,
        env: childEnv(),
        stderr: 'pipe',
      })
      const client = new Client({ name: 'mpcbench-cli-test', version: '1.0.0' })
      await client.connect(transport)
      try {
        expect((await client.listTools()).tools.map((t) => t.name)).toContain('Slack_search_messages')
      } finally {
        await client.close()
      }
      expect(readdirSync(folder)).toEqual(['evaluation'])
    },
    scaledMs(240_000),
  )

  it(
    'mcp and tool without data for --scenario-id name their own flags, not a task field',
    async () => {
      const folder = mkdtempSync(join(tmpdir(), 'mpcbench-user-noscenario-'))
      const mcp = await agentBench(['mcp', '--data-dir', 'data', '--scenario-id', 'lumen_robotic'], folder)
      expect(mcp.code).toBe(1)
      expect(mcp.stderr).toContain('No scenario "lumen_robotic" in --data-dir ')
      expect(mcp.stderr).toContain(
        'Fix: Pass --scenario-id lumen_robotics or --scenario-id tidewater_clinics (the scenarios with data there), or another --data-dir.',
      )
      expect(mcp.stderr).not.toContain('data_dependencies')
      const tool = await agentBench(['tool', '--data-dir', folder, '--scenario-id', 'lumen_robotics', '--name', 'Slack_search_messages'], folder)
      expect(tool.code).toBe(2)
      expect(tool.stderr).toContain(`no scenario "lumen_robotics" in --data-dir ${folder}`)
      expect(tool.stderr).toContain('Pass --data-dir a folder of {ID}_{source}.json files')
    },
    scaledMs(120_000),
  )
})
