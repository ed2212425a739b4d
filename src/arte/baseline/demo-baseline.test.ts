import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { loadArteDataset } from '../dataset/load-dataset.ts'
import { runArteTask } from '../run-arte-task.ts'
import { EmailStore } from '../store/email-store.ts'
import { importMaildir } from '../import/import-maildir.ts'
import { createBaselineModel } from '../../baseline/baseline-model.ts'
import { arteStrategy } from './arte-strategy.ts'

const repo = (path: string) => fileURLToPath(new URL(`../../../${path}`, import.meta.url))

/**
 * The baseline over the shipped demo questions (`data/`), as the offline main job runs it.
 * Its rules were written while looking at these questions' misses, so the rate is in-sample:
 * this guards against regressions; it is not a claim about unseen data.
 */
describe('baseline on the shipped ART-E demo questions', () => {
  it('answers at least a quarter of them exactly, and is labelled as the non-LLM baseline in every trace', async () => {
    const store = EmailStore.open(':memory:')
    try {
      await importMaildir(store, repo('data/demo-mailbox/maildir'))
      const rows = await loadArteDataset(repo('data/arte-demo-questions.jsonl'))
      expect(rows.length).toBeGreaterThan(0)
      let exact = 0
      for (const row of rows) {
        const { trace, meta } = await runArteTask({ row, store, model: createBaselineModel([arteStrategy]), dataset: 'data/arte-demo-questions.jsonl' })
        expect(trace.modelKind).toBe('baseline')
        expect(trace.outcome.kind).toBe('answered')
        if (meta.exactMatch) exact += 1
      }
      expect(exact / rows.length).toBeGreaterThanOrEqual(0.25)
    } finally {
      store.close()
    }
  })
})
