import type { SubScenario } from '../../../tasks/scenario.ts'
import { decisionFraming } from '../decision-framing.ts'
import type { WorldBuilder } from '../world-builder.ts'
import { issueEtaRecipe } from './issue-eta.ts'
import type { PendingExpansion, Recipe } from './pending-expansion.ts'
import { planningMeetingRecipe } from './planning-meeting.ts'
import { topicDecision } from './topic-decision.ts'
import { vendorDecision } from './vendor-decision.ts'
import { weeklyReportRecipe } from './weekly-report.ts'

/** The recipes in the order they are tried; the first that matches a sub-scenario expands it, `decision` takes the rest. */
export const RECIPES: readonly Recipe[] = [
  planningMeetingRecipe,
  issueEtaRecipe,
  weeklyReportRecipe,
  { name: 'decision', matches: () => true, expand: decision },
]

/** Expands one abstract sub-scenario into concrete events with the first recipe of {@link RECIPES} that matches it. */
export function expandSubScenario(b: WorldBuilder, sub: SubScenario): PendingExpansion {
  const type = sub.type.toLowerCase()
  const from = b.events.length
  const recipe = RECIPES.find((r) => r.matches(type, sub)) as Recipe
  return { ...recipe.expand(b, sub), from, to: b.events.length }
}

/**
 * Any other sub-scenario is a decision between two options, weighed in a Slack thread against the next milestone
 * and recorded in a Drive decision log. Its text says what kind: a purchase between vendors (`vendor`), or
 * wording, design, a policy or an approach, whose two options are named alternatives that fit the topic.
 */
function decision(b: WorldBuilder, sub: SubScenario): Omit<PendingExpansion, 'from' | 'to'> {
  const framing = decisionFraming(sub)
  return framing.kind === 'vendor' ? vendorDecision(b, sub) : topicDecision(b, sub, framing)
}
