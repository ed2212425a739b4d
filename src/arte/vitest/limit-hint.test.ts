import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { limitHint } from './limit-hint.ts'

const dataset = fileURLToPath(new URL('../../../data/arte-demo-questions.jsonl', import.meta.url))
const settings = { dataset, split: 'test' as const, limit: 10 }

describe('limitHint (-t beyond ARTE_LIMIT)', () => {
  it('says why nothing ran when -t names only rows beyond the limit, and how to run them', async () => {
    const hint = await limitHint(settings, /^30$/)
    expect(hint).toMatch(
      /^ART-E: -t \/\^30\$\/ matches row\(s\) 30 of .*arte-demo-questions\.jsonl \(test\), but only the first 10 row\(s\) are tests \(ARTE_LIMIT=10\)\. Set ARTE_LIMIT=0 \(all rows\) or ARTE_LIMIT=\d+ to run them\.$/,
    )
  })

  it('stays silent when a matching row is within the limit, nothing matches, or there is no limit or pattern', async () => {
    expect(await limitHint(settings, /^1$/)).toBeUndefined()
    expect(await limitHint(settings, /^no such row$/)).toBeUndefined()
    expect(await limitHint({ ...settings, limit: 0 }, /^30$/)).toBeUndefined()
    expect(await limitHint(settings, undefined)).toBeUndefined()
  })

  it('counts rows within the row selection (ARTE_ROWS), as the tests are made', async () => {
    const row = (id: number, messageIds: string[]) =>
      JSON.stringify({
        id,
        question: `q${id}?`,
        answer: 'a',
        message_ids: messageIds,
        inbox_address: 'ann@x.example',
        query_date: '2001-05-01',
        how_realistic: 0.9,
        split: 'test',
      })
    const file = join(mkdtempSync(join(tmpdir(), 'limit-hint-')), 'rows.jsonl')
    // Row 1 cites two messages: OpenPipe's selection leaves it out, so row 3 is the second test, within the limit.
    writeFileSync(file, `${[row(1, ['<a@x>', '<b@x>']), row(2, ['<c@x>']), row(3, ['<d@x>'])].join('\n')}\n`)
    expect(await limitHint({ dataset: file, split: 'test', limit: 2, rows: 'all' }, /^3$/)).toMatch(/ARTE_LIMIT=3 to run them/)
    expect(await limitHint({ dataset: file, split: 'test', limit: 2, rows: 'openpipe' }, /^3$/)).toBeUndefined()
    expect(await limitHint({ dataset: file, split: 'test', limit: 1, rows: 'openpipe' }, /^3$/)).toMatch(
      /\(test, rows openpipe\), but only the first 1 row\(s\).* ARTE_LIMIT=2 to run them/,
    )
    // Row 1 is not a test at all under the selection, whatever the limit.
    expect(await limitHint({ dataset: file, split: 'test', limit: 0, rows: 'openpipe' }, /^1$/)).toMatch(
      /matches row\(s\) 1 of .*rows\.jsonl \(test\), which the row selection leaves out \(ARTE_ROWS=openpipe.*Set ARTE_ROWS=all/,
    )
    expect(await limitHint({ dataset: file, split: 'test', limit: 0, rows: 'all' }, /^1$/)).toBeUndefined()
    expect(await limitHint({ dataset: file, split: 'test', limit: 0, rows: 'openpipe' }, /^2$/)).toBeUndefined()
  })
})
