import { renderArteSection } from './arte-view.ts'
import { CLIENT_SCRIPT } from './client-script.ts'
import { escapeHtml, jsonForScript } from './html.ts'
import { renderMpcbenchSection } from './mpcbench-view.ts'
import { renderEvalSection } from './eval-view.ts'
import { renderMpcbenchV2Section } from './mpcbench-v2-view.ts'
import type { ReportData } from './report-data.ts'
import { checkedThresholds, failedThresholds } from './verdict.ts'

const STYLE = `
:root { --fg: #1d2330; --muted: #667085; --line: #d9dee7; --bg: #fff; --soft: #f5f7fa; --accent: #3b6fd8; --pass: #1a7f37; --fail: #c0392b; }
* { box-sizing: border-box; }
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--fg); background: var(--bg); margin: 0; }
header { padding: 14px 24px; border-bottom: 1px solid var(--line); background: var(--soft); }
header h1 { font-size: 18px; margin: 0 0 4px; }
header .verdict { font-weight: 600; margin: 0 0 4px; }
header nav { display: inline; } header nav a { margin-right: 14px; white-space: nowrap; }
main { padding: 8px 24px 40px; }
section.bench { border-bottom: 2px solid var(--line); padding-bottom: 20px; }
h2 { font-size: 17px; margin: 18px 0 4px; } h3 { font-size: 15px; margin: 16px 0 6px; } h4 { margin: 10px 0 4px; }
.muted, .meta { color: var(--muted); } .note { color: #8a6d00; } .warn { color: var(--fail); font-weight: 600; }
.row { display: flex; flex-wrap: wrap; gap: 24px; align-items: flex-start; } .row > * { min-width: 0; max-width: 100%; }
/* A wide table scrolls inside its own box: the page is never wider than the window. */
.scroll { max-width: 100%; overflow-x: auto; }
table { border-collapse: collapse; }
th, td { border-bottom: 1px solid var(--line); padding: 3px 8px; text-align: left; vertical-align: top; }
table.metrics th[scope=row] { font-weight: 500; }
td.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
.ci { color: var(--muted); font-size: 12px; white-space: nowrap; }
.pass, .up { color: var(--pass); } .fail, .down { color: var(--fail); }
table.tasks { width: 100%; margin-top: 6px; }
table.eval-cases { width: 100%; margin-top: 6px; } table.eval-cases thead th { position: sticky; top: 0; background: var(--soft); } table.eval-cases td { overflow-wrap: anywhere; }
table.tasks thead th { position: sticky; top: 0; background: var(--soft); }
/* The open button and the task's id on one line. */
td.id { white-space: nowrap; }
/* On a wide window the task table fits (long words in questions and answers wrap), so its box need not scroll and its header stays on top while the page scrolls. */
@media (min-width: 1000px) { .tasks-scroll { overflow-x: visible; } table.tasks[data-kind=arte] td:nth-child(-n+4):not(.id) { overflow-wrap: anywhere; } }
th.sortable { cursor: pointer; } th[aria-sort=ascending]::after { content: " ▲"; } th[aria-sort=descending]::after { content: " ▼"; }
tr.task:hover { background: var(--soft); }
button.open { border: 1px solid var(--line); background: var(--bg); border-radius: 4px; cursor: pointer; width: 24px; }
.controls { display: flex; flex-wrap: wrap; gap: 10px; align-items: center; } .controls input { width: 320px; max-width: 100%; padding: 4px 6px; }
.more-rows { display: flex; gap: 10px; margin: 6px 0; } .more-rows[hidden] { display: none; }
tr.detail > td { background: #fbfcfe; padding: 8px 16px 16px; }
/* On a narrow window an opened task reads in the window's width, wherever its table is scrolled to. */
@media (max-width: 999px) {
  tr.detail > td > .trace { position: sticky; left: 16px; max-width: calc(100vw - 80px); }
  .trace .field, .trace .tool-call { overflow-wrap: anywhere; } .trace table.calls { display: block; overflow-x: auto; } .trace table.calls pre { min-width: 240px; }
}
.trace pre { white-space: pre-wrap; word-break: break-word; background: var(--soft); padding: 6px 8px; margin: 2px 0; max-height: 360px; overflow: auto; font-size: 12px; }
.trace .field { margin: 2px 0; }
ol.messages { padding-left: 22px; } li.msg { margin-bottom: 6px; } li.role-assistant .role { color: var(--accent); } li.role-tool .role { color: #8a63c9; }
.tool-call { font-family: ui-monospace, monospace; font-size: 12px; color: var(--accent); }
table.calls td, table.calls th { font-size: 12px; } table.calls pre { max-width: 560px; }
.axis { margin: 6px 0; } .justification { margin: 2px 0 0; white-space: pre-wrap; }
svg.chart { background: var(--bg); margin: 4px 12px 4px 0; max-width: 100%; height: auto; } svg .grid { stroke: #eef0f4; } svg .axis { stroke: #98a2b3; }
svg .tick, svg .legend { font-size: 10px; fill: var(--muted); } svg .axis-label { font-size: 11px; fill: var(--fg); }
svg rect.bar:hover { opacity: .75; }
figure.chart { margin: 4px 12px 4px 0; max-width: min(420px, 100%); } figure.chart figcaption { font-size: 12px; color: var(--muted); overflow-wrap: anywhere; } figure.chart svg.chart { margin: 0; }
table.v2-instances pre { margin: 0; font-size: 12px; white-space: pre; } table.v2-instances td.error { min-width: 16em; }
.compare { border-left: 3px solid var(--accent); padding-left: 12px; }
code { font-size: 12px; overflow-wrap: anywhere; }
`

