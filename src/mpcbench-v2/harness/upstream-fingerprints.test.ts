import { createHash } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { pyJsonDumps } from '../../core/python-format.ts'
import { createSchedulingTools } from '../tools/scheduling-tools.ts'
import { SYSTEM_PROMPT, buildUserPrompt } from './prompts.ts'
import { upstreamToolDefinitions } from './tool-definitions.ts'

// SHA-256 digests of upstream's own values at commit e398410, computed with CPython 3.11 from
// evaluation/agents/openai_agent.py and evaluation/tools.py (upstream publishes no license, so its code is not
// copied here): OpenAIAgent.SYSTEM_PROMPT, json.dumps(SimulatedAPI.get_tool_definitions(), ensure_ascii=False), and
// OpenAIAgent._build_user_prompt('TASK', {}). The recorded runs hold no system message and no tool list, so these
// are what pins them; the user prompt is also checked against every recorded run by the replay test.
const sha256 = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex')

describe("upstream's prompts and tool definitions, byte for byte", () => {
  it('the system prompt', () => {
    expect(sha256(SYSTEM_PROMPT)).toBe('5d7a3909162e62f831991436a2a04b8860205c0d2f409103c51ea7e5f9f412d1')
  })

  it('the tool definitions as sent', () => {
    const definitions = upstreamToolDefinitions(createSchedulingTools({ world: {}, instance: {} }))
    expect(sha256(pyJsonDumps(definitions))).toBe('ace476da7e681f20ffd793468cdda3544bce4ec0ddddb97564a86bc681a53b7c')
  })

  it('the user prompt of an instance naming nothing', () => {
    expect(sha256(buildUserPrompt('TASK', {}))).toBe('21d6721b79351c244a54cd382cb9e26ad91ec6a52438baad4578d717bd40a600')
  })
})
