import { afterEach, describe, expect, it, vi } from 'vitest'
import { closestKey, unknownKeys, warnUnknownKeys } from './unknown-keys.ts'

afterEach(() => {
  vi.restoreAllMocks()
})

describe('unknown keys of a loaded file', () => {
  const known = ['agent_models', 'judge_models', 'data_generation_model', 'agent_temperature', 'world_state_model']

  it('suggests the known key a typo is closest to (a swap of two letters counts as one edit)', () => {
    expect(closestKey('agent_temprature', known)).toBe('agent_temperature')
    expect(closestKey('chekcs', ['task_id', 'checks', 'user_prompt'])).toBe('checks')
    expect(closestKey('Judge_Model', known)).toBe('judge_models')
    expect(closestKey('notes', known)).toBeUndefined()
  })

  it('lists the keys of an object that are not known, in file order', () => {
    expect(unknownKeys({ agent_models: [], agent_temprature: 1, notes: 'x' }, known)).toEqual([
      { key: 'agent_temprature', closest: 'agent_temperature' },
      { key: 'notes', closest: undefined },
    ])
    expect(unknownKeys(['x'], known)).toEqual([])
    expect(unknownKeys({ agent_models: [] }, known)).toEqual([])
  })

  it('warns once per file, and not at all for a file with only known keys', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    warnUnknownKeys({ agent_models: [] }, known, 'model config', '/tmp/unknown-keys-test/clean.json')
    expect(warn).not.toHaveBeenCalled()
    warnUnknownKeys({ agent_temprature: 1 }, known, 'model config', '/tmp/unknown-keys-test/typo.json')
    warnUnknownKeys({ agent_temprature: 1 }, known, 'model config', '/tmp/unknown-keys-test/typo.json')
    expect(warn).toHaveBeenCalledTimes(1)
    expect(warn.mock.calls[0]?.[0]).toBe(
      'mpcbench: the model config file /tmp/unknown-keys-test/typo.json has key(s) this benchmark does not read: "agent_temprature" (did you mean "agent_temperature"?); they are ignored. Known keys: agent_models, judge_models, data_generation_model, agent_temperature, world_state_model.',
    )
  })
})
