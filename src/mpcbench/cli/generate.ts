import { join, resolve } from 'node:path'
import { DEFAULT_SEED, generateScenario, repoRoot } from '../generate/generate-scenario.ts'
import { listScenarioIds } from '../generate/prepare-data.ts'
import { defineCommand } from '../../cli/define-command.ts'
import { FlagValueError, wholeNumberFlag } from '../../cli/flags.ts'
import { runsOutsidePackage } from '../../core/package-root.ts'

/** A positive number flag (`--scale` may be fractional); another value is a {@link FlagValueError} (exit 2). */
function positiveNumber(flag: string, value: string | undefined, check: (n: number) => boolean, expected: string): number | undefined {
  if (value === undefined) return undefined
  const n = Number(value)
  if (value.trim() === '' || !check(n)) {
    throw new FlagValueError(`Expected \`${flag}\` to be ${expected}, got ${JSON.stringify(value)}.`, { hint: `Pass e.g. ${flag} 2.` })
  }
  return n
}

/** `agent-bench generate`: world state and sources of one scenario. */
export const command = defineCommand({
  name: 'generate',
  summary: "Generate an MPCBench scenario's world state and six source files (procedural or llm)",
  description: `Generates an MPCBench scenario's world state and its six sources (Slack, Gmail, Calendar, Contacts, Jira, Drive)
from scenarios/ID.json into data/: step 1 the world state, step 2 the sources, each checked against schemas/.
Files whose recorded inputs (scenario, prompts, schemas, generator, model, seed, scale) are unchanged are skipped.
--scenario-id is required.`,
  options: {
    'scenario-id': { type: 'string', value: 'ID', description: 'scenario to generate' },
    generator: {
      type: 'string',
      value: 'NAME',
      description: 'procedural (seeded, offline) or llm (model_config.json data_generation_model)',
      default: 'procedural',
    },
    seed: { type: 'string', value: 'N', description: 'seed of the procedural generator', default: DEFAULT_SEED },
    scale: { type: 'string', value: 'N', description: 'noise multiplier (procedural; > 0): ~40 more items per unit at noise_level 1', default: 1 },
    force: { type: 'boolean', description: 'regenerate even when up to date' },
    'scenarios-dir': { type: 'string', value: 'DIR', description: 'folder of scenario files', default: 'scenarios' },
    out: { type: 'string', value: 'DIR', description: 'output folder', default: 'data' },
    'max-attempts': { type: 'string', value: 'N', description: 'llm attempts per file; retries get the validation errors', default: 3 },
  },
  async run({ values }) {
    const scenariosDir = resolve(values['scenarios-dir'] ?? join(repoRoot, 'scenarios'))
    const id = values['scenario-id']
    if (id === undefined) {
      throw new FlagValueError('Missing --scenario-id.', {
        hint: `Pass --scenario-id with one of: ${listScenarioIds(scenariosDir).join(', ') || `(no scenarios in ${scenariosDir})`}.`,
      })
    }
    if (!listScenarioIds(scenariosDir).includes(id)) {
      throw new FlagValueError(`No scenario ${JSON.stringify(id)} in ${scenariosDir}.`, {
        hint: `Use one of: ${listScenarioIds(scenariosDir).join(', ') || '(none)'}, or point --scenarios-dir at the folder holding ${id}.json.`,
      })
    }
    const generator = values.generator ?? 'procedural'
    if (generator !== 'procedural' && generator !== 'llm') {
      throw new FlagValueError(`Expected \`--generator\` to be procedural or llm, got ${JSON.stringify(generator)}.`, {
        hint: 'Pass --generator procedural or --generator llm.',
      })
    }
    const seed = wholeNumberFlag('--seed', values.seed, { example: 7 })
    const scale = positiveNumber('--scale', values.scale, (n) => Number.isFinite(n) && n > 0, 'a number above 0')
    const maxAttempts = wholeNumberFlag('--max-attempts', values['max-attempts'], { min: 1, example: 3 })
    const started = performance.now()
    const result = await generateScenario({
      scenarioPath: join(scenariosDir, `${id}.json`),
      // Outside the checkout the package's own folder is read-only in spirit (node_modules): write to ./data.
      outDir: resolve(values.out ?? (runsOutsidePackage() ? 'data' : join(repoRoot, 'data'))),
      generator,
      force: values.force ?? false,
      ...(seed === undefined ? {} : { seed }),
      ...(scale === undefined ? {} : { scale }),
      ...(maxAttempts === undefined ? {} : { maxAttempts }),
    })
    for (const file of result.files) console.log(`  ${file.outcome.kind.padEnd(9)} ${file.path}`)
    console.log(`${result.scenarioId}: ${result.kind} with the ${result.generator} generator in ${((performance.now() - started) / 1000).toFixed(1)} s`)
    return 0
  },
})
