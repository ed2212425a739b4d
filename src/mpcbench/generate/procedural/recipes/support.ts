/** Helpers the sub-scenario recipes share: who takes part, which project and channel, seeds, decision logs. */

import { addDays } from '../../../../time/calendar.ts'
import type { JiraSeed, Person, Project, SubScenario } from '../../../tasks/scenario.ts'
import { PARTNER_COMPANIES } from '../vocabulary.ts'
import { slug, type WorldBuilder } from '../world-builder.ts'

export function participantsOf(b: WorldBuilder, sub: SubScenario, fallback: number): Person[] {
  const hinted = b.resolvePeople(sub.participants_hint)
  return hinted.length > 0 ? hinted : b.scenario.people.slice(0, Math.min(fallback, b.scenario.people.length))
}

export function ids(people: readonly Person[]): { id: string; email: string }[] {
  return people.map((p) => ({ id: p.id, email: p.email }))
}

export function mainProject(b: WorldBuilder): Project | undefined {
  return b.scenario.projects[0]
}

export function projectChannel(_b: WorldBuilder, project: Project | undefined): string {
  return project === undefined ? 'general' : `proj-${slug(project.name)}`
}

export function durationOf(hint: SubScenario['constraints_hint']): number | undefined {
  if (hint === undefined) return undefined
  if (typeof hint === 'string') {
    const match = /(\d+)\s*-?\s*min/i.exec(hint)
    return match === null ? undefined : Number(match[1])
  }
  for (const key of ['approx_duration_minutes', 'duration_minutes', 'duration']) {
    const value = hint[key]
    if (typeof value === 'number') return value
  }
  return undefined
}

export function listNames(names: readonly string[]): string {
  if (names.length <= 1) return names.join('')
  return `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`
}

export function findSeed(b: WorldBuilder, key: string | undefined): { seed: JiraSeed; project: Project } | undefined {
  for (const project of b.scenario.projects) {
    for (const seed of project.jira_seeds ?? []) {
      if (key === undefined || seed.issue_key === key) return { seed, project }
    }
  }
  return undefined
}

export function engineers(b: WorldBuilder): Person[] {
  const eng = b.scenario.people.filter((p) => /engineer|developer|sre|qa/i.test(`${p.role} ${p.team}`))
  return eng.length > 0 ? eng : [...b.scenario.people]
}

export function productPeople(b: WorldBuilder): Person[] {
  const pm = b.scenario.people.filter((p) => /pm|product|manager|lead|support|success/i.test(`${p.role} ${p.team}`))
  return pm.length > 0 ? pm : [...b.scenario.people]
}

export function upcomingMilestone(b: WorldBuilder): { deadline: string; name: string | undefined } {
  const upcoming = (mainProject(b)?.milestones ?? []).find((m) => m.date > b.today)
  return { deadline: upcoming?.date ?? addDays(b.nextMonday, 14), name: upcoming?.name }
}

/** The Drive decision log of a decision sub-scenario, owned by the person who raised it. */
export function decisionLog(b: WorldBuilder, sub: SubScenario, lead: Person, timestamp: string, lines: string[]): ReturnType<WorldBuilder['drive']> {
  return b.drive({
    timestamp,
    name: `Decision log - ${sub.id.replace(/_/g, ' ')}`,
    mime_type: 'application/vnd.google-apps.document',
    owner: lead.email,
    content: lines.join('\n'),
  })
}

/**
 * Draws of the shared stream a decision consumes after its start time, whatever its framing (the vendor
 * framing's sample of two partners and its three ints), so that the framing never shifts the rest of the world.
 */
export const DECISION_DRAWS = PARTNER_COMPANIES.length - 1 + 3
