/**
 * `npm run test:package`: the package as a user gets it. Packs the tarball, installs it into a temporary project
 * (offline from npm's cache where it can; the compiled better-sqlite3 is reused when the versions match) and runs
 * (a) a plain `.mjs` agent loop against the scripted server, (b) `tsc --noEmit` with `module: nodenext` on a
 * consumer `.ts` and on the README's eval and reporter in the order of a user's `evals/` + `reporters/` layout,
 * (c) the consumer's own `vitest run` with the `./vitest` helper and the package's reporters, (e) the shipped MPCBench
 * tasks in a consumer's Vitest run, (d) the `agent-bench` bin there, and (i) the evals `agent-bench generate-evals`
 * writes, run with the Vitest config it prints. Needs `dist/` (the script builds it first).
 */
import { execFile } from 'node:child_process'
import { copyFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify, stripVTControlCharacters } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type ScriptStep, scriptedToolCalls, startScriptedServer, toolResults } from '../src/testing/scripted-server.ts'
import { scaledMs } from '../src/testing/time-scale.ts'

const run = promisify(execFile)
const repo = fileURLToPath(new URL('..', import.meta.url))
const consumerFiles = fileURLToPath(new URL('./consumer/', import.meta.url))
const repoModule = (name: string) => join(repo, 'node_modules', name)
const versionOf = (dir: string): string => (JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { version: string }).version

/** The environment without the `npm_*` variables of an enclosing `npm run` (they would point npm at this repository). */
function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.toLowerCase().startsWith('npm_')))
  for (const name of [
    'OPENAI_API_KEY',
    'ANTHROPIC_API_KEY',
    'GEMINI_API_KEY',
    'OPENAI_BASE_URL',
    'BENCH_AGENT_MODEL',
    'VITEST',
    'VITEST_MODE',
    'VITEST_POOL_ID',
    'VITEST_WORKER_ID',
    'TEST',
    'NODE_ENV',
  ])
    delete env[name]
  return { ...env, ...extra }
}

