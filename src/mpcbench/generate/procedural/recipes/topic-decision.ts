import { addDays } from '../../../../time/calendar.ts'
import type { Person, SubScenario } from '../../../tasks/scenario.ts'
import { Prng } from '../../prng.ts'
import { type DecisionFraming, followUpAction, optionMeasure, optionPairs, wordCount } from '../decision-framing.ts'
import type { WorldBuilder } from '../world-builder.ts'
import type { PendingExpansion } from './pending-expansion.ts'
import { DECISION_DRAWS, decisionLog, ids, mainProject, participantsOf, projectChannel, upcomingMilestone } from './support.ts'

/**
 * A choice between two named alternatives that fit the topic (two drafts of a text, two designs, two policies or
 * two approaches), compared on one measure; the thread picks the stronger one in time for the next milestone.
 * Its own choices come from a stream seeded by one shared draw; it consumes `DECISION_DRAWS` like the vendor one.
 */
export function topicDecision(b: WorldBuilder, sub: SubScenario, framing: DecisionFraming): Omit<PendingExpansion, 'from' | 'to'> {
  const participants = participantsOf(b, sub, 3)
  const project = mainProject(b)
  const channel = projectChannel(b, project)
  const start = b.pastTime()
  const local = new Prng(Math.floor(b.rng.next() * 0x1_0000_0000), sub.id)
  for (let i = 1; i < DECISION_DRAWS; i++) b.rng.next()
  const lead = participants[0] as Person
  const { deadline, name: milestone } = upcomingMilestone(b)
  const before = milestone === undefined ? deadline : `${milestone} on ${deadline}`
  const daysLeft = Math.max(1, b.workdays(addDays(b.today, 1), deadline).length)
  const kind = framing.kind as Exclude<typeof framing.kind, 'vendor'>
  const pair = local.pick(optionPairs(framing))
  const measure = optionMeasure(kind, local, daysLeft)
  const strongFirst = local.chance(0.5)
  const noun = kind === 'wording' ? 'Variant' : 'Option'
  const weak = { label: strongFirst ? 'B' : 'A', ...pair.weak, value: measure.weak }
  const strong = { label: strongFirst ? 'A' : 'B', ...pair.strong, value: measure.strong }
  const options = strongFirst ? [strong, weak] : [weak, strong]
  const describe = (o: typeof weak): string =>
    kind === 'wording'
      ? `${noun} ${o.label}, "${o.name}": "${o.text}" (${wordCount(o.text)} words, ${measure.describe(o.value)})`
      : `${noun} ${o.label}, "${o.name}": ${o.text} (${measure.describe(o.value)})`
  const owner = participants[participants.length > 1 ? 1 : 0] as Person
  const followUp = addDays(b.today, 5)
  const at = (offset: number): string => b.at(start.date, Math.min(b.workEnd - 1, start.minutes + offset))
  const root = b.slack(channel, lead, `We need to settle ${framing.topic} before ${before}. ${options.map(describe).join('. ')}.`, start.iso)
  const reviewers = participants.slice(1)
  reviewers.forEach((person, i) => {
    const text =
      i === 0
        ? `${noun} ${weak.label} ${weak.why} (${measure.describe(weak.value)}); ${noun} ${strong.label} ${strong.why} (${measure.describe(strong.value)}), which is what we want in place for ${before}. I'd go with ${strong.label}.`
        : `Agree with ${b.firstName(reviewers[0] as Person)}, ${noun} ${strong.label} it is.`
    b.slack(channel, person, text, at(10 + 15 * i), root)
  })
  const chosen = `${noun} ${strong.label}, "${strong.name}"`
  const outcome = `${chosen}; ${owner.name} ${followUpAction(framing)} by ${followUp}`
  const reason = `it ${strong.why} (${measure.describe(strong.value)}), in time for ${before}`
  const decided = `${outcome}. Why: ${reason}`
  b.slack(channel, lead, `Decision: ${decided}.`, at(90), root)
  const header = kind === 'wording' ? `${noun} | Name | Draft | Words | ${measure.header}` : `${noun} | Name | Description | ${measure.header}`
  const row = (o: typeof weak): string =>
    kind === 'wording' ? `${o.label} | ${o.name} | "${o.text}" | ${wordCount(o.text)} | ${o.value}` : `${o.label} | ${o.name} | ${o.text} | ${o.value}`
  const note = decisionLog(b, sub, lead, at(120), [
    `Question: ${framing.topic.charAt(0).toUpperCase()}${framing.topic.slice(1)}, before ${before}.`,
    `Context: ${sub.abstract_description}`,
    '',
    header,
    ...options.map(row),
    '',
    `Decision (${start.date}, decided by ${lead.name}): ${outcome}.`,
    `Why: ${reason}.`,
    `Why not ${noun} ${weak.label}: it ${weak.why} (${measure.describe(weak.value)}).`,
    `Participants: ${participants.map((p) => p.name).join(', ')}`,
  ])
  return {
    id: sub.id,
    type: sub.type,
    abstract_description: sub.abstract_description,
    timestamp: start.iso,
    participants: ids(participants),
    event_description: `${lead.name} asks in #${channel} to settle ${framing.topic}: "${options[0]?.name}" or "${options[1]?.name}"; the thread decides on ${outcome}. Why: ${reason}.`,
    facts: {
      kind,
      topic: framing.topic,
      options: options.map((o) => ({
        label: o.label,
        name: o.name,
        text: o.text,
        ...(kind === 'wording' ? { words: wordCount(o.text) } : {}),
        [measure.key]: o.value,
      })),
      decision: decided,
      chosen_option: strong.label,
      chosen_name: strong.name,
      decided_by: lead.id,
      decided_on: start.date,
      owner: owner.id,
      follow_up_date: followUp,
      channel,
      decision_file_id: note.file_id,
    },
  }
}
