import { join } from 'node:path'

/** Default folder of run logs, judge inputs and judge results, relative to the working directory. */
export const DEFAULT_LOG_DIR = 'evaluation/logs'

/**
 * A scenario id is a plain name, since it names files in the data folder (`{id}_slack.json`): letters, digits, `_`
 * and `-`, in parts joined by single dots (`v1.2`); never `.`, `..`, a leading or doubled dot, or a path separator.
 */
export const PLAIN_SCENARIO_ID = /^[A-Za-z0-9_-]+(?:\.[A-Za-z0-9_-]+)*$/

/** The message of a scenario id that is not {@link PLAIN_SCENARIO_ID}. */
export const PLAIN_SCENARIO_ID_MESSAGE =
  'expected a plain name: letters, digits, `_`, `-`, and single dots inside (it names files in the data folder; no `.`, `..` or path)'

/**
 * A model id made safe for a file name: every character other than letters, digits, `.`, `_` and `-`
 * (so `/`, `:`, spaces) becomes `_`. `openai/gpt-4.1` → `openai_gpt-4.1`, `ollama:llama3:8b` → `ollama_llama3_8b`.
 * Two ids can map to the same name (`a/b`, `a:b`); each file keeps the original id (`agent_model`, `judge_model`).
 */
export function safeModelName(model: string): string {
  const safe = model.replace(/[^A-Za-z0-9._-]/g, '_')
  return safe === '' || safe === '.' || safe === '..' ? `_${safe}` : safe
}

/**
 * The log folder of trial `trial` (`BENCH_TRIALS`): `logDir` itself for the first (or only) trial, `logDir/trial-j` after
 * it, so each trial's run log, judge input and judge result stay its own.
 */
export function trialLogDir(logDir: string, trial: number | undefined): string {
  return trial === undefined || trial <= 1 ? logDir : join(logDir, `trial-${trial}`)
}

/** `{task_id}__agent-{model}_run.json`. */
export function runLogFileName(taskId: string, agentModel: string): string {
  return `${taskId}__agent-${safeModelName(agentModel)}_run.json`
}

/** `{task_id}__agent-{model}__judge-{judge}_judge_input.json`. */
export function judgeInputFileName(taskId: string, agentModel: string, judgeModel: string): string {
  return `${taskId}__agent-${safeModelName(agentModel)}__judge-${safeModelName(judgeModel)}_judge_input.json`
}

/** `{task_id}__agent-{model}__judge-{judge}_judge_result.json`. */
export function judgeResultFileName(taskId: string, agentModel: string, judgeModel: string): string {
  return `${taskId}__agent-${safeModelName(agentModel)}__judge-${safeModelName(judgeModel)}_judge_result.json`
}

/** The three files of one task × agent × judge, as absolute paths under `logDir`. */
export interface EvaluationFiles {
  runLog: string
  judgeInput: string
  judgeResult: string
}

/** Paths of the run log, judge input and judge result of one task × agent × judge. */
export function evaluationFiles(logDir: string, taskId: string, agentModel: string, judgeModel: string): EvaluationFiles {
  return {
    runLog: join(logDir, runLogFileName(taskId, agentModel)),
    judgeInput: join(logDir, judgeInputFileName(taskId, agentModel, judgeModel)),
    judgeResult: join(logDir, judgeResultFileName(taskId, agentModel, judgeModel)),
  }
}

/**
 * The judge input path that belongs to a run log: `x__agent-m_run.json` → `x__agent-m__judge-{judge}_judge_input.json`
 * in the same folder. Throws a `TypeError` when `runLogFile` does not end in `_run.json`.
 */
export function judgeInputPathForRunLog(runLogFile: string, judgeModel: string): string {
  if (!runLogFile.endsWith('_run.json')) throw new TypeError(`Expected a run log named *_run.json, got ${runLogFile}`)
  return `${runLogFile.slice(0, -'_run.json'.length)}__judge-${safeModelName(judgeModel)}_judge_input.json`
}

/** The judge result path beside a judge input: `..._judge_input.json` → `..._judge_result.json`. */
export function judgeResultPathForInput(judgeInputFile: string): string {
  if (!judgeInputFile.endsWith('_judge_input.json')) {
    throw new TypeError(`Expected a judge input named *_judge_input.json, got ${judgeInputFile}`)
  }
  return `${judgeInputFile.slice(0, -'_judge_input.json'.length)}_judge_result.json`
}
