import { readFileSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
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

  it('answers flags that do not go together, or a flag value they cannot take, with exit code 2 on the agent and tool commands', async () => {
    const errors: string[] = []
    vi.spyOn(console, 'error').mockImplementation((line: unknown) => void errors.push(String(line)))
    const badLines = [
      ['arte', '--agent-url', 'http://127.0.0.1:3000/run', '--agent', 'x'],
      ['arte', '--agent-url', 'http://127.0.0.1:3000/run', '--model-id', 'openai/gpt-4.1'],
      ['arte', '--model-provider', 'mistral'],
      ['mcp'],
      ['mcp', '--db', 'x.db', '--data-dir', 'data'],
      ['mcp', '--db', 'x.db'],
      ['mcp', '--db', 'x.db', '--inbox', 'a@b.example', '--query-date', 'May 5'],
      ['mcp', '--data-dir', 'data'],
      ['mcp', '--data-dir', 'data', '--scenario-id', 'lumen_robotics', '--tools', 'v2'],
    ]
    for (const argv of badLines) expect(await main(argv), argv.join(' ')).toBe(2)
    expect(errors).toHaveLength(badLines.length)
  })
})

/** The packages `src/main.ts` loads before any command runs: what `agent-bench --help` pays for (commands load lazily). */
function staticPackages(entry: string): Set<string> {
  const packages = new Set<string>()
  const seen = new Set<string>()
  const visit = (file: string): void => {
    if (seen.has(file)) return
    seen.add(file)
    const text = readFileSync(file, 'utf8')
    for (const match of text.matchAll(/^(?:import|export)\s+(?!type\b)[^'"]*?from\s+'([^']+)'|^import\s+'([^']+)'/gm)) {
      const specifier = match[1] ?? match[2] ?? ''
      if (specifier.startsWith('.')) visit(resolve(dirname(file), specifier))
      else if (!specifier.startsWith('node:')) packages.add(specifier.split('/').slice(0, specifier.startsWith('@') ? 2 : 1).join('/'))
    }
  }
  visit(entry)
  return packages
}

describe('agent-bench start-up', () => {
  it('loads no dependency before a command runs (--help stays fast: zod alone added 40 ms)', () => {
    expect([...staticPackages(fileURLToPath(new URL('./main.ts', import.meta.url)))]).toEqual([])
  })
})
