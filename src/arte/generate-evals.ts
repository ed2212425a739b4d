import { existsSync, realpathSync, rmSync } from 'node:fs'
import { dirname, isAbsolute, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { z } from 'zod'
import { writeFileAtomic } from '../core/atomic-write.ts'
import { jaccardWords } from './scoring/jaccard.ts'
import { type ArteResults, type ArteTaskResult, compareTaskIds, readArteResults } from './results/results.ts'
import { moduleExtension, packageRoot, runsOutsidePackage } from '../core/package-root.ts'

/** Score buckets of the ART-E doc's eval generation strategy. */
export type EvalBucket = 'high' | 'medium' | 'low'

/** What each bucket's generated tests are for. */
export const BUCKET_PURPOSE: Record<EvalBucket, string> = {
  high: 'semantic score > 0.8: regression tests for answers the agent gets right',
  medium: 'semantic score 0.5-0.8: partial successes, edge cases to improve',
  low: 'semantic score < 0.5: bug reproductions; expected to fail until the agent improves',
}

/** Bucket of a semantic score: > 0.8 high, 0.5 to 0.8 (both included) medium, < 0.5 low. */
export function bucketOf(semanticScore: number): EvalBucket {
  if (semanticScore > 0.8) return 'high'
  if (semanticScore >= 0.5) return 'medium'
  return 'low'
}

/** How a generated test checks the agent's new answer. */
export const RegressionCheckSchema = z.discriminatedUnion('kind', [
  /** The answer equals the ground truth after normalization (lowercase, trim, collapse spaces). */
  z.object({ kind: z.literal('exact'), expected: z.string() }),
  /** Every keyword appears among the answer's words (lowercased, punctuation removed). */
  z.object({ kind: z.literal('keywords'), keywords: z.array(z.string()).min(1) }),
])

/** How a generated test checks the agent's new answer. */
export type RegressionCheck = z.infer<typeof RegressionCheckSchema>

/** One generated regression test: the row to re-run, the check, and where it came from. */
export const RegressionCaseSchema = z.object({
  taskId: z.string(),
  question: z.string(),
  groundTruth: z.string(),
  inboxAddress: z.string(),
  queryDate: z.string(),
  /** The trace the case was generated from (`agent-bench trace ID`). */
  sourceTraceId: z.string(),
  /** The scored answer in that trace. */
  source: z.object({ agentAnswer: z.string(), exactMatch: z.boolean(), semanticScore: z.number() }),
  check: RegressionCheckSchema,
})

/** One generated regression test. */
export type RegressionCase = z.infer<typeof RegressionCaseSchema>

const STOPWORDS = new Set('a an the of to in on at for from by with and or but is are was were be been it its this that these those as'.split(' '))

/** Answers of at most this many words are checked exactly; longer ones by keywords. */
export const EXACT_CHECK_MAX_WORDS = 3

/**
 * The check derived from a ground truth: short answers (up to {@link EXACT_CHECK_MAX_WORDS} words, e.g. a name,
 * a number, a date) must match exactly; longer ones must contain every non-stopword of the ground truth.
 */
export function deriveCheck(groundTruth: string): RegressionCheck {
  const words = jaccardWords(groundTruth)
  if (words.length <= EXACT_CHECK_MAX_WORDS) return { kind: 'exact', expected: groundTruth }
  const keywords = [...new Set(words.filter((word) => !STOPWORDS.has(word)))]
  return keywords.length === 0 ? { kind: 'exact', expected: groundTruth } : { kind: 'keywords', keywords }
}

function toCase(task: ArteTaskResult): RegressionCase {
  return {
    taskId: task.taskId,
    question: task.question,
    groundTruth: task.groundTruth,
    inboxAddress: task.inboxAddress,
    queryDate: task.queryDate,
    sourceTraceId: task.traceId,
    source: { agentAnswer: task.agentAnswer, exactMatch: task.exactMatch, semanticScore: task.semanticScore },
    check: deriveCheck(task.groundTruth),
  }
}

/** The regression cases of a results file, by bucket, in task id order. */
export function planEvals(results: ArteResults): Record<EvalBucket, RegressionCase[]> {
  const plan: Record<EvalBucket, RegressionCase[]> = { high: [], medium: [], low: [] }
  for (const task of [...results.taskResults].sort((a, b) => compareTaskIds(a.taskId, b.taskId))) {
    plan[bucketOf(task.semanticScore)].push(toCase(task))
  }
  return plan
}

/** Options of {@link renderEvalFile}. */
export interface RenderOptions {
  /** Folder the file is written to (see {@link regressionImport}). */
  outDir: string
  /** The results file, named in the header (relative to the repo when inside it). */
  resultsFile: string
  /** The run the results came from. */
  results: Pick<ArteResults, 'config'>
}

/** The regression runtime: `regression.ts` in the sources, `regression.js` when the package runs compiled. */
const RUNTIME = fileURLToPath(new URL(`./vitest/regression${moduleExtension}`, import.meta.url))

/** The package's exported path of the regression runtime, which generated files outside the package import. */
export const ARTE_REGRESSION_MODULE = 'vitest-agent-bench/vitest/arte-regression'

/** The real path of `path`, or of its nearest existing folder with the rest appended (an output folder may not exist yet). */
function realPath(path: string): string {
  const absolute = resolve(path)
  if (existsSync(absolute)) return realpathSync(absolute)
  const parent = dirname(absolute)
  return parent === absolute ? absolute : join(realPath(parent), relative(parent, absolute))
}

function isInside(folder: string, path: string): boolean {
  const rest = relative(realPath(folder), realPath(path))
  return rest === '' || (!rest.startsWith('..') && !isAbsolute(rest))
}

/**
 * The module a generated file in `outDir` imports the regression runtime from: a relative path inside this
 * package's own folder (a checkout's `bench/generated`), else {@link ARTE_REGRESSION_MODULE} (in a user's project the
 * runtime is in `node_modules`, under a path the package does not export).
 */
export function regressionImport(outDir: string): string {
  if (!isInside(packageRoot, outDir)) return ARTE_REGRESSION_MODULE
  const runtime = relative(resolve(outDir), RUNTIME).replaceAll('\\', '/')
  return runtime.startsWith('.') ? runtime : `./${runtime}`
}

/** The source of one generated `*.eval.ts` file. */
export function renderEvalFile(bucket: EvalBucket, cases: ReadonlyArray<RegressionCase>, options: RenderOptions): string {
  const runtime = regressionImport(options.outDir)
  const { config } = options.results
  return [
    `// Generated by \`agent-bench generate-evals\` from ${options.resultsFile}`,
    `// (run of ${config.model} on ${config.dataset}, split ${config.split}, finished ${config.finishedAt}).`,
    `// Bucket "${bucket}", ${BUCKET_PURPOSE[bucket]}.`,
    '// Each test re-runs the agent on its row and checks the answer; `sourceTraceId` names the trace it came from',
    '// (`agent-bench trace <id>`). Do not edit: regenerate.',
    `import { defineArteRegressionTests } from '${runtime}'`,
    '',
    `await defineArteRegressionTests(${JSON.stringify(bucket)}, ${JSON.stringify(cases, null, 2)})`,
    '',
  ].join('\n')
}

/** Name of the generated file of a bucket. */
export function evalFileName(bucket: EvalBucket): string {
  return `arte-${bucket}.eval.ts`
}

/**
 * How to run the files generated into `outDir`, as lines to print. In this package's checkout: the `bench` project
 * of its Vitest config. Elsewhere: the Vitest config a user's project needs, since Vitest's default `include` does not
 * match `*.eval.ts` and the tests need the ART-E global setup (it builds the email database and provides its path).
 */
export function runInstructions(outDir: string, cwd: string = process.cwd()): string[] {
  const folder = relative(cwd, resolve(cwd, outDir)).replaceAll('\\', '/') || '.'
  if (!runsOutsidePackage(cwd)) return [`Run them with \`npx vitest run --project bench ${folder}\`.`]
  return [
    'Run them with Vitest; its default include does not match *.eval.ts, and they need the ART-E global setup. In vitest.config.ts',
    '(or in the `test` of one of its projects):',
    '',
    "  import { defineConfig } from 'vitest/config'",
    '',
    '  export default defineConfig({',
    '    test: {',
    `      include: ['${folder}/*.eval.ts'],`,
    `      globalSetup: ['vitest-agent-bench/vitest/arte-setup'],`,
    '    },',
    '  })',
    '',
    `then \`npx vitest run ${folder}\`, with the database and agent of the run they came from (ARTE_DB, BENCH_AGENT_MODEL or ARTE_AGENT_URL).`,
  ]
}

/** One generated file. */
export interface GeneratedEvalFile {
  bucket: EvalBucket
  path: string
  cases: number
}

/** Options of {@link generateEvals}. */
export interface GenerateEvalsOptions {
  /** Results JSON written by the ART-E reporter. */
  resultsFile: string
  /** @default 'bench/generated' */
  outDir?: string
  /** Only these buckets. @default all three */
  buckets?: ReadonlyArray<EvalBucket>
}

/**
 * Writes one regression `*.eval.ts` file per non-empty bucket of a results file into `outDir`,
 * removing a stale file of a bucket that is now empty.
 */
export function generateEvals(options: GenerateEvalsOptions): GeneratedEvalFile[] {
  const outDir = resolve(options.outDir ?? 'bench/generated')
  const results = readArteResults(options.resultsFile)
  const plan = planEvals(results)
  const resultsPath = resolve(options.resultsFile)
  const fromCwd = relative(process.cwd(), resultsPath)
  const resultsName = fromCwd.startsWith('..') ? resultsPath : fromCwd
  const files: GeneratedEvalFile[] = []
  for (const bucket of options.buckets ?? (['high', 'medium', 'low'] as const)) {
    const path = join(outDir, evalFileName(bucket))
    const cases = plan[bucket]
    if (cases.length === 0) {
      if (existsSync(path)) rmSync(path)
      continue
    }
    writeFileAtomic(path, renderEvalFile(bucket, cases, { outDir, resultsFile: resultsName, results }))
    files.push({ bucket, path, cases: cases.length })
  }
  return files
}
