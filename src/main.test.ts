import { afterEach, describe, expect, it, vi } from 'vitest'
import { arteCommands } from './arte/cli/commands.ts'
import { llmCommands } from './llm/cli/commands.ts'
import { main } from './main.ts'
import { mpcbenchCommands } from './mpcbench/cli/commands.ts'

afterEach(() => vi.restoreAllMocks())

describe('agent-bench', () => {
  it('answers an unknown option the same way on every command: one friendly line, exit code 2', async () => {
    const errors: string[] = []
    vi.spyOn(console, 'error').mockImplementation((line: unknown) => void errors.push(String(line)))
    const names = Object.keys({ ...arteCommands, ...mpcbenchCommands, ...llmCommands })
    expect(names.length).toBeGreaterThan(5)
    for (const name of names) expect(await main([name, '--bogus']), name).toBe(2)
    expect(errors).toEqual(names.map((name) => `agent-bench ${name}: Unknown option --bogus.\n  Fix: Run \`agent-bench ${name} --help\` for its options.`))
  })
})
