import { relative, resolve } from 'node:path'
import { ConfigError } from '../../core/errors.ts'
import { assertFlagPathExists } from '../../cli/flag-value-error.ts'
import { createJudge } from '../judge/create-judge.ts'
import { mpcbenchLogDir, mpcbenchSettingsFromEnv, mpcbenchSettingsWith } from '../settings.ts'
import { modelDisplayName } from '../run/mpcbench-meta.ts'
import type { MpcbenchTestMeta } from '../run/mpcbench-meta.ts'
import { evaluationMeta, runAndJudge, scenarioTools } from '../run/run-task.ts'
import { commandInputs, describeJudgeOutcome, HARNESS_OPTIONS, reportAgentFailure, reportPackageInputs, taskFlag } from './run-task-cli.ts'
import { resolveHarness } from '../run/harness.ts'
import { FlagValueError, wholeNumberFlag } from '../../cli/flags.ts'
import { resolveModelMatrix } from '../run/run-task-models.ts'
import { buildSummary, formatSummaryTable } from '../summary/summary.ts'
import { loadTask } from '../tasks/task.ts'
import { defineCommand } from '../../cli/define-command.ts'
import { createAgentModel } from '../../agent/create-agent-model.ts'
import { mpcbenchStrategy } from '../baseline/mpcbench-strategy.ts'
import { createExternalAgent, type ExternalAgent } from '../../agent/external-agent.ts'

/** The external agent of `--agent-url` (or `MPCBENCH_AGENT_URL`), the only agent of the run; `undefined` to run models. */
function externalAgentOf(agentUrl: string | undefined, agentModels: string[] | undefined): ExternalAgent | undefined {
  const { agent } = agentUrl === undefined ? mpcbenchSettingsFromEnv() : mpcbenchSettingsWith({ MPCBENCH_AGENT_URL: agentUrl })
  if (agent === undefined) return undefined
  if (agentModels !== undefined) {
    throw new FlagValueError('`--agent-model` and an agent URL (--agent-url / MPCBENCH_AGENT_URL) both choose the agent.', {
      hint: 'Pass only one of them (unset MPCBENCH_AGENT_URL to run models).',
    })
  }
  return createExternalAgent({ url: agent.url, timeoutMs: agent.timeoutMs, maxRetries: agent.maxRetries })
}

/** `agent-bench run-and-judge`: the MPCBench end-to-end step (run log, judge inputs, judge results). */
export const command = defineCommand({
  name: 'run-and-judge',
  summary: 'MPCBench end to end: run every agent on a task and score it with every judge',
  description: `For each agent model: runs the task (run log); for each judge model: builds the judge input and judges it.
Writes every file under the log folder and prints the scores keyed agent={model}__judge={model}.

Models: --agent-model / --judge-model (repeatable) when given; else BENCH_AGENT_MODEL / BENCH_JUDGE_MODEL;
else model_config.json agent_models / judge_models when an API key or OPENAI_BASE_URL is set;
else the offline baseline agent and the rules judge (neither is an LLM). With --agent-url (or MPCBENCH_AGENT_URL)
your agent behind HTTP is the only agent.
Agents run at temperature 0 unless model_config.json sets agent_temperature.
Outside a checkout, the package's own task file (at the path given), data/, prompt_config.json and model_config.json
are used where the current folder has none; one line on stderr says which.`,
  options: {
    task: {
      type: 'string',
      value: 'FILE',
      description: "task file, e.g. tasks/planning/x.json (the package's when the current folder has none)",
      required: true,
    },
    'scenario-id': { type: 'string', value: 'ID', description: "scenario (default: the task's data_dependencies.scenario_id)" },
    'agent-model': { type: 'string', value: 'M', description: 'agent model id', multiple: true },
    'agent-url': { type: 'string', value: 'URL', description: 'run your own agent behind HTTP instead of models (MPCBENCH_AGENT_URL; docs/your-own-agent.md)' },
    'judge-model': { type: 'string', value: 'M', description: 'judge model id, or rules', multiple: true },
    ...HARNESS_OPTIONS,
  },
  async run({ values: flags }) {
    const taskFile = taskFlag(flags.task as string)
    assertFlagPathExists('--task', taskFile.path, 'Task file', 'Pass the path of a task file, e.g. --task tasks/planning/<task>.json.')
    const task = loadTask(taskFile.path)
    const scenarioId = flags['scenario-id'] ?? task.data_dependencies.scenario_id
    if (scenarioId === undefined) throw new ConfigError(`Task ${flags.task} names no scenario`, { hint: 'Pass --scenario-id ID.' })
    const maxTurns = wholeNumberFlag('--max-turns', flags['max-turns'], { min: 1, example: 50 })
    const { dataDir, overrides, fromPackage } = commandInputs(flags, maxTurns)
    const harness = resolveHarness(process.cwd(), undefined, overrides)
    const externalAgent = externalAgentOf(flags['agent-url'], flags['agent-model'])
    const matrix = resolveModelMatrix(harness.modelConfig, undefined, {
      agents: externalAgent === undefined ? flags['agent-model'] : [externalAgent.id],
      judges: flags['judge-model'],
    })
    reportPackageInputs([...taskFile.fromPackage, ...fromPackage])
    const judges = matrix.judges.map((id) => createJudge(id, { systemPrompt: harness.judgeSystemPrompt, inputFormat: harness.judgeInputFormat }))
    const logDir = flags['log-dir'] === undefined ? mpcbenchLogDir() : resolve(flags['log-dir'])
    const tools = scenarioTools(dataDir, scenarioId, harness.toolProfile)
    const metas: MpcbenchTestMeta[] = []
    let failed = false
    for (const agentId of matrix.agents) {
      const agent = externalAgent?.id === agentId ? externalAgent : createAgentModel(agentId, { baselineStrategies: [mpcbenchStrategy] })
      const evaluation = await runAndJudge({
        task,
        taskFile: relative(process.cwd(), taskFile.path),
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
      const agentName = modelDisplayName(agentId, agent.kind === 'baseline' ? 'baseline' : 'llm')
      console.log(`agent ${agentName}: ${evaluation.runLog.outcome.kind} -> ${evaluation.runLogFile}`)
      reportAgentFailure(agentName, evaluation.runLog.outcome)
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
