/**
 * Your own benchmark from the installed package, as docs/your-own-benchmark.md tells a user: packs the tarball,
 * installs it into a temporary project, writes the guide's example files there as written, and runs it: the results
 * file with its exact pass rate and intervals, `BENCH_TRIALS=3` with pass^k and JUnit (one testcase per case and trial,
 * failing exactly below the threshold), a second run compared with `agent-bench compare --json`, and `BENCH_RESUME=1`
 * calling the task only for the cases without a finished result. Needs `dist/` (`npm run test:package` builds it).
 */
import { execFile } from 'node:child_process'
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify, stripVTControlCharacters } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { bootstrapMeanCi } from '../src/stats/bootstrap.ts'
import { passHatKCi } from '../src/stats/pass-hat-k.ts'
import { wilsonInterval } from '../src/stats/wilson.ts'
import { scaledMs } from '../src/testing/time-scale.ts'

const run = promisify(execFile)
const repo = fileURLToPath(new URL('..', import.meta.url))
const repoModule = (name: string) => join(repo, 'node_modules', name)
const versionOf = (dir: string): string => (JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { version: string }).version

/** The environment without `npm_*`, API keys, the benchmarks' settings and the test run's Vitest variables. */
function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !name.toLowerCase().startsWith('npm_') && !name.startsWith('BENCH_') && !name.startsWith('EVAL_')),
  )
  for (const name of [
    'OPENAI_API_KEY',
    'ANTHROPIC_API_KEY',
    'GEMINI_API_KEY',
    'OPENAI_BASE_URL',
    'GITHUB_STEP_SUMMARY',
    'VITEST',
    'VITEST_MODE',
    'VITEST_POOL_ID',
    'VITEST_WORKER_ID',
    'TEST',
    'NODE_ENV',
  ])
    delete env[name]
  return { ...env, NO_COLOR: '1', CI: '1', BENCH_HISTORY_DIR: 'evaluation/history', ...extra }
}

/** The guide's files: a line `` `path`: `` before a fenced block, or a ```ts block whose first line is `// path`. */
function guideFiles(): Map<string, string> {
  const guide = readFileSync(join(repo, 'docs/your-own-benchmark.md'), 'utf8')
  const files = new Map<string, string>()
  for (const match of guide.matchAll(/^`([^`\n]+)`:\n\n```[a-z]*\n([\s\S]*?)```/gm)) files.set(match[1] ?? '', match[2] ?? '')
  for (const match of guide.matchAll(/```ts\n\/\/ ([\w./-]+)\n([\s\S]*?)```/g)) files.set(match[1] ?? '', `// ${match[1]}\n${match[2] ?? ''}`)
  return files
}

let project: string

/** Runs the installed Vitest (or `agent-bench`) in the project; its exit code and output. */
async function inProject(args: string[], env: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  const [command, ...rest] =
    args[0] === 'agent-bench'
      ? [join(project, 'node_modules/.bin/agent-bench'), ...args.slice(1)]
      : [process.execPath, 'node_modules/vitest/vitest.mjs', ...args]
  try {
    const { stdout, stderr } = await run(command ?? '', rest, { cwd: project, env: cleanEnv(env), maxBuffer: 64 * 1024 * 1024 })
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

// biome-ignore lint/suspicious/noExplicitAny: the results file read as the consumer reads it, its fields asserted below
function results(name: string): Record<string, any> {
  return JSON.parse(readFileSync(join(project, 'evaluation/evals', name, 'results.json'), 'utf8'))
}

beforeAll(async () => {
  if (!existsSync(join(repo, 'dist/main.js'))) throw new Error('dist/ is missing: run `npm run build` first (`npm run test:package` does).')
  project = mkdtempSync(join(tmpdir(), 'agent-bench-evals-consumer-'))
  const packed = await run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', project], {
    cwd: repo,
    env: cleanEnv(),
    maxBuffer: 64 * 1024 * 1024,
  })
  const [info] = JSON.parse(packed.stdout) as Array<{ filename: string }>
  if (info === undefined) throw new Error(`npm pack printed no tarball: ${packed.stdout}`)
  writeFileSync(join(project, 'package.json'), `${JSON.stringify({ name: 'agent-bench-evals-consumer', private: true, type: 'module' }, null, 2)}\n`)
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
  for (const [path, text] of guideFiles()) {
    mkdirSync(dirname(join(project, path)), { recursive: true })
    writeFileSync(join(project, path), text)
  }
}, scaledMs(600_000))

