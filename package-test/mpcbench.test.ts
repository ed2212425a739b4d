/**
 * MPCBench from the installed package, as a user runs it: packs the tarball, installs it into a temporary project
 * and runs (f) `agent-bench mpcbench` there (the package's bench files, tasks, scenarios, data and configs; outputs
 * under the project), (g) `run-task`, `run-and-judge --agent-url`, `tool` and `mcp` on the package's task and data,
 * and (h) a consumer's own Vitest config over `defineMpcbenchBench({ root: 'node_modules/vitest-agent-bench' })`,
 * whose logs land beside its summary so `agent-bench report` finds them. Needs `dist/` (`npm run test:package` builds it).
 */
import { execFile } from 'node:child_process'
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify, stripVTControlCharacters } from 'node:util'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { scaledMs } from '../src/testing/time-scale.ts'

const run = promisify(execFile)
const repo = fileURLToPath(new URL('..', import.meta.url))
const repoModule = (name: string) => join(repo, 'node_modules', name)
const versionOf = (dir: string): string => (JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { version: string }).version

/** The environment without the `npm_*` variables of an enclosing `npm run`, API keys and the test run's Vitest variables. */
function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !name.toLowerCase().startsWith('npm_') && !name.startsWith('MPCBENCH_') && !name.startsWith('BENCH_')),
  )
  for (const name of [
    'OPENAI_API_KEY',
    'ANTHROPIC_API_KEY',
    'GEMINI_API_KEY',
    'OPENAI_BASE_URL',
    'VITEST',
    'VITEST_MODE',
    'VITEST_POOL_ID',
    'VITEST_WORKER_ID',
    'TEST',
    'NODE_ENV',
  ])
    delete env[name]
  return { ...env, NO_COLOR: '1', CI: '1', ...extra }
}

let project: string
let bin: string
const installed = () => join(project, 'node_modules/vitest-agent-bench')

/** Runs the installed `agent-bench` in `cwd`; its exit code, stdout and stderr. */
async function agentBench(args: string[], cwd: string, env: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(bin, args, { cwd, env: cleanEnv(env), maxBuffer: 64 * 1024 * 1024 })
    return { code: 0, stdout: stripVTControlCharacters(stdout), stderr: stripVTControlCharacters(stderr) }
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string }
    return {
      code: typeof failed.code === 'number' ? failed.code : -1,
      stdout: stripVTControlCharacters(failed.stdout ?? ''),
      stderr: stripVTControlCharacters(failed.stderr ?? ''),
    }
  }
}

/** The shipped task ids (every `tasks/{type}/*.json` of the installed package). */
function shippedTaskCount(): number {
  const tasks = join(installed(), 'tasks')
  return readdirSync(tasks)
    .filter((type) => !type.includes('.'))
    .flatMap((type) => readdirSync(join(tasks, type))).length
}

beforeAll(async () => {
  if (!existsSync(join(repo, 'dist/main.js'))) throw new Error('dist/ is missing: run `npm run build` first (`npm run test:package` does).')
  project = mkdtempSync(join(tmpdir(), 'agent-bench-mpcbench-consumer-'))
  const packed = await run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', project], {
    cwd: repo,
    env: cleanEnv(),
    maxBuffer: 64 * 1024 * 1024,
  })
  const [info] = JSON.parse(packed.stdout) as Array<{ filename: string }>
  if (info === undefined) throw new Error(`npm pack printed no tarball: ${packed.stdout}`)
  writeFileSync(join(project, 'package.json'), `${JSON.stringify({ name: 'agent-bench-mpcbench-consumer', private: true, type: 'module' }, null, 2)}\n`)
  await run('npm', ['install', join(project, info.filename), '--prefer-offline', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error'], {
    cwd: project,
    env: cleanEnv(),
    maxBuffer: 64 * 1024 * 1024,
  })
  // --ignore-scripts leaves better-sqlite3 unbuilt: reuse the repository's compiled module when the versions match.
  const sqlite = join(project, 'node_modules/better-sqlite3')
  if (versionOf(sqlite) === versionOf(repoModule('better-sqlite3'))) {
    mkdirSync(join(sqlite, 'build/Release'), { recursive: true })
    copyFileSync(repoModule('better-sqlite3/build/Release/better_sqlite3.node'), join(sqlite, 'build/Release/better_sqlite3.node'))
  } else {
    await run('npm', ['rebuild', 'better-sqlite3'], { cwd: project, env: cleanEnv() })
  }
  bin = join(project, 'node_modules/.bin/agent-bench')
}, scaledMs(600_000))

afterAll(() => {
  if (project !== undefined && process.env.KEEP_PACKAGE_TEST !== '1') rmSync(project, { recursive: true, force: true })
})

