import type { CommandTable } from '../../cli/run-cli.ts'

/** The MPCBench commands of `agent-bench`. */
export const mpcbenchCommands: CommandTable = {
  generate: () => import('./generate.ts'),
  'run-task': () => import('./run-task.ts'),
  'build-judge-input': () => import('./build-judge-input.ts'),
  judge: () => import('./judge.ts'),
  'run-and-judge': () => import('./run-and-judge.ts'),
  tool: () => import('./tool.ts'),
  'import-upstream': () => import('./import-upstream.ts'),
}
