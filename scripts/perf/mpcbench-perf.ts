/**
 * MPCBench performance: procedural generation of a large world (100K items by default; `PERF_MPCBENCH_ITEMS=N`
 * for another size) and the p50/p95 latency of each workplace tool on it. Prints numbers only; asserts nothing.
 * An item is a Slack message, an email, a calendar event, a contact, a Jira issue or a Drive file.
 *
 * Run alone: `npx tsx scripts/perf/mpcbench-perf.ts`.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { generateScenario } from '../../src/mpcbench/generate/generate-scenario.ts'
import { Prng } from '../../src/mpcbench/generate/prng.ts'
import { buildProceduralWorld } from '../../src/mpcbench/generate/procedural/world.ts'
import { worldEvents } from '../../src/mpcbench/generate/procedural/sources.ts'
import { type Scenario, loadScenario } from '../../src/mpcbench/tasks/scenario.ts'
import type { AnyTool } from '../../src/tools/define-tool.ts'
import type { WorkplaceSources } from '../../src/mpcbench/workplace/source-types.ts'
import { createWorkplaceTools } from '../../src/mpcbench/workplace/tool-profiles.ts'
import { loadWorkplace } from '../../src/mpcbench/workplace/workplace.ts'

const SCENARIO = fileURLToPath(new URL('../../scenarios/tidewater_clinics.json', import.meta.url))
const CALLS_PER_TOOL = 200

function countItems(sources: WorkplaceSources): number {
  return (
    sources.slack.messages.length +
    sources.gmail.threads.reduce((n, t) => n + t.messages.length, 0) +
    sources.calendar.events.length +
    sources.contacts.contacts.length +
    sources.jira.issues.length +
    sources.drive.files.length
  )
}

/** The scale giving about `items` items: events grow linearly with scale, so two small worlds give the slope. */
function scaleFor(scenario: Scenario, items: number): number {
  const at = (scale: number): number => worldEvents(buildProceduralWorld(scenario, 1, scale)).length
  const base = at(0)
  const perScale = (at(20) - base) / 20
  return Math.max(1, Math.ceil((items - base) / perScale))
}

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN
}

/** Argument sets for each tool, drawn from the world so most calls find something. */
function argumentsFor(sources: WorkplaceSources, rng: Prng): Record<string, () => Record<string, unknown>> {
  const people = sources.contacts.contacts
  const days = sources.calendar.events.map((e) => e.start.slice(0, 10))
  const words = ['launch', 'policy', 'quote', 'interview', 'lunch', 'maintenance', 'EHR-88', 'decision', 'metrics', 'offsite']
  const projects = sources.jira.projects.map((p) => p.key)
  const channels = sources.slack.channels.map((c) => c.name)
  return {
    'Slack.search_messages': () => ({
      query: rng.chance(0.5) ? rng.pick(words) : `${rng.pick(words)} in:#${rng.pick(channels)} after:${rng.pick(days)}`,
    }),
    'GoogleContacts.SearchContactsByName': () => ({ name: rng.pick(people).name.split(' ')[rng.int(0, 1)] ?? 'a' }),
    'GoogleCalendar.ListEvents': () => {
      const day = rng.pick(days)
      return { min_date: day, max_date: day }
    },
    'GoogleCalendar.FindTimeSlotsWhenEveryoneIsFree': () => {
      const day = rng.pick(days)
      return {
        email_addresses: rng.sample(people.slice(0, 8), 3).map((p) => p.email),
        date_range_start: day,
        date_range_end: day,
        workday_start_time: '08:30',
        workday_end_time: '17:00',
        slot_minimum_minutes: 30,
      }
    },
    'Gmail.SearchThreads': () => ({ subject: rng.pick(words) }),
    'Gmail.GetThread': () => ({ thread_id: rng.pick(sources.gmail.threads).id }),
    'GoogleDrive.gdrive_search': () => ({ query: rng.pick(words) }),
    'GoogleDrive.gdrive_read_file': () => ({ file_id: rng.pick(sources.drive.files).id }),
    'Jira.SearchIssuesWithJql': () =>
      rng.pick([
        { jql: `project = ${rng.pick(projects)} AND status = "In Progress" ORDER BY updated DESC` },
        { jql: `text ~ "${rng.pick(words)}"` },
        { jql: `status IN ("To Do", Blocked) OR priority = High` },
      ]),
  }
}

async function timeTool(tool: AnyTool, next: () => Record<string, unknown>): Promise<{ p50: number; p95: number; errors: number }> {
  const times: number[] = []
  let errors = 0
  for (let i = 0; i < CALLS_PER_TOOL; i++) {
    const args = tool.parameters.parse(next())
    const start = process.hrtime.bigint()
    try {
      await tool.handler(args, {})
    } catch {
      errors++
    }
    times.push(Number(process.hrtime.bigint() - start) / 1e6)
  }
  times.sort((a, b) => a - b)
  return { p50: percentile(times, 50), p95: percentile(times, 95), errors }
}

/** Prints procedural generation throughput and per-tool latency on a world of `PERF_MPCBENCH_ITEMS` items. */
export async function runMpcbenchPerf(): Promise<void> {
  const target = Number(process.env.PERF_MPCBENCH_ITEMS ?? 100_000)
  const scenario = loadScenario(SCENARIO)
  const scale = scaleFor(scenario, target)
  const outDir = mkdtempSync(join(tmpdir(), 'mpcbench-perf-'))
  try {
    console.log(`MPCBench: procedural world of ~${target.toLocaleString('en-US')} items (${scenario.scenario_id}, scale ${scale})`)
    const started = performance.now()
    await generateScenario({ scenario, outDir, scale, force: true })
    const generateMs = performance.now() - started
    const loadStarted = performance.now()
    const workplace = loadWorkplace(outDir, scenario.scenario_id)
    const loadMs = performance.now() - loadStarted
    const items = countItems(workplace.sources)
    console.log(
      `  generate (world state + 6 sources, validated, written): ${(generateMs / 1000).toFixed(2)} s, ${items.toLocaleString('en-US')} items, ${Math.round(items / (generateMs / 1000)).toLocaleString('en-US')} items/s`,
    )
    console.log(`  load into the ToolBackend (validate + index): ${(loadMs / 1000).toFixed(2)} s`)
    const rng = new Prng(42, 'mpcbench-perf')
    const args = argumentsFor(workplace.sources, rng)
    console.log(`  tool latency over ${CALLS_PER_TOOL} calls each:`)
    for (const tool of createWorkplaceTools(workplace)) {
      const next = args[tool.name]
      if (next === undefined) continue
      const { p50, p95, errors } = await timeTool(tool, next)
      console.log(`    ${tool.name.padEnd(48)} p50 ${p50.toFixed(3)} ms  p95 ${p95.toFixed(3)} ms${errors > 0 ? `  (${errors} calls rejected)` : ''}`)
    }
  } finally {
    rmSync(outDir, { recursive: true, force: true })
  }
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) await runMpcbenchPerf()
