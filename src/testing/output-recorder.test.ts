import { Readable } from 'node:stream'
import { finished } from 'node:stream/promises'
import { describe, expect, it } from 'vitest'
import { outputRecorder } from './output-recorder.ts'

describe('outputRecorder', () => {
  it('keeps recording after a pipe into it ends, as Vitest pipes each exited worker into the stdout it was given', async () => {
    const recorder = outputRecorder()
    const worker = Readable.from(['worker line\n'])
    worker.pipe(recorder.stream)
    await finished(worker)
    // A plain Writable is ended here (its later writes are dropped, and a console swallows the error).
    recorder.stream.write('reporter line after the worker exited\n')
    expect(recorder.text()).toBe('worker line\nreporter line after the worker exited\n')
  })
})
