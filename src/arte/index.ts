/**
 * `vitest-agent-bench/arte`: ART-E's parts for your own harness, without Vitest: the Enron email store and its
 * importers, the email tools an agent searches it with, the dataset loader and the answer scoring. The tests
 * (`defineArteTests`) are in `vitest-agent-bench/vitest`, the reporter in `vitest-agent-bench/reporters/arte`.
 */

export { EmailStore, type EmailScope } from './store/email-store.ts'
export { EmailStoreWorker, ToolTimeoutError, type EmailStoreWorkerOptions } from './store/store-worker.ts'
export type { EmailReader } from './store/email-reader.ts'
export { createEmailTools } from './email-tools.ts'
export { importMaildir } from './import/import-maildir.ts'
export { importKaggleCsv } from './import/import-kaggle-csv.ts'
export { importJsonl } from './import/import-jsonl.ts'

export { type ArteRow, ArteRowSchema } from './dataset/row.ts'
export { loadArteDataset } from './dataset/load-dataset.ts'
export { scoreAnswer, type AnswerScore } from './scoring/score-answer.ts'
export { exactMatchScorer, jaccardScorer } from './scoring/scorers.ts'
export type { ArteTestMeta } from './results/arte-meta.ts'
