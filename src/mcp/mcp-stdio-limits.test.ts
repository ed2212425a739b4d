import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { REPO_ROOT } from '../../fixtures/arte-e2e/harness.ts'
import { childEnv } from '../testing/child-env.ts'
import { scaledMs } from '../testing/time-scale.ts'

/** `agent-bench mcp` on stdio over the MPCBench scenario in `data/`, run from the sources in a child process. */
function startMcp(extra: string[] = []): ChildProcessWithoutNullStreams {
  const args = ['--import', 'tsx', 'src/main.ts', 'mcp', '--data-dir', join(REPO_ROOT, 'data'), '--scenario-id', 'lumen_robotics', '--quiet', ...extra]
  return spawn(process.execPath, args, { cwd: REPO_ROOT, env: childEnv(), stdio: ['pipe', 'pipe', 'pipe'] })
}

/** The JSON-RPC replies the child writes, as they come. */
function replies(child: ChildProcessWithoutNullStreams): { all: unknown[]; next: (count: number) => Promise<unknown[]> } {
  const all: unknown[] = []
  let buffered = ''
  let waiting: Array<() => void> = []
  child.stdout.on('data', (chunk: Buffer) => {
    buffered += chunk.toString('utf8')
    for (let at = buffered.indexOf('\n'); at !== -1; at = buffered.indexOf('\n')) {
      all.push(JSON.parse(buffered.slice(0, at)))
      buffered = buffered.slice(at + 1)
    }
    for (const wake of waiting) wake()
    waiting = []
  })
  const next = async (count: number): Promise<unknown[]> => {
    while (all.length < count) await new Promise<void>((resolve) => waiting.push(resolve))
    return all.slice(0, count)
  }
  return { all, next }
}

const exitOf = (child: ChildProcessWithoutNullStreams): Promise<number | null> =>
  child.exitCode !== null ? Promise.resolve(child.exitCode) : new Promise((resolve) => child.once('exit', (code) => resolve(code)))

const line = (message: unknown): string => `${JSON.stringify(message)}\n`
const initialize = line({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
})
const initialized = line({ jsonrpc: '2.0', method: 'notifications/initialized' })
const listTools = (id: number): string => line({ jsonrpc: '2.0', id, method: 'tools/list' })
/** A `tools/call` line of about `bytes` bytes (its argument padded). */
const bigCall = (id: number, bytes: number): string =>
  line({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'GoogleContacts_SearchContactsByName', arguments: { name: 'x'.repeat(bytes) } } })

let child: ChildProcessWithoutNullStreams | undefined
afterEach(() => {
  if (child !== undefined && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
  child = undefined
})

describe('agent-bench mcp on stdio: input limits', () => {
  it(
    'answers a 20 MB line with an error, keeps serving, answers what is pending when stdin closes, and exits',
    async () => {
      child = startMcp()
      const out = replies(child)
      child.stdin.write(initialize + initialized)
      await out.next(1)
      child.stdin.write(bigCall(2, 20 * 1024 * 1024))
      child.stdin.write(listTools(3))
      const [, tooLarge, listed] = await out.next(3)
      expect(tooLarge).toMatchObject({ jsonrpc: '2.0', id: 2, error: { code: -32600, message: expect.stringContaining('Message too large') } })
      expect((tooLarge as { error: { message: string } }).error.message).toContain('over the limit of 4,194,304 bytes')
      expect(listed).toMatchObject({
        id: 3,
        result: { tools: expect.arrayContaining([expect.objectContaining({ name: 'GoogleContacts_SearchContactsByName' })]) },
      })
      // A request written right before stdin closes is still answered, then the server exits on its own.
      child.stdin.end(line({ jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'GoogleContacts_SearchContactsByName', arguments: { name: 'a' } } }))
      expect(await exitOf(child)).toBe(0)
      expect(out.all.at(-1)).toMatchObject({ id: 4, result: { content: [expect.objectContaining({ type: 'text' })] } })
    },
    scaledMs(120_000),
  )

  it(
    'takes its limit from --max-message-bytes, and answers lines that are not JSON-RPC without closing',
    async () => {
      child = startMcp(['--max-message-bytes', '2000'])
      const out = replies(child)
      child.stdin.write(initialize + initialized)
      await out.next(1)
      child.stdin.write(`${bigCall(2, 3000)}not json\n${line({ id: 5, hello: true })}${listTools(6)}`)
      const [, tooLarge, notJson, notRpc, listed] = await out.next(5)
      expect(tooLarge).toMatchObject({ id: 2, error: { code: -32600, message: expect.stringContaining('over the limit of 2,000 bytes') } })
      expect(notJson).toMatchObject({ id: null, error: { code: -32700 } })
      expect(notRpc).toMatchObject({ id: 5, error: { code: -32600 } })
      expect(listed).toMatchObject({ id: 6, result: { tools: expect.any(Array) } })
      child.stdin.end()
      expect(await exitOf(child)).toBe(0)
    },
    scaledMs(120_000),
  )

  it(
    'exits when its client dies right after a huge line (no orphan)',
    async () => {
      child = startMcp()
      const out = replies(child)
      child.stdin.write(initialize)
      await out.next(1)
      // A whole 20 MB line, then the client's end of both pipes goes away, as when the client is killed.
      await new Promise<void>((resolve) => child?.stdin.write(bigCall(2, 20 * 1024 * 1024), () => resolve()))
      child.stdin.destroy()
      child.stdout.destroy()
      expect(await exitOf(child)).toBe(0)
    },
    scaledMs(120_000),
  )
})
