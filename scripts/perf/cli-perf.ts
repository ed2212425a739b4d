/**
 * CLI start-up: wall time of `agent-bench --help` and `agent-bench --version` (the compiled `bin/agent-bench.js`),
 * beside a bare `node -e 0` on the same machine. Prints the median of a few runs and its ratio to the target
 * (< 200 ms for `--help`); asserts nothing. Builds `dist/` first when it is missing.
 *
 * Run alone: `npx tsx scripts/perf/cli-perf.ts` (or `npm run perf -- cli`).
 */
import { execFileSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

const ROOT = fileURLToPath(new URL('../../', import.meta.url))
const BIN = fileURLToPath(new URL('../../bin/agent-bench.js', import.meta.url))
const TARGET_HELP_MS = 200
const RUNS = 7

function medianMs(args: string[]): number {
  const times: number[] = []
  for (let i = 0; i < RUNS; i++) {
    const start = process.hrtime.bigint()
    execFileSync(process.execPath, args, { cwd: ROOT, stdio: 'ignore' })
    times.push(Number(process.hrtime.bigint() - start) / 1e6)
  }
  times.sort((a, b) => a - b)
  return times[Math.floor(times.length / 2)] ?? Number.NaN
}

/** Measures and prints the CLI start-up times. */
export async function runCliPerf(): Promise<void> {
  if (!existsSync(new URL('../../dist/main.js', import.meta.url))) {
    console.log('cli: building dist/ first (npm run build)')
    execFileSync('npm', ['run', 'build'], { cwd: ROOT, stdio: 'inherit' })
  }
  const node = medianMs(['-e', '0'])
  const help = medianMs([BIN, '--help'])
  const version = medianMs([BIN, '--version'])
  console.log(`cli start-up (median of ${RUNS}, node ${process.version})`)
  console.log(`  node -e 0               ${node.toFixed(0)} ms`)
  console.log(
    `  agent-bench --help      ${help.toFixed(0)} ms  target < ${TARGET_HELP_MS} ms  ratio ${(help / TARGET_HELP_MS).toFixed(2)}  (${(help - node).toFixed(0)} ms over bare node)`,
  )
  console.log(`  agent-bench --version   ${version.toFixed(0)} ms`)
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await runCliPerf()
