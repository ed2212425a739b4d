import type { Prng } from '../prng.ts'
import type { SubScenario } from '../../tasks/scenario.ts'

/**
 * What a decision sub-scenario is about, read from its own text: `vendor` (a purchase between suppliers),
 * `wording` (copy, notices, messages), `design` (layouts, screens), `policy` (rules, processes), or `approach`
 * (anything else: two ways of doing the work).
 */
export type DecisionKind = 'vendor' | 'wording' | 'design' | 'policy' | 'approach'

/** A decision's framing: its kind, the phrase naming what is decided, and the thing it is about. */
export interface DecisionFraming {
  kind: DecisionKind
  /** What is decided, as a noun phrase: "the wording of the consent banner". */
  topic: string
  /** The thing the decision is about: "consent banner". */
  subject: string
}

/** One of the two options of a non-vendor decision, before its label and scores are assigned. */
export interface OptionTemplate {
  name: string
  /** The option itself: a quoted draft for wording, a one-line description otherwise. */
  text: string
  /** Why the reviewers prefer it (strong option) or not (weak option), as a clause. */
  why: string
}

/** A non-vendor decision's pair of options: the one the thread turns down and the one it picks. */
export interface OptionPair {
  weak: OptionTemplate
  strong: OptionTemplate
}

const VENDOR =
  /\b(vendors?|suppliers?|quotes?|quotations?|purchas\w*|procure\w*|buy(ing)?|pric(e|es|ing)|contracts?|bids?|tenders?|licen[cs]es?|subscriptions?)\b/i
const WORDING = /\b(wording|copy|copywriting|phrasing|messaging|message|text|tone|headline|tagline|disclaimer|notice|banner|label|microcopy)\b/i
const DESIGN = /\b(design|layout|mockups?|wireframes?|ui|ux|visuals?|screens?|navigation|onboarding flow)\b/i
const POLICY = /\b(polic(y|ies)|process|procedure|guidelines?|rules?|workflow|standards?|checklist|rota|schedule)\b/i
const CONSENT = /\b(consent|privacy|cookies?|tracking|personal data|data use|gdpr|hipaa)\b/i

/** Reads a decision's framing from its type, abstract description and constraints hint. */
export function decisionFraming(sub: SubScenario): DecisionFraming {
  const hint = sub.constraints_hint === undefined ? '' : typeof sub.constraints_hint === 'string' ? sub.constraints_hint : JSON.stringify(sub.constraints_hint)
  const text = `${sub.type.replace(/_/g, ' ')} ${sub.abstract_description} ${hint}`
  const topic = topicOf(sub)
  const subject = subjectOf(topic)
  const kind: DecisionKind = VENDOR.test(text)
    ? 'vendor'
    : WORDING.test(text)
      ? 'wording'
      : DESIGN.test(text)
        ? 'design'
        : POLICY.test(text)
          ? 'policy'
          : 'approach'
  return { kind, topic, subject }
}

function topicOf(sub: SubScenario): string {
  const match =
    /\b(?:settle|choose|decide(?:\s+on)?|agree(?:\s+on)?|pick|finali[sz]e|approve|sign off on)\s+(.+?)(?=\s+(?:before|by|ahead of|in time|so that|until|after)\b|[.;,:]|$)/i.exec(
      sub.abstract_description,
    )
  const phrase = match?.[1]?.trim()
  if (phrase !== undefined && phrase.length > 0 && !/^between\b/i.test(phrase)) return /^(the|a|an|our|their|its)\s/i.test(phrase) ? phrase : `the ${phrase}`
  return `the ${sub.id.replace(/_/g, ' ').replace(/\s*decision$/i, '')}`
}

function subjectOf(topic: string): string {
  const inner = /\b(?:wording|copy|phrasing|text|tone|design|layout|format|scope)\s+(?:of|for|on)\s+(?:the\s+|a\s+|an\s+|our\s+)?(.+)$/i.exec(topic)
  return (inner?.[1] ?? topic.replace(/^(the|a|an|our|their|its)\s+/i, '')).trim()
}

/** Capitalizes the first letter. */
function cap(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1)
}

function consentWording(): OptionPair[] {
  return [
    {
      weak: {
        name: 'Short notice',
        text: 'By continuing to use this service you agree to our privacy policy and to how we use your data.',
        why: 'treats carrying on as consent',
      },
      strong: {
        name: 'Plain-language opt-in',
        text: 'We would like to use your details to send reminders and updates. Choose Allow or Not now. You can change this at any time in Settings.',
        why: 'asks for an explicit yes in plain words',
      },
    },
    {
      weak: {
        name: 'Legal summary',
        text: 'Personal data is processed in accordance with our privacy notice and applicable law; continued use constitutes consent.',
        why: 'reads like a contract and implies consent',
      },
      strong: {
        name: 'Layered choice',
        text: 'We use your information to run your account. Select Manage choices to decide what else we may use it for. Nothing extra is switched on until you say yes.',
        why: 'lets people choose, and nothing is on until they agree',
      },
    },
  ]
}

