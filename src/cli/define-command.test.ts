import { parseArgs } from 'node:util'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { ConfigError } from '../core/errors.ts'
import { defineCommand } from './define-command.ts'
import { runCli } from './run-cli.ts'

const greet = defineCommand({
  name: 'greet',
  summary: 'Say hello',
  description: 'Prints a greeting.',
  positionals: { usage: '<name>', min: 1, max: 1 },
  options: {
    times: { type: 'string', value: 'N', description: 'how often', default: 1 },
    shout: { type: 'boolean', description: 'in capitals' },
    lang: { type: 'string', value: 'CODE', description: 'language', required: true },
  },
  async run({ values, positionals }) {
    const text = `hello ${positionals[0]} (${values.lang})`
    console.log(values.shout === true ? text.toUpperCase() : text)
    return 0
  },
})

const legacy = {
  summary: 'Parses its own flags',
  usage: 'Usage: agent-bench legacy',
  async run(argv: string[]) {
    try {
      parseArgs({ args: argv, options: {}, strict: true })
    } catch (error) {
      throw new ConfigError((error as Error).message, { hint: 'see help', cause: error })
    }
    return 0
  },
}

const table = { greet: async () => ({ command: greet }), legacy: async () => ({ command: legacy }) }

function capture() {
  const out: string[] = []
  const err: string[] = []
  vi.spyOn(console, 'log').mockImplementation((line: unknown) => void out.push(String(line)))
  vi.spyOn(console, 'error').mockImplementation((line: unknown) => void err.push(String(line)))
  return { out, err }
}

afterEach(() => vi.restoreAllMocks())

describe('defineCommand', () => {
  it('generates the help from the declared options', async () => {
    const { out } = capture()
    expect(await runCli(table, ['greet', '--help'])).toBe(0)
    expect(out.join('\n')).toBe(
      [
        'Usage: agent-bench greet <name> --lang CODE [options]',
        '',
        'Prints a greeting.',
        '',
        'Options:',
        '  --times N     how often  default: 1',
        '  --shout       in capitals',
        '  --lang CODE   language  (required)',
        '  -h, --help    show this help',
      ].join('\n'),
    )
  })

  it('runs with parsed values and positionals', async () => {
    const { out } = capture()
    expect(await runCli(table, ['greet', 'ada', '--lang', 'en', '--shout'])).toBe(0)
    expect(out).toEqual(['HELLO ADA (EN)'])
  })

  it('prints one friendly error and exits 2 for an unknown option, on declared and hand-parsed commands alike', async () => {
    const { err } = capture()
    expect(await runCli(table, ['greet', 'ada', '--lang', 'en', '--bogus'])).toBe(2)
    expect(await runCli(table, ['legacy', '--bogus'])).toBe(2)
    expect(err).toEqual([
      'agent-bench greet: Unknown option --bogus.\n  Fix: Run `agent-bench greet --help` for its options.',
      'agent-bench legacy: Unknown option --bogus.\n  Fix: Run `agent-bench legacy --help` for its options.',
    ])
  })

  it('names a missing required option and a wrong number of arguments', async () => {
    const { err } = capture()
    expect(await runCli(table, ['greet', 'ada'])).toBe(2)
    expect(await runCli(table, ['greet', '--lang', 'en'])).toBe(2)
    expect(err[0]).toContain('missing --lang')
    expect(err[0]).toContain('Fix: Pass --lang CODE (language)')
    expect(err[1]).toContain('expected <name>, got none')
  })
})
