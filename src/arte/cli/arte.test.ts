import { execFile } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, relative, resolve } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { FIXTURE_DATASET, REPO_ROOT, fixtureEnv, fixtureResponder, scratchDir } from '../../../fixtures/arte-e2e/harness.ts'
import { readArteResults } from '../results/results.ts'
import { ConfigError, UsageError } from '../../core/errors.ts'
import { FlagValueError } from '../../cli/flags.ts'
import { type ScriptedServer, startScriptedServer } from '../../testing/scripted-server.ts'
import { arteLaunch, assertArteRunSettings, builtBenchConfig, datasetFlag, planArteRun, resolveModelFlag, withArteReporter } from './arte.ts'
import { staleReason } from '../../core/dist-freshness.ts'
import { arteSettingsFromEnv } from '../settings.ts'
import { arteTestFiles } from '../vitest/arte-parts.ts'
import { childEnv } from '../../testing/child-env.ts'
import { withCheckoutLock } from '../../testing/checkout-lock.ts'
import { scaledMs } from '../../testing/time-scale.ts'

const run = promisify(execFile)

/** Runs `agent-bench` in a child process (the scripted server keeps answering from this one). */
async function agentBench(args: string[], env: Record<string, string> = {}, cwd = REPO_ROOT): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [join(REPO_ROOT, 'bin/agent-bench.js'), ...args], {
      cwd,
      env: childEnv(env),
      timeout: scaledMs(120_000),
    })
    return { code: 0, stdout, stderr }
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string }
    return { code: typeof failed.code === 'number' ? failed.code : -1, stdout: failed.stdout ?? '', stderr: failed.stderr ?? '' }
  }
}

