import { Writable } from 'node:stream'

/**
 * A stand-in for the `stdout` or `stderr` of `startVitest(..., { stdout, stderr })` that records what Vitest's logger
 * writes. Vitest pipes its workers' output into these streams, and a pipe ends its destination when a worker's stream
 * ends, so `end()` is ignored: what a reporter writes after that (a closing line) is still recorded.
 */
export function outputRecorder(): { stream: Writable; text: () => string } {
  const chunks: string[] = []
  const stream = new Writable({
    write(chunk, _encoding, done) {
      chunks.push(String(chunk))
      done()
    },
  })
  stream.end = function end() {
    return this
  }
  return { stream, text: () => chunks.join('') }
}
