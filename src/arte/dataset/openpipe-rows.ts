import type { ArteRow } from './row.ts'

/**
 * Row ids OpenPipe's ART-E code leaves out as "ambiguous or contradicted by other source emails" (`bad_queries` in
 * `examples/art-e/art_e/data/query_iterators.py` of OpenPipe/ART): `load_synthetic_queries` drops them from whichever
 * split it loads (`exclude_known_bad_queries=True` by default).
 */
export const OPENPIPE_EXCLUDED_IDS: ReadonlyArray<number> = [49, 101, 129, 171, 208, 266, 327]

/** `max_messages` of OpenPipe's `load_synthetic_queries` (default 1): a row citing more source messages is left out. */
export const OPENPIPE_MAX_MESSAGES = 1

const EXCLUDED = new Set(OPENPIPE_EXCLUDED_IDS.map(String))

/**
 * Whether OpenPipe's evaluations (`benchmark_model`, and `train.py`'s training and validation sets) keep `row`: at most
 * {@link OPENPIPE_MAX_MESSAGES} message id (`len(message_ids) <= 1`, so a row with none stays) and an id not in
 * {@link OPENPIPE_EXCLUDED_IDS}. Ids are matched as test names are (`49` and `"49"` are one row). The split is not
 * looked at: OpenPipe applies both filters to train and test alike.
 */
export function isOpenPipeEvaluationRow(row: Pick<ArteRow, 'id' | 'message_ids'>): boolean {
  return row.message_ids.length <= OPENPIPE_MAX_MESSAGES && !EXCLUDED.has(String(row.id))
}
