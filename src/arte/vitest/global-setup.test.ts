import { afterEach, describe, expect, it, vi } from 'vitest'
import type { TestProject } from 'vitest/node'
import setup from './global-setup.ts'

afterEach(() => {
  vi.unstubAllEnvs()
})

describe('ART-E globalSetup', () => {
  it('with BENCH_ONLY leaving ART-E out, reads no ART-E variable, builds nothing and provides why', async () => {
    vi.stubEnv('BENCH_ONLY', 'mpcbench')
    // Invalid, and never read: a run that leaves ART-E out cannot fail on it.
    vi.stubEnv('ARTE_LIMIT', 'not-a-number')
    const provided: Record<string, unknown> = {}
    const project = { provide: (key: string, value: unknown) => void (provided[key] = value) } as unknown as TestProject
    await setup(project)
    expect(provided).toEqual({ arteNotPrepared: 'BENCH_ONLY=mpcbench leaves arte out of this run, so its globalSetup prepared nothing' })
  })

  it('fails on a BENCH_ONLY that names no benchmark, naming the variable', async () => {
    vi.stubEnv('BENCH_ONLY', 'arte-e')
    await expect(setup({ provide: () => undefined } as unknown as TestProject)).rejects.toThrow(/BENCH_ONLY=arte-e names "arte-e", which is not a benchmark/)
  })
})
