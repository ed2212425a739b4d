import { ConfigError } from './errors.ts'

/**
 * The environment variable naming the benchmarks a run is for, comma-separated (`arte`, `mpcbench`); unset or empty
 * means all. The globalSetup of a benchmark left out prepares nothing (no demo database, no scenario data, no model
 * calls), and the tests that need what it prepares fail saying so. `agent-bench arte` sets `BENCH_ONLY=arte` for its run.
 */
export const BENCH_ONLY_VARIABLE = 'BENCH_ONLY'

/** The benchmarks {@link BENCH_ONLY_VARIABLE} can name. */
export const BENCH_NAMES = ['arte', 'mpcbench', 'mpcbench-v2'] as const

/** One of {@link BENCH_NAMES}. */
export type BenchName = (typeof BENCH_NAMES)[number]

type Env = Record<string, string | undefined>

function onlyValue(env: Env): string {
  return env[BENCH_ONLY_VARIABLE]?.trim() ?? ''
}

/** Whether `name` is part of this run by {@link BENCH_ONLY_VARIABLE}; a name it does not know is a `ConfigError`. */
export function benchIncluded(name: BenchName, env: Env = process.env): boolean {
  const raw = onlyValue(env)
  if (raw === '') return true
  const names = raw
    .split(',')
    .map((part) => part.trim().toLowerCase())
    .filter((part) => part !== '')
  const unknown = names.filter((part) => !(BENCH_NAMES as readonly string[]).includes(part))
  if (unknown.length > 0) {
    throw new ConfigError(`${BENCH_ONLY_VARIABLE}=${raw} names ${unknown.map((part) => JSON.stringify(part)).join(', ')}, which is not a benchmark.`, {
      hint: `List benchmarks from ${BENCH_NAMES.join(', ')} (e.g. ${BENCH_ONLY_VARIABLE}=arte), or unset it to run all.`,
    })
  }
  return names.includes(name)
}

/** Why `name` is left out of this run (for its tests' error), e.g. `BENCH_ONLY=arte leaves mpcbench out of this run`. */
export function benchLeftOut(name: BenchName, env: Env = process.env): string {
  return `${BENCH_ONLY_VARIABLE}=${onlyValue(env)} leaves ${name} out of this run, so its globalSetup prepared nothing`
}

/** The hint of the error a left-out benchmark's tests fail with. */
export function benchLeftOutHint(name: BenchName): string {
  return `Run without ${BENCH_ONLY_VARIABLE}, or list ${name} in it (e.g. ${BENCH_ONLY_VARIABLE}=arte,mpcbench); \`agent-bench arte\` sets ${BENCH_ONLY_VARIABLE}=arte for its own run.`
}

/**
 * The hint of the error a benchmark's tests fail with when its globalSetup prepared nothing, for `reason` as the setup
 * gave it: {@link benchLeftOutHint} when `BENCH_ONLY` left the benchmark out, else the setup's own error (printed before
 * the tests ran, with its fix) is what to fix.
 */
export function notPreparedHint(name: BenchName, reason: string): string {
  return reason.startsWith(`${BENCH_ONLY_VARIABLE}=`)
    ? benchLeftOutHint(name)
    : `Fix what the ${name} setup error says (printed before the tests ran, with its fix), then run again.`
}

/** Sets {@link BENCH_ONLY_VARIABLE} to `name` in `env` unless it is set (a command that runs one benchmark). Returns whether it did. */
export function runOnlyBench(name: BenchName, env: Env = process.env): boolean {
  if (onlyValue(env) !== '') return false
  env[BENCH_ONLY_VARIABLE] = name
  return true
}
