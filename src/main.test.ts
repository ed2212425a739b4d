import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest'
import { arteCommands } from './arte/cli/commands.ts'
import { llmCommands } from './llm/cli/commands.ts'
import { main } from './main.ts'
import { mpcbenchCommands } from './mpcbench/cli/commands.ts'

afterEach(() => {
  vi.restoreAllMocks()
  vi.unstubAllEnvs()
})

describe('agent-bench', () => {
  it('answers an unknown option the same way on every command: one friendly line, exit code 2', async () => {
    const errors: string[] = []
    vi.spyOn(console, 'error').mockImplementation((line: unknown) => void errors.push(String(line)))
    const names = Object.keys({ ...arteCommands, ...mpcbenchCommands, ...llmCommands })
    expect(names.length).toBeGreaterThan(5)
    for (const name of names) expect(await main([name, '--bogus']), name).toBe(2)
    expect(errors).toEqual(names.map((name) => `agent-bench ${name}: Unknown option --bogus.\n  Fix: Run \`agent-bench ${name} --help\` for its options.`))
  })

  it('answers flags that do not go together, or a flag value they cannot take, with exit code 2 on the agent and tool commands', async () => {
    const errors: string[] = []
    vi.spyOn(console, 'error').mockImplementation((line: unknown) => void errors.push(String(line)))
    const badLines = [
      ['arte', '--agent-url', 'http://127.0.0.1:3000/run', '--agent', 'x'],
      ['arte', '--agent-url', 'http://127.0.0.1:3000/run', '--model-id', 'openai/gpt-4.1'],
      ['arte', '--model-provider', 'mistral'],
      ['mcp'],
      ['mcp', '--db', 'x.db', '--data-dir', 'data'],
      ['mcp', '--db', 'x.db'],
      ['mcp', '--db', 'x.db', '--inbox', 'a@b.example', '--query-date', 'May 5'],
      ['mcp', '--data-dir', 'data'],
      ['mcp', '--data-dir', 'data', '--scenario-id', 'lumen_robotics', '--tools', 'v2'],
    ]
    for (const argv of badLines) expect(await main(argv), argv.join(' ')).toBe(2)
    expect(errors).toHaveLength(badLines.length)
  })
})

/** Runs `agent-bench` in this process (`main`, as bin/agent-bench.js does); its exit code and what it printed on stderr. */
async function agentBench(...argv: string[]): Promise<{ code: number; stderr: string }> {
  const errors: string[] = []
  vi.spyOn(console, 'error').mockImplementation((line: unknown) => void errors.push(String(line)))
  vi.spyOn(console, 'warn').mockImplementation(() => undefined)
  vi.spyOn(console, 'log').mockImplementation(() => undefined)
  try {
    return { code: await main(argv), stderr: errors.join('\n') }
  } finally {
    vi.restoreAllMocks()
  }
}

