/**
 * vitest-agent-bench: the pieces to write and run an eval of your own agent as Vitest tests: tools, the agent loop,
 * models, datasets, scorers (an LLM judge among them), the statistics of scores, the eval results file.
 * Test helpers (`describeEval`, `defineArteTests`, `defineMpcbenchBench`) are in `vitest-agent-bench/vitest`;
 * each benchmark's parts in `vitest-agent-bench/arte`, `/mpcbench` and `/mpcbench-v2`; the reporters in
 * `vitest-agent-bench/reporters/*` (see docs/package.md).
 */

export { BenchError, ConfigError, InvalidFormatError } from './core/errors.ts'

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

export { exactMatchScorer, jaccardScorer } from './arte/scoring/scorers.ts'
export type { Scorer, ScoreResult } from './eval/scorer.ts'
export { createJudgeScorer, DEFAULT_JUDGE_RUBRIC, JudgeScorerError, type JudgeScorerOptions } from './eval/judge-scorer.ts'

export { currentTraceId, testTraceId } from './otel/tracing.ts'

export { DatasetFileNotFoundError, type DatasetField, loadDataset, type LoadDatasetOptions } from './eval/load-dataset.ts'
export { type EvalResults, EvalResultsSchema, type EvalTaskResult, readEvalResults } from './results/eval-results.ts'
