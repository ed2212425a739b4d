import { describe, expect, it } from 'vitest'
import { createVitest } from 'vitest/node'
import { annotationsRead } from '../core/annotation-readers.ts'
import { stopOnInterrupt } from './stop-on-interrupt.ts'

describe('stopOnInterrupt', () => {
  it("reporter: reads no annotation, so a command's default reporters still skip the annotations of passed tests", async () => {
    const interrupt = stopOnInterrupt(() => {})
    const vitest = await createVitest('test', {
      config: false,
      watch: false,
      include: ['no-such-file.test.ts'],
      reporters: [interrupt.reporter, 'default'],
    })
    try {
      expect(annotationsRead(vitest)).toBe(false)
    } finally {
      interrupt.dispose()
      await vitest.close()
    }
  })
})