describe('agent-bench: a flag value the flag cannot take, or a path a flag names that does not exist, is a bad command line (exit 2)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'flag-exit-'))
  afterAll(() => rmSync(dir, { recursive: true, force: true }))
  const missing = join(dir, 'missing')
  /** A file that exists but holds no valid results, traces or config: an error of the file (exit 1), not of the command line. */
  const notJson = join(dir, 'not-json.json')
  writeFileSync(notJson, 'not json\n')

  it('generate: a missing, unknown or invalid --scenario-id, --generator or --scale', async () => {
    expect(await agentBench('generate')).toEqual({
      code: 2,
      stderr: expect.stringMatching(/^agent-bench generate: Missing --scenario-id\.\n {2}Fix: Pass --scenario-id with one of: .*lumen_robotics/),
    })
    expect(await agentBench('generate', '--scenario-id', 'nope')).toEqual({
      code: 2,
      stderr: expect.stringMatching(/^agent-bench generate: No scenario "nope" in \S+scenarios\.\n {2}Fix: Use one of: /),
    })
    expect(await agentBench('generate', '--scenario-id', 'lumen_robotics', '--generator', 'gpt')).toEqual({
      code: 2,
      stderr: 'agent-bench generate: Expected `--generator` to be procedural or llm, got "gpt".\n  Fix: Pass --generator procedural or --generator llm.',
    })
    expect(await agentBench('generate', '--scenario-id', 'lumen_robotics', '--scale', '0')).toEqual({
      code: 2,
      stderr: 'agent-bench generate: Expected `--scale` to be a number above 0, got "0".\n  Fix: Pass e.g. --scale 2.',
    })
  })

  it('traces and trace: --below that is not a number, a --db that does not exist; a missing ARTE_TRACES_DB stays exit 1', async () => {
    expect(await agentBench('traces', '--below', 'abc')).toEqual({
      code: 2,
      stderr: 'agent-bench traces: Expected `--below` to be a number, got "abc".\n  Fix: Pass e.g. --below 0.5.',
    })
    const noDb = `Traces database ${missing} does not exist.\n  Fix: Run the ART-E benchmark first (\`agent-bench arte\` or \`npx vitest run bench/arte\`), or pass --db FILE.`
    expect(await agentBench('traces', '--db', missing)).toEqual({ code: 2, stderr: `agent-bench traces: ${noDb}` })
    expect(await agentBench('trace', 'some-id', '--db', missing)).toEqual({ code: 2, stderr: `agent-bench trace: ${noDb}` })
    vi.stubEnv('ARTE_TRACES_DB', missing)
    expect(await agentBench('traces')).toEqual({ code: 1, stderr: `agent-bench traces: ${noDb}` })
  })

  it('generate-evals: an unknown --bucket, a --results file that does not exist; a --results file that is no JSON stays exit 1', async () => {
    expect(await agentBench('generate-evals', '--bucket', 'high,top', '--out', join(dir, 'evals'))).toEqual({
      code: 2,
      stderr: 'agent-bench generate-evals: Unknown bucket "top".\n  Fix: Use any of high, medium, low, comma-separated.',
    })
    const gone = await agentBench('generate-evals', '--results', missing, '--out', join(dir, 'evals'))
    expect(gone).toEqual({
      code: 2,
      stderr: expect.stringMatching(
        /^agent-bench generate-evals: Cannot read ART-E results \S+missing: ENOENT[^\n]*\n {2}Fix: Make sure \S+missing exists and holds valid JSON\.$/,
      ),
    })
    expect((await agentBench('generate-evals', '--results', notJson, '--out', join(dir, 'evals'))).code).toBe(1)
  })

  it('compare: an unknown --benchmark, one file instead of two or none; two files that are not results stay exit 1', async () => {
    expect(await agentBench('compare', '--benchmark', 'swe')).toEqual({
      code: 2,
      stderr: 'agent-bench compare: Unknown --benchmark "swe".\n  Fix: Use --benchmark arte, mpcbench or mpcbench-v2.',
    })
    expect(await agentBench('compare', notJson)).toEqual({
      code: 2,
      stderr: 'agent-bench compare: Expected two files (A and B) or none, got 1.\n  Fix: Run e.g. `agent-bench compare old.json new.json`.',
    })
    expect((await agentBench('compare', notJson, notJson)).code).toBe(1)
  })

  it('report: a --results file that does not exist; one that is no JSON stays exit 1', async () => {
    expect(await agentBench('report', '--results', missing, '--out', join(dir, 'report.html'))).toEqual({
      code: 2,
      stderr: `agent-bench report: Results file ${missing} does not exist.\n  Fix: Pass the path of a results JSON or summary, e.g. --results evaluation/arte/results.json.`,
    })
    expect((await agentBench('report', '--results', notJson, '--out', join(dir, 'report.html'))).code).toBe(1)
  })

  it('arte: a --config file that does not exist (the only command with --config)', async () => {
    expect(await agentBench('arte', '--config', missing)).toEqual({
      code: 2,
      stderr: `agent-bench arte: --config ${missing} does not exist.\n  Fix: Pass an existing Vitest config file, or leave --config out to run the bench project.`,
    })
  })

  it('mcp: an ART-E --db that does not exist (in a worker or not); a --db that is not a database stays exit 1', async () => {
    const line = ['mcp', '--db', missing, '--inbox', 'a@b.example', '--query-date', '2001-05-14']
    const noDb =
      /^agent-bench mcp: Cannot open email database \S+missing: [^\n]+\n {2}Fix: Build it first with `agent-bench import-enron --db FILE --maildir DIR`\.$/
    vi.stubEnv('ARTE_TOOL_TIMEOUT_MS', '0')
    expect(await agentBench(...line)).toEqual({ code: 2, stderr: expect.stringMatching(noDb) })
    expect((await agentBench('mcp', '--db', notJson, '--inbox', 'a@b.example', '--query-date', '2001-05-14')).code).toBe(1)
    vi.unstubAllEnvs()
    expect(await agentBench(...line)).toEqual({ code: 2, stderr: expect.stringMatching(noDb) })
  })

  it('import-enron: a --maildir, --csv-path or --jsonl that does not exist', async () => {
    const db = join(dir, 'emails.db')
    expect(await agentBench('import-enron', '--db', db, '--maildir', missing)).toEqual({
      code: 2,
      stderr: `agent-bench import-enron: Maildir ${missing} is not a directory.\n  Fix: Pass the folder that holds the mailboxes (CMU layout: maildir/<user>/<folder>/<n>.).`,
    })
    expect(await agentBench('import-enron', '--db', db, '--csv-path', missing)).toEqual({
      code: 2,
      stderr: `agent-bench import-enron: CSV file ${missing} does not exist.\n  Fix: Pass the path of the Kaggle emails.csv (columns file,message).`,
    })
    expect(await agentBench('import-enron', '--db', db, '--jsonl', missing)).toEqual({
      code: 2,
      stderr: `agent-bench import-enron: JSONL file ${missing} does not exist.\n  Fix: Pass the path of a parsed-email .jsonl file.`,
    })
  })
})

