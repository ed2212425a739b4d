import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { EmailStore } from '../store/email-store.ts'
import { importMaildir } from '../import/import-maildir.ts'
import { loadArteDataset } from './load-dataset.ts'

const maildir = fileURLToPath(new URL('../../../data/demo-mailbox/maildir', import.meta.url))
const questions = fileURLToPath(new URL('../../../data/arte-demo-questions.jsonl', import.meta.url))

describe('demo mailbox in the email store', () => {
  it('imports cleanly, infers the five owners, and every question can read its evidence in scope', async () => {
    const store = EmailStore.open(':memory:')
    try {
      const report = await importMaildir(store, maildir)
      expect(report).toMatchObject({ imported: 296, duplicates: 0, failed: 0, oddDates: 0 })
      expect(report.inboxes).toEqual({
        'brandt-d': 'daniel.brandt@tamsinridge.example',
        'lindqvist-h': 'hannah.lindqvist@tamsinridge.example',
        'okafor-m': 'maya.okafor@tamsinridge.example',
        'raman-p': 'priya.raman@tamsinridge.example',
        'vidal-t': 'tomas.vidal@tamsinridge.example',
      })
      for (const row of await loadArteDataset(questions)) {
        const scope = { inbox: row.inbox_address, queryDate: row.query_date }
        for (const id of row.message_ids) expect(store.read(id, scope), `question ${row.id}: ${id}`).toBeDefined()
      }
    } finally {
      store.close()
    }
  })

  it('hides a later correction from an as-of question: the offsite move is out of scope on 2023-03-10', async () => {
    const store = EmailStore.open(':memory:')
    try {
      await importMaildir(store, maildir)
      const scope = { inbox: 'maya.okafor@tamsinridge.example', queryDate: '2023-03-10' }
      const before = store.search({ keywords: ['offsite'], maxResults: 10 }, scope)
      expect(before.some((hit) => hit.subject === 'Offsite booked: The Alder Lodge, April 20-21')).toBe(true)
      expect(before.some((hit) => hit.subject === 'Offsite update: new dates')).toBe(false)
      const after = store.search({ keywords: ['offsite'], maxResults: 10 }, { ...scope, queryDate: '2023-04-05' })
      expect(after.some((hit) => hit.subject === 'Offsite update: new dates')).toBe(true)
    } finally {
      store.close()
    }
  })
})