afterAll(() => {
  if (project !== undefined && process.env.KEEP_PACKAGE_TEST !== '1') rmSync(project, { recursive: true, force: true })
})

describe('your own benchmark from the installed package (docs/your-own-benchmark.md)', () => {
  it('the guide has the three example files', () => {
    expect([...guideFiles().keys()].sort()).toEqual(['evals/capitals.csv', 'evals/capitals.eval.ts', 'vitest.config.ts'])
  })

  it(
    "runs the guide's example as written: the summary it shows, the results file with the exact pass rate and intervals, the report, the job summary",
    async () => {
      const jobSummary = join(project, 'step-summary.md')
      const { code, stdout } = await inProject(['run'], { GITHUB_STEP_SUMMARY: jobSummary })
      expect(code).toBe(1)
      expect(stdout).toContain(
        [
          ' EVAL  capitals  3 case(s) · threshold 0.8',
          '   passRate             0.667 [0.208, 0.939] (2 of 3)',
          '   exactMatchScorer     0.667 [0.000, 1.000]',
          '   jaccardScorer        0.833 [0.500, 1.000]',
          '   results              evaluation/evals/capitals/results.json',
        ].join('\n'),
      )
      const written = results('capitals')
      expect(written.metrics.passRate).toEqual({ value: 2 / 3, ci: wilsonInterval(2, 3) })
      expect(written.metrics.exactMatchScorer).toEqual({ mean: 2 / 3, ci: bootstrapMeanCi([1, 1, 0]) })
      expect(written.metrics.jaccardScorer.ci).toEqual(bootstrapMeanCi([1, 1, 0.5]))
      expect(written.taskResults.map((row: { id: string; passed: boolean }) => [row.id, row.passed])).toEqual([
        ['fr', true],
        ['jp', true],
        ['pe', false],
      ])
      expect(written.taskResults[0].input).toBe('France')
      expect(readFileSync(join(project, 'evaluation/report/index.html'), 'utf8')).toContain('<h2>Eval: capitals</h2>')
      // Under GitHub Actions the report reporter appends the eval to the job summary, failing case included.
      const summary = readFileSync(jobSummary, 'utf8')
      expect(summary).toMatch(/^## Eval · capitals · 3 case\(s\)/m)
      expect(summary).toContain('| passRate | 0.667 | [0.208, 0.939] |')
      expect(summary).toContain('| pe | 0.250 | Lima, Peru |')
    },
    scaledMs(300_000),
  )

  it(
    'BENCH_TRIALS=3: pass^k with intervals, and JUnit with one testcase per case and trial failing exactly below the threshold',
    async () => {
      const reporters = ['--reporter=default', '--reporter=vitest-agent-bench/reporters/eval', '--reporter=junit', '--outputFile.junit=out/junit.xml']
      const { code } = await inProject(['run', ...reporters], { BENCH_TRIALS: '3' })
      expect(code).toBe(1)
      const written = results('capitals')
      expect(written).toMatchObject({ tasks: 3, trials: 3, passHatK: { '1': 2 / 3, '2': 2 / 3, '3': 2 / 3 }, passHatKTasks: 3 })
      expect(written.passHatKCi).toEqual(
        passHatKCi(
          [
            [true, true, true],
            [true, true, true],
            [false, false, false],
          ],
          3,
        ),
      )
      expect(written.taskResults).toHaveLength(9)
      const junit = readFileSync(join(project, 'out/junit.xml'), 'utf8')
      const cases = [...junit.matchAll(/<testcase [^>]*name="([^"]+)"[^>]*?(\/>|>([\s\S]*?)<\/testcase>)/g)].map((match) => [
        match[1],
        (match[3] ?? '').includes('<failure'),
      ])
      expect(cases.map(([name]) => name).sort()).toEqual(
        ['fr', 'jp', 'pe'].flatMap((id) => [1, 2, 3].map((trial) => `capitals &gt; ${id} [trial=${trial}]`)).sort(),
      )
      expect(
        cases
          .filter(([, failed]) => failed)
          .map(([name]) => name)
          .sort(),
      ).toEqual([1, 2, 3].map((trial) => `capitals &gt; pe [trial=${trial}]`))
    },
    scaledMs(300_000),
  )

  it(
    'a second run, compared with the first by `agent-bench compare --json`: flips, improved, regressed, p-value',
    async () => {
      const file = join(project, 'evals/capitals.eval.ts')
      // The next "version" of the agent: Peru is now right, Japan wrong.
      writeFileSync(file, readFileSync(file, 'utf8').replace("Japan: 'Tokyo'", "Japan: 'Kyoto'").replace("Peru: 'Lima, Peru'", "Peru: 'Lima'"))
      await inProject(['run'], { BENCH_TRIALS: '3' })
      const { code, stdout } = await inProject(['agent-bench', 'compare', '--eval', 'capitals', '--json'])
      expect(code).toBe(0)
      const comparison = JSON.parse(stdout)
      expect(comparison).toMatchObject({
        kind: 'eval "capitals"',
        tasks: 3,
        flips: ['jp', 'pe'],
        improved: ['pe'],
        regressed: ['jp'],
        primaryMetric: 'passRate',
        pValue: 1,
        significant: false,
      })
      expect(comparison.metrics.passRate).toMatchObject({ a: 2 / 3, b: 2 / 3, delta: 0 })
    },
    scaledMs(300_000),
  )

  it(
    'BENCH_RESUME=1 calls the task only for the cases without a finished result',
    async () => {
      const calls = join(project, 'calls.txt')
      writeFileSync(
        join(project, 'evals/resume.eval.ts'),
        `import { appendFileSync } from 'node:fs'
import { describeEval } from 'vitest-agent-bench/vitest'

describeEval('resumable', {
  data: [{ id: 'a', input: 'a', expected: 'a' }, { id: 'b', input: 'b', expected: 'b' }, { id: 'c', input: 'c', expected: 'c' }],
  task: (input: string, { trial }) => {
    appendFileSync(process.env.CALLS_FILE ?? 'calls.txt', \`\${input}#\${trial}\\n\`)
    if (input === 'b' && trial === 2 && process.env.FAIL_B === '1') throw new Error('the agent crashed')
    return input
  },
  scorers: [function same(_input, output: string, expected: string) { return { score: output === expected ? 1 : 0 } }],
})
`,
      )
      writeFileSync(calls, '')
      const first = await inProject(['run', 'evals/resume.eval.ts'], { BENCH_TRIALS: '2', FAIL_B: '1', CALLS_FILE: calls })
      expect(first.code).toBe(1)
      expect(readFileSync(calls, 'utf8').trim().split('\n').sort()).toEqual(['a#1', 'a#2', 'b#1', 'b#2', 'c#1', 'c#2'])
      expect(results('resumable').counts).toMatchObject({ passed: 5, errors: 1 })
      writeFileSync(calls, '')
      const resumed = await inProject(['run', 'evals/resume.eval.ts'], { BENCH_TRIALS: '2', BENCH_RESUME: '1', CALLS_FILE: calls })
      expect(resumed.code).toBe(0)
      expect(readFileSync(calls, 'utf8')).toBe('b#2\n')
      const after = results('resumable')
      expect(after.counts).toEqual({ passed: 6, failed: 0, errors: 0, notRun: 0, resumed: 5 })
      expect(after.passHatK).toEqual({ '1': 1, '2': 1 })
    },
    scaledMs(300_000),
  )
})
