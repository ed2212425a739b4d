import { describe, expect, it } from 'vitest'
import { leanNativeMemory, MIMALLOC_EAGER_COMMIT_VARIABLE } from './native-memory.ts'

describe('leanNativeMemory', () => {
  it('turns off the eager arena commit unless the user chose a value', () => {
    const env: NodeJS.ProcessEnv = {}
    expect(leanNativeMemory(env)).toBe(true)
    expect(env[MIMALLOC_EAGER_COMMIT_VARIABLE]).toBe('0')
    const chosen: NodeJS.ProcessEnv = { [MIMALLOC_EAGER_COMMIT_VARIABLE]: '1' }
    expect(leanNativeMemory(chosen)).toBe(false)
    expect(chosen[MIMALLOC_EAGER_COMMIT_VARIABLE]).toBe('1')
  })
})
