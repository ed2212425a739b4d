import { relative } from 'node:path'
import type { ArteSettings } from '../settings.ts'
import { loadArteDataset } from '../dataset/load-dataset.ts'

/**
 * When `-t` names only rows beyond `ARTE_LIMIT` (so every ART-E test is filtered out and Vitest would say
 * "N skipped"), the line that says why and how to run them; `undefined` when the pattern matches a row within
 * the limit, matches no row at all, or there is no pattern or no limit. Rows are counted as the tests are: within the
 * split and the row selection (`ARTE_ROWS`).
 */
export async function limitHint(settings: Pick<ArteSettings, 'dataset' | 'split' | 'limit'> & Partial<Pick<ArteSettings, 'rows'>>, testNamePattern: RegExp | undefined): Promise<string | undefined> {
  if (testNamePattern === undefined || settings.limit === 0) return undefined
  const pattern = new RegExp(testNamePattern.source, testNamePattern.flags.replace('g', ''))
  let rows
  try {
    rows = await loadArteDataset(settings.dataset, { split: settings.split, ...(settings.rows === undefined ? {} : { rows: settings.rows }) })
  } catch {
    return undefined
  }
  const matching = rows.map((row, index) => ({ id: String(row.id), index })).filter((row) => pattern.test(row.id))
  if (matching.length === 0 || matching.some((row) => row.index < settings.limit)) return undefined
  const ids = matching.slice(0, 5).map((row) => row.id).join(', ')
  return `ART-E: -t ${pattern} matches row(s) ${ids}${matching.length > 5 ? ', ...' : ''} of ${relative(process.cwd(), settings.dataset) || settings.dataset} (${settings.split}${settings.rows === undefined || settings.rows === 'all' ? '' : `, rows ${settings.rows}`}), but only the first ${settings.limit} row(s) are tests (ARTE_LIMIT=${settings.limit}). Set ARTE_LIMIT=0 (all rows) or ARTE_LIMIT=${(matching[matching.length - 1]?.index ?? 0) + 1} to run them.`
}