describe('MPCBench from the installed package', () => {
  it(
    "(f) `agent-bench mpcbench` runs the package's benchmark offline and writes logs, summary, history and report under the project",
    async () => {
      const { code, stdout, stderr } = await agentBench(['mpcbench'], project)
      expect(code, stderr).toBe(0)
      expect(stderr).toContain(
        "MPCBench: no tasks/, scenarios/, data/, prompt_config.json, model_config.json in the current folder: using the package's (node_modules/vitest-agent-bench)",
      )
      expect(stdout).toMatch(/^baseline \(non-LLM\) +rules \(non-LLM\) +planning /m)
      expect(stdout).toMatch(/Test Files {2}3 passed \(3\)/)
      const tasks = shippedTaskCount()
      const summary = JSON.parse(readFileSync(join(project, 'evaluation/summary.json'), 'utf8')) as { task_counts: unknown }
      expect(summary.task_counts).toEqual({ selected: tasks, completed: tasks, failed: 0, not_run: 0 })
      expect(readdirSync(join(project, 'evaluation/logs')).filter((name) => name.endsWith('_run.json'))).toHaveLength(tasks)
      expect(existsSync(join(project, 'evaluation/report/index.html'))).toBe(true)
      expect(readdirSync(join(project, 'evaluation/history'))).toHaveLength(1)
      expect(existsSync(join(installed(), 'evaluation'))).toBe(false)
      const report = await agentBench(['report'], project)
      expect(report.code, report.stderr).toBe(0)
      expect(`${report.stdout}${report.stderr}`).not.toContain('not found')
    },
    scaledMs(300_000),
  )

  it(
    "(g) run-task, run-and-judge --agent-url, tool and mcp run on the package's task, data and configs, saying so",
    async () => {
      const cwd = join(project, 'cli')
      mkdirSync(cwd)
      const task = 'tasks/planning/lumen_release_sync_planning.json'
      const runTask = await agentBench(['run-task', '--task', task], cwd)
      expect(runTask.code, runTask.stderr).toBe(0)
      expect(runTask.stderr).toContain(`MPCBench: no ${task}, data/, prompt_config.json, model_config.json in the current folder: using the package's (`)
      expect(existsSync(join(cwd, 'evaluation/logs/lumen_release_sync_planning__agent-baseline_run.json'))).toBe(true)

      const posted: unknown[] = []
      await using agent = await listening(
        createServer((request, response) => {
          let body = ''
          request.on('data', (chunk: Buffer) => void (body += chunk.toString('utf8')))
          request.on('end', () => {
            posted.push(JSON.parse(body))
            response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ answer: 'Thursday 10:00 works for everyone.' }))
          })
        }),
      )
      const judged = await agentBench(['run-and-judge', '--task', task, '--agent-url', agent.url], cwd)
      expect(judged.code, judged.stderr).toBe(0)
      expect(posted).toHaveLength(1)
      expect(judged.stdout).toContain(`agent agent:${agent.url}: answered`)

      const tool = await agentBench(
        ['tool', '--scenario-id', 'lumen_robotics', '--name', 'GoogleContacts_SearchContactsByName', '--args', '{"name": "a"}'],
        cwd,
      )
      expect(tool.code, tool.stderr).toBe(0)
      expect(tool.stderr).toContain('MPCBench: no data/ in the current folder')

      const transport = new StdioClientTransport({
        command: bin,
        args: ['mcp', '--data-dir', 'data', '--scenario-id', 'lumen_robotics', '--quiet'],
        cwd,
        env: cleanEnv() as Record<string, string>,
        stderr: 'pipe',
      })
      const client = new Client({ name: 'mpcbench-package-test', version: '1.0.0' })
      await client.connect(transport)
      try {
        expect((await client.listTools()).tools.map((tool) => tool.name)).toContain('Slack_search_messages')
      } finally {
        await client.close()
      }
      const missing = await agentBench(['mcp', '--data-dir', 'data', '--scenario-id', 'lumen'], cwd)
      expect(missing.code).toBe(1)
      expect(missing.stderr).toContain('No scenario "lumen" in --data-dir ')
      expect(missing.stderr).not.toContain('data_dependencies')
    },
    scaledMs(300_000),
  )

  it(
    "(h) a consumer's own Vitest run over defineMpcbenchBench({ root: 'node_modules/vitest-agent-bench' }) logs beside its summary, so `agent-bench report` finds the logs",
    async () => {
      const cwd = join(project, 'own-config')
      mkdirSync(join(cwd, 'bench'), { recursive: true })
      writeFileSync(
        join(cwd, 'vitest.config.ts'),
        `import { defineConfig } from 'vitest/config'
export default defineConfig({
  test: {
    include: ['bench/**/*.test.ts'],
    globalSetup: ['vitest-agent-bench/vitest/mpcbench-setup'],
    reporters: ['default', 'vitest-agent-bench/reporters/mpcbench'],
  },
})
`,
      )
      writeFileSync(
        join(cwd, 'bench/planning.test.ts'),
        "import { defineMpcbenchBench } from 'vitest-agent-bench/vitest'\n\ndefineMpcbenchBench({ taskType: 'planning', root: '../node_modules/vitest-agent-bench' })\n",
      )
      const { stdout, stderr } = await run(process.execPath, ['../node_modules/vitest/vitest.mjs', 'run'], {
        cwd,
        env: cleanEnv(),
        maxBuffer: 64 * 1024 * 1024,
      }).catch((error: { stdout: string; stderr: string }) => error)
      expect(stripVTControlCharacters(stdout), stderr).toMatch(/Tests\s+5 passed \(5\)/)
      expect(readdirSync(join(cwd, 'evaluation/logs')).filter((name) => name.endsWith('_run.json'))).toHaveLength(5)
      expect(existsSync(join(installed(), 'evaluation'))).toBe(false)
      const report = await agentBench(['report'], cwd)
      expect(report.code, report.stderr).toBe(0)
      expect(`${report.stdout}${report.stderr}`).not.toContain('not found')
    },
    scaledMs(300_000),
  )
})

/** Listens on a free port of 127.0.0.1; closed by `await using`. */
async function listening(server: ReturnType<typeof createServer>): Promise<{ url: string; [Symbol.asyncDispose]: () => Promise<void> }> {
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/run`,
    [Symbol.asyncDispose]: () => new Promise<void>((done) => server.close(() => done())),
  }
}
