import { join } from 'node:path'
import { vi } from 'vitest'

/** What {@link stubMpcbenchScriptedEnv} points an MPCBench bench run at. */
export interface MpcbenchScriptedEnv {
  /** The scratch folder: data under `data/`, logs under `logs/` unless `logDir` is given. */
  dir: string
  /** The scripted OpenAI-compatible server's base URL. */
  baseURL: string
  /** @default 'rules' */
  judgeModel?: string
  /** @default `{dir}/logs` */
  logDir?: string
}

/**
 * Stubs the environment of an MPCBench bench run in a test (`vi.stubEnv`, undone by `vi.unstubAllEnvs`): agent
 * `scripted/agent` on the scripted server, no call log, no cache, no retries, no other provider's key, scenario data
 * and logs in the scratch folder.
 */
export function stubMpcbenchScriptedEnv(options: MpcbenchScriptedEnv): void {
  for (const name of ['ANTHROPIC_API_KEY', 'GEMINI_API_KEY', 'MPCBENCH_SCENARIOS']) vi.stubEnv(name, '')
  vi.stubEnv('MPCBENCH_DATA_DIR', join(options.dir, 'data'))
  vi.stubEnv('MPCBENCH_LOG_DIR', options.logDir ?? join(options.dir, 'logs'))
  vi.stubEnv('BENCH_LLM_LOG_DIR', 'off')
  vi.stubEnv('BENCH_CACHE', 'off')
  vi.stubEnv('OPENAI_BASE_URL', options.baseURL)
  vi.stubEnv('OPENAI_API_KEY', 'test-key')
  vi.stubEnv('BENCH_LLM_MAX_RETRIES', '0')
  vi.stubEnv('BENCH_AGENT_MODEL', 'scripted/agent')
  vi.stubEnv('BENCH_JUDGE_MODEL', options.judgeModel ?? 'rules')
}