function genericWording(subject: string): OptionPair[] {
  return [
    {
      weak: {
        name: 'Formal notice',
        text: `Please be advised that the ${subject} has been updated. Refer to the documentation for further details.`,
        why: 'is formal and sends readers elsewhere for the details',
      },
      strong: {
        name: 'Plain and direct',
        text: `We changed the ${subject}. Here is what is new, and what you need to do next.`,
        why: 'says what changed and what to do, in plain words',
      },
    },
    {
      weak: {
        name: 'Full detail',
        text: `The ${subject} now covers every case, exception and contact point in one paragraph so that nothing is left out.`,
        why: 'packs every exception into one long paragraph',
      },
      strong: {
        name: 'Short with a link',
        text: `${cap(subject)}: the two things most people need, with a link to the rest.`,
        why: 'keeps the two things most people need up front',
      },
    },
  ]
}

function designPairs(subject: string): OptionPair[] {
  return [
    {
      weak: { name: 'Dense single page', text: `Everything about the ${subject} on one screen.`, why: 'crowds the screen' },
      strong: { name: 'Guided steps', text: `The ${subject} split into short steps with one decision each.`, why: 'keeps one decision per step' },
    },
    {
      weak: {
        name: 'Modal dialog',
        text: `The ${subject} in a modal that blocks the page until it is dismissed.`,
        why: 'blocks the page and is hard to reach by keyboard',
      },
      strong: {
        name: 'Inline panel',
        text: `The ${subject} inline at the top of the page, reachable by keyboard.`,
        why: 'stays out of the way and works by keyboard',
      },
    },
  ]
}

function policyPairs(subject: string): OptionPair[] {
  return [
    {
      weak: {
        name: 'Central sign-off',
        text: `Every change to the ${subject} goes through one approver.`,
        why: 'puts one approver in the path of every change',
      },
      strong: {
        name: 'Team checklist',
        text: `Each team applies the ${subject} with a shared checklist and a monthly spot check.`,
        why: 'lets teams apply it themselves',
      },
    },
    {
      weak: { name: 'Rewrite from scratch', text: `A new ${subject} written from scratch.`, why: 'means a full rewrite and a new review' },
      strong: { name: 'Amend the current one', text: `The current ${subject} with the gaps found in review fixed.`, why: 'only changes what review flagged' },
    },
  ]
}

function approachPairs(subject: string): OptionPair[] {
  return [
    {
      weak: { name: 'Big-bang switch', text: `Change the ${subject} for everyone at once.`, why: 'changes everything at once' },
      strong: { name: 'Phased rollout', text: `Change the ${subject} for one group first, then everyone.`, why: 'limits the risk to one group first' },
    },
    {
      weak: { name: 'Build in-house', text: `Build what the ${subject} needs ourselves.`, why: 'needs work nobody has time for' },
      strong: { name: 'Extend what we have', text: `Extend the existing setup to cover the ${subject}.`, why: 'reuses what already works' },
    },
  ]
}

/** Candidate option pairs of a non-vendor decision; the generator picks one with its seeded stream. */
export function optionPairs(framing: DecisionFraming): OptionPair[] {
  switch (framing.kind) {
    case 'wording':
      return CONSENT.test(framing.topic) ? consentWording() : genericWording(framing.subject)
    case 'design':
      return designPairs(framing.subject)
    case 'policy':
      return policyPairs(framing.subject)
    default:
      return approachPairs(framing.subject)
  }
}

/** How a non-vendor decision's options are compared: the measure, its value per option, and how to say it. */
export interface OptionMeasure {
  /** Field name in the world state's facts. */
  key: string
  /** Column header in the decision log. */
  header: string
  weak: number
  strong: number
  /** The value as prose: "reading grade 7". */
  describe(value: number): string
}

/** Seeded measure of a decision kind: reading grade for wording, unaided test completions for design, days to adopt otherwise. */
export function optionMeasure(kind: Exclude<DecisionKind, 'vendor'>, rng: Prng, daysLeft: number): OptionMeasure {
  if (kind === 'wording')
    return { key: 'reading_grade', header: 'Reading grade', weak: rng.int(10, 13), strong: rng.int(6, 8), describe: (v) => `reading grade ${v}` }
  if (kind === 'design') {
    return {
      key: 'testers_finished_unaided',
      header: 'Finished unaided (of 8 testers)',
      weak: rng.int(3, 5),
      strong: rng.int(6, 8),
      describe: (v) => `${v} of 8 testers finished unaided`,
    }
  }
  const days = (v: number): string => `${v} working day${v === 1 ? '' : 's'} to adopt`
  return {
    key: 'working_days_to_adopt',
    header: 'Working days to adopt',
    weak: daysLeft + rng.int(2, 6),
    strong: Math.max(1, daysLeft - rng.int(1, 3)),
    describe: days,
  }
}

/** The follow-up the decision's owner takes on. */
export function followUpAction(framing: DecisionFraming): string {
  switch (framing.kind) {
    case 'wording':
      return `puts the approved wording into the ${framing.subject} spec`
    case 'design':
      return `updates the ${framing.subject} designs`
    case 'policy':
      return `publishes the updated ${framing.subject}`
    default:
      return `writes up the plan for the ${framing.subject}`
  }
}

/** Word count of a draft. */
export function wordCount(text: string): number {
  return text.split(/\s+/).filter((w) => w.length > 0).length
}
