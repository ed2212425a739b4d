import { existsSync } from 'node:fs'
import { relative } from 'node:path'
import { BUCKET_PURPOSE, type EvalBucket, generateEvals, runInstructions } from '../generate-evals.ts'
import { FlagValueError, missingFlagPathError } from '../../cli/flag-value-error.ts'
import { DEFAULT_ARTE_OUTPUT, arteSettings } from '../settings.ts'
import { defineCommand } from '../../cli/define-command.ts'

const BUCKETS: ReadonlyArray<EvalBucket> = ['high', 'medium', 'low']

/** `agent-bench generate-evals`: write regression evals from a results JSON. */
export const command = defineCommand({
  name: 'generate-evals',
  summary: 'Write Vitest regression evals (bench/generated) from an ART-E results JSON',
  description: `Turns an ART-E results JSON into Vitest regression tests, one file per score bucket:
  high    ${BUCKET_PURPOSE.high}
  medium  ${BUCKET_PURPOSE.medium}
  low     ${BUCKET_PURPOSE.low}
Each generated test re-runs the agent on its row and checks the answer exactly (answers of up to 3 words)
or by the ground truth's keywords, and names the trace it was generated from.
In a checkout of vitest-agent-bench, run them with \`npx vitest run --project bench bench/generated\`; in your own
project, your Vitest config needs their pattern in \`include\` and 'vitest-agent-bench/vitest/arte-setup' in
\`globalSetup\` (the command prints the config after writing the files).`,
  options: {
    results: { type: 'string', value: 'FILE', description: 'results JSON written by reporters/arte.ts (ARTE_OUTPUT)', default: DEFAULT_ARTE_OUTPUT },
    out: { type: 'string', value: 'DIR', description: 'folder for the *.eval.ts files', default: 'bench/generated' },
    bucket: { type: 'string', value: 'LIST', description: 'only these buckets, comma-separated', default: BUCKETS.join(',') },
  },
  async run({ values }) {
    const buckets = values.bucket === undefined ? BUCKETS : values.bucket.split(',').map((name) => name.trim())
    for (const bucket of buckets) {
      if (!(BUCKETS as readonly string[]).includes(bucket)) {
        throw new FlagValueError(`Unknown bucket ${JSON.stringify(bucket)}.`, { hint: `Use any of ${BUCKETS.join(', ')}, comma-separated.` })
      }
    }
    const outDir = values.out ?? 'bench/generated'
    let files: ReturnType<typeof generateEvals>
    try {
      files = generateEvals({ resultsFile: values.results ?? arteSettings().output, outDir, buckets: buckets as EvalBucket[] })
    } catch (error) {
      // A --results path that is not there is a bad command line (exit 2); ARTE_OUTPUT's or the default's, or a file that is there, is not.
      throw values.results !== undefined && !existsSync(values.results) ? missingFlagPathError(error) : error
    }
    if (files.length === 0) {
      console.log('No tasks in the selected buckets: nothing written.')
      return 0
    }
    for (const file of files) console.log(`${file.bucket.padEnd(7)} ${String(file.cases).padStart(4)} test(s)  ${relative(process.cwd(), file.path)}`)
    console.log(['', ...runInstructions(outDir)].join('\n'))
    return 0
  },
})
