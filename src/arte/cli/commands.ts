import type { CommandTable } from '../../cli/run-cli.ts'

/** The ART-E commands of `agent-bench`. */
export const arteCommands: CommandTable = {
  'import-enron': () => import('./import-enron.ts'),
  arte: () => import('./arte.ts'),
  trace: () => import('./trace.ts'),
  traces: () => import('./traces.ts'),
  'generate-evals': () => import('./generate-evals.ts'),
}
