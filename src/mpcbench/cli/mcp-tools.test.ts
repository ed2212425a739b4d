import { type ChildProcess, spawn } from 'node:child_process'
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { afterAll, describe, expect, it } from 'vitest'
import { REPO_ROOT, scratchDir } from '../../../fixtures/arte-e2e/harness.ts'
import { toOpenAITool } from '../../tools/define-tool.ts'
import { loadPromptConfig } from '../config/prompt-config.ts'
import { scenarioTools } from '../run/run-task.ts'
import { mcpScenarioTools } from './mcp-tools.ts'
import { childEnv } from '../../testing/child-env.ts'

const DATA_DIR = join(REPO_ROOT, 'data')
const SCENARIO = 'lumen_robotics'

describe('agent-bench mcp --data-dir (MPCBench, Streamable HTTP)', () => {
  let child: ChildProcess | undefined
  const scratch = scratchDir('mpcbench-mcp')
  const llmContext = join(scratch.dir, 'llm_context')
  const developerText = 'Use Slack_search_messages before Gmail.'

  afterAll(() => {
    if (child?.exitCode === null) child.kill('SIGTERM')
    scratch.remove()
  })

  it("serves the scenario's workplace tools on 127.0.0.1 with the agent loop's schemas, and the agent's system and developer messages as instructions", async () => {
    mkdirSync(llmContext)
    writeFileSync(join(llmContext, 'instructions_about_sources.md'), developerText)
    child = spawn(process.execPath, ['bin/agent-bench.js', 'mcp', '--data-dir', DATA_DIR, '--scenario-id', SCENARIO, '--http', '0'], {
      cwd: REPO_ROOT,
      env: childEnv({ MPCBENCH_LLM_CONTEXT: llmContext }),
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    const url = await new Promise<string>((resolve, reject) => {
      let stderr = ''
      child?.stderr?.on('data', (chunk: Buffer) => {
        stderr += chunk.toString('utf8')
        const match = /at (http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(stderr)
        if (match?.[1] !== undefined) resolve(match[1])
      })
      child?.once('exit', (code) => reject(new Error(`agent-bench mcp exited with ${code}: ${stderr}`)))
    })
    const client = new Client({ name: 'mpcbench-mcp-test', version: '1.0.0' })
    await client.connect(new StreamableHTTPClientTransport(new URL(url)))
    try {
      const systemMessage = loadPromptConfig(join(REPO_ROOT, 'prompt_config.json')).evaluation.agent.system_message
      expect(client.getInstructions()).toBe(`${systemMessage}\n\n${developerText}`)
      expect(client.getInstructions()).toContain('final_answer')
      const { tools } = await client.listTools()
      const expected = scenarioTools(DATA_DIR, SCENARIO).map(toOpenAITool)
      expect(tools.map((tool) => ({ name: tool.name, description: tool.description, parameters: tool.inputSchema }))).toEqual(
        expected.map((tool) => tool.function),
      )
      expect(tools.map((tool) => tool.name)).toContain('Slack_search_messages')
      const result = await client.callTool({ name: 'GoogleContacts_SearchContactsByName', arguments: { name: 'a' } })
      expect(result.isError).toBeFalsy()
    } finally {
      await client.close()
    }
    const exited = new Promise<number | null>((resolve) => child?.once('exit', resolve))
    child.kill('SIGTERM')
    expect(await exited).toBe(0)
  })

  it("outside the project (no prompt_config.json in the working directory) sends the package's agent system message", async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [join(REPO_ROOT, 'bin/agent-bench.js'), 'mcp', '--data-dir', DATA_DIR, '--scenario-id', SCENARIO, '--quiet'],
      cwd: scratch.dir,
      env: childEnv(),
      stderr: 'pipe',
    })
    const client = new Client({ name: 'mpcbench-mcp-test', version: '1.0.0' })
    await client.connect(transport)
    try {
      expect(client.getInstructions()).toBe(loadPromptConfig(join(REPO_ROOT, 'prompt_config.json')).evaluation.agent.system_message)
    } finally {
      await client.close()
    }
  })

  it('takes --tools upstream-v1 (the default) or extended, and refuses other profiles', () => {
    expect(mcpScenarioTools(DATA_DIR, SCENARIO, 'extended').map(toOpenAITool)).toEqual(scenarioTools(DATA_DIR, SCENARIO, 'extended').map(toOpenAITool))
    expect(mcpScenarioTools(DATA_DIR, SCENARIO, undefined).map(toOpenAITool)).toEqual(scenarioTools(DATA_DIR, SCENARIO, 'upstream-v1').map(toOpenAITool))
    expect(() => mcpScenarioTools(DATA_DIR, SCENARIO, 'v9')).toThrow(/Unknown `--tools` "v9"/)
  })
})
