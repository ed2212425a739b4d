import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { limitHint } from './limit-hint.ts'

const dataset = fileURLToPath(new URL('../../../data/arte-demo-questions.jsonl', import.meta.url))
const settings = { dataset, split: 'test' as const, limit: 10 }

describe('limitHint (-t beyond ARTE_LIMIT)', () => {
  it('says why nothing ran when -t names only rows beyond the limit, and how to run them', async () => {
    const hint = await limitHint(settings, /^30$/)
    expect(hint).toMatch(/^ART-E: -t \/\^30\$\/ matches row\(s\) 30 of .*arte-demo-questions\.jsonl \(test\), but only the first 10 row\(s\) are tests \(ARTE_LIMIT=10\)\. Set ARTE_LIMIT=0 \(all rows\) or ARTE_LIMIT=\d+ to run them\.$/)
  })

  it('stays silent when a matching row is within the limit, nothing matches, or there is no limit or pattern', async () => {
    expect(await limitHint(settings, /^1$/)).toBeUndefined()
    expect(await limitHint(settings, /^no such row$/)).toBeUndefined()
    expect(await limitHint({ ...settings, limit: 0 }, /^30$/)).toBeUndefined()
    expect(await limitHint(settings, undefined)).toBeUndefined()
  })
})
