import { Console } from 'node:console'
import { PassThrough } from 'node:stream'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { redactLoggerOutput, redactWrites } from './redact-output.ts'

afterEach(() => {
  vi.unstubAllEnvs()
})

/** A stream that keeps what was written to it. */
function collecting(): { stream: PassThrough; text: () => string } {
  const stream = new PassThrough()
  const chunks: Buffer[] = []
  stream.on('data', (chunk: Buffer) => chunks.push(chunk))
  return { stream, text: () => Buffer.concat(chunks).toString('utf8') }
}

describe('redactWrites', () => {
  it('redacts text and bytes written to a stream, once however often it is wrapped', () => {
    vi.stubEnv('LOCAL_LLM_API_KEY', 'localsecretkey')
    vi.stubEnv('LOCAL_LLM_TOKEN', 'ollama')
    const out = collecting()
    redactWrites(out.stream)
    redactWrites(out.stream)
    out.stream.write('a localsecretkey b\n')
    out.stream.write(Buffer.from('ollama said hi; ollamas\n'))
    out.stream.write(Buffer.from([0xff, 0xfe, 0x00]))
    expect(out.text()).toBe('a [REDACTED] b\n[REDACTED] said hi; ollamas\n\ufffd\ufffd\u0000')
  })

  it("covers a Console over Vitest's logger streams (reporters, test errors, console output)", () => {
    vi.stubEnv('LOCAL_LLM_API_KEY', 'localsecretkey')
    const out = collecting()
    const err = collecting()
    const console = new Console({ stdout: out.stream, stderr: err.stream })
    redactLoggerOutput({ outputStream: out.stream, errorStream: err.stream })
    console.log('key %s', 'localsecretkey')
    console.error(new Error('rejected localsecretkey').message)
    expect(out.text()).toBe('key [REDACTED]\n')
    expect(err.text()).toBe('rejected [REDACTED]\n')
  })
})
