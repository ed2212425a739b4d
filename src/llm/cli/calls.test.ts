import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { runCli } from '../../cli/run-cli.ts'
import { CallLog } from '../call-log.ts'
import { llmCommands } from './commands.ts'

afterEach(() => {
  vi.restoreAllMocks()
  vi.unstubAllEnvs()
})

describe('agent-bench calls', () => {
  it('lists logged calls and prints one whole, as the per-call files used to hold it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'calls-cli-'))
    const log = new CallLog(dir)
    const tools = [{ type: 'function', function: { name: 'search_emails' } }]
    const base = { model: 'gpt-x', baseURL: null, cached: false, cacheKey: null, latencyMs: 12, retries: 0, attempts: [] }
    log.write({
      ...base,
      startedAt: '2025-01-01T00:00:00.000Z',
      purpose: 'agent',
      request: { messages: [], tools },
      outcome: { kind: 'response', response: { id: 'r1' } },
      usage: { promptTokens: 3, completionTokens: 2, totalTokens: 5, costUsd: null },
    })
    const second = log.write({
      ...base,
      startedAt: '2025-01-01T00:00:01.000Z',
      purpose: 'judge',
      request: { messages: [], tools },
      outcome: { kind: 'error', code: 'ERR_MODEL_AUTH', message: 'no', status: 401 },
      usage: null,
    })
    const out: string[] = []
    vi.spyOn(console, 'log').mockImplementation((line: unknown) => void out.push(String(line)))
    expect(await runCli(llmCommands, ['calls', '--dir', dir])).toBe(0)
    expect(out[0]?.split('\n')).toEqual([
      expect.stringMatching(/gpt-x {2}agent {2}response {2}12 ms {2}5 tokens$/),
      `${second}  gpt-x  judge  error ERR_MODEL_AUTH  12 ms  - tokens`,
    ])
    expect(await runCli(llmCommands, ['calls', second, '--dir', dir])).toBe(0)
    expect(JSON.parse(out[1] ?? '')).toMatchObject({ id: second, purpose: 'judge', request: { tools }, outcome: { status: 401 } })
    vi.spyOn(console, 'error').mockImplementation(() => {})
    expect(await runCli(llmCommands, ['calls', 'nope', '--dir', dir])).toBe(1)
  })

  it('reads BENCH_LLM_LOG_DIR when --dir is not given, as its help says', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'calls-env-'))
    const id = new CallLog(dir).write({
      model: 'gpt-env',
      baseURL: null,
      cached: false,
      cacheKey: null,
      latencyMs: 3,
      retries: 0,
      attempts: [],
      startedAt: '2025-01-01T00:00:00.000Z',
      purpose: 'agent',
      request: { messages: [] },
      outcome: { kind: 'response', response: { id: 'r' } },
      usage: null,
    })
    vi.stubEnv('BENCH_LLM_LOG_DIR', dir)
    const out: string[] = []
    vi.spyOn(console, 'log').mockImplementation((line: unknown) => void out.push(String(line)))
    expect(await runCli(llmCommands, ['calls', id])).toBe(0)
    expect(JSON.parse(out[0] ?? '')).toMatchObject({ id, model: 'gpt-env' })
    expect(await runCli(llmCommands, ['calls'])).toBe(0)
    expect(out[1]).toContain(`${id}  gpt-env  agent`)
  })

  it('fails on a folder that does not exist, and on BENCH_LLM_LOG_DIR=off, instead of saying "No calls logged"', async () => {
    const errors: string[] = []
    vi.spyOn(console, 'error').mockImplementation((line: unknown) => void errors.push(String(line)))
    vi.spyOn(console, 'log').mockImplementation(() => {})
    const missing = join(tmpdir(), 'calls-missing-folder', 'nope')
    expect(await runCli(llmCommands, ['calls', '--dir', missing]), 'a flag naming a missing path is a bad command line').toBe(2)
    expect(errors[0]).toBe(
      `agent-bench calls: The call log folder ${missing} (--dir) does not exist.\n  Fix: Pass the folder the run logged to with --dir (or set BENCH_LLM_LOG_DIR to it); runs log to evaluation/logs/llm unless BENCH_LLM_LOG_DIR says otherwise.`,
    )
    vi.stubEnv('BENCH_LLM_LOG_DIR', missing)
    expect(await runCli(llmCommands, ['calls', 'some-id'])).toBe(1)
    expect(errors[1]).toContain(`The call log folder ${missing} (BENCH_LLM_LOG_DIR`)
    vi.stubEnv('BENCH_LLM_LOG_DIR', 'off')
    expect(await runCli(llmCommands, ['calls'])).toBe(1)
    expect(errors[2]).toMatch(/BENCH_LLM_LOG_DIR=off: the model calls are not logged/)
  })

  it('exits 2 on a bad --limit, a bad command line', async () => {
    const errors: string[] = []
    vi.spyOn(console, 'error').mockImplementation((line: unknown) => void errors.push(String(line)))
    expect(await runCli(llmCommands, ['calls', '--limit', 'abc'])).toBe(2)
    expect(errors[0]).toMatch(/Expected `--limit` to be a whole number from 1 and up, got "abc"\.\n {2}Fix: Pass e\.g\. --limit 20\./)
  })
})
