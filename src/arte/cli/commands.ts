import type { CommandTable } from '../../cli/command.ts'

/** The ART-E commands of `agent-bench`: one line each (`--help` prints the summary without importing the command). */
export const arteCommands: CommandTable = {
  'import-enron': { summary: 'Import Enron mail (maildir, Kaggle CSV or JSONL) into the SQLite email store', load: () => import('./import-enron.ts') },
  arte: { summary: 'Run the ART-E email benchmark (bench/arte) through Vitest with the ART-E reporter', load: () => import('./arte.ts') },
  trace: { summary: 'Print one stored ART-E agent trace by id', load: () => import('./trace.ts') },
  traces: { summary: 'List stored ART-E traces scoring below a threshold (default 0.5)', load: () => import('./traces.ts') },
  'generate-evals': { summary: 'Write Vitest regression evals (bench/generated) from an ART-E results JSON', load: () => import('./generate-evals.ts') },
}
