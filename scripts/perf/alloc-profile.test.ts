import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, test } from 'vitest'
import { type SamplingNode, addProfile, largestDifferences, originOf, perTask, readAllocation } from './alloc-profile.ts'

const ROOT = '/repo'
const node = (url: string, selfSize: number, children: SamplingNode[] = []): SamplingNode => ({ callFrame: { functionName: 'f', url }, selfSize, children })

describe('originOf', () => {
  test.for([
    ['file:///repo/node_modules/openai/internal/parse.mjs', 'openai'],
    ['file:///repo/node_modules/@vitest/runner/dist/index.js', '@vitest/runner'],
    ['/repo/node_modules/better-sqlite3/lib/methods/wrappers.js', 'better-sqlite3'],
    ['node:internal/deps/undici/undici', 'node:undici'],
    ['node:internal/webstreams/readablestream', 'node:webstreams'],
    ['node:events', 'node:events'],
    ['/repo/src/llm/call-log.ts', 'src/llm'],
    ['/repo/src/index.ts', 'src'],
    ['/elsewhere/setup.mjs', '/elsewhere/setup.mjs'],
    ['evalmachine.<anonymous>', 'evalmachine.<anonymous>'],
  ])('%s is %s', ([url, origin]) => {
    expect(originOf(url as string, ROOT)).toBe(origin)
  })

  test("V8's own functions have no origin of their own", () => {
    expect(originOf('', ROOT)).toBeUndefined()
  })
})

describe('addProfile', () => {
  test("counts V8's own functions for their caller, and the root's for (V8)", () => {
    const head = node('', 10, [node('/repo/src/llm/call-log.ts', 100, [node('', 40, [node('', 2)])]), node('file:///repo/node_modules/openai/client.mjs', 7)])
    const allocation = addProfile({ bytes: 0, byOrigin: new Map() }, head, ROOT)
    expect(allocation.bytes).toBe(159)
    expect(Object.fromEntries(allocation.byOrigin)).toEqual({ '(V8)': 10, 'src/llm': 142, openai: 7 })
  })
})

describe('perTask and largestDifferences', () => {
  const dirs: string[] = []
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
  })

  test('per task is the N-task run beyond the 1-task run, summed over its test files', () => {
    const write = (profiles: SamplingNode[]): string => {
      const dir = mkdtempSync(join(tmpdir(), 'alloc-profile-'))
      dirs.push(dir)
      profiles.forEach((head, index) => writeFileSync(join(dir, `${index}.heapprofile`), JSON.stringify({ head })))
      writeFileSync(join(dir, 'notes.txt'), 'not a profile')
      return dir
    }
    const one = readAllocation(write([node('/repo/src/llm/a.ts', 1000)]), ROOT)
    const many = readAllocation(write([node('/repo/src/llm/a.ts', 5000), node('', 0, [node('file:///repo/node_modules/openai/a.mjs', 4000)])]), ROOT)
    const each = perTask(one, many, 5)
    expect(each.bytes).toBe(2000)
    expect(Object.fromEntries(each.byOrigin)).toEqual({ 'src/llm': 1000, openai: 1000, '(V8)': 0 })

    const plain = {
      bytes: 1500,
      byOrigin: new Map([
        ['openai', 1400],
        ['node:undici', 100],
      ]),
    }
    expect(largestDifferences(each, plain, 2)).toEqual([
      { origin: 'src/llm', bytes: 1000 },
      { origin: 'openai', bytes: -400 },
    ])
  })
})
