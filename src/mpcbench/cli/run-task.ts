import { relative, resolve } from 'node:path'
import { ConfigError } from '../../core/errors.ts'
import { assertFlagPathExists } from '../../cli/flag-value-error.ts'
import { defaultAgentModel } from '../../llm/default-model.ts'
import { modelDisplayName } from '../run/mpcbench-meta.ts'
import { runTask, scenarioTools } from '../run/run-task.ts'
import { commandInputs, HARNESS_OPTIONS, reportAgentFailure, reportPackageInputs, taskFlag } from './run-task-cli.ts'
import { resolveHarness } from '../run/harness.ts'
import { loadTask } from '../tasks/task.ts'
import { defineCommand } from '../../cli/define-command.ts'
import { FlagValueError, wholeNumberFlag } from '../../cli/flags.ts'
import { createAgentModel } from '../../agent/create-agent-model.ts'
import { mpcbenchStrategy } from '../baseline/mpcbench-strategy.ts'
import { type AgentUnderTest, createExternalAgent } from '../../agent/external-agent.ts'
import { mpcbenchLogDir, mpcbenchSettingsFromEnv, mpcbenchSettingsWith } from '../settings.ts'

/** The agent of `--agent-url` (or `MPCBENCH_AGENT_URL`), else the model of `--agent-model` (or the default model). */
function runTaskAgent(agentModel: string | undefined, agentUrl: string | undefined): AgentUnderTest {
  const { agent } = agentUrl === undefined ? mpcbenchSettingsFromEnv() : mpcbenchSettingsWith({ MPCBENCH_AGENT_URL: agentUrl })
  if (agent === undefined) return createAgentModel(agentModel ?? defaultAgentModel(), { baselineStrategies: [mpcbenchStrategy] })
  if (agentModel !== undefined) {
    throw new FlagValueError('`--agent-model` and an agent URL (--agent-url / MPCBENCH_AGENT_URL) both choose the agent.', {
      hint: 'Pass only one of them (unset MPCBENCH_AGENT_URL to run a model).',
    })
  }
  return createExternalAgent({ url: agent.url, timeoutMs: agent.timeoutMs, maxRetries: agent.maxRetries })
}

/** `agent-bench run-task`: step 1 of MPCBench evaluation, the agent run and its run log. */
export const command = defineCommand({
  name: 'run-task',
  summary: 'MPCBench step 1: run an agent on a task and write its run log',
  description: `Runs the agent on one MPCBench task over the scenario's six sources and writes
{log-dir}/{task_id}__agent-{model}_run.json (model names made file-safe: / and : become _).
The agent runs at temperature 0 unless model_config.json sets agent_temperature.
Outside a checkout, the package's own task file (at the path given), data/, prompt_config.json and model_config.json
are used where the current folder has none; one line on stderr says which.`,
  options: {
    task: {
      type: 'string',
      value: 'FILE',
      description: "task file, e.g. tasks/planning/x.json (the package's when the current folder has none)",
      required: true,
    },
    'scenario-id': {
      type: 'string',
      value: 'ID',
      description: "scenario whose data/{ID}_{source}.json files the tools read (default: the task's data_dependencies.scenario_id)",
    },
    'agent-model': { type: 'string', value: 'M', description: 'agent model id (default: BENCH_AGENT_MODEL, else from the API key, else baseline)' },
    'agent-url': {
      type: 'string',
      value: 'URL',
      description: 'run your own agent behind HTTP instead of a model (MPCBENCH_AGENT_URL; docs/your-own-agent.md)',
    },
    ...HARNESS_OPTIONS,
  },
  async run({ values: flags }) {
    const taskFile = taskFlag(flags.task as string)
    assertFlagPathExists('--task', taskFile.path, 'Task file', 'Pass the path of a task file, e.g. --task tasks/planning/<task>.json.')
    const task = loadTask(taskFile.path)
    const scenarioId = flags['scenario-id'] ?? task.data_dependencies.scenario_id
    if (scenarioId === undefined) {
      throw new ConfigError(`Task ${flags.task} names no scenario`, { hint: 'Pass --scenario-id ID.' })
    }
    const maxTurns = wholeNumberFlag('--max-turns', flags['max-turns'], { min: 1, example: 50 })
    const { dataDir, overrides, fromPackage } = commandInputs(flags, maxTurns)
    const harness = resolveHarness(process.cwd(), undefined, overrides)
    const agent = runTaskAgent(flags['agent-model'], flags['agent-url'])
    reportPackageInputs([...taskFile.fromPackage, ...fromPackage])
    const { runLog, runLogFile } = await runTask({
      task,
      taskFile: relative(process.cwd(), taskFile.path),
      scenarioId,
      tools: scenarioTools(dataDir, scenarioId, harness.toolProfile),
      toolProfile: harness.toolProfile,
      agent,
      systemMessage: harness.systemMessage,
      ...(harness.developerMessage === undefined ? {} : { developerMessage: harness.developerMessage }),
      temperature: harness.temperature,
      maxTurns: harness.maxTurns,
      logDir: flags['log-dir'] === undefined ? mpcbenchLogDir() : resolve(flags['log-dir']),
    })
    const agentName = modelDisplayName(runLog.agent_model, agent.kind === 'baseline' ? 'baseline' : 'llm')
    console.log(`${runLogFile}\nagent ${agentName}: ${runLog.outcome.kind}, ${runLog.raw_tool_calls.length} tool call(s), tools ${harness.toolProfile}`)
    reportAgentFailure(agentName, runLog.outcome)
    return runLog.outcome.kind === 'error' || runLog.outcome.kind === 'aborted' ? 1 : 0
  },
})