/** The packages `src/main.ts` loads before any command runs: what `agent-bench --help` pays for (commands load lazily). */
function staticPackages(entry: string): Set<string> {
  const packages = new Set<string>()
  const seen = new Set<string>()
  const visit = (file: string): void => {
    if (seen.has(file)) return
    seen.add(file)
    const text = readFileSync(file, 'utf8')
    for (const match of text.matchAll(/^(?:import|export)\s+(?!type\b)[^'"]*?from\s+'([^']+)'|^import\s+'([^']+)'/gm)) {
      const specifier = match[1] ?? match[2] ?? ''
      if (specifier.startsWith('.')) visit(resolve(dirname(file), specifier))
      else if (!specifier.startsWith('node:'))
        packages.add(
          specifier
            .split('/')
            .slice(0, specifier.startsWith('@') ? 2 : 1)
            .join('/'),
        )
    }
  }
  visit(entry)
  return packages
}

describe('agent-bench start-up', () => {
  it('loads no dependency before a command runs (--help stays fast: zod alone added 40 ms)', () => {
    expect([...staticPackages(fileURLToPath(new URL('./main.ts', import.meta.url)))]).toEqual([])
  })
})

/** Runs `agent-bench` in this process (`main`, as bin/agent-bench.js does); its exit code and what it printed. */
async function agentBenchOutput(argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const out: string[] = []
  const err: string[] = []
  vi.spyOn(console, 'error').mockImplementation((line: unknown) => void err.push(String(line)))
  vi.spyOn(console, 'warn').mockImplementation((line: unknown) => void err.push(String(line)))
  vi.spyOn(console, 'log').mockImplementation((line: unknown) => void out.push(String(line)))
  try {
    return { code: await main(argv), stdout: out.join('\n'), stderr: err.join('\n') }
  } finally {
    vi.restoreAllMocks()
  }
}

const missingPathDir = mkdtempSync(join(tmpdir(), 'missing-path-'))
/** A path that does not exist. */
const MISSING = join(missingPathDir, 'missing')
const TASK = 'tasks/planning/lumen_release_sync_planning.json'

/**
 * Every command of `agent-bench` (the tables of src/main.ts), each with command lines whose flag (or, for `compare`,
 * file argument) names a path that does not exist: a bad command line, exit 2, naming the path.
 */
const MISSING_PATHS: Record<string, string[][]> = {
  'import-enron': [
    ['--db', join(missingPathDir, 'emails.db'), '--maildir', MISSING],
    ['--db', join(missingPathDir, 'emails.db'), '--csv-path', MISSING],
    ['--db', join(missingPathDir, 'emails.db'), '--jsonl', MISSING],
  ],
  arte: [['--config', MISSING]],
  trace: [['some-id', '--db', MISSING]],
  traces: [['--db', MISSING]],
  'generate-evals': [['--results', MISSING, '--out', join(missingPathDir, 'evals')]],
  mpcbench: [
    ['--prompt-config', MISSING],
    ['--model-config', MISSING],
  ],
  generate: [['--scenario-id', 'lumen_robotics', '--scenarios-dir', MISSING]],
  'run-task': [
    ['--task', MISSING],
    ['--task', TASK, '--data-dir', MISSING],
    ['--task', TASK, '--prompt-config', MISSING],
    ['--task', TASK, '--model-config', MISSING],
    ['--task', TASK, '--llm-context', MISSING],
  ],
  'build-judge-input': [['--log', MISSING, '--output', join(missingPathDir, 'input.json')]],
  judge: [['--input', MISSING, '--model', 'rules']],
  'judge-check': [
    ['--tasks', MISSING],
    ['--answers', MISSING],
    ['--data', MISSING],
  ],
  'run-and-judge': [
    ['--task', MISSING],
    ['--task', TASK, '--data-dir', MISSING],
  ],
  tool: [['--scenario-id', 'lumen_robotics', '--name', 'Slack.search_messages', '--data-dir', MISSING]],
  'import-upstream': [['--logs', MISSING, '--out', join(missingPathDir, 'upstream')]],
  calls: [['--dir', MISSING]],
  report: [['--results', MISSING, '--out', join(missingPathDir, 'report.html')]],
  compare: [[MISSING, MISSING]],
  'mpcbench-v2': [['--world', MISSING, '--instances', MISSING, '--oracle', MISSING]],
  mcp: [
    ['--db', MISSING, '--inbox', 'a@b.example', '--query-date', '2001-05-14'],
    ['--data-dir', MISSING, '--scenario-id', 'lumen_robotics'],
  ],
}

describe('agent-bench: a flag naming a path that does not exist exits 2 in every command', () => {
  afterAll(() => rmSync(missingPathDir, { recursive: true, force: true }))

  it('covers every command that `agent-bench --help` lists', async () => {
    const { code, stdout } = await agentBenchOutput(['--help'])
    expect(code).toBe(0)
    const listed = [
      ...stdout
        .split('Commands:')[1]!
        .split('Options:')[0]!
        .matchAll(/^ {2}([a-z0-9-]+) /gm),
    ].map((match) => match[1])
    expect(listed.length).toBeGreaterThan(10)
    expect(Object.keys(MISSING_PATHS).sort()).toEqual([...listed].sort())
  })

  for (const [command, lines] of Object.entries(MISSING_PATHS)) {
    it(`${command}: exit 2, naming the missing path`, async () => {
      vi.stubEnv('ARTE_TOOL_TIMEOUT_MS', '0')
      for (const line of lines) {
        const { code, stderr } = await agentBenchOutput([command, ...line])
        expect({ line: line.join(' '), code }).toEqual({ line: line.join(' '), code: 2 })
        expect(stderr, line.join(' ')).toContain(`agent-bench ${command}: `)
        expect(stderr, line.join(' ')).toContain(MISSING)
      }
    })
  }
})
