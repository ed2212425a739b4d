import { z } from 'zod'
import { OPENPIPE_EXCLUDED_IDS, isOpenPipeEvaluationRow } from './openpipe-rows.ts'
import type { ArteRow } from './row.ts'

/** The row selections of `ARTE_ROWS` (`--rows`), the default first. */
export const ARTE_ROW_SELECTIONS = ['all', 'openpipe'] as const

/**
 * Which rows of the split an ART-E run takes (`ARTE_ROWS`, before `ARTE_LIMIT`): `all` (every row), or `openpipe`
 * (the rows OpenPipe's evaluations keep, see {@link isOpenPipeEvaluationRow}).
 */
export const ArteRowSelectionSchema = z.enum(ARTE_ROW_SELECTIONS, { error: `expected ${ARTE_ROW_SELECTIONS.join(' or ')}` })

/** See {@link ArteRowSelectionSchema}. */
export type ArteRowSelection = z.infer<typeof ArteRowSelectionSchema>

/** What each selection keeps, as printed beside the metrics and in `--help`. */
export const ARTE_ROW_SELECTION_TEXT: Readonly<Record<ArteRowSelection, string>> = {
  all: 'every row of the split',
  openpipe: `OpenPipe's evaluation rows: one source message at most, known-bad ids ${OPENPIPE_EXCLUDED_IDS.join(', ')} left out`,
}

/** Whether `selection` keeps `row`. */
export function selectsArteRow(selection: ArteRowSelection, row: Pick<ArteRow, 'id' | 'message_ids'>): boolean {
  return selection === 'all' || isOpenPipeEvaluationRow(row)
}
