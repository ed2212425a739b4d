import { relative, resolve } from 'node:path'
import { ConfigError } from '../../core/errors.ts'
import { createJudge } from '../judge/create-judge.ts'
import { mpcbenchLogDir } from '../settings.ts'
import { modelDisplayName } from '../vitest/mpcbench-meta.ts'
import type { MpcbenchTestMeta } from '../vitest/mpcbench-meta.ts'
import { evaluationMeta, runAndJudge, scenarioTools } from '../run-task.ts'
import { describeJudgeOutcome, HARNESS_OPTIONS, harnessOverrides } from './run-task-cli.ts'
import { resolveHarness } from '../harness.ts'
import { wholeNumberFlag } from '../../cli/flags.ts'
import { resolveModelMatrix } from '../run-task-models.ts'
import { buildSummary, formatSummaryTable } from '../summary.ts'
import { loadTask } from '../task.ts'
import { defineCommand } from '../../cli/define-command.ts'
import { createAgentModel } from '../../agent/create-agent-model.ts'
import { mpcbenchStrategy } from '../baseline/mpcbench-strategy.ts'
import { defaultInput } from '../../core/package-root.ts'

/** `agent-bench run-and-judge`: the MPCBench end-to-end step (run log, judge inputs, judge results). */
export const command = defineCommand({
  name: 'run-and-judge',
  summary: 'MPCBench end to end: run every agent on a task and score it with every judge',
  description: `For each agent model: runs the task (run log); for each judge model: builds the judge input and judges it.
Writes every file under the log folder and prints the scores keyed agent={model}__judge={model}.

Models: --agent-model / --judge-model (repeatable) when given; else BENCH_AGENT_MODEL / BENCH_JUDGE_MODEL;
else model_config.json agent_models / judge_models when an API key or OPENAI_BASE_URL is set;
else the offline baseline agent and the rules judge (neither is an LLM).
Agents run at temperature 0 unless model_config.json sets agent_temperature.`,
  options: {
    task: { type: 'string', value: 'FILE', description: 'task file', required: true },
    'scenario-id': { type: 'string', value: 'ID', description: "scenario (default: the task's data_dependencies.scenario_id)" },
    'agent-model': { type: 'string', value: 'M', description: 'agent model id', multiple: true },
    'judge-model': { type: 'string', value: 'M', description: 'judge model id, or rules', multiple: true },
    ...HARNESS_OPTIONS,
  },
  async run({ values: flags }) {
    const taskFile = flags.task as string
    const task = loadTask(resolve(taskFile))
    const scenarioId = flags['scenario-id'] ?? task.data_dependencies.scenario_id
    if (scenarioId === undefined) throw new ConfigError(`Task ${taskFile} names no scenario`, { hint: 'Pass --scenario-id ID.' })
    const maxTurns = wholeNumberFlag('--max-turns', flags['max-turns'], { min: 1, example: 50 })
    const dataDir = flags['data-dir'] === undefined ? defaultInput('data') : resolve(flags['data-dir'])
    const harness = resolveHarness(process.cwd(), undefined, harnessOverrides(flags, dataDir, maxTurns))
    const matrix = resolveModelMatrix(harness.modelConfig, undefined, {
      agents: flags['agent-model'],
      judges: flags['judge-model'],
    })
    const judges = matrix.judges.map((id) => createJudge(id, { systemPrompt: harness.judgeSystemPrompt }))
    const logDir = flags['log-dir'] === undefined ? mpcbenchLogDir() : resolve(flags['log-dir'])
    const tools = scenarioTools(dataDir, scenarioId, harness.toolProfile)
    const metas: MpcbenchTestMeta[] = []
    let failed = false
    for (const agentId of matrix.agents) {
      const agent = createAgentModel(agentId, { baselineStrategies: [mpcbenchStrategy] })
      const evaluation = await runAndJudge({
        task,
        taskFile: relative(process.cwd(), resolve(taskFile)),
        scenarioId,
        tools,
        toolProfile: harness.toolProfile,
        agent,
        systemMessage: harness.systemMessage,
        ...(harness.developerMessage === undefined ? {} : { developerMessage: harness.developerMessage }),
        temperature: harness.temperature,
        maxTurns: harness.maxTurns,
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
})
