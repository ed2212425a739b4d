import { existsSync } from 'node:fs'
import { relative, resolve } from 'node:path'
import fg from 'fast-glob'
import { ConfigError } from '../../core/errors.ts'
import { defaultInput } from '../../core/package-root.ts'
import { defineCommand } from '../../cli/define-command.ts'
import { assertFlagPathExists } from '../../cli/flag-value-error.ts'
import { createJudge } from '../judge/create-judge.ts'
import { formatJudgeCheckReport, loadJudgeCheckSet, runJudgeCheck } from '../judge/judge-check.ts'
import type { JudgeCheckTask } from '../judge/judge-check.ts'
import { RULES_JUDGE_ID } from '../judge/rules-judge.ts'
import { loadTask } from '../tasks/task.ts'
import { loadPromptConfigFlag, reportPackageInputs } from './run-task-cli.ts'

/** `agent-bench judge-check`: how often a judge passes wrong answers and fails right ones, on a labelled answer set. */
export const command = defineCommand({
  name: 'judge-check',
  summary: 'Measure a judge on labelled right and wrong answers to the shipped tasks: wrong answers passed, right answers failed, per kind',
  description: `Scores every labelled answer of the set (data/judge-check/answers.json: per task, right answers and wrong
ones of the kinds wrong, hedge, fabricated, changed-fact, injection, filler, plus two dumps of the tool results made at
run time) with the judge, and prints per kind how many passed (answer_requirements_satisfaction >= 4) against their
label. Each answer is judged against the task's scenario records that hold what its checks look for, the address book
and the free slots of a planning check. --judge rules (default) is the offline judge; a model id is an LLM judge with
the judge prompt of prompt_config.json (one call per answer: about 170 calls for the shipped set). Exit code 1 when any
answer disagrees with its label or the judge failed, 0 otherwise.`,
  options: {
    judge: { type: 'string', value: 'M', description: 'judge model id, or rules', default: RULES_JUDGE_ID },
    tasks: { type: 'string', value: 'DIR', description: 'task folder (tasks/{type}/*.json or *.json below it)', default: 'tasks' },
    answers: { type: 'string', value: 'FILE', description: 'labelled answer set', default: 'data/judge-check/answers.json' },
    data: { type: 'string', value: 'DIR', description: "scenario data (the tasks' sources)", default: 'data' },
    'prompt-config': { type: 'string', value: 'FILE', description: 'judge prompt (not needed for rules)', default: 'prompt_config.json' },
    json: { type: 'boolean', description: 'print the report as JSON (per kind, and every disagreement)' },
  },
  epilog: 'Example: agent-bench judge-check --judge openai/gpt-4.1-mini --json > judge-check.json',
  async run({ values: flags }) {
    const fromPackage: string[] = []
    const input = (flag: string | undefined, fallback: string): string => {
      if (flag !== undefined) return resolve(flag)
      const path = defaultInput(fallback)
      if (path !== resolve(fallback)) fromPackage.push(fallback)
      return path
    }
    const tasksDir = input(flags.tasks, 'tasks')
    const answersFile = input(flags.answers, 'data/judge-check/answers.json')
    const dataDir = input(flags.data, 'data')
    for (const [label, given, path] of [
      ['--tasks', flags.tasks, tasksDir],
      ['--answers', flags.answers, answersFile],
      ['--data', flags.data, dataDir],
    ] as const) {
      // A path the command line names is a bad flag (exit 2); a default that is missing is a setup error (exit 1).
      if (given !== undefined) assertFlagPathExists(label, path, 'Path', `Pass ${label} with an existing path.`)
      else if (!existsSync(path))
        throw new ConfigError(`${label} ${path} does not exist.`, { hint: `Pass ${label} with an existing path, or run from a folder that has it.` })
    }
    reportPackageInputs(fromPackage)
    const set = loadJudgeCheckSet(answersFile)
    const files = fg.sync('**/*.json', { cwd: tasksDir, absolute: true }).sort()
    const tasks: JudgeCheckTask[] = []
    for (const file of files) {
      const task = loadTask(file)
      const answers = set.answers[task.task_id]
      if (answers !== undefined) tasks.push({ task, file: relative(process.cwd(), file) || file, answers })
    }
    if (tasks.length === 0) {
      throw new ConfigError(`No task in ${tasksDir} has labelled answers in ${answersFile}`, {
        hint: `Key the answers of ${answersFile} by the task_id of files under ${tasksDir} (answers: { "<task_id>": [{ "kind": "right", "answer": "..." }] }).`,
      })
    }
    const judgeId = flags.judge ?? RULES_JUDGE_ID
    const prompt = judgeId === RULES_JUDGE_ID ? undefined : loadPromptConfigFlag(flags['prompt-config']).evaluation.judge
    const judge = createJudge(judgeId, {
      systemPrompt: prompt?.system_prompt ?? '',
      ...(prompt?.input_format === undefined ? {} : { inputFormat: prompt.input_format }),
    })
    const report = await runJudgeCheck(judge, tasks, dataDir)
    console.log(flags.json === true ? JSON.stringify(report, null, 2) : formatJudgeCheckReport(report))
    return report.disagreements.length === 0 ? 0 : 1
  },
})
