import { afterEach, describe, expect, it, vi } from 'vitest'
import { ConfigError } from '../core/errors.ts'
import type { Command, CommandTable } from './command.ts'
import { choiceFlag, wholeNumberFlag } from './flags.ts'
import { runCli } from './run-cli.ts'

function capture(): { out: () => string; err: () => string } {
  const log = vi.spyOn(console, 'log').mockImplementation(() => {})
  const error = vi.spyOn(console, 'error').mockImplementation(() => {})
  const text = (spy: typeof log) => spy.mock.calls.map((call) => call.join(' ')).join('\n')
  return { out: () => text(log), err: () => text(error) }
}

const command = (run: Command['run']): Promise<{ command: Command }> => Promise.resolve({ command: { usage: 'Usage: agent-bench x', run } })

afterEach(() => {
  vi.restoreAllMocks()
})

describe('runCli', () => {
  it('prints --help from the table without loading any command', async () => {
    const load = vi.fn(() => command(async () => 0))
    const io = capture()
    expect(await runCli({ lazy: { summary: 'A lazy command', load } }, ['--help'])).toBe(0)
    expect(io.out()).toContain('lazy               A lazy command')
    expect(load).not.toHaveBeenCalled()
  })

  it('reads the summary of a bare loader from the command', async () => {
    const table: CommandTable = { bare: () => Promise.resolve({ command: { summary: 'Loaded summary', usage: '', run: async () => 0 } }) }
    const io = capture()
    await runCli(table, ['--help'])
    expect(io.out()).toContain('bare               Loaded summary')
  })

  it('prints the version', async () => {
    const io = capture()
    expect(await runCli({}, ['--version'], { version: '1.2.3' })).toBe(0)
    expect(io.out()).toBe('1.2.3')
  })

  it('prints a BenchError with its fix and an unexpected error without a stack', async () => {
    const io = capture()
    const table: CommandTable = {
      config: { summary: '', load: () => command(() => Promise.reject(new ConfigError('No file x.json.', { hint: 'Pass --file.' }))) },
      crash: { summary: '', load: () => command(() => Promise.reject(new TypeError('boom', { cause: new Error('deeper') }))) },
    }
    expect(await runCli(table, ['config'])).toBe(1)
    expect(await runCli(table, ['crash'])).toBe(1)
    expect(io.err()).toContain('agent-bench config: No file x.json.\n  Fix: Pass --file.')
    expect(io.err()).toContain('agent-bench crash: unexpected error: boom\n  cause: deeper')
    expect(io.err()).not.toMatch(/\n\s+at /)
  })

  it('exits 2 on a bad flag value, as on an unknown option: both are a bad command line', async () => {
    const io = capture()
    const table: CommandTable = {
      limit: {
        summary: '',
        load: () =>
          command(async (argv) => {
            wholeNumberFlag('--limit', argv[0], { min: 0, example: 5 })
            return 0
          }),
      },
      split: {
        summary: '',
        load: () =>
          command(async (argv) => {
            choiceFlag('--split', argv[0], ['train', 'test'])
            return 0
          }),
      },
    }
    expect(await runCli(table, ['limit', 'abc'])).toBe(2)
    expect(await runCli(table, ['split', 'dev'])).toBe(2)
    expect(await runCli(table, ['limit', '3'])).toBe(0)
    expect(io.err()).toContain('agent-bench limit: Expected `--limit` to be a whole number from 0 and up, got "abc".\n  Fix: Pass e.g. --limit 5.')
    expect(io.err()).toContain('agent-bench split: Expected `--split` to be train or test, got "dev".\n  Fix: Pass --split train or --split test.')
  })

  it("redacts whatever a command prints on stdout and stderr, except a protocol's stdout", async () => {
    vi.stubEnv('LOCAL_LLM_API_KEY', 'localsecretkey')
    const out = vi.spyOn(process.stdout, 'write').mockImplementation(() => true)
    const err = vi.spyOn(process.stderr, 'write').mockImplementation(() => true)
    const printing =
      (chunk: string): Command['run'] =>
      async () => {
        process.stdout.write(`out ${chunk}\n`)
        process.stderr.write(Buffer.from(`err ${chunk}\n`))
        return 0
      }
    const table: CommandTable = {
      plain: { summary: '', load: () => command(printing('localsecretkey')) },
      protocol: { summary: '', load: () => Promise.resolve({ command: { usage: '', protocolStdout: true, run: printing('localsecretkey') } }) },
    }
    try {
      expect(await runCli(table, ['protocol'])).toBe(0)
      expect(await runCli(table, ['plain'])).toBe(0)
      expect(out.mock.calls.map((call) => String(call[0]))).toEqual(['out localsecretkey\n', 'out [REDACTED]\n'])
      expect(err.mock.calls.map((call) => String(call[0]))).toEqual(['err [REDACTED]\n', 'err [REDACTED]\n'])
    } finally {
      vi.unstubAllEnvs()
    }
  })
})
