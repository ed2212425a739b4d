import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { runCli } from '../../cli/run-cli.ts'
import { CallLog } from '../call-log.ts'
import { llmCommands } from './commands.ts'

afterEach(() => vi.restoreAllMocks())

describe('agent-bench calls', () => {
  it('lists logged calls and prints one whole, as the per-call files used to hold it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'calls-cli-'))
    const log = new CallLog(dir)
    const tools = [{ type: 'function', function: { name: 'search_emails' } }]
    const base = { model: 'gpt-x', baseURL: null, cached: false, cacheKey: null, latencyMs: 12, retries: 0, attempts: [] }
    log.write({ ...base, startedAt: '2025-01-01T00:00:00.000Z', purpose: 'agent', request: { messages: [], tools }, outcome: { kind: 'response', response: { id: 'r1' } }, usage: { promptTokens: 3, completionTokens: 2, totalTokens: 5, costUsd: null } })
    const second = log.write({ ...base, startedAt: '2025-01-01T00:00:01.000Z', purpose: 'judge', request: { messages: [], tools }, outcome: { kind: 'error', code: 'ERR_MODEL_AUTH', message: 'no', status: 401 }, usage: null })
    const out: string[] = []
    vi.spyOn(console, 'log').mockImplementation((line: unknown) => void out.push(String(line)))
    expect(await runCli(llmCommands, ['calls', '--dir', dir])).toBe(0)
    expect(out[0]?.split('\n')).toEqual([expect.stringMatching(/gpt-x {2}agent {2}response {2}12 ms {2}5 tokens$/), `${second}  gpt-x  judge  error ERR_MODEL_AUTH  12 ms  - tokens`])
    expect(await runCli(llmCommands, ['calls', second, '--dir', dir])).toBe(0)
    expect(JSON.parse(out[1] ?? '')).toMatchObject({ id: second, purpose: 'judge', request: { tools }, outcome: { status: 401 } })
    vi.spyOn(console, 'error').mockImplementation(() => {})
    expect(await runCli(llmCommands, ['calls', 'nope', '--dir', dir])).toBe(1)
  })
})
