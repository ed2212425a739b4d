import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest'
import { ConfigError } from '../../core/errors.ts'
import { command } from './generate.ts'

const tmp = mkdtempSync(join(tmpdir(), 'cli-generate-test-'))
afterAll(() => rmSync(tmp, { recursive: true, force: true }))

afterEach(() => vi.restoreAllMocks())

describe('agent-bench generate', () => {
  it('generates a scenario, then skips it, and regenerates with --force and another seed', async () => {
    const out = mkdtempSync(join(tmp, 'cli-generate-'))
    const lines: string[] = []
    vi.spyOn(console, 'log').mockImplementation((line: string) => void lines.push(line))
    expect(await command.run(['--scenario-id', 'lumen_robotics', '--out', out])).toBe(0)
    expect(lines.at(-1)).toMatch(/^lumen_robotics: generated with the procedural generator/)
    expect(await command.run(['--scenario-id', 'lumen_robotics', '--out', out])).toBe(0)
    expect(lines.at(-1)).toMatch(/^lumen_robotics: skipped/)
    const seed1 = readFileSync(join(out, 'lumen_robotics_calendar.json'), 'utf8')
    expect(await command.run(['--scenario-id', 'lumen_robotics', '--out', out, '--seed', '9', '--scale', '2', '--force'])).toBe(0)
    expect(readFileSync(join(out, 'lumen_robotics_calendar.json'), 'utf8')).not.toBe(seed1)
  })

  it('rejects a missing or unknown scenario id and bad numbers with a fix', async () => {
    await expect(command.run([])).rejects.toThrow(/Missing --scenario-id[\s\S]*lumen_robotics/)
    await expect(command.run(['--scenario-id', 'nope'])).rejects.toThrow(ConfigError)
    await expect(command.run(['--scenario-id', 'lumen_robotics', '--seed', '1.5'])).rejects.toThrow(/`--seed` to be a whole number/)
    await expect(command.run(['--scenario-id', 'lumen_robotics', '--generator', 'gpt'])).rejects.toThrow(/procedural or llm/)
  })
})
