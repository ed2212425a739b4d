// (b) A TypeScript consumer (module nodenext): the library, the test helpers, the reporters and the generated evals' runtime, with their types.
import { type AgentTrace, defineTool, type Scorer, type Tool } from 'vitest-agent-bench'
import { type ArteRow, EmailStore, scoreAnswer } from 'vitest-agent-bench/arte'
import { loadTask, runAndJudge, type Task, Workplace } from 'vitest-agent-bench/mpcbench'
import { calculateF1, createSchedulingTools, type MpcbenchV2TestMeta } from 'vitest-agent-bench/mpcbench-v2'
import ArteReporter, { type ArteReporterOptions } from 'vitest-agent-bench/reporters/arte'
import MpcbenchReporter from 'vitest-agent-bench/reporters/mpcbench'
import ProgressReporter from 'vitest-agent-bench/reporters/progress'
import ReportReporter, { type ReportReporterOptions } from 'vitest-agent-bench/reporters/report'
import { defineArteRegressionTests } from 'vitest-agent-bench/vitest/arte-regression'
import { defineArteTests, defineMpcbenchBench, describeEval, exactMatchScorer, type EvalTestMeta } from 'vitest-agent-bench/vitest'
import type { Reporter } from 'vitest/node'
import { z } from 'zod'

const echo: Tool<z.ZodObject<{ text: z.ZodString }>, string> = defineTool({
  name: 'echo',
  description: 'Echoes its text.',
  parameters: z.object({ text: z.string() }),
  handler: ({ text }) => text,
})

const startsRight: Scorer<string, string, string> = (_input, output, expected) => ({ score: output.startsWith(expected.slice(0, 1)) ? 1 : 0 })

const options: ArteReporterOptions = { outputFile: 'out/results.json' }
const reportOptions: ReportReporterOptions = { outputFile: 'out/report.html' }
const reporters: Reporter[] = [new ArteReporter(options), new MpcbenchReporter(), new ProgressReporter(), new ReportReporter(reportOptions)]
const score: { exactMatch: boolean; semanticScore: number } = scoreAnswer('a', 'b')
const store: EmailStore = EmailStore.open(':memory:')
const row: ArteRow | undefined = undefined
const trace: AgentTrace | undefined = undefined
const meta: EvalTestMeta | undefined = undefined
const task: Task | undefined = undefined
const v2Meta: MpcbenchV2TestMeta | undefined = undefined
const benchmarkParts: unknown[] = [loadTask, runAndJudge, Workplace, calculateF1, createSchedulingTools, task, v2Meta]
const helpers: unknown[] = [defineArteTests, defineMpcbenchBench, describeEval, exactMatchScorer, startsRight, echo, defineArteRegressionTests]

// With skipLibCheck (the usual setting), a type the package's .d.ts files cannot resolve silently becomes `any`:
// these fail to compile if one does (better-sqlite3's types, vitest's, the package's own).
type IsAny<T> = 0 extends 1 & T ? true : false
const typed: Array<false> = [
  false satisfies IsAny<EmailStore['db']>,
  false satisfies IsAny<AgentTrace['usage']>,
  false satisfies IsAny<ArteRow['message_ids']>,
  false satisfies IsAny<Parameters<typeof describeEval>[1]>,
  false satisfies IsAny<ArteReporter['onTestRunEnd']>,
  false satisfies IsAny<ReportReporter['onTestRunEnd']>,
  false satisfies IsAny<ProgressReporter['onTestCaseResult']>,
  false satisfies IsAny<Parameters<typeof defineArteRegressionTests>[1]>,
  false satisfies IsAny<Parameters<typeof defineMpcbenchBench>[0]>,
  false satisfies IsAny<Parameters<typeof runAndJudge>[0]>,
  false satisfies IsAny<ReturnType<typeof calculateF1>>,
]

export { benchmarkParts, helpers, meta, reporters, row, score, store, trace, typed }
