import { spawnSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { describe, expect, it } from 'vitest'
import { findFreeSlots } from '../../workplace/free-slots.ts'
import type { WorkplaceSources } from '../../workplace/source-types.ts'
import { SOURCES, sourceValidationErrors } from '../../workplace/validate-source.ts'
import { Workplace, loadWorkplace } from '../../workplace/workplace.ts'
import { type Scenario, loadScenario } from '../../tasks/scenario.ts'
import { GeneratedWorldStateSchema } from '../../tasks/world-state.ts'
import { repoRoot } from '../generate-scenario.ts'
import { noiseCount } from './noise.ts'
import { projectSource, worldEvents } from './sources.ts'
import { buildProceduralWorld } from './world.ts'

const scenarios = readdirSync(join(repoRoot, 'scenarios'))
  .filter((f) => f.endsWith('.json'))
  .map((f) => loadScenario(join(repoRoot, 'scenarios', f)))
const lumen = scenarios.find((s) => s.scenario_id === 'lumen_robotics') as Scenario
const tidewater = scenarios.find((s) => s.scenario_id === 'tidewater_clinics') as Scenario

function sourcesOf(scenario: Scenario, seed = 1, scale = 1): WorkplaceSources {
  const world = buildProceduralWorld(scenario, seed, scale)
  const events = worldEvents(world)
  return Object.fromEntries(SOURCES.map((s) => [s, projectSource(s, world, events)])) as unknown as WorkplaceSources
}

describe('procedural world', () => {
  it('is deterministic for a seed and differs between seeds', () => {
    expect(JSON.stringify(buildProceduralWorld(tidewater, 7, 1))).toBe(JSON.stringify(buildProceduralWorld(tidewater, 7, 1)))
    expect(JSON.stringify(buildProceduralWorld(tidewater, 7, 1))).not.toBe(JSON.stringify(buildProceduralWorld(tidewater, 8, 1)))
  })

  it('is byte-identical in other processes, time zones and locales, a tie between email domains included', () => {
    // Half the people at each of two domains: the company name and the role addresses come from the tie-break.
    const tied = {
      ...lumen,
      company: undefined,
      people: lumen.people.slice(0, 6).map((p, i) => ({ ...p, email: p.email.replace(/@.*/, i % 2 === 0 ? '@aalto.example' : '@beta.example') })),
    }
    const inputs = [...scenarios, tied]
    const digest = (scenario: Scenario, seed: number): string =>
      createHash('sha256')
        .update(JSON.stringify(buildProceduralWorld(scenario, seed, 2)))
        .digest('hex')
    const here = inputs.flatMap((s) => [digest(s, 1), digest(s, 5)])
    const dir = mkdtempSync(join(tmpdir(), 'mpcbench-procedural-env-'))
    try {
      const script = join(dir, 'digests.ts')
      writeFileSync(join(dir, 'inputs.json'), JSON.stringify(inputs))
      writeFileSync(
        script,
        [
          "import { createHash } from 'node:crypto'",
          "import { readFileSync } from 'node:fs'",
          `import { buildProceduralWorld } from ${JSON.stringify(pathToFileURL(join(import.meta.dirname, 'world.ts')).href)}`,
          `const inputs = JSON.parse(readFileSync(${JSON.stringify(join(dir, 'inputs.json'))}, 'utf8'))`,
          "const digest = (s, seed) => createHash('sha256').update(JSON.stringify(buildProceduralWorld(s, seed, 2))).digest('hex')",
          'console.log(JSON.stringify(inputs.flatMap((s) => [digest(s, 1), digest(s, 5)])))',
        ].join('\n'),
      )
      for (const env of [
        { TZ: 'America/Los_Angeles', LANG: 'da_DK.UTF-8', LC_ALL: 'da_DK.UTF-8' },
        { TZ: 'Asia/Kolkata', LANG: 'en_US.UTF-8', LC_ALL: 'en_US.UTF-8' },
      ]) {
        const child = spawnSync(process.execPath, ['--import', 'tsx', script], { cwd: repoRoot, env: { ...process.env, ...env }, encoding: 'utf8' })
        expect(child.stderr, JSON.stringify(env)).toBe('')
        expect(JSON.parse(child.stdout), JSON.stringify(env)).toEqual(here)
      }
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
    expect(new Set(here).size).toBe(here.length)
  })

  it.each(scenarios.map((s) => [s.scenario_id, s] as const))('%s: matches GeneratedWorldStateSchema, one expansion per sub-scenario', (_id, scenario) => {
    const world = GeneratedWorldStateSchema.parse(buildProceduralWorld(scenario, 1, 1))
    expect(world.sub_scenarios_expanded.map((s) => s.id)).toEqual(scenario.sub_scenarios.map((s) => s.id))
    expect(world.noise_scenarios).toHaveLength(noiseCount(scenario.noise_level, 1))
  })

  it('scales noise with noise_level and scale, and has none at noise 0', () => {
    expect(buildProceduralWorld({ ...lumen, noise_level: 0 }, 1, 5).noise_scenarios).toHaveLength(0)
    const low = buildProceduralWorld({ ...lumen, noise_level: 0.25 }, 1, 2).noise_scenarios.length
    const high = buildProceduralWorld({ ...lumen, noise_level: 1 }, 1, 2).noise_scenarios.length
    expect(low).toBe(10)
    expect(high).toBe(40)
    const core = worldEvents(buildProceduralWorld({ ...lumen, noise_level: 0 }, 1, 1)).length
    const noiseAt = (scale: number): number => worldEvents(buildProceduralWorld(lumen, 1, scale)).length - core
    expect(noiseAt(1)).toBeGreaterThan(0)
    expect(noiseAt(20)).toBeGreaterThan(10 * noiseAt(1))
  })

  it("writes every timestamp with the scenario zone's offset (DST included)", () => {
    const events = worldEvents(buildProceduralWorld(tidewater, 1, 3))
    for (const e of events) {
      const stamps = e.source === 'calendar' ? [e.timestamp, e.start, e.end] : [e.timestamp]
      for (const stamp of stamps) {
        // America/Los_Angeles: -08:00 before 2026-03-08, -07:00 from then to 2026-11-01
        const expected = stamp.slice(0, 10) >= '2026-03-08' ? '-07:00' : '-08:00'
        expect(stamp.endsWith(expected), `${e.event_id} ${stamp}`).toBe(true)
      }
    }
  })

  it.each(scenarios.map((s) => [s.scenario_id, s] as const))('%s: every source is valid against schemas/', (_id, scenario) => {
    const sources = sourcesOf(scenario, 3, 2)
    for (const source of SOURCES) expect(sourceValidationErrors(source, sources[source]), source).toEqual([])
  })

  it('keeps sources consistent with each other', () => {
    const sources = sourcesOf(tidewater)
    const userIds = new Set(sources.slack.users.map((u) => u.id))
    const channelIds = new Set(sources.slack.channels.map((c) => c.id))
    for (const m of sources.slack.messages) {
      expect(userIds.has(m.user_id)).toBe(true)
      expect(channelIds.has(m.channel_id)).toBe(true)
    }
    const contactEmails = new Set(sources.contacts.contacts.map((c) => c.email))
    for (const person of tidewater.people) expect(contactEmails.has(person.email)).toBe(true)
    for (const thread of sources.gmail.threads) {
      const dates = thread.messages.map((m) => Date.parse(m.date))
      expect(dates).toEqual([...dates].sort((a, b) => a - b))
    }
    const keys = new Map(sources.jira.issues.map((i) => [i.key, i]))
    for (const project of tidewater.projects) {
      for (const seed of project.jira_seeds ?? []) {
        expect(keys.get(seed.issue_key)?.summary).toBe(seed.summary)
        expect(keys.get(seed.issue_key)?.status).toBe(seed.status)
      }
    }
    expect(new Set(sources.jira.issues.map((i) => i.key)).size).toBe(sources.jira.issues.length)
    for (const issue of sources.jira.issues) expect(Date.parse(issue.created as string)).toBeLessThanOrEqual(Date.parse(issue.updated as string))
  })

  it('puts the slipped ETA only in Slack at high depth, and in Jira at low depth', () => {
    const deep = buildProceduralWorld(tidewater, 1, 1).sub_scenarios_expanded.find((s) => s.id === 'lab_sync_eta')
    expect(deep?.facts).toMatchObject({ issue_key: 'EHR-88', jira_due_date: '2026-04-17', eta: '2026-04-24' })
    const deepSources = sourcesOf(tidewater)
    expect(deepSources.slack.messages.some((m) => m.text.includes('EHR-88') && m.text.includes('2026-04-24'))).toBe(true)
    expect(deepSources.jira.issues.find((i) => i.key === 'EHR-88')?.fixVersions?.[0]?.releaseDate).toBe('2026-04-17')
    const shallow = buildProceduralWorld(lumen, 1, 1).sub_scenarios_expanded.find((s) => s.id === 'replanning_eta')
    expect(shallow?.facts).toMatchObject({ issue_key: 'FLT-212', jira_due_date: '2026-03-20', eta: '2026-03-20' })
  })
})

describe('decisions', () => {
  const consentOf = (scenario: Scenario) => buildProceduralWorld(scenario, 1, 1).sub_scenarios_expanded.find((s) => s.id === 'consent_copy_decision')

  it('frames a wording decision as two drafts, not as vendors with prices', () => {
    const consent = consentOf(tidewater)
    expect(consent?.facts).toMatchObject({ kind: 'wording', topic: 'the wording of the consent banner', decided_by: 'person_irene', owner: 'person_elena' })
    const texts = (consent?.events ?? []).map((e) => (e.source === 'slack' ? e.text : e.source === 'drive' ? e.content : ''))
    for (const text of texts) expect(text).not.toMatch(/\$\d|vendor|lead time/i)
    const chosen = (consent?.facts as { chosen_name: string } | undefined)?.chosen_name ?? 'no chosen_name'
    expect(texts.some((t) => t.startsWith('Decision:') && t.includes(chosen) && t.includes('2026-04-14'))).toBe(true)
  })

  it('keeps vendor decisions as a choice between vendors', () => {
    const charger = buildProceduralWorld(lumen, 1, 1).sub_scenarios_expanded.find((s) => s.id === 'charger_vendor_choice')
    expect(charger?.facts).toHaveProperty('chosen_vendor')
  })

  it('consumes the same draws whatever the framing, so the rest of the world does not move', () => {
    const asVendor: Scenario = {
      ...tidewater,
      sub_scenarios: tidewater.sub_scenarios.map((s) =>
        s.id === 'consent_copy_decision' ? { ...s, abstract_description: 'Irene, Elena and Theo choose between two vendors for the consent banner.' } : s,
      ),
    }
    const a = buildProceduralWorld(tidewater, 1, 1)
    const b = buildProceduralWorld(asVendor, 1, 1)
    expect(b.sub_scenarios_expanded.find((s) => s.id === 'consent_copy_decision')?.facts).toHaveProperty('chosen_vendor')
    expect(JSON.stringify(b.noise_scenarios)).toBe(JSON.stringify(a.noise_scenarios))
    expect(JSON.stringify(b.sub_scenarios_expanded.slice(0, 3))).toBe(JSON.stringify(a.sub_scenarios_expanded.slice(0, 3)))
  })
})

describe('planning facts agree with the calendar tool', () => {
  it.each(scenarios.map((s) => [s.scenario_id, s] as const))('%s (shipped data): common_free_slots = FindTimeSlotsWhenEveryoneIsFree', (id, scenario) => {
    const workplace = loadWorkplace(join(repoRoot, 'data'), id)
    const world = buildProceduralWorld(scenario, 1, 1)
    const planning = world.sub_scenarios_expanded.filter((s) => s.type === 'planning_meeting')
    expect(planning.length).toBeGreaterThan(0)
    for (const sub of planning) {
      const facts = sub.facts as { duration_minutes: number; window: { start: string; end: string }; common_free_slots: Array<{ start: string; end: string }> }
      expect(facts.common_free_slots.length).toBeGreaterThanOrEqual(2)
      const result = findFreeSlots(workplace, {
        email_addresses: sub.participants.map((p) => p.email),
        date_range_start: facts.window.start,
        date_range_end: facts.window.end,
        workday_start_time: scenario.global_settings.workday_start,
        workday_end_time: scenario.global_settings.workday_end,
        slot_minimum_minutes: facts.duration_minutes,
      })
      expect(result.time_slots.map((s) => ({ start: s.start, end: s.end }))).toEqual(facts.common_free_slots)
    }
  })

  it('keeps two slots free for the participants at 40x noise', () => {
    const world = buildProceduralWorld(tidewater, 5, 40)
    const events = worldEvents(world)
    const sources = Object.fromEntries(SOURCES.map((s) => [s, projectSource(s, world, events)])) as Record<(typeof SOURCES)[number], unknown>
    const workplace = Workplace.fromSources(sources, { timezone: tidewater.global_settings.timezone })
    const sub = world.sub_scenarios_expanded[0]
    const facts = sub?.facts as { duration_minutes: number; window: { start: string; end: string }; common_free_slots: unknown[] }
    const result = findFreeSlots(workplace, {
      email_addresses: (sub?.participants ?? []).map((p) => p.email),
      date_range_start: facts.window.start,
      date_range_end: facts.window.end,
      workday_start_time: '08:30',
      workday_end_time: '17:00',
      slot_minimum_minutes: facts.duration_minutes,
    })
    expect(result.time_slots.length).toBeGreaterThanOrEqual(2)
    expect(result.time_slots.map((s) => ({ start: s.start, end: s.end }))).toEqual(facts.common_free_slots)
  })
})
