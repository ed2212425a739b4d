import { addDays } from '../../../../time/calendar.ts'
import type { Person, SubScenario } from '../../../tasks/scenario.ts'
import { PARTNER_COMPANIES } from '../vocabulary.ts'
import type { WorldBuilder } from '../world-builder.ts'
import type { PendingExpansion } from './pending-expansion.ts'
import { decisionLog, ids, mainProject, participantsOf, projectChannel } from './support.ts'

/**
 * A choice between two vendors by price and lead time. (Shipped data depends on this exact sequence of random
 * draws: `DECISION_DRAWS` of `support.ts` after the start time.)
 */
export function vendorDecision(b: WorldBuilder, sub: SubScenario): Omit<PendingExpansion, 'from' | 'to'> {
  const participants = participantsOf(b, sub, 3)
  const project = mainProject(b)
  const channel = projectChannel(b, project)
  const start = b.pastTime()
  const lead = participants[0] as Person
  const [first, second] = b.rng.sample(PARTNER_COMPANIES, 2) as [(typeof PARTNER_COMPANIES)[number], (typeof PARTNER_COMPANIES)[number]]
  const upcoming = (project?.milestones ?? []).find((m) => m.date > b.today)
  const deadline = upcoming?.date ?? addDays(b.nextMonday, 14)
  const weeksLeft = Math.max(1, Math.floor((Date.parse(deadline) - Date.parse(b.today)) / (7 * 86_400_000)))
  const options = [
    { label: 'A', vendor: first.name, cost: 1000 * b.rng.int(18, 30), weeks: weeksLeft + b.rng.int(1, 3) },
    { label: 'B', vendor: second.name, cost: 1000 * b.rng.int(31, 45), weeks: Math.max(1, weeksLeft - 1) },
  ] as const
  const [cheap, fast] = options
  const weeks = (n: number): string => `${n} week${n === 1 ? '' : 's'}`
  const chosen = fast
  const owner = participants[participants.length > 1 ? 1 : 0] as Person
  const followUp = addDays(b.today, 5)
  const at = (offset: number): string => b.at(start.date, Math.min(b.workEnd - 1, start.minutes + offset))
  const root = b.slack(
    channel,
    lead,
    `We need to settle this: ${sub.abstract_description} Option A is ${cheap.vendor} ($${cheap.cost.toLocaleString('en-US')}, ${weeks(cheap.weeks)} lead time); option B is ${fast.vendor} ($${fast.cost.toLocaleString('en-US')}, ${weeks(fast.weeks)}).`,
    start.iso,
  )
  const reviewers = participants.slice(1)
  reviewers.forEach((person, i) => {
    const text =
      i === 0
        ? `A is cheaper, but ${weeks(cheap.weeks)} puts us past ${upcoming === undefined ? deadline : `${upcoming.name} on ${deadline}`}. B fits.`
        : `Agree with ${b.firstName(reviewers[0] as Person)}, the extra cost is within budget.`
    b.slack(channel, person, text, at(10 + 15 * i), root)
  })
  const decision = `Option ${chosen.label}, ${chosen.vendor}: it is the only one delivered before ${deadline}; ${owner.name} confirms the order by ${followUp}`
  b.slack(channel, lead, `Decision: ${decision}.`, at(90), root)
  const note = decisionLog(b, sub, lead, at(120), [
    `Question: ${sub.abstract_description}`,
    '',
    'Option | Vendor | Cost | Lead time',
    ...options.map((o) => `${o.label} | ${o.vendor} | $${o.cost.toLocaleString('en-US')} | ${weeks(o.weeks)}`),
    '',
    `Decision (${start.date}): ${decision}.`,
    `Participants: ${participants.map((p) => p.name).join(', ')}`,
  ])
  return {
    id: sub.id,
    type: sub.type,
    abstract_description: sub.abstract_description,
    timestamp: start.iso,
    participants: ids(participants),
    event_description: `${lead.name} asks in #${channel} to choose between ${cheap.vendor} and ${fast.vendor}; the thread decides: ${decision}.`,
    facts: {
      options: options.map((o) => ({ ...o })),
      decision,
      chosen_vendor: chosen.vendor,
      owner: owner.id,
      follow_up_date: followUp,
      channel,
      decision_file_id: note.file_id,
    },
  }
}
