/**
 * Files a reporter wrote in this process's current run, by kind (`arte-results`, `mpcbench-summary`), so that a
 * later reporter (the HTML report) reads exactly those files. Kept on `globalThis` so every copy of this module
 * in the process shares it.
 */
const KEY = Symbol.for('vitest-agent-bench.run-outputs')

function outputs(): Map<string, string> {
  const global = globalThis as { [KEY]?: Map<string, string> }
  global[KEY] ??= new Map()
  return global[KEY]
}

/** Records that this run wrote `file` as its `kind` output. */
export function recordRunOutput(kind: string, file: string): void {
  outputs().set(kind, file)
}

/** The file this run wrote as its `kind` output, and forgets it; `undefined` when none was recorded. */
export function takeRunOutput(kind: string): string | undefined {
  const file = outputs().get(kind)
  outputs().delete(kind)
  return file
}

/** Every file this run recorded under a kind starting with `prefix` (e.g. `eval-results:` for each eval), by kind, and forgets them. */
export function takeRunOutputs(prefix: string): Map<string, string> {
  const taken = new Map<string, string>()
  for (const [kind, file] of outputs()) {
    if (!kind.startsWith(prefix)) continue
    taken.set(kind, file)
    outputs().delete(kind)
  }
  return taken
}
