import { basename, resolve } from 'node:path'
import { ConfigError } from '../../core/errors.ts'
import { readRunLog, writeJudgeInput } from '../run-task.ts'
import { parseCommandArgs, requireFlag } from './run-task-cli.ts'
import { loadTask } from '../task.ts'
import type { Command } from '../../cli/command.ts'

const options = {
  log: { type: 'string' },
  output: { type: 'string' },
  task: { type: 'string' },
  judge: { type: 'string' },
} as const

/** The judge named in a judge input file name (`..__judge-{judge}_judge_input.json`), if any. */
export function judgeFromFileName(file: string): string | undefined {
  return /__judge-(.+)_judge_input\.json$/.exec(basename(file))?.[1]
}

/** `agent-bench build-judge-input`: step 2 of MPCBench evaluation. */
export const command: Command = {
  usage: `Usage: agent-bench build-judge-input --log FILE --output FILE [--task FILE] [--judge M]

Writes the judge input: every run log field verbatim, answer_requirements (and checks) from the task,
tool_trace (the raw tool calls with step indices) and the task type.

Options:
  --log FILE      run log ({task_id}__agent-{model}_run.json) (required)
  --output FILE   judge input to write, e.g. {task_id}__agent-{model}__judge-{judge}_judge_input.json (required)
  --task FILE     task file (default: the run log's task_file)
  --judge M       judge model recorded in the input (default: the {judge} part of --output, else rules)`,
  async run(argv) {
    const flags = parseCommandArgs('build-judge-input', argv, options)
    const logFile = resolve(requireFlag('build-judge-input', 'log', flags.log))
    const output = resolve(requireFlag('build-judge-input', 'output', flags.output))
    const runLog = readRunLog(logFile)
    const taskFile = flags.task ?? runLog.task_file ?? undefined
    if (taskFile === undefined) {
      throw new ConfigError(`Run log ${logFile} records no task file`, { hint: 'Pass --task FILE.' })
    }
    const judge = flags.judge ?? judgeFromFileName(output) ?? 'rules'
    writeJudgeInput(runLog, loadTask(resolve(taskFile)), judge, output)
    console.log(output)
    return 0
  },
}
