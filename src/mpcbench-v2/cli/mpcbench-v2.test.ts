import { execFile } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { expect, it } from 'vitest'
import { childEnv } from '../../testing/child-env.ts'
import { describeWithSharedData, sharedDataPath } from '../../testing/shared-data.ts'
import { scaledMs } from '../../testing/time-scale.ts'

const execFileAsync = promisify(execFile)
const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url))

/** Runs the command in a child process, killed before the test's own timeout (so a hang leaves no process behind). */
async function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await execFileAsync(process.execPath, ['--import', 'tsx', 'src/main.ts', 'mpcbench-v2', ...args], {
      cwd: REPO_ROOT,
      env: childEnv({ BENCH_LLM_LOG_DIR: 'off' }),
      timeout: scaledMs(240_000),
    })
    return { code: 0, stdout, stderr }
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string }
    return { code: typeof failed.code === 'number' ? failed.code : -1, stdout: failed.stdout ?? '', stderr: failed.stderr ?? '' }
  }
}

it(
  'exits 2 naming a flag whose file does not exist',
  async () => {
    const run = await cli(['--world', 'no-such-world.json', '--instances', 'x', '--oracle', 'y'])
    expect(run.code).toBe(2)
    expect(run.stderr).toContain('--world no-such-world.json does not exist')
  },
  scaledMs(300_000),
)

describeWithSharedData('agent-bench mpcbench-v2 on upstream data', () => {
  it(
    "runs the chosen instances through Vitest offline and writes upstream's rows",
    async () => {
      const data = sharedDataPath('mpcbench', 'v2_e398410', 'generate', 'output')
      const dir = mkdtempSync(join(tmpdir(), 'mpcbench-v2-cli-'))
      const run = await cli([
        '--world',
        join(data, 'world_level1_test.json'),
        '--instances',
        join(data, 'instances_level1_test.jsonl'),
        '--oracle',
        join(data, 'oracle_level1_test.jsonl'),
        '--ids',
        'instance_level1_test_A,instance_level1_test_C',
        '--model',
        'baseline',
        '--output',
        join(dir, 'rows.jsonl'),
        '--summary',
        join(dir, 'summary.json'),
      ])
      expect(run.code, run.stderr).toBe(0)
      expect(run.stdout).toContain('MPCBench v2 level 1 world_level1_test baseline (non-LLM): Avg F1 1.00')
      const rows = readFileSync(join(dir, 'rows.jsonl'), 'utf8')
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line))
      expect(rows.map((row) => row.instance_id)).toEqual(['instance_level1_test_A', 'instance_level1_test_C'])
      expect(Object.keys(rows[0])).toEqual(['instance_id', 'metrics', 'pred', 'gold', 'error', 'trace'])
      expect(existsSync(join(dir, 'eval_L1_test_baseline.jsonl'))).toBe(true)
    },
    scaledMs(300_000),
  )
})
