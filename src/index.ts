/**
 * vitest-agent-bench: the pieces to run tool-using agents as Vitest tests.
 * Test helpers (`describeEval`, `defineArteTests`, `defineMpcbenchBench`) are in `vitest-agent-bench/vitest`;
 * the reporters in `vitest-agent-bench/reporters/arte` and `vitest-agent-bench/reporters/mpcbench`.
 */

export { BenchError, ConfigError, InvalidFormatError } from './core/errors.ts'
export { parseWith, readJsonFile } from './core/parse.ts'

export { type AnyTool, defineTool, type Tool, type ToolContext, toOpenAITool } from './tools/define-tool.ts'
export { createMcpToolServer, type McpToolCall, type McpToolServerOptions, toMcpTool } from './mcp/create-mcp-tool-server.ts'
export { type McpHttpEndpoint, serveMcpHttp, serveMcpStdio } from './mcp/serve-mcp.ts'

export type { ChatModel, ChatRequest, ChatResult, Usage } from './llm/types.ts'
export { createModel, type CreateModelOptions } from './llm/create-model.ts'
export { defaultAgentModel, modelSettingsFromEnv } from './llm/default-model.ts'

export { runAgent, type RunAgentOptions } from './agent/run-agent.ts'
export {
  type AgentUnderTest,
  createExternalAgent,
  type ExternalAgent,
  ExternalAgentError,
  type ExternalAgentReply,
  ExternalAgentReplySchema,
  runExternalAgent,
  type RunExternalAgentOptions,
} from './agent/external-agent.ts'
export { type AgentOutcome, type AgentTrace, DEFAULT_MAX_TURNS, type ToolCallRecord } from './agent/trace.ts'
export { createBaselineModel } from './baseline/baseline-model.ts'
export { createNullModel } from './baseline/null-model.ts'

export { bootstrapMeanCi, type ConfidenceInterval, formatWithCi, pairedBootstrapDiffCi } from './stats/bootstrap.ts'
export { passHatK, passHatKCi } from './stats/pass-hat-k.ts'
export { wilsonInterval } from './stats/wilson.ts'
export { signFlipTest } from './stats/sign-flip-test.ts'
export { type ComparableRun, compareRuns, type RunComparison } from './stats/compare-runs.ts'

export { EmailStore, type EmailScope } from './arte/store/email-store.ts'
export { EmailStoreWorker, ToolTimeoutError, type EmailStoreWorkerOptions } from './arte/store/store-worker.ts'
export type { EmailReader } from './arte/store/email-reader.ts'
export { createEmailTools } from './arte/email-tools.ts'
export { importMaildir } from './arte/import/import-maildir.ts'
export { importKaggleCsv } from './arte/import/import-kaggle-csv.ts'
export { importJsonl } from './arte/import/import-jsonl.ts'

export { type ArteRow, ArteRowSchema } from './arte/dataset/row.ts'
export { loadArteDataset } from './arte/dataset/load-dataset.ts'
export { scoreAnswer, type AnswerScore } from './arte/scoring/score-answer.ts'
export { exactMatchScorer, jaccardScorer } from './arte/scoring/scorers.ts'
export type { Scorer, ScoreResult } from './eval/scorer.ts'
export { createJudgeScorer, DEFAULT_JUDGE_RUBRIC, JudgeScorerError, type JudgeScorerOptions } from './eval/judge-scorer.ts'

export { createWorkplaceTools, DEFAULT_TOOL_PROFILE, loadWorkplace, TOOL_PROFILES, type ToolProfile, Workplace } from './mpcbench/workplace/index.ts'
export { importUpstream } from './mpcbench/upstream/import-upstream.ts'
export { resolveHarness } from './mpcbench/run/harness.ts'
export { loadScenario, type Scenario, ScenarioSchema } from './mpcbench/tasks/scenario.ts'
export { generateScenario } from './mpcbench/generate/generate-scenario.ts'
export { loadTask, type Task, TaskSchema } from './mpcbench/tasks/task.ts'
export { runAndJudge, runTask } from './mpcbench/run/run-task.ts'
export { createJudge } from './mpcbench/judge/create-judge.ts'
export type { Judge } from './mpcbench/judge/judge.ts'
export { currentTraceId, testTraceId } from './otel/tracing.ts'

export { DatasetFileNotFoundError, type DatasetField, loadDataset, type LoadDatasetOptions } from './eval/load-dataset.ts'
export { type EvalResults, EvalResultsSchema, type EvalTaskResult, readEvalResults } from './results/eval-results.ts'
