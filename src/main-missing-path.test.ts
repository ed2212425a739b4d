import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest'
import { main } from './main.ts'

afterEach(() => {
  vi.restoreAllMocks()
  vi.unstubAllEnvs()
})

/** Runs `agent-bench` in this process (`main`, as bin/agent-bench.js does); its exit code and what it printed. */
async function agentBench(argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
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

const dir = mkdtempSync(join(tmpdir(), 'missing-path-'))
/** A path that does not exist. */
const MISSING = join(dir, 'missing')
const TASK = 'tasks/planning/lumen_release_sync_planning.json'

/**
 * Every command of `agent-bench` (the tables of src/main.ts), each with command lines whose flag (or, for `compare`,
 * file argument) names a path that does not exist: a bad command line, exit 2, naming the path.
 */
const MISSING_PATHS: Record<string, string[][]> = {
  'import-enron': [
    ['--db', join(dir, 'emails.db'), '--maildir', MISSING],
    ['--db', join(dir, 'emails.db'), '--csv-path', MISSING],
    ['--db', join(dir, 'emails.db'), '--jsonl', MISSING],
  ],
  arte: [['--config', MISSING]],
  trace: [['some-id', '--db', MISSING]],
  traces: [['--db', MISSING]],
  'generate-evals': [['--results', MISSING, '--out', join(dir, 'evals')]],
  mpcbench: [['--prompt-config', MISSING], ['--model-config', MISSING]],
  generate: [['--scenario-id', 'lumen_robotics', '--scenarios-dir', MISSING]],
  'run-task': [['--task', MISSING], ['--task', TASK, '--data-dir', MISSING], ['--task', TASK, '--prompt-config', MISSING], ['--task', TASK, '--model-config', MISSING], ['--task', TASK, '--llm-context', MISSING]],
  'build-judge-input': [['--log', MISSING, '--output', join(dir, 'input.json')]],
  judge: [['--input', MISSING, '--model', 'rules']],
  'run-and-judge': [['--task', MISSING], ['--task', TASK, '--data-dir', MISSING]],
  tool: [['--scenario-id', 'lumen_robotics', '--name', 'Slack.search_messages', '--data-dir', MISSING]],
  'import-upstream': [['--logs', MISSING, '--out', join(dir, 'upstream')]],
  calls: [['--dir', MISSING]],
  report: [['--results', MISSING, '--out', join(dir, 'report.html')]],
  compare: [[MISSING, MISSING]],
  mcp: [
    ['--db', MISSING, '--inbox', 'a@b.example', '--query-date', '2001-05-14'],
    ['--data-dir', MISSING, '--scenario-id', 'lumen_robotics'],
  ],
}

describe('agent-bench: a flag naming a path that does not exist exits 2 in every command', () => {
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  it('covers every command that `agent-bench --help` lists', async () => {
    const { code, stdout } = await agentBench(['--help'])
    expect(code).toBe(0)
    const listed = [...stdout.split('Commands:')[1]!.split('Options:')[0]!.matchAll(/^ {2}([a-z-]+) /gm)].map((match) => match[1])
    expect(listed.length).toBeGreaterThan(10)
    expect(Object.keys(MISSING_PATHS).sort()).toEqual([...listed].sort())
  })

  for (const [command, lines] of Object.entries(MISSING_PATHS)) {
    it(`${command}: exit 2, naming the missing path`, async () => {
      vi.stubEnv('ARTE_TOOL_TIMEOUT_MS', '0')
      for (const line of lines) {
        const { code, stderr } = await agentBench([command, ...line])
        expect({ line: line.join(' '), code }).toEqual({ line: line.join(' '), code: 2 })
        expect(stderr, line.join(' ')).toContain(`agent-bench ${command}: `)
        expect(stderr, line.join(' ')).toContain(MISSING)
      }
    })
  }
})