/**
 * The report page: one self-contained HTML file (inline CSS, script and SVG; no network) with an ART-E part per
 * results file and an MPCBench part per summary. The data the page shows is embedded as JSON
 * (`<script id="report-data" type="application/json">`), so tests and tools can read it back. The task tables'
 * markup lists the first rows (see `TASK_TABLE_PAGE_ROWS`); the page's script sorts and filters every task from the
 * embedded data and lists the matching ones a page at a time.
 */
/**
 * The run's verdict on its thresholds, under the title: `failed: threshold ...` per failed threshold (as the exit code,
 * the JUnit testcase `thresholds` and the job summary say), `thresholds met` when all were, nothing without thresholds.
 */
function verdictLine(data: ReportData): string {
  const failed = failedThresholds(data)
  if (failed.length > 0) return failed.map((line) => `<p class="verdict fail">failed: threshold ${escapeHtml(line)}</p>`).join('')
  return checkedThresholds(data) > 0 ? '<p class="verdict pass">passed: thresholds met</p>' : ''
}

export function renderReport(data: ReportData): string {
  const embedded = {
    generatedAt: data.generatedAt,
    arte: data.arte.map((section) => ({ file: section.file, results: section.raw, traces: section.traces })),
    mpcbench: data.mpcbench.map((section) => ({ file: section.file, summary: section.raw, tasks: section.tasks })),
    evals: (data.evals ?? []).map((section) => ({
      file: section.file,
      results: section.results,
      ...(section.previous === undefined ? {} : { comparison: section.previous.comparison }),
    })),
    mpcbenchV2: (data.mpcbenchV2 ?? []).map((section) => ({
      file: section.file,
      summary: section.summary,
      ...(section.previous === undefined ? {} : { comparisons: section.previous.comparisons }),
    })),
  }
  const nav = [
    ...data.arte.map((_section, i) => `<a href="#arte-${i}">ART-E${data.arte.length > 1 ? ` ${i + 1}` : ''}</a>`),
    ...data.mpcbench.map((_section, i) => `<a href="#mpcbench-${i}">MPCBench${data.mpcbench.length > 1 ? ` ${i + 1}` : ''}</a>`),
    ...(data.evals ?? []).map((section, i) => `<a href="#eval-${i}">${escapeHtml(section.results.name)}</a>`),
    ...(data.mpcbenchV2 ?? []).map((_section, i) => `<a href="#mpcbench-v2-${i}">MPCBench v2${(data.mpcbenchV2 ?? []).length > 1 ? ` ${i + 1}` : ''}</a>`),
  ].join('')
  const empty =
    data.arte.length === 0 && data.mpcbench.length === 0 && (data.evals ?? []).length === 0 && (data.mpcbenchV2 ?? []).length === 0
      ? '<p class="note">No results to show.</p>'
      : ''
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>vitest-agent-bench report</title>
<link rel="icon" href="data:,">
<style>${STYLE}</style>
</head>
<body>
<header><h1>vitest-agent-bench report</h1>${verdictLine(data)}<div class="meta">generated ${escapeHtml(data.generatedAt)} · <nav>${nav}</nav></div></header>
<main>
${empty}
${data.arte.map(renderArteSection).join('\n')}
${data.mpcbench.map(renderMpcbenchSection).join('\n')}
${(data.evals ?? []).map(renderEvalSection).join('\n')}
${(data.mpcbenchV2 ?? []).map(renderMpcbenchV2Section).join('\n')}
</main>
<script id="report-data" type="application/json">${jsonForScript(embedded)}</script>
<script>${CLIENT_SCRIPT}</script>
</body>
</html>
`
}
