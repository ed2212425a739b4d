import { addDays } from '../../../../time/calendar.ts'
import type { SubScenario } from '../../../tasks/scenario.ts'
import type { JiraEvent } from '../../../tasks/world-state.ts'
import { PARTNER_COMPANIES } from '../vocabulary.ts'
import { projectKeyOf, type WorldBuilder } from '../world-builder.ts'
import type { PendingExpansion, Recipe } from './pending-expansion.ts'
import { seedIssue } from './seed-issue.ts'
import { engineers, findSeed, ids, mainProject, participantsOf, productPeople, projectChannel } from './support.ts'

function issueEta(b: WorldBuilder, sub: SubScenario): Omit<PendingExpansion, 'from' | 'to'> {
  const depth = b.scenario.depth
  const hint = typeof sub.issue_key_hint === 'string' ? sub.issue_key_hint : undefined
  const found = findSeed(b, hint) ?? findSeed(b, undefined)
  const project = found?.project ?? mainProject(b)
  const key = found?.seed.issue_key ?? hint ?? b.issueKey(project === undefined ? 'OPS' : projectKeyOf(project))
  const summary = found?.seed.summary ?? sub.abstract_description.slice(0, 60)
  const milestones = project?.milestones ?? []
  const plannedDue = found?.seed.due_date ?? milestones[milestones.length - 1]?.date ?? addDays(b.nextMonday, 3)
  const slipped = addDays(plannedDue, 7)
  const participants = participantsOf(b, sub, 0)
  const owner = participants[0] ?? b.rng.pick(productPeople(b))
  const assigneeId = found?.seed.assignee
  const assignee =
    assigneeId !== undefined
      ? b.person(assigneeId)
      : b.rng.pick(
          engineers(b)
            .filter((p) => p !== owner)
            .concat(engineers(b))
            .slice(0, 3),
        )

  const company = b.rng.pick(PARTNER_COMPANIES)
  const asked = b.randomTime(addDays(b.today, -3), b.today)
  const customer = b.newContact(company, asked.iso)
  const threadId = b.id('thread')
  const subject = `Question about ${summary}`
  if (depth >= 0.5) {
    const earlier = b.randomTime(addDays(b.thisMonday, -7), addDays(b.thisMonday, -3))
    b.gmail(
      threadId,
      customer.email,
      [owner.email],
      [],
      subject,
      `Hello ${b.firstName(owner)},\n\nWe are planning our own release around ${summary}. Is there a target date yet?\n\nBest,\n${customer.name}\n${company.name}`,
      earlier.iso,
    )
    b.gmail(
      threadId,
      owner.email,
      [customer.email],
      [],
      `Re: ${subject}`,
      `Hi ${customer.name.split(' ')[0]},\n\nNot yet, I will come back to you as soon as engineering confirms a date.\n\n${owner.name}`,
      b.randomTime(earlier.date, addDays(b.thisMonday, -2)).iso,
    )
  }
  b.gmail(
    threadId,
    customer.email,
    [owner.email],
    [],
    depth >= 0.5 ? `Re: ${subject}` : subject,
    `Hi ${b.firstName(owner)},\n\nCould you tell us when ${summary} (${key}) will be available to us? Our team needs a date to plan the rollout on our side.\n\nThanks,\n${customer.name}\n${company.name}`,
    asked.iso,
  )
  const issueFields: Partial<JiraEvent> = {
    due_date: plannedDue,
    assignee: assignee.email,
    timestamp: b.randomTime(addDays(b.thisMonday, -7), addDays(b.today, -1)).iso,
  }
  if (found !== undefined && project !== undefined) seedIssue(b, found.seed, project, issueFields)
  else {
    b.jira({
      timestamp: issueFields.timestamp as string,
      issue_key: key,
      project_key: key.split('-')[0] as string,
      summary,
      description: sub.abstract_description,
      status: 'In Progress',
      issue_type: 'Story',
      priority: 'High',
      assignee: assignee.email,
      reporter: owner.email,
      created: b.randomTime(addDays(b.thisMonday, -28), addDays(b.thisMonday, -14)).iso,
      due_date: plannedDue,
      labels: [],
    })
  }
  const channel = projectChannel(b, project)
  const eta = depth >= 0.5 ? slipped : plannedDue
  if (depth >= 0.5) {
    b.slack(
      channel,
      assignee,
      `${key} update: QA found a blocker in the migration path, so the target moves one week to ${slipped}. Jira still shows the old due date, I'll fix it after standup.`,
      b.randomTime(addDays(b.today, -2), b.today).iso,
    )
  } else {
    b.slack(channel, assignee, `${key} is on track for ${plannedDue}.`, b.randomTime(addDays(b.today, -2), b.today).iso)
  }
  const playbook = b.drive({
    timestamp: b.randomTime(addDays(b.thisMonday, -21), addDays(b.thisMonday, -10)).iso,
    name: 'Customer Communication Guidelines',
    mime_type: 'application/vnd.google-apps.document',
    owner: owner.email,
    content: [
      'Customer Communication Guidelines',
      '',
      'Release dates',
      '- Give a target date, never a promise; say it may change.',
      '- Use the latest date engineering has confirmed, even if the tracker lags behind.',
      '- Offer a follow-up when the date is confirmed.',
      '',
      'Tone',
      '- Thank the customer for their patience, keep it short, sign with your name and role.',
    ].join('\n'),
  })
  return {
    id: sub.id,
    type: sub.type,
    abstract_description: sub.abstract_description,
    timestamp: asked.iso,
    participants: ids([owner, assignee]),
    event_description: `${customer.name} of ${company.name} emails ${owner.name} asking when ${key} (${summary}) ships. Jira says ${plannedDue}${depth >= 0.5 ? `; ${assignee.name} said in Slack it slipped to ${slipped}` : ''}.`,
    facts: {
      issue_key: key,
      customer: { name: customer.name, email: customer.email, organization: company.name },
      thread_id: threadId,
      jira_due_date: plannedDue,
      eta,
      assignee: assignee.id,
      guidelines_file_id: playbook.file_id,
    },
  }
}

/** A customer or teammate asks when an issue ships; the answer is in Jira, Slack and mail, which may disagree. */
export const issueEtaRecipe: Recipe = {
  name: 'issue ETA',
  matches: (type, sub) => /eta|rollout|release|issue|status|email_reply|customer/.test(type) || typeof sub.issue_key_hint === 'string',
  expand: issueEta,
}
