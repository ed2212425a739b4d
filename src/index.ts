/**
 * vitest-agent-bench: the pieces to run tool-using agents as Vitest tests.
 * The benchmarks themselves live in `bench/`; reporters in `reporters/`.
 */

export { BenchError, ConfigError, InvalidFormatError } from './errors.ts'
export { parseWith, readJsonFile } from './parse.ts'

export { type AnyTool, defineTool, type Tool, type ToolContext, toOpenAITool } from './tools/define-tool.ts'

export type { ChatModel, ChatRequest, ChatResult, Usage } from './llm/types.ts'
export { createModel, type CreateModelOptions } from './llm/create-model.ts'
export { defaultAgentModel, modelSettingsFromEnv } from './llm/default-model.ts'

export { runAgent, type RunAgentOptions } from './agent/run-agent.ts'
export { type AgentOutcome, type AgentTrace, DEFAULT_MAX_TURNS, type ToolCallRecord } from './agent/trace.ts'
export { createBaselineModel } from './agent/baseline/baseline-model.ts'

export { EmailStore, type EmailScope } from './email/email-store.ts'
export { createEmailTools } from './email/email-tools.ts'
export { importMaildir } from './email/import-maildir.ts'
export { importKaggleCsv } from './email/import-kaggle-csv.ts'
export { importJsonl } from './email/import-jsonl.ts'

export { type ArteRow, ArteRowSchema } from './arte/row.ts'
export { loadArteDataset } from './arte/load-dataset.ts'
export { scoreAnswer } from './scoring/score-answer.ts'

export { createWorkplaceTools, loadWorkplace, Workplace } from './workplace/index.ts'
export { loadScenario, type Scenario, ScenarioSchema } from './mpcbench/scenario.ts'
export { generateScenario } from './mpcbench/generate/generate-scenario.ts'
export { loadTask, type Task, TaskSchema } from './mpcbench/task.ts'
export { runAndJudge, runTask } from './mpcbench/run-task.ts'
export { createJudge } from './judge/create-judge.ts'
export type { Judge } from './judge/judge.ts'
