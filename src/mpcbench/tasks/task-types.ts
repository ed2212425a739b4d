/**
 * The three MPCBench task types; also the folder names under `tasks/` and `bench/`. Kept free of imports so
 * `vitest.config.ts` (through `src/mpcbench/vitest/watch.ts`) can use it without loading zod.
 */
export const TASK_TYPES = ['planning', 'email_reply', 'document_generation'] as const

/** One MPCBench task type. */
export type TaskType = (typeof TASK_TYPES)[number]
