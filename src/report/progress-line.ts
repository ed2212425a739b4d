import type { ArtePlannedTask, ArteTestMeta } from '../arte/results/arte-meta.ts'
import type { MpcbenchPlannedTask, MpcbenchTestMeta } from '../mpcbench/run/mpcbench-meta.ts'
import type { EvalPlannedCase, EvalTestMeta } from '../eval/eval-meta.ts'
import type { MpcbenchV2TestMeta } from '../mpcbench-v2/vitest/test-meta.ts'

/** What one finished benchmark task contributes to a progress line. */
export interface FinishedTask {
  name: string
  passed: boolean
  /** The benchmark's main score of this task and how to show it, or `undefined` when it has none (it failed early). */
  /** `value` is null when the task could not be judged offline (it is left out of the running mean). */
  score?: { value: number | null; text: string; bench: 'ART-E' | 'MPCBench' | 'MPCBench v2' | `eval ${string}` }
  durationMs: number
  error?: string
}

/**
 * The finished task of an ART-E, MPCBench, MPCBench v2 (its score is the instance's F1; a run that gave no answer has
 * none) or eval (`describeEval`) test, from its meta (`undefined` for other tests). A
 * task declared as one (`arteTask`, `mpcbenchTask`, `evalCase`) that ended without its scores (it timed out, or failed before its run) is a task
 * with no score.
 */
export function finishedTask(
  name: string,
  meta: {
    arte?: ArteTestMeta
    mpcbench?: MpcbenchTestMeta
    arteTask?: ArtePlannedTask
    mpcbenchTask?: MpcbenchPlannedTask
    eval?: EvalTestMeta
    evalCase?: EvalPlannedCase
    mpcbenchV2?: MpcbenchV2TestMeta
  },
  state: 'passed' | 'failed' | 'skipped' | 'pending',
  durationMs: number,
  error?: string,
): FinishedTask | undefined {
  const passed = state === 'passed'
  const base = { name, passed, durationMs, ...(error === undefined ? {} : { error }) }
  if (meta.eval !== undefined) {
    const e = meta.eval
    const resumed = e.resumedFrom === undefined ? '' : ' · resumed'
    return {
      ...base,
      score: {
        value: e.mean,
        text: `${e.scores.map((s) => `${s.name} ${s.score.toFixed(3)}`).join(' · ') || 'no scorers'}${resumed}`,
        bench: `eval ${e.suite}`,
      },
    }
  }
  if (meta.mpcbenchV2 !== undefined) {
    const v2 = meta.mpcbenchV2
    const m = v2.row.metrics
    const where = `level ${v2.level} ${v2.model}`
    if (m === null) return { ...base, error: error ?? v2.row.error ?? 'no answer' }
    return { ...base, score: { value: m.f1, text: `F1 ${m.f1.toFixed(3)} · EM ${m.exact_match ? 1 : 0} · ${where}`, bench: 'MPCBench v2' } }
  }
  if (
    meta.arte === undefined &&
    meta.mpcbench === undefined &&
    (meta.arteTask !== undefined || meta.mpcbenchTask !== undefined || meta.evalCase !== undefined)
  ) {
    return { ...base, error: error ?? 'ended without a score' }
  }
  const usage = meta.arte?.usage ?? meta.mpcbench?.usage
  const replayed = usage?.cached !== undefined && usage.cached.calls > 0 ? ` · ${usage.cached.calls}/${usage.calls} call(s) replayed from the cache` : ''
  if (meta.arte !== undefined) {
    const a = meta.arte
    return {
      ...base,
      score: { value: a.semanticScore, text: `EM ${a.exactMatch ? 1 : 0} · semantic ${a.semanticScore.toFixed(3)}${replayed}`, bench: 'ART-E' },
    }
  }
  if (meta.mpcbench !== undefined) {
    const judge = meta.mpcbench.judges.find((j) => j.kind === 'scored')
    if (judge === undefined || judge.kind !== 'scored') return { ...base, error: error ?? `agent ${meta.mpcbench.agentOutcome}, no judge score` }
    return {
      ...base,
      score: {
        value: judge.answerRequirementsSatisfaction,
        text: `requirements ${judge.answerRequirementsSatisfaction ?? 'unjudged'}/5 · grounding ${judge.sourceGroundedReasoning ?? 'unjudged'}/5${replayed}`,
        bench: 'MPCBench',
      },
    }
  }
  return undefined
}

function seconds(ms: number): string {
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`
  const minutes = Math.floor(ms / 60_000)
  if (minutes < 60) return `${minutes} min ${Math.round((ms % 60_000) / 1000)} s`
  return `${Math.floor(minutes / 60)} h ${minutes % 60} min`
}

/**
 * Running state of a run for progress lines: counts, per-benchmark running means and the ETA
 * (wall time so far per finished task × tasks left, so concurrency is accounted for).
 */
export class ProgressTracker {
  #total = 0
  #done = 0
  #files = 0
  #filesCollected = 0
  #startedAt: number
  readonly #sums = new Map<string, { sum: number; n: number }>()

  constructor(startedAt: number = Date.now()) {
    this.#startedAt = startedAt
  }

  /** The number of test files the run will collect (so the total can be estimated before all are collected). */
  expectFiles(count: number): void {
    this.#files = count
  }

  /** Adds the tests of one collected file that will run. */
  expect(count: number): void {
    this.#total += count
    this.#filesCollected++
  }

  /** Tests expected in all: those collected plus, for files not collected yet, the mean per collected file. */
  #expectedTotal(): { total: number; estimated: boolean } {
    const pending = Math.max(0, this.#files - this.#filesCollected)
    if (pending === 0 || this.#filesCollected === 0) return { total: Math.max(this.#total, this.#done), estimated: false }
    const estimate = Math.round(this.#total + (this.#total / this.#filesCollected) * pending)
    return { total: Math.max(estimate, this.#done), estimated: true }
  }

  /** Records a finished task and returns its line: `[ 3/10] ✓ 7  EM 1 · semantic 1.000 · 1.2 s · mean 0.733 · ETA 12 s`. */
  finish(task: FinishedTask, now: number = Date.now()): string {
    this.#done++
    const { total, estimated } = this.#expectedTotal()
    const width = String(total).length
    const parts: string[] = []
    if (task.score !== undefined) {
      const entry = this.#sums.get(task.score.bench) ?? { sum: 0, n: 0 }
      if (task.score.value !== null) {
        entry.sum += task.score.value
        entry.n++
      }
      this.#sums.set(task.score.bench, entry)
      parts.push(task.score.text)
    }
    parts.push(seconds(task.durationMs))
    if (task.score !== undefined) {
      const entry = this.#sums.get(task.score.bench)
      if (entry !== undefined && entry.n > 0) parts.push(`${task.score.bench} mean ${(entry.sum / entry.n).toFixed(task.score.bench === 'MPCBench' ? 2 : 3)}`)
    }
    const left = total - this.#done
    if (left > 0) parts.push(`ETA ${estimated ? '~' : ''}${seconds(((now - this.#startedAt) / this.#done) * left)}`)
    else parts.push('done')
    if (task.error !== undefined) parts.push(task.error.split('\n')[0]?.slice(0, 160) ?? '')
    return `[${String(this.#done).padStart(width)}/${estimated ? '~' : ''}${total}] ${task.passed ? '✓' : '✗'} ${task.name}  ${parts.join(' · ')}`
  }
}
