import type { CommandTable } from '../../cli/command.ts'

/** The MPCBench commands of `agent-bench`: one line each (`--help` prints the summary without importing the command). */
export const mpcbenchCommands: CommandTable = {
  mpcbench: {
    summary: 'Run the MPCBench benchmark (bench/planning, email_reply, document_generation) through Vitest with the MPCBench reporter',
    load: () => import('./mpcbench.ts'),
  },
  generate: { summary: "Generate an MPCBench scenario's world state and six source files (procedural or llm)", load: () => import('./generate.ts') },
  'run-task': { summary: 'MPCBench step 1: run an agent on a task and write its run log', load: () => import('./run-task.ts') },
  'build-judge-input': { summary: 'MPCBench step 2: build a judge input from a run log', load: () => import('./build-judge-input.ts') },
  judge: { summary: 'MPCBench step 3: score a judge input with a judge model (or the offline rules judge)', load: () => import('./judge.ts') },
  'judge-check': {
    summary: 'Measure a judge on labelled right and wrong answers to the shipped tasks: wrong answers passed, right answers failed, per kind',
    load: () => import('./judge-check.ts'),
  },
  'run-and-judge': { summary: 'MPCBench end to end: run every agent on a task and score it with every judge', load: () => import('./run-and-judge.ts') },
  tool: { summary: "Call one MPCBench tool on a scenario's data and print its result as one JSON line", load: () => import('./tool.ts') },
  'import-upstream': {
    summary: "Write world states and six source files from upstream MPCBench's generation call logs",
    load: () => import('./import-upstream.ts'),
  },
}
