import { pyFloat, pyJsonDumps } from '../../core/python-format.ts'
import type { TraceMessage } from '../harness/run-scheduling-agent.ts'
import type { SchedulingMetrics } from './metrics.ts'

/**
 * One row of upstream's results file (`results/eval_L<level>_<suffix>_<model>_<time>.jsonl`, written by
 * `evaluation/run_eval.py`). A row whose run failed has `metrics`, `pred` and `gold` null and the error text; `trace`
 * is absent when the failure came before the agent ran.
 */
export interface ResultsRow {
  instance_id: string
  metrics: SchedulingMetrics | null
  pred: string[][] | null
  gold: string[][] | null
  error: string | null
  trace?: TraceMessage[] | null
}

/** A row as upstream writes it: `json.dumps(result, ensure_ascii=False)`, the metrics as Python floats (`1.0`). */
export function formatResultsRow(row: ResultsRow): string {
  const metrics =
    row.metrics === null
      ? null
      : {
          f1: pyFloat(row.metrics.f1),
          precision: pyFloat(row.metrics.precision),
          recall: pyFloat(row.metrics.recall),
          exact_match: row.metrics.exact_match,
        }
  return pyJsonDumps({ instance_id: row.instance_id, metrics, pred: row.pred, gold: row.gold, error: row.error, trace: row.trace })
}
