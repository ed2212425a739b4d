import { addDays } from '../../../../time/calendar.ts'
import type { JiraSeed, Project } from '../../../tasks/scenario.ts'
import type { JiraEvent } from '../../../tasks/world-state.ts'
import { projectKeyOf, slug, type WorldBuilder } from '../world-builder.ts'
import { engineers, productPeople } from './support.ts'

/** Jira seeds become issues: each exactly once, whether or not a sub-scenario claimed it. */
export function seedIssue(b: WorldBuilder, seed: JiraSeed, project: Project, overrides: Partial<JiraEvent> = {}): JiraEvent {
  const assignee = seed.assignee === undefined ? b.rng.pick(engineers(b)) : b.person(seed.assignee)
  const created = b.randomTime(addDays(b.thisMonday, -28), addDays(b.thisMonday, -14)).iso
  const milestones = project.milestones ?? []
  const fix = milestones[milestones.length - 1]
  const event: Omit<JiraEvent, 'event_id' | 'source'> = {
    timestamp: b.pastTime().iso,
    issue_key: seed.issue_key,
    project_key: projectKeyOf(project),
    summary: seed.summary,
    description: `${seed.summary}. Part of ${project.name}.`,
    status: seed.status,
    issue_type: 'Story',
    priority: 'High',
    assignee: assignee.email,
    reporter: b.rng.pick(productPeople(b)).email,
    created,
    labels: [slug(project.name)],
    ...(seed.due_date === undefined ? {} : { due_date: seed.due_date }),
    ...(fix === undefined ? {} : { fix_version: fix.name }),
    ...overrides,
  }
  return b.jira(event)
}
