import { dirname, resolve } from 'node:path'
import { createJudge } from '../judge/create-judge.ts'
import { RULES_JUDGE_ID } from '../judge/rules-judge.ts'
import { evaluationFiles } from '../tasks/file-names.ts'
import { judgeAndWrite, readJudgeInput } from '../run/run-task.ts'
import { describeJudgeOutcome, loadPromptConfigFlag } from './run-task-cli.ts'
import { defineCommand } from '../../cli/define-command.ts'
import { assertFlagPathExists } from '../../cli/flag-value-error.ts'

/** `agent-bench judge`: step 3 of MPCBench evaluation. */
export const command = defineCommand({
  name: 'judge',
  summary: 'MPCBench step 3: score a judge input with a judge model (or the offline rules judge)',
  description: `Scores the judge input on answer_requirements_satisfaction and source_grounded_reasoning (0-5) and writes
{task_id}__agent-{model}__judge-{M}_judge_result.json beside the input. --model rules is the offline judge
(deterministic checks, not an LLM). An LLM judge gets the judge prompt of prompt_config.json and no tools;
a reply that stays invalid after a retry is written as a judge error (exit code 1), never as a score.`,
  options: {
    input: { type: 'string', value: 'FILE', description: 'judge input', required: true },
    model: { type: 'string', value: 'M', description: 'judge model id, or rules', required: true },
    output: { type: 'string', value: 'FILE', description: 'result file (default: beside the input, named as above)' },
    'prompt-config': { type: 'string', value: 'FILE', description: 'judge prompt (not needed for rules)', default: 'prompt_config.json' },
  },
  async run({ values: flags }) {
    const inputFile = resolve(flags.input as string)
    assertFlagPathExists('--input', inputFile, 'Judge input', 'Pass the judge input that `agent-bench build-judge-input` wrote (--input FILE).')
    const model = flags.model as string
    const input = readJudgeInput(inputFile)
    const prompt = model === RULES_JUDGE_ID ? undefined : loadPromptConfigFlag(flags['prompt-config']).evaluation.judge
    const judge = createJudge(model, {
      systemPrompt: prompt?.system_prompt ?? '',
      ...(prompt?.input_format === undefined ? {} : { inputFormat: prompt.input_format }),
    })
    const output = flags.output === undefined ? evaluationFiles(dirname(inputFile), input.task_id, input.agent_model, model).judgeResult : resolve(flags.output)
    const { outcome } = await judgeAndWrite(judge, input, output)
    console.log(`${output}\n${describeJudgeOutcome(judge, outcome)}`)
    return outcome.kind === 'scored' ? 0 : 1
  },
})
