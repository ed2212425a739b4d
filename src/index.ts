/**
 * vitest-agent-bench: the pieces to run tool-using agents as Vitest tests.
 * The benchmarks themselves live in `bench/`; reporters in `reporters/`.
 */

export { BenchError, ConfigError, InvalidFormatError } from './core/errors.ts'
export { parseWith, readJsonFile } from './core/parse.ts'

export { type AnyTool, defineTool, type Tool, type ToolContext, toOpenAITool } from './tools/define-tool.ts'

export type { ChatModel, ChatRequest, ChatResult, Usage } from './llm/types.ts'
export { createModel, type CreateModelOptions } from './llm/create-model.ts'
export { defaultAgentModel, modelSettingsFromEnv } from './llm/default-model.ts'

export { runAgent, type RunAgentOptions } from './agent/run-agent.ts'
export { type AgentOutcome, type AgentTrace, DEFAULT_MAX_TURNS, type ToolCallRecord } from './agent/trace.ts'
export { createBaselineModel } from './baseline/baseline-model.ts'

export { EmailStore, type EmailScope } from './arte/store/email-store.ts'
export { createEmailTools } from './arte/email-tools.ts'
export { importMaildir } from './arte/import/import-maildir.ts'
export { importKaggleCsv } from './arte/import/import-kaggle-csv.ts'
export { importJsonl } from './arte/import/import-jsonl.ts'

export { type ArteRow, ArteRowSchema } from './arte/dataset/row.ts'
export { loadArteDataset } from './arte/dataset/load-dataset.ts'
export { scoreAnswer } from './arte/scoring/score-answer.ts'

export { createWorkplaceTools, DEFAULT_TOOL_PROFILE, loadWorkplace, TOOL_PROFILES, type ToolProfile, Workplace } from './mpcbench/workplace/index.ts'
export { importUpstream } from './mpcbench/import-upstream.ts'
export { resolveHarness } from './mpcbench/harness.ts'
export { loadScenario, type Scenario, ScenarioSchema } from './mpcbench/scenario.ts'
export { generateScenario } from './mpcbench/generate/generate-scenario.ts'
export { loadTask, type Task, TaskSchema } from './mpcbench/task.ts'
export { runAndJudge, runTask } from './mpcbench/run-task.ts'
export { createJudge } from './mpcbench/judge/create-judge.ts'
export type { Judge } from './mpcbench/judge/judge.ts'
