import { existsSync } from 'node:fs'
import { relative, resolve } from 'node:path'
import { ConfigError } from '../../core/errors.ts'
import { createJudge } from '../judge/create-judge.ts'
import { mpcbenchLogDir } from '../file-names.ts'
import { loadModelConfig } from '../model-config.ts'
import { modelDisplayName } from '../vitest/mpcbench-meta.ts'
import type { MpcbenchTestMeta } from '../vitest/mpcbench-meta.ts'
import { evaluationMeta, runAndJudge, scenarioTools } from '../run-task.ts'
import { describeJudgeOutcome, loadPromptConfigFlag, parseCommandArgs, requireFlag } from './run-task-cli.ts'
import { resolveModelMatrix } from '../run-task-models.ts'
import { buildSummary, formatSummaryTable } from '../summary.ts'
import { loadTask } from '../task.ts'
import type { Command } from '../../cli/command.ts'
import { createAgentModel } from '../../agent/create-agent-model.ts'
import { mpcbenchStrategy } from '../baseline/mpcbench-strategy.ts'
import { defaultInput } from '../../core/package-root.ts'

const options = {
  task: { type: 'string' },
  'scenario-id': { type: 'string' },
  'agent-model': { type: 'string', multiple: true },
  'judge-model': { type: 'string', multiple: true },
  'data-dir': { type: 'string' },
  'log-dir': { type: 'string' },
  'prompt-config': { type: 'string' },
  'model-config': { type: 'string' },
} as const

/** `agent-bench run-and-judge`: the MPCBench end-to-end step (run log, judge inputs, judge results). */
export const command: Command = {
  usage: `Usage: agent-bench run-and-judge --task FILE --scenario-id ID [options]

For each agent model: runs the task (run log); for each judge model: builds the judge input and judges it.
Writes every file under the log folder and prints the scores keyed agent={model}__judge={model}.

Models: --agent-model / --judge-model (repeatable) when given; else BENCH_AGENT_MODEL / BENCH_JUDGE_MODEL;
else model_config.json agent_models / judge_models when an API key or OPENAI_BASE_URL is set;
else the offline baseline agent and the rules judge (neither is an LLM).

Options:
  --task FILE            task file (required)
  --scenario-id ID       scenario (default: the task's data_dependencies.scenario_id)
  --agent-model M        agent model id (repeatable)
  --judge-model M        judge model id, or rules (repeatable)
  --data-dir DIR         scenario data folder (default: data)
  --log-dir DIR          output folder (default: MPCBENCH_LOG_DIR, else evaluation/logs)
  --prompt-config FILE   default: prompt_config.json
  --model-config FILE    default: model_config.json`,
  async run(argv) {
    const flags = parseCommandArgs('run-and-judge', argv, options)
    const taskFile = requireFlag('run-and-judge', 'task', flags.task)
    const task = loadTask(resolve(taskFile))
    const scenarioId = flags['scenario-id'] ?? task.data_dependencies.scenario_id
    if (scenarioId === undefined) throw new ConfigError(`Task ${taskFile} names no scenario`, { hint: 'Pass --scenario-id ID.' })
    const prompts = loadPromptConfigFlag(flags['prompt-config'])
    const modelConfigFile = flags['model-config'] === undefined ? defaultInput('model_config.json') : resolve(flags['model-config'])
    const matrix = resolveModelMatrix(existsSync(modelConfigFile) ? loadModelConfig(modelConfigFile) : undefined, process.env, {
      agents: flags['agent-model'],
      judges: flags['judge-model'],
    })
    const judges = matrix.judges.map((id) => createJudge(id, { systemPrompt: prompts.evaluation.judge.system_prompt }))
    const logDir = flags['log-dir'] === undefined ? mpcbenchLogDir() : resolve(flags['log-dir'])
    const tools = scenarioTools(flags['data-dir'] === undefined ? defaultInput('data') : resolve(flags['data-dir']), scenarioId)
    const metas: MpcbenchTestMeta[] = []
    let failed = false
    for (const agentId of matrix.agents) {
      const agent = createAgentModel(agentId, { baselineStrategies: [mpcbenchStrategy] })
      const evaluation = await runAndJudge({
        task,
        taskFile: relative(process.cwd(), resolve(taskFile)),
        scenarioId,
        tools,
        agent,
        systemMessage: prompts.evaluation.agent.system_message,
        logDir,
        judges,
      })
      console.log(`agent ${modelDisplayName(agentId, agent.kind)}: ${evaluation.runLog.outcome.kind} -> ${evaluation.runLogFile}`)
      for (const judged of evaluation.judged) {
        console.log(`  ${describeJudgeOutcome(judged.judge, judged.outcome)}`)
        failed ||= judged.outcome.kind === 'judge-error'
      }
      failed ||= evaluation.runLog.outcome.kind === 'error' || evaluation.runLog.outcome.kind === 'aborted'
      metas.push(evaluationMeta(evaluation, scenarioId, process.cwd()))
    }
    const summary = buildSummary(metas)
    console.log(`\n${formatSummaryTable(summary)}\n\n${JSON.stringify(summary.scores, null, 2)}`)
    return failed ? 1 : 0
  },
}
