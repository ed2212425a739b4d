import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { benchIncluded } from '../../core/bench-only.ts'
import { parseWholeNumber } from '../../core/whole-number.ts'
import { loadArteDataset } from '../dataset/load-dataset.ts'
import { arteSettingsFromEnv } from '../settings.ts'

/**
 * Where the ART-E part files are written (relative to the project root; not committed). Inside `bench/arte`, so
 * `vitest run bench/arte` and `agent-bench arte` pick them up as they pick up the single file.
 */
export const ARTE_PARTS_DIR = 'bench/arte/parts'
/** The single ART-E eval file, replaced by the part files when there are several parts. */
export const ARTE_EVAL_FILE = 'bench/arte/arte.eval.ts'

type Env = Record<string, string | undefined>

/** How the ART-E rows are spread over test files (see {@link arteTestFiles}). */
export interface ArteTestFiles {
  /** Number of part files; 1 = the single {@link ARTE_EVAL_FILE}. */
  count: number
  /** `ARTE_PARTS` set the count (else it follows the number of tests, `ARTE_TESTS_PER_PART` per part). */
  explicit: boolean
  /**
   * The parts must run one after another (`maxWorkers: 1, isolate: false` in the bench project: one worker, kept warm
   * from part to part): automatic parts keep `BENCH_CONCURRENCY` the number of tasks in flight; parts set by
   * `ARTE_PARTS` run as Vitest schedules files.
   */
  oneAtATime: boolean
  /** Globs (relative to the root) to add to the project's `include`. */
  include: string[]
  /** Globs (relative to the root) to add to the project's `exclude`. */
  exclude: string[]
}

/** The rows of one part (see `DefineArteTestsOptions.part`). */
export function selectPart<T>(rows: ReadonlyArray<T>, part: { index: number; count: number } | undefined): T[] {
  if (part === undefined) return [...rows]
  const { index, count } = part
  if (!Number.isInteger(count) || count < 1 || !Number.isInteger(index) || index < 1 || index > count) {
    throw new TypeError(`Expected \`part\` to be {index, count} with 1 <= index <= count, got ${JSON.stringify(part)}`)
  }
  return rows.filter((_, position) => position % count === index - 1)
}

function partFile(index: number, count: number): string {
  const width = String(count).length
  return `part-${String(index).padStart(width, '0')}-of-${count}.eval.ts`
}

/**
 * The part a file of {@link ARTE_PARTS_DIR} registers (`bench/arte/parts/part-2-of-3.eval.ts` is `{index: 2, count: 3}`),
 * from its path relative to the project root; `undefined` for any other file.
 */
export function partOfFile(file: string): { index: number; count: number } | undefined {
  const path = file.replaceAll('\\', '/')
  const match = new RegExp(`^${ARTE_PARTS_DIR}/part-(\\d+)-of-(\\d+)\\.eval\\.ts$`).exec(path)
  if (match === null) return undefined
  const index = Number(match[1])
  const count = Number(match[2])
  return partFile(index, count) === path.slice(ARTE_PARTS_DIR.length + 1) && index >= 1 && index <= count ? { index, count } : undefined
}

/**
 * The number of part files when `ARTE_PARTS` is unset: one per `ARTE_TESTS_PER_PART` (default 5,000) tests of the
 * selected rows. Never throws: a bad setting or dataset gives 1, and the tests report it when they start.
 */
export async function automaticArtePartCount(env: Env = process.env, root = process.cwd()): Promise<number> {
  try {
    if (!benchIncluded('arte', env)) return 1
    const settings = arteSettingsFromEnv(env, root)
    if (!existsSync(settings.dataset)) return 1
    const rows = await loadArteDataset(settings.dataset, { split: settings.split, limit: settings.limit, badRows: [] })
    return Math.max(1, Math.ceil((rows.length * settings.trials) / settings.testsPerPart))
  } catch {
    return 1
  }
}

/** `ARTE_PARTS` when set to a whole number >= 1, else undefined (unset, blank, or a bad value reported when the tests start). */
function explicitParts(env: Env): number | undefined {
  return parseWholeNumber(env.ARTE_PARTS ?? '', 1)
}

/** Writes `text` to `file` unless the file already holds it (watch mode sees no change). */
function writeIfChanged(file: string, text: string): void {
  try {
    if (readFileSync(file, 'utf8') === text) return
  } catch {
    // Not there yet.
  }
  writeFileSync(file, text)
}

/** Why automatic part files were written, as their first line says. */
export const AUTOMATIC_PARTS_REASON = 'ARTE_PARTS unset: ARTE_TESTS_PER_PART tests per part'

/**
 * Writes the `count` part files into `dir` (made if missing), part k registering the rows whose position modulo
 * `count` is k - 1 through `defineArteTests` imported from `define`; removes other part files of `dir`.
 */
export function writeArtePartFiles(dir: string, count: number, define: string, why: string): void {
  mkdirSync(dir, { recursive: true })
  const wanted = Array.from({ length: count }, (_, i) => partFile(i + 1, count))
  for (const name of readdirSync(dir)) if (name.endsWith('.eval.ts') && !wanted.includes(name)) rmSync(join(dir, name), { force: true })
  wanted.forEach((name, i) =>
    writeIfChanged(
      join(dir, name),
      `// Written by src/arte/vitest/arte-parts.ts (${why}): part ${i + 1} of ${count} of the ART-E rows (see ${ARTE_EVAL_FILE}).\n` +
        `import { defineArteTests } from ${JSON.stringify(define)}\n\nawait defineArteTests({ part: { index: ${i + 1}, count: ${count} } })\n`,
    ),
  )
}

/**
 * The test files of ART-E for a Vitest config. With more than one part, writes the part files into
 * {@link ARTE_PARTS_DIR}, part k registering the rows whose position modulo n is k - 1, and puts them in place of
 * {@link ARTE_EVAL_FILE}. The count is `ARTE_PARTS` when set (Vitest shards by file, so `vitest --shard=i/N` then
 * splits the rows between machines and `--merge-reports` puts them back together), else one part per
 * `ARTE_TESTS_PER_PART` tests, run one after another (see {@link ArteTestFiles.oneAtATime}).
 */
export async function arteTestFiles(root: string, env: Env = process.env): Promise<ArteTestFiles> {
  const set = explicitParts(env)
  const count = set ?? (await automaticArtePartCount(env, root))
  const dir = join(root, ARTE_PARTS_DIR)
  // One file: part files left by an earlier run with parts are not tests of this one.
  if (count === 1) return { count, explicit: set !== undefined, oneAtATime: false, include: [], exclude: [`${ARTE_PARTS_DIR}/**`] }
  const define = relative(dir, join(root, 'src/arte/vitest/define-arte-tests.ts')).replaceAll('\\', '/')
  writeArtePartFiles(dir, count, define, set === undefined ? AUTOMATIC_PARTS_REASON : `ARTE_PARTS=${count}`)
  return {
    count,
    explicit: set !== undefined,
    oneAtATime: set === undefined,
    include: [`${ARTE_PARTS_DIR}/*-of-${count}.eval.ts`],
    exclude: [ARTE_EVAL_FILE],
  }
}
