import { describe, expect, it } from 'vitest'
import type { SubScenario } from '../../tasks/scenario.ts'
import { Prng } from '../prng.ts'
import { decisionFraming, optionMeasure, optionPairs } from './decision-framing.ts'

function sub(abstract_description: string, type = 'decision', constraints_hint?: SubScenario['constraints_hint']): SubScenario {
  return { id: 'some_decision', type, abstract_description, ...(constraints_hint === undefined ? {} : { constraints_hint }) }
}

describe('decisionFraming', () => {
  it('keeps the vendor framing when the text is about vendors, quotes or purchases', () => {
    expect(decisionFraming(sub('Marta, Luca and Jonas choose between two charging-dock vendors for the new site.')).kind).toBe('vendor')
    expect(decisionFraming(sub('The team settles the laptop refresh.', 'decision', 'Two quotes are on the table')).kind).toBe('vendor')
    expect(decisionFraming(sub('Pick hardware for the lab.', 'vendor_decision')).kind).toBe('vendor')
  })

  it('reads wording decisions and what they are about', () => {
    expect(decisionFraming(sub('Irene, Elena and Theo settle the wording of the consent banner before the accessibility audit.'))).toEqual({
      kind: 'wording',
      topic: 'the wording of the consent banner',
      subject: 'consent banner',
    })
  })

  it('tells design, policy and other decisions apart', () => {
    expect(decisionFraming(sub('Ana and Raj decide on the layout of the billing page by Friday.'))).toMatchObject({ kind: 'design', subject: 'billing page' })
    expect(decisionFraming(sub('The leads agree on the on-call policy before the holidays.'))).toMatchObject({ kind: 'policy', subject: 'on-call policy' })
    expect(decisionFraming(sub('The squad settles how to migrate the reporting database.'))).toMatchObject({ kind: 'approach' })
  })

  it('falls back to the id when the text names no topic', () => {
    expect(decisionFraming({ ...sub('Something needs deciding.'), id: 'retention_decision' }).topic).toBe('the retention')
  })
})

describe('options', () => {
  it('drafts consent wording for consent topics and subject-specific options otherwise', () => {
    const consent = optionPairs(decisionFraming(sub('Settle the wording of the consent banner.')))
    expect(consent.every((p) => /consent|privacy|yes/i.test(`${p.weak.text} ${p.strong.text} ${p.strong.why}`))).toBe(true)
    const release = optionPairs(decisionFraming(sub('Settle the wording of the release notes.')))
    expect(release.every((p) => p.weak.text.includes('release notes') || p.strong.text.toLowerCase().includes('release notes'))).toBe(true)
  })

  it('scores the picked option better, deterministically for a seed', () => {
    for (const kind of ['wording', 'design', 'policy', 'approach'] as const) {
      const measure = optionMeasure(kind, new Prng(3, kind), 8)
      expect(optionMeasure(kind, new Prng(3, kind), 8)).toMatchObject({ weak: measure.weak, strong: measure.strong })
      if (kind === 'wording' || kind === 'policy' || kind === 'approach') expect(measure.strong).toBeLessThan(measure.weak)
      else expect(measure.strong).toBeGreaterThan(measure.weak)
    }
  })
})
