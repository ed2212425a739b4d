import { thousands } from './html.ts'

/**
 * Task rows a task table lists at first, and adds per "show more": the page's markup holds the first rows of the
 * results in their order, and its script lists the others from the embedded data (sorted and filtered over all tasks),
 * so a run of thousands of tasks opens and sorts without laying out thousands of rows.
 */
export const TASK_TABLE_PAGE_ROWS = 200

/**
 * The task table's opening tag: the script reads how many tasks it holds, how many rows it lists per page, and
 * (`judged`, an ART-E run with an LLM judge) whether its rows have a judge column.
 */
export function taskTableOpen(kind: 'arte' | 'mpcbench', total: number, judged = false): string {
  return `<table class="tasks" data-kind="${kind}" data-tasks="${total}" data-page-rows="${TASK_TABLE_PAGE_ROWS}"${judged ? ' data-judged="1"' : ''}>`
}

/** What a page viewed without its script says when its markup lists only the first rows; empty when it lists all. */
export function unlistedNote(total: number): string {
  if (total <= TASK_TABLE_PAGE_ROWS) return ''
  return `<noscript><p class="note">This page lists the first ${thousands(TASK_TABLE_PAGE_ROWS)} of ${thousands(total)} tasks without its script; all of them are in its embedded data.</p></noscript>`
}
