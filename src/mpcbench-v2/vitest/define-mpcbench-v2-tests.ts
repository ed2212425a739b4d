import { afterAll, describe, test } from 'vitest'
import { createAgentModel } from '../../agent/create-agent-model.ts'
import { benchIncluded, benchLeftOut } from '../../core/bench-only.ts'
import { trialCacheScope } from '../../llm/response-cache.ts'
import { flushTracing } from '../../otel/tracing.ts'
import { schedulingStrategy } from '../baseline/scheduling-strategy.ts'
import { loadLevel } from '../data/load-data.ts'
import { sanitize } from '../data/sanitize.ts'
import type { Level } from '../data/schemas.ts'
import { runInstance } from '../harness/run-instance.ts'
import { missingData, mpcbenchV2Settings } from '../settings.ts'
import './test-meta.ts'

/** Options of {@link defineMpcbenchV2Tests}. */
export interface DefineMpcbenchV2TestsOptions {
  level: Level
  /** Settings' environment. @default process.env */
  env?: Record<string, string | undefined>
}

function skipAll(title: string, reason: string): void {
  describe(title, () => {
    test.skip(`skipped: ${reason}`, () => {})
  })
}

/**
 * Declares one test per instance of an MPCBench v2 level (named by its instance id; `<id> trial <k>` for trials
 * after the first), each running upstream's harness with the configured model (see `settings.ts`), scoring it as
 * upstream does and putting upstream's results row in the test's meta (`mpcbenchV2`). A test fails when the run gave
 * no answer (an error, a failed model call, 15 requests without one); a wrong answer passes with its scores. The file
 * skips, saying why, when the data is absent (a clone without `../shared`), when the files name another level, or when
 * the model is the baseline and the level is not 1 (the baseline answers level 1 only).
 */
export function defineMpcbenchV2Tests(options: DefineMpcbenchV2TestsOptions): void {
  const { level } = options
  const env = options.env ?? process.env
  const title = `MPCBench v2 level ${level}`
  if (!benchIncluded('mpcbench-v2', env)) {
    skipAll(title, benchLeftOut('mpcbench-v2', env).replace(', so its globalSetup prepared nothing', ''))
    return
  }
  const settings = mpcbenchV2Settings(env)
  const files = settings.files(level)
  const missing = missingData(files)
  if (missing !== undefined) {
    skipAll(title, settings.explicitFiles ? missing : `${missing} (level ${level})`)
    return
  }
  const data = loadLevel(files)
  if (data.level !== level) {
    skipAll(title, `the files given are level ${data.level}`)
    return
  }
  if (settings.model === 'baseline' && level !== 1) {
    skipAll(title, 'the baseline (non-LLM) answers level 1 only; set MPCBENCH_V2_MODEL or BENCH_AGENT_MODEL to a model to run this level')
    return
  }
  if (data.withoutOracle.length > 0) {
    console.warn(
      `MPCBench v2: ${data.withoutOracle.join(', ')} ha${data.withoutOracle.length === 1 ? 's' : 've'} no row in ${files.oracle}; scored against an empty gold list, as upstream does`,
    )
  }
  const instances = settings.ids === undefined ? data.instances : data.instances.filter((instance) => settings.ids?.has(instance.instance_id))
  const sanitizedWorld = sanitize(data.world) as Record<string, unknown>
  describe(`${title} (${data.world.world_id}, ${settings.model})`, () => {
    // This worker's OpenTelemetry spans are exported before Vitest ends it (nothing to do when tracing is off).
    afterAll(() => flushTracing())
    if (instances.length === 0)
      test.skip(`skipped: none of MPCBENCH_V2_IDS (${[...(settings.ids ?? [])].join(', ')}) is an instance of ${files.instances}`, () => {})
    for (const instance of instances) {
      for (let trial = 1; trial <= settings.trials; trial += 1) {
        const name = trial === 1 ? instance.instance_id : `${instance.instance_id} trial ${trial}`
        test(name, async ({ task, signal, annotate }) => {
          const model = createAgentModel(settings.model, { baselineStrategies: [schedulingStrategy], env })
          const { row, outcome, otelTraceId } = await runInstance({
            level,
            trial,
            sanitizedWorld,
            instance,
            oracle: data.oracle.get(instance.instance_id),
            model,
            signal,
            ...(settings.maxTurns === undefined ? {} : { maxTurns: settings.maxTurns }),
            ...(trialCacheScope(trial) === undefined ? {} : { cacheScope: trialCacheScope(trial) }),
          })
          task.meta.mpcbenchV2 = {
            level,
            worldId: data.world.world_id,
            model: settings.model,
            modelKind: model.kind,
            instanceId: instance.instance_id,
            trial,
            row,
            ...(outcome === undefined ? {} : { outcome }),
            ...(otelTraceId === undefined ? {} : { otelTraceId }),
          }
          if (row.metrics !== null) {
            await annotate(
              `F1 ${row.metrics.f1.toFixed(3)} (P ${row.metrics.precision.toFixed(3)}, R ${row.metrics.recall.toFixed(3)}), exact match ${row.metrics.exact_match}`,
              'mpcbench-v2',
            )
          }
          if (row.error !== null) throw new Error(`MPCBench v2 ${instance.instance_id}: ${row.error}`)
          if (outcome?.kind === 'model-error') throw new Error(`MPCBench v2 ${instance.instance_id}: the model call failed: ${outcome.message}`)
          if (outcome?.kind === 'max-turns') throw new Error(`MPCBench v2 ${instance.instance_id}: no answer in ${outcome.turns} requests`)
        })
      }
    }
  })
}
