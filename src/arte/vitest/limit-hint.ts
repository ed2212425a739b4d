import { relative } from 'node:path'
import type { ArteSettings } from '../settings.ts'
import { loadArteDataset } from '../dataset/load-dataset.ts'
import { selectsArteRow } from '../dataset/row-selection.ts'

/**
 * When `-t` names only rows that are not tests (so every ART-E test is filtered out and Vitest would say "N skipped"),
 * the line that says why and how to run them; `undefined` when the pattern matches a test, matches no row of the split
 * at all, or there is no pattern. A row is not a test when the row selection (`ARTE_ROWS`) leaves it out, or when it
 * comes after the first `ARTE_LIMIT` rows of the selection (rows are counted as the tests are made: within the split
 * and the selection).
 */
export async function limitHint(
  settings: Pick<ArteSettings, 'dataset' | 'split' | 'limit'> & Partial<Pick<ArteSettings, 'rows'>>,
  testNamePattern: RegExp | undefined,
): Promise<string | undefined> {
  if (testNamePattern === undefined) return undefined
  const selection = settings.rows ?? 'all'
  if (settings.limit === 0 && selection === 'all') return undefined
  const pattern = new RegExp(testNamePattern.source, testNamePattern.flags.replace('g', ''))
  let rows: Awaited<ReturnType<typeof loadArteDataset>>
  try {
    rows = await loadArteDataset(settings.dataset, { split: settings.split })
  } catch {
    return undefined
  }
  const dataset = relative(process.cwd(), settings.dataset) || settings.dataset
  const list = (ids: string[]): string => `${ids.slice(0, 5).join(', ')}${ids.length > 5 ? ', ...' : ''}`
  const selected = rows.filter((row) => selectsArteRow(selection, row))
  const matching = selected.map((row, index) => ({ id: String(row.id), index })).filter((row) => pattern.test(row.id))
  if (matching.length === 0) {
    const leftOut = rows.filter((row) => !selectsArteRow(selection, row) && pattern.test(String(row.id))).map((row) => String(row.id))
    if (leftOut.length === 0) return undefined
    return `ART-E: -t ${pattern} matches row(s) ${list(leftOut)} of ${dataset} (${settings.split}), which the row selection leaves out (ARTE_ROWS=${selection}: only rows citing at most one message, known-bad ids left out). Set ARTE_ROWS=all (--rows all) to run them.`
  }
  if (settings.limit === 0 || matching.some((row) => row.index < settings.limit)) return undefined
  return `ART-E: -t ${pattern} matches row(s) ${list(matching.map((row) => row.id))} of ${dataset} (${settings.split}${selection === 'all' ? '' : `, rows ${selection}`}), but only the first ${settings.limit} row(s) are tests (ARTE_LIMIT=${settings.limit}). Set ARTE_LIMIT=0 (all rows) or ARTE_LIMIT=${(matching[matching.length - 1]?.index ?? 0) + 1} to run them.`
}
