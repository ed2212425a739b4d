import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { chooseOutputFile, configuredTrials, subsetFileFor } from './subset-output.ts'

const ids = (existing: unknown) => (existing as { ids?: string[] }).ids

describe('chooseOutputFile', () => {
  const dir = mkdtempSync(join(tmpdir(), 'subset-output-'))
  const file = join(dir, 'results.json')

  it('writes the usual file when there is none, or when the run is as large or different', () => {
    expect(chooseOutputFile(join(dir, 'absent.json'), ['1'], ids)).toEqual({ file: join(dir, 'absent.json') })
    writeFileSync(file, JSON.stringify({ ids: ['1', '2', '3'] }))
    expect(chooseOutputFile(file, ['1', '2', '3'], ids)).toEqual({ file })
    expect(chooseOutputFile(file, ['1', '4'], ids)).toEqual({ file })
    expect(chooseOutputFile(file, ['1'], () => undefined)).toEqual({ file })
  })

  it('sends a strict subset of the tasks already there to *.subset.json and keeps the full file', () => {
    writeFileSync(file, JSON.stringify({ ids: ['1', '2', '3'] }))
    expect(chooseOutputFile(file, ['2'], ids)).toEqual({ file: join(dir, 'results.subset.json'), subset: { ran: 1, kept: 3, fullFile: file } })
  })

  it('takes the keys of this run from the existing JSON when given a function', () => {
    writeFileSync(file, JSON.stringify({ ids: ['1', '2', '3'], prefix: 'x' }))
    const prefixed = (existing: unknown) => ['2'].map((id) => `${(existing as { prefix: string }).prefix}${id}`)
    expect(chooseOutputFile(file, prefixed, ids)).toEqual({ file })
    expect(chooseOutputFile(file, prefixed, (existing) => ids(existing)?.map((id) => `x${id}`))).toEqual({
      file: join(dir, 'results.subset.json'),
      subset: { ran: 1, kept: 3, fullFile: file },
    })
  })

  it('names the subset file beside the full one', () => {
    expect(subsetFileFor('/a/summary.json')).toBe('/a/summary.subset.json')
    expect(subsetFileFor('/a/out')).toBe('/a/out.subset')
  })
})

describe('configuredTrials', () => {
  it('reads BENCH_TRIALS: 1 when unset or empty, undefined when not a whole number', () => {
    expect(configuredTrials({})).toBe(1)
    expect(configuredTrials({ BENCH_TRIALS: '' })).toBe(1)
    expect(configuredTrials({ BENCH_TRIALS: '3' })).toBe(3)
    expect(configuredTrials({ BENCH_TRIALS: '0' })).toBeUndefined()
    expect(configuredTrials({ BENCH_TRIALS: 'three' })).toBeUndefined()
  })
})
