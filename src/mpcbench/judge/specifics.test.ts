import { describe, expect, it } from 'vitest'
import { describeSpecifics, isSupported, sourceText, specificsIn, unsupportedSpecifics } from './specifics.ts'

describe('specificsIn', () => {
  it('finds ids, dates, times, e-mail addresses, amounts, file names and names', () => {
    const text =
      'Dana Whitmore (dana.whitmore@northwind.example) filed OPS-4471 and invoice #88213 on 2026-05-02 at 14:30 for $7,350 (12% up) on May 4, 2026; see Q3-budget-final.xlsx.'
    const byKind = (kind: string) =>
      specificsIn(text)
        .filter((s) => s.kind === kind)
        .map((s) => s.value)
    expect(byKind('email')).toEqual(['dana.whitmore@northwind.example'])
    expect(byKind('date')).toEqual(['2026-05-02', 'May 4, 2026'])
    expect(byKind('time')).toEqual(['14:30'])
    expect(byKind('id')).toEqual(['OPS-4471', '#88213'])
    expect(byKind('amount')).toEqual(['$7,350', '12%'])
    expect(byKind('file name')).toEqual(['Q3-budget-final.xlsx'])
    expect(byKind('name')).toEqual(['Dana Whitmore'])
  })

  it('finds phone numbers and street addresses, not reading their words as names', () => {
    const found = specificsIn('Send it to Dana Whitmore, 12 Harbor Street, or call +1 (555) 013-2290 or 555-013-2291 at 2026-03-16T09:00:00+01:00.')
    expect(found.filter((s) => s.kind === 'phone').map((s) => s.value)).toEqual(['+1 (555) 013-2290', '555-013-2291'])
    expect(found.filter((s) => s.kind === 'address').map((s) => s.value)).toEqual(['12 Harbor Street'])
    expect(found.filter((s) => s.kind === 'name').map((s) => s.value)).toEqual(['Dana Whitmore'])
  })

  it('does not read greetings, sign-offs, headings or weekdays as names', () => {
    const names = specificsIn('Hi Mateo,\n\nThanks Greta. Best Regards\nNext Week: Monday March\nKind Regards, Oskar Lind').filter((s) => s.kind === 'name')
    expect(names.map((s) => s.value)).toEqual(['Oskar Lind'])
  })

  it('does not read roles, teams or things as names', () => {
    const names = specificsIn('Oskar Lind\nCustomer Success Lead\nPlatform Team\nRelease Sync').filter((s) => s.kind === 'name')
    expect(names.map((s) => s.value)).toEqual(['Oskar Lind'])
  })

  it('reads time-zone offsets as no id', () => {
    expect(specificsIn('at 09:00 UTC-07 on 2026-04-13').filter((s) => s.kind === 'id')).toEqual([])
  })
})

describe('isSupported', () => {
  const sources = sourceText([
    '{"content":"Option A is Mistral Grid ($19000, 2 weeks); uptime 98.7","date":"2026-03-20T09:30:00+01:00","name":"Weekly Report Template"}',
  ])

  it('finds an amount by its number, with or without separators', () => {
    expect(isSupported({ kind: 'amount', value: '$19,000' }, sources)).toBe(true)
    expect(isSupported({ kind: 'amount', value: '98.7%' }, sources)).toBe(true)
    expect(isSupported({ kind: 'amount', value: '$1,900' }, sources)).toBe(false)
    expect(isSupported({ kind: 'amount', value: '98%' }, sources)).toBe(false)
  })

  it('finds a written date by its month and day, a file by its name without extension, a time in a timestamp', () => {
    expect(isSupported({ kind: 'date', value: 'March 20' }, sources)).toBe(true)
    expect(isSupported({ kind: 'date', value: 'March 21' }, sources)).toBe(false)
    expect(isSupported({ kind: 'file name', value: 'Template.docx' }, sources)).toBe(true)
    expect(isSupported({ kind: 'file name', value: 'Budget.xlsx' }, sources)).toBe(false)
    expect(isSupported({ kind: 'time', value: '09:30' }, sources)).toBe(true)
    expect(isSupported({ kind: 'time', value: '10:30' }, sources)).toBe(false)
  })

  it('finds a phone number by its digits', () => {
    const withPhone = sourceText(['{"phone":"+1-555-013-2290"}'])
    expect(isSupported({ kind: 'phone', value: '+1 (555) 013-2290' }, withPhone)).toBe(true)
    expect(isSupported({ kind: 'phone', value: '+1 (555) 013-2291' }, withPhone)).toBe(false)
  })

  it('lists what is in no source, skipping the exempt values', () => {
    const unsupported = unsupportedSpecifics('Mistral Grid costs $19,000; call Dana Whitmore about OPS-4471.', sources, new Set(['ops-4471']))
    expect(describeSpecifics(unsupported)).toBe('name "Dana Whitmore"')
  })
})
