import { dirname, resolve } from 'node:path'
import { createJudge } from '../judge/create-judge.ts'
import { RULES_JUDGE_ID } from '../judge/rules-judge.ts'
import { evaluationFiles } from '../file-names.ts'
import { judgeAndWrite, readJudgeInput } from '../run-task.ts'
import { describeJudgeOutcome, loadPromptConfigFlag, parseCommandArgs, requireFlag } from './run-task-cli.ts'
import type { Command } from '../../cli/command.ts'

const options = {
  input: { type: 'string' },
  model: { type: 'string' },
  output: { type: 'string' },
  'prompt-config': { type: 'string' },
} as const

/** `agent-bench judge`: step 3 of MPCBench evaluation. */
export const command: Command = {
  usage: `Usage: agent-bench judge --input FILE --model M [--output FILE] [--prompt-config FILE]

Scores the judge input on answer_requirements_satisfaction and source_grounded_reasoning (0-5) and writes
{task_id}__agent-{model}__judge-{M}_judge_result.json beside the input. --model rules is the offline judge
(deterministic checks, not an LLM). An LLM judge gets the judge prompt of prompt_config.json and no tools;
a reply that stays invalid after a retry is written as a judge error (exit code 1), never as a score.

Options:
  --input FILE           judge input (required)
  --model M              judge model id, or rules (required)
  --output FILE          result file (default: beside the input, named as above)
  --prompt-config FILE   judge prompt (default: prompt_config.json; not needed for rules)`,
  async run(argv) {
    const flags = parseCommandArgs('judge', argv, options)
    const inputFile = resolve(requireFlag('judge', 'input', flags.input))
    const model = requireFlag('judge', 'model', flags.model)
    const input = readJudgeInput(inputFile)
    const systemPrompt = model === RULES_JUDGE_ID ? '' : loadPromptConfigFlag(flags['prompt-config']).evaluation.judge.system_prompt
    const judge = createJudge(model, { systemPrompt })
    const output =
      flags.output === undefined
        ? evaluationFiles(dirname(inputFile), input.task_id, input.agent_model, model).judgeResult
        : resolve(flags.output)
    const { outcome } = await judgeAndWrite(judge, input, output)
    console.log(`${output}\n${describeJudgeOutcome(judge, outcome)}`)
    return outcome.kind === 'scored' ? 0 : 1
  },
}