describe('planArteRun', () => {
  it('maps flags to the environment the tests read', () => {
    const plan = planArteRun([
      '-s',
      'train',
      '-l',
      '0',
      '--dataset',
      'd.jsonl',
      '--concurrency',
      '8',
      '--thresholds',
      'exactMatchAccuracy>=0.6',
      '-o',
      'r.json',
    ])
    expect(plan.env).toEqual({
      ARTE_SPLIT: 'train',
      ARTE_LIMIT: '0',
      ARTE_DATASET: resolve('d.jsonl'),
      BENCH_CONCURRENCY: '8',
      ARTE_THRESHOLDS: 'exactMatchAccuracy>=0.6',
      ARTE_OUTPUT: resolve('r.json'),
    })
  })

  it('maps --judge-model to ARTE_JUDGE_MODEL (no judge by default), with a model or an external agent', () => {
    expect(planArteRun(['--judge-model', 'openai/gpt-4.1-mini']).env).toEqual({ ARTE_JUDGE_MODEL: 'openai/gpt-4.1-mini' })
    expect(planArteRun(['--judge-model', 'j', '--agent-url', 'http://127.0.0.1:3000/run']).env).toMatchObject({ ARTE_JUDGE_MODEL: 'j' })
    expect(planArteRun([]).env).not.toHaveProperty('ARTE_JUDGE_MODEL')
    expect(arteSettingsFromEnv({}).judgeModel).toBeUndefined()
    expect(arteSettingsFromEnv({ ARTE_JUDGE_MODEL: ' openai/gpt-4.1-mini ' }).judgeModel).toBe('openai/gpt-4.1-mini')
    expect(() => arteSettingsFromEnv({ ARTE_JUDGE_MODEL: 'baseline' })).toThrow(/Invalid ARTE_JUDGE_MODEL="baseline": the judge must be an LLM/)
  })

  it('maps --rows to ARTE_ROWS (all by default), and refuses a selection it does not know, naming the choices', () => {
    expect(planArteRun(['--rows', 'openpipe']).env).toEqual({ ARTE_ROWS: 'openpipe' })
    expect(planArteRun(['--rows=all']).env).toEqual({ ARTE_ROWS: 'all' })
    expect(planArteRun([]).env).not.toHaveProperty('ARTE_ROWS')
    expect(arteSettingsFromEnv({}).rows).toBe('all')
    expect(arteSettingsFromEnv({ ARTE_ROWS: ' openpipe ' }).rows).toBe('openpipe')
    expect(() => planArteRun(['--rows', 'OpenPipe'])).toThrow(FlagValueError)
    expect(() => planArteRun(['--rows', 'OpenPipe'])).toThrow(
      'Expected `--rows` to be all or openpipe, got "OpenPipe".\n  Fix: Pass --rows all or --rows openpipe.',
    )
    expect(() => arteSettingsFromEnv({ ARTE_ROWS: 'single' })).toThrow(ConfigError)
    expect(() => arteSettingsFromEnv({ ARTE_ROWS: 'single' })).toThrow(
      'Invalid ARTE_ROWS="single": expected all or openpipe.\n  Fix: Set ARTE_ROWS (or --rows) to all or openpipe, or unset it for all.',
    )
  })

  it('refuses a threshold on llmJudgeAccuracy without a judge before any task runs', () => {
    const dir = resolve(REPO_ROOT, '.tmp')
    expect(() => assertArteRunSettings({ ARTE_THRESHOLDS: 'llmJudgeAccuracy>=0.5' }, {}, dir)).toThrow(/needs an LLM judge, and none is set/)
    expect(() =>
      assertArteRunSettings({ ARTE_THRESHOLDS: 'llmJudgeAccuracy>=0.5,sourcesAccuracy>=0.5', ARTE_JUDGE_MODEL: 'openai/gpt-4.1-mini' }, {}, dir),
    ).not.toThrow()
    expect(() => assertArteRunSettings({ ARTE_THRESHOLDS: 'sourcesAccuracy>=0.5' }, {}, dir)).not.toThrow()
  })

  it('maps --resume and --parts to BENCH_RESUME and ARTE_PARTS', () => {
    expect(planArteRun(['--resume', '--parts', '4']).env).toMatchObject({ BENCH_RESUME: '1', ARTE_PARTS: '4' })
    expect(planArteRun([]).env).not.toHaveProperty('BENCH_RESUME')
    // Unset: the config spreads large runs over part files of ARTE_TESTS_PER_PART tests by itself.
    expect(planArteRun([]).env).not.toHaveProperty('ARTE_PARTS')
    expect(() => planArteRun(['--parts', '0'])).toThrow(/--parts/)
  })

  it('keeps the user reporters and adds the ART-E reporter once', () => {
    const plan = planArteRun(['--reporter=junit', '--reporter', './reporters/arte.ts', '--outputFile.junit=out/a.xml', '--outputFile.json', 'out/a.json'])
    expect(plan.reporters).toEqual(['junit', './reporters/arte.ts'])
    expect(plan.outputFile).toEqual({ junit: 'out/a.xml', json: 'out/a.json' })
    const reporters = withArteReporter(plan.reporters)
    expect(reporters[0]).toBe('junit')
    expect(reporters).toEqual(['junit', join(REPO_ROOT, 'reporters/arte.ts'), join(REPO_ROOT, 'reporters/report.ts')])
    expect(withArteReporter(['./reporters/report.ts', './reporters/arte.ts'])).toEqual(reporters.slice(1))
    expect(withArteReporter([])[0]).toBe('default')
    expect(withArteReporter(['blob'])).toEqual(['blob'])
    expect(planArteRun(['--merge-reports']).mergeReports).toBe('.vitest-reports')
    expect(planArteRun(['--merge-reports', 'blobs', '-l', '1']).mergeReports).toBe('blobs')
  })

  it('runs the bench from dist/ only in a checkout run compiled whose dist/ is current, else from the sources, saying why', () => {
    let asked = 0
    const stale = (reason: string | undefined) => () => {
      asked++
      return reason
    }
    const base = { config: undefined, outside: false, compiled: true }
    expect(arteLaunch({ ...base, staleReason: stale(undefined) })).toEqual({ launch: 'built' })
    expect(arteLaunch({ ...base, staleReason: stale('src changed since the last build') })).toEqual({
      launch: 'sources',
      stale: 'src changed since the last build',
    })
    expect(asked).toBe(2)
    // From the sources (tsx, Vitest) the bench runs from the sources; --config runs that config; elsewhere the package's.
    expect(arteLaunch({ ...base, compiled: false, staleReason: stale(undefined) })).toEqual({ launch: 'sources' })
    expect(arteLaunch({ ...base, config: 'vitest.config.ts', staleReason: stale(undefined) })).toEqual({ launch: 'config' })
    expect(arteLaunch({ ...base, outside: true, staleReason: stale(undefined) })).toEqual({ launch: 'shipped' })
    expect(asked, 'dist/ is looked at only when it could be used').toBe(2)
  })

  it("runs built with the checkout's bench project settings (vitest.config.ts): the two are kept in step", async () => {
    const { default: config } = await import('../../../vitest.config.ts')
    const bench = config.test?.projects?.find((project) => typeof project === 'object' && 'test' in project && project.test?.name === 'bench')
    const project = (bench as { test: Record<string, unknown> }).test
    const files = await arteTestFiles(REPO_ROOT)
    const built = builtBenchConfig('built', undefined, files)
    for (const key of ['testTimeout', 'hookTimeout', 'maxConcurrency', 'pool', 'execArgv']) expect(built[key as keyof typeof built], key).toEqual(project[key])
    expect(built).toMatchObject({ include: ['bench/arte/**/*.eval.ts', ...files.include], exclude: project.exclude })
    expect((project.include as string[]).filter((pattern) => pattern.startsWith('bench/'))).toEqual(['bench/**/*.eval.ts'])
    expect(built.globalSetup.map((file) => relative(REPO_ROOT, file).replace(/\.js$/, '.ts'))).toEqual(
      (project.globalSetup as string[]).filter((file) => file.includes('/arte/')).map((file) => file.replace(/^\.\//, '')),
    )
  })

  it("uses the package's reporter modules when the bench runs built or shipped, recognising either file given by the user", () => {
    const built = withArteReporter([], 'built')
    expect(built).toEqual(['default', join(REPO_ROOT, 'src/arte/vitest/reporter.ts'), join(REPO_ROOT, 'src/report/report-reporter.ts')])
    expect(withArteReporter([], 'shipped')).toEqual(built)
    expect(withArteReporter(['./reporters/arte.ts', 'junit'], 'built')).toEqual(['junit', ...built.slice(1)])
    expect(withArteReporter(['./src/arte/vitest/reporter.ts', 'dot'], 'sources')).toEqual([
      'dot',
      join(REPO_ROOT, 'reporters/arte.ts'),
      join(REPO_ROOT, 'reporters/report.ts'),
    ])
  })

  it('downloads the parquet file for --dataset corbt/enron_emails_sample_questions, reads any other --dataset as a file', () => {
    const hub = planArteRun(['--dataset', 'corbt/enron_emails_sample_questions', '-s', 'train'])
    expect(hub).toMatchObject({ download: true, useJson: false })
    expect(hub.env).toEqual({ ARTE_SPLIT: 'train' })
    const file = planArteRun(['--dataset', 'd.parquet'])
    expect(file).toMatchObject({ download: false, env: { ARTE_DATASET: resolve('d.parquet') } })
  })

  it('builds the model id from provider and id', () => {
    expect(resolveModelFlag('openai', 'gpt-4.1')).toBe('openai/gpt-4.1')
    expect(resolveModelFlag('openai', 'openai/gpt-4.1')).toBe('openai/gpt-4.1')
    expect(resolveModelFlag(undefined, 'baseline')).toBe('baseline')
    expect(resolveModelFlag('anthropic', undefined)).toMatch(/^anthropic\//)
    expect(resolveModelFlag(undefined, undefined)).toBeUndefined()
    expect(() => resolveModelFlag('mistral', 'x')).toThrow(/Unknown --model-provider "mistral"/)
  })

  it('rejects bad values with a fix', () => {
    expect(() => planArteRun(['--limit', '-1'])).toThrow(UsageError)
    expect(() => planArteRun(['--limit=-1'])).toThrow(ConfigError)
    expect(() => planArteRun(['--split', 'dev'])).toThrow(/train or test/)
    expect(() => planArteRun(['--thresholds', 'speed>1'])).toThrow(/unknown metric "speed"/)
    expect(() => planArteRun(['--use-json', '--dataset', 'x'])).toThrow(/both choose the dataset/)
    expect(() => planArteRun(['--use-json', '--dataset', 'corbt/enron_emails_sample_questions'])).toThrow(/both choose the dataset/)
    expect(() => planArteRun(['--nope'])).toThrow('agent-bench arte: Unknown option --nope.')
  })

  it('refuses a bad --thresholds, --agent-url or --api-url as a bad flag value (exit 2), naming the flag', () => {
    expect(() => planArteRun(['--thresholds', 'exactMatchAccuracy>=5'])).toThrow(FlagValueError)
    expect(() => planArteRun(['--thresholds', 'exactMatchAccuracy>=5'])).toThrow(
      /^Invalid ART-E threshold "exactMatchAccuracy>=5" in --thresholds: exactMatchAccuracy is between 0 and 1/,
    )
    expect(() => planArteRun(['--thresholds', 'speed>1'])).toThrow(FlagValueError)
    expect(() => planArteRun(['--agent-url', 'notaurl'])).toThrow(FlagValueError)
    expect(() => planArteRun(['--agent-url', 'notaurl'])).toThrow(
      'Expected `--agent-url` to be an http(s) URL, got "notaurl".\n  Fix: Pass e.g. --agent-url http://127.0.0.1:3000/run.',
    )
    expect(() => planArteRun(['--agent', 'a', '--api-url', 'agents'])).toThrow('Expected `--api-url` to be an http(s) URL, got "agents".')
    expect(planArteRun(['--agent-url', 'https://agents.example/run']).env).toMatchObject({ ARTE_AGENT_URL: 'https://agents.example/run' })
  })

  it("reads --dataset data/arte-demo-questions.jsonl (the --help example) as the package's demo when the folder has none", () => {
    const elsewhere = resolve(REPO_ROOT, '.tmp', 'no-such-project')
    expect(datasetFlag('data/arte-demo-questions.jsonl', elsewhere)).toBe(join(REPO_ROOT, 'data/arte-demo-questions.jsonl'))
    expect(datasetFlag('./data/../data/arte-demo-questions.jsonl', elsewhere)).toBe(join(REPO_ROOT, 'data/arte-demo-questions.jsonl'))
    expect(datasetFlag('data/other.jsonl', elsewhere)).toBe(join(elsewhere, 'data/other.jsonl'))
    const scratch = scratchDir('arte-dataset-flag')
    try {
      mkdirSync(join(scratch.dir, 'data'))
      writeFileSync(join(scratch.dir, 'data/arte-demo-questions.jsonl'), '')
      expect(datasetFlag('data/arte-demo-questions.jsonl', scratch.dir), 'a file of that name in the folder is used').toBe(
        join(scratch.dir, 'data/arte-demo-questions.jsonl'),
      )
    } finally {
      scratch.remove()
    }
  })
})

describe('assertArteRunSettings: what the reporters read when the run ends is checked before it starts', () => {
  const scratch = scratchDir('arte-run-settings')
  afterAll(() => scratch.remove())

  it('names the variable or flag and the fix', () => {
    const blocker = join(scratch.dir, 'blocker')
    writeFileSync(blocker, '')
    const folder = join(scratch.dir, 'a-folder')
    mkdirSync(folder)
    const ok = { ARTE_OUTPUT: join(scratch.dir, 'new', 'results.json') }
    expect(() => assertArteRunSettings(ok, {}, scratch.dir)).not.toThrow()
    expect(existsSync(join(scratch.dir, 'new')), 'the check creates nothing').toBe(false)
    expect(() => assertArteRunSettings({ ...ok, BENCH_HISTORY_KEEP: 'abc' }, {}, scratch.dir)).toThrow(
      /Invalid BENCH_HISTORY_KEEP="abc"[^]*Fix: Set BENCH_HISTORY_KEEP/,
    )
    expect(() => assertArteRunSettings({ ...ok, ARTE_THRESHOLDS: 'garbage' }, {}, scratch.dir)).toThrow(/Invalid ART-E threshold "garbage" in ARTE_THRESHOLDS/)
    expect(() => assertArteRunSettings({ ...ok, ARTE_MAX_TURNS: '0' }, {}, scratch.dir)).toThrow(/Invalid ARTE_MAX_TURNS="0"/)
    expect(() => assertArteRunSettings({ ARTE_OUTPUT: folder }, {}, scratch.dir)).toThrow(
      new RegExp(
        `^The ART-E results file ${folder}, set by --output \\(or ARTE_OUTPUT\\), cannot be written: it is a folder\\.\\n  Fix: Pass another path to --output \\(or ARTE_OUTPUT\\)\\. Name a file`,
      ),
    )
    expect(() => assertArteRunSettings(ok, { arte: join(blocker, 'r.json') }, scratch.dir)).toThrow(
      `The ART-E results file ${join(blocker, 'r.json')}, set by --outputFile.arte, cannot be written: ${blocker} is not a folder.`,
    )
    expect(() => assertArteRunSettings({ ...ok }, { junit: join(blocker, 'r.xml') }, scratch.dir), "another reporter's file is its own business").not.toThrow()
  })
})

describe('agent-bench arte, trace, traces, generate-evals (child processes)', () => {
  let server: ScriptedServer
  const scratch = scratchDir('arte-cli')
  let env: Record<string, string>

  beforeAll(async () => {
    server = await startScriptedServer(fixtureResponder())
    const all = fixtureEnv(server.baseURL, scratch.dir)
    // The CLI flags below replace the dataset, database, output and traces variables.
    const { ARTE_DATASET: _a, ARTE_DB: _b, ARTE_OUTPUT: _c, ARTE_TRACES_DB: _d, ARTE_MAX_TURNS: _e, ARTE_LIMIT: _f, ...rest } = all
    env = rest
  })

  afterAll(async () => {
    await server?.close()
    scratch.remove()
  })

  it('--help lists the flags with their defaults', async () => {
    const { code, stdout } = await agentBench(['arte', '--help'])
    expect(code).toBe(0)
    for (const flag of [
      '--split',
      '--limit',
      '--dataset',
      '--db',
      '--model-provider',
      '--model-id',
      '--output',
      '--concurrency',
      '--use-json',
      '--stats',
      '--trials',
    ]) {
      expect(stdout).toContain(flag)
    }
    expect(stdout).toMatch(/-l, --limit N .*default: 10/)
    expect(stdout).toMatch(/--concurrency N .*default: 5/)
  })

  it('refuses an --output it cannot write, or a bad BENCH_HISTORY_KEEP, before any task runs', async () => {
    const folder = join(scratch.dir, 'output-folder')
    mkdirSync(folder)
    const common = [
      'arte',
      '--config',
      'fixtures/arte-e2e/vitest.config.ts',
      '--dataset',
      FIXTURE_DATASET,
      '--db',
      join(scratch.dir, 'refused-mail.db'),
      '--limit',
      '0',
    ]
    const traces = join(scratch.dir, 'refused-traces.db')
    const requests = server.requests.length
    const toFolder = await agentBench([...common, '--output', folder, '--traces-db', traces], env)
    expect(toFolder.code).toBe(1)
    // The command refuses it; so does the ART-E reporter as Vitest starts (for a plain `vitest` run), in its own words.
    expect(toFolder.stderr).toMatch(new RegExp(`The ART-E results file ${folder}, set by [^\\n]*--output[^\\n]*, cannot be written: it is a folder\\.`))
    const badKeep = await agentBench([...common, '--output', join(scratch.dir, 'refused.json'), '--traces-db', traces], { ...env, BENCH_HISTORY_KEEP: 'abc' })
    expect(badKeep.code).toBe(1)
    expect(badKeep.stderr).toContain('Invalid BENCH_HISTORY_KEEP="abc": expected a whole number >= 0.')
    expect(server.requests.length, 'no task ran').toBe(requests)
    expect(existsSync(traces)).toBe(false)
  })

  it('a bad dataset row or BENCH_ONLY is one clear error from the setup (no "No test files found"), and a bad --split exits 2', async () => {
    const bad = join(scratch.dir, 'bad-row.jsonl')
    writeFileSync(
      bad,
      `${readFileSync(FIXTURE_DATASET, 'utf8').trimEnd()}\n${JSON.stringify({ id: 99, question: 'q?', answer: 'a', message_ids: [], inbox_address: 'a@b.example', query_date: '2023-02-30', how_realistic: 0.5, split: 'test' })}\n`,
    )
    // Its own output files: the checkout's evaluation/arte/ holds the user's own results.
    const common = [
      'arte',
      '--config',
      'fixtures/arte-e2e/vitest.config.ts',
      '--db',
      join(scratch.dir, 'refused-mail.db'),
      '--limit',
      '0',
      '--output',
      join(scratch.dir, 'bad-input-results.json'),
      '--traces-db',
      join(scratch.dir, 'bad-input-traces.db'),
    ]
    const badRow = await agentBench([...common, '--dataset', bad], env)
    expect(badRow.code).toBe(1)
    expect(badRow.stderr).toContain('query_date')
    expect(`${badRow.stdout}${badRow.stderr}`).not.toContain('No test files found')
    const badOnly = await agentBench([...common, '--dataset', FIXTURE_DATASET], { ...env, BENCH_ONLY: 'foo' })
    expect(badOnly.code).toBe(1)
    expect(badOnly.stderr).toContain('BENCH_ONLY')
    expect(`${badOnly.stdout}${badOnly.stderr}`).not.toContain('No test files found')
    const badSplit = await agentBench([...common, '--dataset', FIXTURE_DATASET, '--split', 'dev'], env)
    expect(badSplit.code).toBe(2)
    expect(badSplit.stderr).toContain('Expected `--split` to be train or test, got "dev".')
  })

  it('--reporter=junit without a file: standard output is the JUnit XML alone, the metrics go to standard error', async () => {
    const args = [
      'arte',
      '--config',
      'fixtures/arte-e2e/vitest.config.ts',
      '--dataset',
      FIXTURE_DATASET,
      '--db',
      join(scratch.dir, 'junit-mail.db'),
      '--limit',
      '0',
    ]
    const junit = await agentBench(
      [...args, '--traces-db', join(scratch.dir, 'junit-traces.db'), '--output', join(scratch.dir, 'junit.json'), '--reporter=junit'],
      env,
    )
    const xml = junit.stdout.trim()
    expect(xml.startsWith('<?xml'), junit.stdout.slice(0, 300)).toBe(true)
    expect(xml.endsWith('</testsuites>')).toBe(true)
    expect(junit.stderr).toContain('exactMatchAccuracy')
  })

  it('--rows: listed in --help, a bad value exits 2, and --stats counts the rows it selects', async () => {
    const help = await agentBench(['arte', '--help'])
    expect(help.stdout).toMatch(/--rows all\|openpipe .*ARTE_ROWS.*default: all/s)
    const bad = await agentBench(['arte', '--config', 'fixtures/arte-e2e/vitest.config.ts', '--dataset', FIXTURE_DATASET, '--rows', 'single'], env)
    expect(bad.code).toBe(2)
    expect(bad.stderr).toContain('Expected `--rows` to be all or openpipe, got "single".')
    const rows = join(scratch.dir, 'openpipe-rows.jsonl')
    const fixture = readFileSync(FIXTURE_DATASET, 'utf8').trimEnd().split('\n')
    // The fixture's test rows 101-104 cite one message each; 101 is one of OpenPipe's known-bad ids; 7 cites two.
    const several = { ...JSON.parse(fixture[0] ?? '{}'), id: 7, message_ids: ['<fx-1001@fernwood.example>', '<fx-1002@fernwood.example>'] }
    writeFileSync(rows, `${[...fixture, JSON.stringify(several)].join('\n')}\n`)
    const stats = await agentBench(['arte', '--stats', '--dataset', rows, '--rows', 'openpipe'])
    expect(stats.code).toBe(0)
    expect(stats.stdout).toContain('ART-E Dataset Statistics (test split, rows openpipe)')
    expect(stats.stdout).toContain('Total tasks:              3\n')
    // The environment selects the rows as it does for a run (the flags win over it).
    const fromEnv = await agentBench(['arte', '--stats'], { ARTE_DATASET: rows, ARTE_ROWS: 'openpipe' })
    expect(fromEnv.code).toBe(0)
    expect(fromEnv.stdout).toContain('ART-E Dataset Statistics (test split, rows openpipe)')
    expect(fromEnv.stdout).toContain('Total tasks:              3\n')
  })

  it('bad --thresholds and --agent-url values exit 2 as other bad flag values do, naming the flag', async () => {
    const thresholds = await agentBench(['arte', '--thresholds', 'exactMatchAccuracy>=5'])
    expect(thresholds.code).toBe(2)
    expect(thresholds.stderr).toContain('Invalid ART-E threshold "exactMatchAccuracy>=5" in --thresholds')
    const url = await agentBench(['arte', '--agent-url', 'notaurl'])
    expect(url.code).toBe(2)
    expect(url.stderr).toContain('Expected `--agent-url` to be an http(s) URL, got "notaurl".')
  })

  it("the --help example `--stats --dataset data/arte-demo-questions.jsonl` works from another project's folder", async () => {
    const help = await agentBench(['arte', '--help'])
    expect(help.stdout).toContain('agent-bench arte --stats --dataset data/arte-demo-questions.jsonl')
    const project = join(scratch.dir, 'a-project')
    mkdirSync(project)
    const stats = await agentBench(['arte', '--stats', '--dataset', 'data/arte-demo-questions.jsonl'], {}, project)
    // The one line saying the package's file is used, as mpcbench, run-task and mcp say it; nothing else.
    expect(stats.stderr).toBe(`ART-E: no data/arte-demo-questions.jsonl in the current folder: using the package's (${REPO_ROOT.replace(/\/$/, '')})\n`)
    expect(stats.code).toBe(0)
    expect(stats.stdout).toContain('ART-E Dataset Statistics (test split)')
  })

  it(
    "says in one line on stderr which inputs a run from another project's folder takes from the package",
    async () => {
      const project = mkdtempSync(join(tmpdir(), 'arte-user-project-'))
      try {
        const files = ['--output', join(project, 'results.json'), '--traces-db', join(project, 'traces.db'), '--limit', '1']
        const demo = await agentBench(['arte', ...files], { NO_COLOR: '1' }, project)
        expect(demo.code, demo.stderr).toBe(0)
        expect(demo.stderr).toContain(
          `ART-E: no data/arte-demo-questions.jsonl, data/demo-mailbox/maildir/ in the current folder: using the package's (${REPO_ROOT.replace(/\/$/, '')})\n`,
        )
        // Its own dataset and a built database: nothing of the package's is read, so no such line.
        const own = await agentBench(['arte', ...files, '--dataset', FIXTURE_DATASET, '--db', join(project, '.tmp/arte/demo.db')], { NO_COLOR: '1' }, project)
        expect(own.code, own.stderr).toBe(0)
        expect(own.stderr).not.toContain('ART-E: no ')
      } finally {
        rmSync(project, { recursive: true, force: true })
      }
    },
    scaledMs(120_000),
  )

  it(
    'in this checkout, runs from dist/ when it is current (Vite transforms the test file, no source), else from the sources, saying why',
    async () => {
      const stale = staleReason(REPO_ROOT)
      const files = ['--output', join(scratch.dir, 'launch.json'), '--traces-db', join(scratch.dir, 'launch-traces.db')]
      const args = ['arte', '--dataset', FIXTURE_DATASET, '--db', join(scratch.dir, 'launch-mail.db'), '--limit', '0', '--max-turns', '2', ...files]
      // Vite's own log of each module it transforms, on stderr.
      const run = await agentBench(args, { ...env, DEBUG: 'vite:transform', NO_COLOR: '1' })
      // 104 keeps searching until max turns: its test fails, as in every launch.
      expect(run.code, run.stderr).toBe(1)
      const results = readArteResults(join(scratch.dir, 'launch.json'))
      expect(results.taskResults.map((task) => task.taskId)).toEqual(['101', '102', '103', '104'])
      expect(results.completedTasks).toBe(3)
      const transformed = run.stderr.split('\n').filter((line) => line.includes('vite:transform'))
      expect(transformed.some((line) => line.includes('bench/arte/arte.eval.ts'))).toBe(true)
      const sources = transformed.filter((line) => /\bsrc\/\S+\.ts\b/.test(line) || line.includes('reporters/'))
      if (stale === undefined) {
        expect(sources, 'with dist/ current, no source is transformed').toEqual([])
        expect(run.stderr).not.toContain('dist/ is not current')
      } else {
        expect(run.stderr).toContain(`agent-bench: dist/ is not current (${stale}): the bench runs from the TypeScript sources`)
        expect(sources.length).toBeGreaterThan(0)
      }
    },
    scaledMs(120_000),
  )

  it('--stats prints the dataset statistics of the split', async () => {
    const { code, stdout } = await agentBench(['arte', '--stats', '--dataset', FIXTURE_DATASET])
    expect(code).toBe(0)
    expect(stdout).toContain('ART-E Dataset Statistics (test split)')
    expect(stdout).toContain('Total tasks:              4\n')
    expect(stdout).toContain('Unique inboxes:           1\n')
  })

  it('--parts 2 --shard 2/2 runs one part file only, with its rows', () =>
    // The part files are the checkout's bench/arte/parts, which reporter.test.ts's part runs rewrite for their counts.
    withCheckoutLock('arte-parts', async () => {
      const common = [
        'arte',
        '--config',
        'fixtures/arte-e2e/vitest.config.ts',
        '--dataset',
        FIXTURE_DATASET,
        '--db',
        join(scratch.dir, 'parts-mail.db'),
        '--limit',
        '0',
        '--max-turns',
        '2',
      ]
      const files = ['--output', join(scratch.dir, 'parts.json'), '--traces-db', join(scratch.dir, 'parts-traces.db')]
      const shard = await agentBench([...common, ...files, '--parts', '2', '--shard', '2/2'], env)
      // Vitest orders the files of shards by a hash of their path: which part is shard 2 is its choice.
      const ran = ['part-1-of-2.eval.ts', 'part-2-of-2.eval.ts'].filter((file) => shard.stdout.includes(file))
      expect(ran).toHaveLength(1)
      const rows = ran[0] === 'part-1-of-2.eval.ts' ? ['101', '103'] : ['102', '104']
      expect(readArteResults(join(scratch.dir, 'parts.json')).taskResults.map((task) => task.taskId)).toEqual(rows)
    }))

  it('runs the benchmark with the user reporters, fails on an unmet threshold, then finds and turns traces into evals', async () => {
    const files = {
      db: join(scratch.dir, 'mail.db'),
      results: join(scratch.dir, 'results.json'),
      traces: join(scratch.dir, 'traces.db'),
      junit: join(scratch.dir, 'junit.xml'),
    }
    const arte = await agentBench(
      [
        'arte',
        '--config',
        'fixtures/arte-e2e/vitest.config.ts',
        '--dataset',
        FIXTURE_DATASET,
        '--db',
        files.db,
        '--limit',
        '0',
        '--max-turns',
        '2',
        '--output',
        files.results,
        '--traces-db',
        files.traces,
        '--thresholds',
        'exactMatchAccuracy>=0.6',
        '--reporter=junit',
        `--outputFile.junit=${files.junit}`,
      ],
      env,
    )
    expect(arte.stderr).toContain('ERROR: ART-E exactMatchAccuracy (0.25) does not meet threshold exactMatchAccuracy >= 0.6')
    // A failed task's hint names the traces database of the run, which is not the default one.
    const stuck = readArteResults(files.results).taskResults.find((task) => task.taskId === '104')!
    expect(readFileSync(files.junit, 'utf8')).toContain(`agent-bench trace ${stuck.traceId} --db ${relative(REPO_ROOT, files.traces)}`)
    expect(arte.code).toBe(1)
    expect(arte.stdout).toContain('exactMatchAccuracy   0.250 [0.046, 0.699] (1/4)')
    expect(readFileSync(files.junit, 'utf8')).toContain('<testcase classname="bench/arte/arte.eval.ts" name="101"')
    const results = readArteResults(files.results)
    expect(results.thresholds).toEqual([{ metric: 'exactMatchAccuracy', op: '>=', value: 0.6, measured: 0.25, passed: false }])

    const traces = await agentBench(['traces', '--below', '0.5', '--db', files.traces])
    expect(traces.code).toBe(0)
    const listed = traces.stdout
      .trim()
      .split('\n')
      .slice(1)
      .map((line) => line.split(/\s+/)[2])
    expect(listed.sort()).toEqual(['103', '104'])

    const failed = results.taskResults.find((task) => task.taskId === '104')!
    const trace = await agentBench(['trace', failed.traceId, '--db', files.traces])
    expect(trace.code).toBe(0)
    expect(trace.stdout).toContain(`Trace ${failed.traceId}`)
    expect(trace.stdout).toContain('outcome:       stopped after maxTurns (2) without an answer')
    const missing = await agentBench(['trace', 'nope', '--db', files.traces])
    expect(missing.code).toBe(1)
    expect(missing.stderr).toContain('No trace "nope"')

    const out = join(scratch.dir, 'generated')
    const generated = await agentBench(['generate-evals', '--results', files.results, '--out', out])
    expect(generated.code).toBe(0)
    expect(generated.stdout).toMatch(/high\s+1 test\(s\)[\s\S]*medium\s+1 test\(s\)[\s\S]*low\s+2 test\(s\)/)
    expect(['high', 'medium', 'low'].every((bucket) => existsSync(join(out, `arte-${bucket}.eval.ts`)))).toBe(true)
  })
})