/** The README and the pages of docs/, where the README's examples and reporters are documented. */
function readDocs(): string {
  const pages = readdirSync(join(repo, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .sort()
  return [readFileSync(join(repo, 'README.md'), 'utf8'), ...pages.map((name) => readFileSync(join(repo, 'docs', name), 'utf8'))].join('\n')
}

/** The docs' example eval and reporter (their ```ts blocks whose first line names the file), type-checked in (b). */
function readmeExamples(): Array<[string, string]> {
  const readme = readDocs()
  const blocks = [...readme.matchAll(/```ts\n(\/\/ (evals\/orders\.test\.ts|eval-reporter\.ts)[^\n]*\n[\s\S]*?)```/g)]
  const examples = new Map(blocks.map((match): [string, string] => [match[2] === 'eval-reporter.ts' ? 'readme-reporter.ts' : 'readme-eval.ts', match[1] ?? '']))
  if (examples.size !== 2)
    throw new Error(`README.md and docs/: expected the example eval and reporter blocks, found ${[...examples.keys()].join(', ') || 'none'}`)
  return [...examples]
}

let project: string
let tarballFiles: string[]
const timings: Record<string, number> = {}

async function timed<T>(label: string, step: () => Promise<T>): Promise<T> {
  const start = performance.now()
  try {
    return await step()
  } finally {
    timings[label] = Math.round(performance.now() - start)
  }
}

beforeAll(async () => {
  if (!existsSync(join(repo, 'dist/main.js'))) throw new Error('dist/ is missing: run `npm run build` first (`npm run test:package` does).')
  project = mkdtempSync(join(tmpdir(), 'agent-bench-consumer-'))
  const packed = await timed('npm pack', () =>
    run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', project], { cwd: repo, env: cleanEnv(), maxBuffer: 64 * 1024 * 1024 }),
  )
  const [info] = JSON.parse(packed.stdout) as Array<{ filename: string; files: Array<{ path: string }> }>
  if (info === undefined) throw new Error(`npm pack printed no tarball: ${packed.stdout}`)
  tarballFiles = info.files.map((file) => file.path)

  writeFileSync(join(project, 'package.json'), `${JSON.stringify({ name: 'agent-bench-consumer', private: true, type: 'module' }, null, 2)}\n`)
  cpSync(consumerFiles, project, { recursive: true })
  for (const [file, code] of readmeExamples()) writeFileSync(join(project, file), code)
  // --ignore-scripts: no native rebuild of better-sqlite3 (its compiled module is copied below), no `prepare`.
  await timed('npm install', () =>
    run(
      'npm',
      [
        'install',
        join(project, info.filename),
        `@types/node@${versionOf(repoModule('@types/node'))}`,
        '--prefer-offline',
        '--ignore-scripts',
        '--no-audit',
        '--no-fund',
        '--loglevel=error',
      ],
      { cwd: project, env: cleanEnv(), maxBuffer: 64 * 1024 * 1024 },
    ),
  )
  const sqlite = join(project, 'node_modules/better-sqlite3')
  if (versionOf(sqlite) === versionOf(repoModule('better-sqlite3'))) {
    mkdirSync(join(sqlite, 'build/Release'), { recursive: true })
    copyFileSync(repoModule('better-sqlite3/build/Release/better_sqlite3.node'), join(sqlite, 'build/Release/better_sqlite3.node'))
  } else {
    await timed('better-sqlite3 rebuild', () => run('npm', ['rebuild', 'better-sqlite3'], { cwd: project, env: cleanEnv() }))
  }
}, scaledMs(600_000))

afterAll(() => {
  console.log(`package test timings (ms): ${JSON.stringify(timings)}`)
  if (project !== undefined && process.env.KEEP_PACKAGE_TEST !== '1') rmSync(project, { recursive: true, force: true })
})

describe('the packed package', () => {
  it('holds the compiled library, data and docs, and no sources, tests or fixtures', () => {
    expect(tarballFiles).toEqual(
      expect.arrayContaining(['package.json', 'README.md', 'LICENSE', 'dist/index.js', 'dist/index.d.ts', 'dist/main.js', 'bin/agent-bench.js']),
    )
    expect(tarballFiles).toEqual(
      expect.arrayContaining([
        'dist/vitest.js',
        'dist/arte/vitest/reporter.js',
        'schemas/slack_schema.json',
        'data/arte-demo-questions.jsonl',
        'bench/arte/arte.eval.ts',
      ]),
    )
    const unwanted = tarballFiles.filter((path) => /\.test\.|^fixtures\/|^src\/|^\.github\/|^\.ci\/|^scripts\/|^package-test\//.test(path))
    expect(unwanted).toEqual([])
  })

  it("has no install scripts (npm runs those in every project that installs it; patches/ applies in a checkout's `prepare`)", () => {
    const manifest = JSON.parse(readFileSync(join(project, 'node_modules/vitest-agent-bench/package.json'), 'utf8')) as { scripts?: Record<string, string> }
    expect(Object.keys(manifest.scripts ?? {}).filter((name) => ['preinstall', 'install', 'postinstall'].includes(name))).toEqual([])
    expect(tarballFiles.filter((path) => path.startsWith('patches/'))).toEqual([])
  })

  it("ships the README's example agent, which imports only the package's own dependencies", () => {
    expect(tarballFiles).toContain('examples/mcp-agent.ts')
    const imports = [...readFileSync(join(project, 'node_modules/vitest-agent-bench/examples/mcp-agent.ts'), 'utf8').matchAll(/from '([^']+)'/g)].map(
      (match) => match[1] ?? '',
    )
    const manifest = JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8')) as { dependencies: Record<string, string> }
    const packages = imports
      .filter((name) => !name.startsWith('node:'))
      .map((name) => (name.startsWith('@') ? name.split('/').slice(0, 2).join('/') : (name.split('/')[0] ?? '')))
    expect(packages.filter((name) => !(name in manifest.dependencies))).toEqual([])
  })

  it('ships only bench files whose imports of the sources have their compiled twin in dist/ (the upstream benches need src/testing and ../shared)', () => {
    const benchFiles = tarballFiles.filter((path) => path.startsWith('bench/') && path.endsWith('.eval.ts'))
    expect(benchFiles).toContain('bench/arte/arte.eval.ts')
    const missing = benchFiles.flatMap((file) =>
      [...readFileSync(join(repo, file), 'utf8').matchAll(/from '(\.\.\/\.\.\/src\/[^']+)\.ts'/g)].flatMap((match) => {
        const compiled = `dist/${join('bench/x', match[1] ?? '').replace(/^src\//, '')}.js`
        return tarballFiles.includes(compiled) ? [] : [`${file} imports ${match[1]}.ts, but the package has no ${compiled}`]
      }),
    )
    expect(missing).toEqual([])
  })

  it('(a) runs an agent loop from a plain .mjs (scripted server)', async () => {
    const search: ScriptStep = scriptedToolCalls([{ name: 'search_emails', arguments: { keywords: ['budget review'] } }])
    const read: ScriptStep = (request) => {
      const hits = JSON.parse(toolResults(request).at(-1)?.content ?? '[]') as Array<{ message_id: string }>
      return scriptedToolCalls([
        { name: 'read_email', arguments: { message_id: hits[0]?.message_id ?? '' } },
        { name: 'word_count', arguments: { text: 'budget review' } },
      ])
    }
    const answer: ScriptStep = scriptedToolCalls([{ name: 'return_final_answer', arguments: { answer: 'March 3', sources: ['<m1@example.test>'] } }])
    await using server = await startScriptedServer([search, read, answer])
    const { stdout } = await timed('(a) agent.mjs', () =>
      run(process.execPath, ['agent.mjs'], { cwd: project, env: cleanEnv({ SCRIPTED_BASE_URL: server.baseURL }) }),
    )
    expect(JSON.parse(stdout.trim().split('\n').at(-1) ?? '')).toEqual({
      outcome: 'answered',
      answer: 'March 3',
      tools: ['search_emails', 'read_email', 'word_count', 'return_final_answer'],
      score: { exactMatch: true, semanticScore: 1 },
    })
    const afterRead = server.requests[2]
    expect(
      afterRead === undefined
        ? []
        : toolResults(afterRead)
            .map(({ content }) => content)
            .join('\n'),
    ).toContain('room 5')
  })

  it('(b) type-checks a nodenext consumer of the library, the helpers and the reporters with 0 errors', async () => {
    const tsc = join(repo, 'node_modules/typescript/bin/tsc')
    const result = await timed('(b) tsc', () =>
      run(process.execPath, [tsc, '-p', 'tsconfig.json'], { cwd: project, env: cleanEnv() }).catch((error: { stdout: string }) => error),
    )
    expect(result.stdout).toBe('')
  })

  it("(b) type-checks the README's eval before its reporter (an evals/ + reporters/ layout) under --strict, without skipLibCheck: `meta().eval` is typed", async () => {
    const tsc = join(repo, 'node_modules/typescript/bin/tsc')
    const result = await timed('(b) tsc eval first', () =>
      run(process.execPath, [tsc, '-p', 'tsconfig.eval-first.json'], { cwd: project, env: cleanEnv() }).catch((error: { stdout: string }) => error),
    )
    expect(result.stdout).toBe('')
  })

  it('exports every reporter of reporters/ that the README tells a user to run, as a default-exported class', async () => {
    const readme = readDocs()
    const named = [...new Set([...readme.matchAll(/\.\/reporters\/([\w-]+)\.ts/g)].map((match) => match[1] ?? ''))].sort()
    expect(named).toEqual(expect.arrayContaining(['arte', 'mpcbench', 'progress', 'report']))
    const script = `for (const name of ${JSON.stringify(named)}) { const { default: Reporter } = await import('vitest-agent-bench/reporters/' + name); const hooks = Object.getOwnPropertyNames(Reporter.prototype).filter((key) => key.startsWith('on')); new Reporter(); console.log(name, typeof Reporter, hooks.length > 0) }`
    const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], { cwd: project, env: cleanEnv() })
    expect(stdout.trim().split('\n')).toEqual(named.map((name) => `${name} function true`))
  })

  it('exports the benchmark entries (/arte, /mpcbench, /mpcbench-v2) and keeps their internals out of the root', async () => {
    const script = [
      "const root = await import('vitest-agent-bench')",
      "const arte = await import('vitest-agent-bench/arte')",
      "const mpcbench = await import('vitest-agent-bench/mpcbench')",
      "const v2 = await import('vitest-agent-bench/mpcbench-v2')",
      'console.log(JSON.stringify({',
      '  root: [typeof root.defineTool, typeof root.loadDataset, typeof root.createJudgeScorer, typeof root.EmailStore, typeof root.runAndJudge],',
      '  arte: [typeof arte.EmailStore, typeof arte.createEmailTools, typeof arte.scoreAnswer, typeof arte.loadArteDataset],',
      '  mpcbench: [typeof mpcbench.Workplace, typeof mpcbench.runAndJudge, typeof mpcbench.loadTask, typeof mpcbench.createJudge],',
      '  v2: [typeof v2.loadLevel, typeof v2.createSchedulingTools, typeof v2.runInstance, typeof v2.calculateF1],',
      '}))',
    ].join('\n')
    const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], { cwd: project, env: cleanEnv() })
    expect(JSON.parse(stdout)).toEqual({
      root: ['function', 'function', 'function', 'undefined', 'undefined'],
      arte: ['function', 'function', 'function', 'function'],
      mpcbench: ['function', 'function', 'function', 'function'],
      v2: ['function', 'function', 'function', 'function'],
    })
  })

  it("(c) runs the consumer's own eval (describeEval) and the ART-E tests (defineArteTests, the package's setup and reporters)", async () => {
    const env = cleanEnv({
      CI: '1',
      ARTE_LIMIT: '2',
      ARTE_OUTPUT: 'out/arte-results.json',
      BENCH_AGENT_MODEL: 'baseline',
      GITHUB_STEP_SUMMARY: join(project, 'out/step-summary.md'),
    })
    const { stdout } = await timed('(c) vitest run', () => run(process.execPath, ['node_modules/vitest/vitest.mjs', 'run'], { cwd: project, env }))
    const output = stripVTControlCharacters(stdout)
    expect(output).toMatch(/Tests\s+5 passed \(5\)/)
    const junit = readFileSync(join(project, 'out/junit.xml'), 'utf8')
    expect(junit).toContain('name="capitals &gt; 1: France"')
    const results = JSON.parse(readFileSync(join(project, 'out/arte-results.json'), 'utf8')) as { completedTasks: number }
    expect(results.completedTasks).toBe(2)
    // The progress reporter: one line per ART-E task (stdout is not a terminal); the report reporter: the HTML report and the job summary.
    expect(output.match(/^\[\s*\d+\/~?\d+\] [✓✗] \S+ {2}EM [01] · semantic /gm)).toHaveLength(2)
    expect(readFileSync(join(project, 'out/report.html'), 'utf8')).toContain('<html')
    expect(readFileSync(join(project, 'out/step-summary.md'), 'utf8')).toMatch(/^## ART-E · baseline/m)
  })

  it('(d) runs the agent-bench bin: --version, and the ART-E demo with the shipped bench file and data', async () => {
    const bin = join(project, 'node_modules/.bin/agent-bench')
    const version = await timed('(d) --version', () => run(bin, ['--version'], { cwd: project, env: cleanEnv() }))
    expect(version.stdout.trim()).toBe(versionOf(repo))
    const arte = await timed('(d) arte -l 2', () => run(bin, ['arte', '-l', '2'], { cwd: project, env: cleanEnv({ CI: '1' }) }))
    expect(stripVTControlCharacters(arte.stdout)).toContain('exactMatchAccuracy')
    const results = JSON.parse(readFileSync(join(project, 'evaluation/arte/results.json'), 'utf8')) as { completedTasks: number }
    expect(results.completedTasks).toBe(2)
    // Part files are written by a clone's Vitest config: the installed package refuses --parts rather than ignoring it.
    const parts = await run(bin, ['arte', '-l', '2', '--parts', '2'], { cwd: project, env: cleanEnv({ CI: '1' }) }).then(
      () => undefined,
      (error: { code?: number; stderr?: string }) => error,
    )
    expect(parts?.code).toBeGreaterThan(0)
    expect(parts?.stderr).toContain('--parts 2 (ARTE_PARTS) needs a checkout of vitest-agent-bench')
    // A run above ARTE_TESTS_PER_PART is spread over part files in a temporary folder, removed after the run.
    const partDirs = (): string[] => readdirSync(tmpdir()).filter((name) => name.startsWith('agent-bench-arte-parts-'))
    const before = partDirs()
    const whole = await timed('(d) arte -l 0', () => run(bin, ['arte', '-l', '0', '-o', 'out/whole.json'], { cwd: project, env: cleanEnv({ CI: '1' }) }))
    expect(stripVTControlCharacters(whole.stdout)).toMatch(/Test Files {2}1 passed \(1\)/)
    const spread = await timed('(d) arte -l 0, 8 tests per part', () =>
      run(bin, ['arte', '-l', '0', '-o', 'out/spread.json'], { cwd: project, env: cleanEnv({ CI: '1', ARTE_TESTS_PER_PART: '8' }) }),
    )
    const metrics = (file: string) => {
      const { completedTasks, failedTasks, exactMatchAccuracy, avgSemanticScore, taskResults } = JSON.parse(
        readFileSync(join(project, file), 'utf8'),
      ) as Record<string, unknown> & { taskResults: Array<{ taskId: string }> }
      return { completedTasks, failedTasks, exactMatchAccuracy, avgSemanticScore, taskIds: taskResults.map((task) => task.taskId) }
    }
    const tasks = metrics('out/whole.json').taskIds.length
    expect(tasks).toBeGreaterThan(8)
    const files = Math.ceil(tasks / 8)
    expect(stripVTControlCharacters(spread.stdout)).toContain(`Test Files  ${files} passed (${files})`)
    expect(metrics('out/spread.json')).toEqual(metrics('out/whole.json'))
    expect(partDirs()).toEqual(before)
  })

  it('(i) runs the evals `agent-bench generate-evals` writes in a project of its own, with the Vitest config and the command it prints', async () => {
    const bin = join(project, 'node_modules/.bin/agent-bench')
    const dir = join(project, 'generated-project')
    mkdirSync(dir)
    const env = cleanEnv({ CI: '1', BENCH_AGENT_MODEL: 'baseline' })
    await timed('(i) arte -l 2', () => run(bin, ['arte', '-l', '2', '-o', 'out/results.json'], { cwd: dir, env }))
    const generated = await timed('(i) generate-evals', () =>
      run(bin, ['generate-evals', '--results', 'out/results.json', '--bucket', 'high'], { cwd: dir, env }),
    )
    const cases = Number(/^high\s+(\d+) test\(s\)\s+bench\/generated\/arte-high\.eval\.ts$/m.exec(generated.stdout)?.[1])
    expect(cases).toBeGreaterThan(0)
    expect(readFileSync(join(dir, 'bench/generated/arte-high.eval.ts'), 'utf8')).toContain("from 'vitest-agent-bench/vitest/arte-regression'")
    const config = /^ {2}import \{ defineConfig \}[\s\S]*?^ {2}\}\)$/m.exec(generated.stdout)?.[0]
    const command = /`npx vitest run ([^`]*)`/.exec(generated.stdout)?.[1]
    expect(config).toBeDefined()
    expect(command).toBe('bench/generated')
    writeFileSync(join(dir, 'vitest.config.ts'), `${(config ?? '').replace(/^ {2}/gm, '')}\n`)
    const { stdout } = await timed('(i) vitest run', () =>
      run(process.execPath, ['../node_modules/vitest/vitest.mjs', 'run', ...(command ?? '').split(' ')], { cwd: dir, env }),
    )
    expect(stripVTControlCharacters(stdout)).toMatch(new RegExp(`Tests\\s+${cases} passed \\(${cases}\\)`))
  })

  it("(e) runs the shipped MPCBench tasks in the consumer's own Vitest run (defineMpcbenchBench over tasks/, scenarios/ and prompt_config.json, the package's setup and reporter)", async () => {
    const dir = join(project, 'mpcbench')
    for (const input of ['tasks', 'scenarios', 'prompt_config.json'])
      cpSync(join(project, 'node_modules/vitest-agent-bench', input), join(dir, input), { recursive: true })
    const env = cleanEnv({ CI: '1', BENCH_AGENT_MODEL: 'baseline' })
    const { stdout } = await timed('(e) vitest run', () => run(process.execPath, ['../node_modules/vitest/vitest.mjs', 'run'], { cwd: dir, env }))
    expect(stripVTControlCharacters(stdout)).toMatch(/Tests\s+5 passed \(5\)/)
    expect(existsSync(join(dir, 'data/lumen_robotics_calendar.json'))).toBe(true)
    const summary = JSON.parse(readFileSync(join(dir, 'evaluation/summary.json'), 'utf8')) as { task_counts: unknown }
    expect(summary.task_counts).toEqual({ selected: 5, completed: 5, failed: 0, not_run: 0 })
  })
})
