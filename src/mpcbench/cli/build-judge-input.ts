import { basename, resolve } from 'node:path'
import { ConfigError } from '../../core/errors.ts'
import { assertFlagPathExists } from '../../cli/flag-value-error.ts'
import { readRunLog, writeJudgeInput } from '../run/run-task.ts'
import { loadTask } from '../tasks/task.ts'
import { defineCommand } from '../../cli/define-command.ts'
import { reportPackageInputs, taskFlag } from './run-task-cli.ts'

/** The judge named in a judge input file name (`..__judge-{judge}_judge_input.json`), if any. */
export function judgeFromFileName(file: string): string | undefined {
  return /__judge-(.+)_judge_input\.json$/.exec(basename(file))?.[1]
}

/** `agent-bench build-judge-input`: step 2 of MPCBench evaluation. */
export const command = defineCommand({
  name: 'build-judge-input',
  summary: 'MPCBench step 2: build a judge input from a run log',
  description: `Writes the judge input: every run log field verbatim, answer_requirements (and checks) from the task,
tool_trace (the raw tool calls with step indices) and the task type.`,
  options: {
    log: { type: 'string', value: 'FILE', description: 'run log ({task_id}__agent-{model}_run.json)', required: true },
    output: {
      type: 'string',
      value: 'FILE',
      description: 'judge input to write, e.g. {task_id}__agent-{model}__judge-{judge}_judge_input.json',
      required: true,
    },
    task: { type: 'string', value: 'FILE', description: "task file (default: the run log's task_file; the package's when the current folder has none)" },
    judge: { type: 'string', value: 'M', description: 'judge model recorded in the input (default: the {judge} part of --output, else rules)' },
  },
  async run({ values: flags }) {
    const logFile = resolve(flags.log as string)
    const output = resolve(flags.output as string)
    assertFlagPathExists(
      '--log',
      logFile,
      'Run log',
      'Pass the run log that `agent-bench run-task` wrote, e.g. --log evaluation/logs/{task_id}__agent-{model}_run.json.',
    )
    const runLog = readRunLog(logFile)
    const taskFile = flags.task ?? runLog.task_file ?? undefined
    if (taskFile === undefined) {
      throw new ConfigError(`Run log ${logFile} records no task file`, { hint: 'Pass --task FILE.' })
    }
    const judge = flags.judge ?? judgeFromFileName(output) ?? 'rules'
    const task = taskFlag(taskFile)
    if (flags.task !== undefined)
      assertFlagPathExists('--task', task.path, 'Task file', 'Pass the path of a task file, e.g. --task tasks/planning/<task>.json.')
    reportPackageInputs(task.fromPackage)
    writeJudgeInput(runLog, loadTask(task.path), judge, output)
    console.log(output)
    return 0
  },
})
