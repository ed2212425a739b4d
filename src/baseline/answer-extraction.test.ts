import { describe, expect, it } from 'vitest'
import { answerSpecOf, answerTypeOf, extractAnswer, senderName } from './answer-extraction.ts'
import { contentStems } from './text.ts'

function extract(question: string, sentence: string): string | undefined {
  return extractAnswer(answerSpecOf(question), sentence, question, contentStems(question))
}

describe('answerTypeOf', () => {
  it.each([
    ['How many turbines were ordered?', 'number'],
    ['How much did the audit cost?', 'number'],
    ['When is the board meeting?', 'date'],
    ['What date was the contract signed?', 'date'],
    ['What time does the call start?', 'time'],
    ['Who is the new head of trading?', 'person'],
    ['Who sent the revised budget?', 'sender'],
    ['Where will the offsite be held?', 'place'],
    ['What is the name of the pipeline project?', 'sentence'],
    ['What is the PO number for the pump order?', 'code'],
    ['What is the address of the Austin warehouse?', 'address'],
    ['Which law firm drafted the lease?', 'entity'],
    ['What is the deadline for the bids?', 'date'],
    ['What was the approved travel budget?', 'number'],
  ] as const)('%s → %s', (question, type) => {
    expect(answerTypeOf(question)).toBe(type)
  })
})

describe('extractAnswer', () => {
  it('takes the amount with its currency and magnitude as written', () => {
    expect(extract('How much will the upgrade cost?', 'The upgrade will cost $2.5 million and take 3 weeks.')).toBe('$2.5 million')
  })

  it('takes the number nearest the question words, skipping bare years', () => {
    expect(extract('How many turbines were ordered in 2001?', 'In 2001 we placed an order: 40 turbines, shipped in 3 batches.')).toBe('40')
  })

  it('takes a date phrase', () => {
    expect(extract('When is the board meeting?', 'The board meeting is now on Thursday, March 15, 2001 in Houston.')).toBe('Thursday, March 15, 2001')
  })

  it('takes a time with its zone', () => {
    expect(extract('What time is the conference call?', 'The conference call starts at 2:30 pm CST tomorrow.')).toBe('2:30 pm CST')
  })

  it('takes a person name that the question does not already contain', () => {
    expect(extract('Who will replace John Baker on the desk?', 'John Baker said Lisa Moreno will take over the desk next month.')).toBe('Lisa Moreno')
  })

  it('takes the place after at/in', () => {
    expect(extract('Where is the offsite?', 'The offsite will be held at the Lakeway Resort this year.')).toBe('the Lakeway Resort')
  })

  it('prefers the number followed by the noun of a how-many question, and skips numbers inside codes and dates', () => {
    expect(extract('How many pumps are in the order?', 'Order PX-220 of March 3 covers 9 pumps and 40 valves.')).toBe('9')
  })

  it('keeps the unit when the question does not name it', () => {
    expect(extract('How long is the warranty?', 'The warranty runs 5 years from delivery.')).toBe('5 years')
    expect(extract('What capacity was approved?', 'The board approved 120 MW for phase two.')).toBe('120 MW')
  })

  it('takes codes, phone numbers and street addresses', () => {
    expect(extract('What is the PO number for the pump order?', 'Please quote PO KX-2024-118 on the invoice.')).toBe('KX-2024-118')
    expect(extract('What is the phone number for the help desk?', 'Call the help desk at 1-800-555-0199 any time.')).toBe('1-800-555-0199')
    expect(extract('What is the address of the warehouse?', 'The warehouse is at 2200 Mill Creek Road, Suite 12, Austin.')).toBe(
      '2200 Mill Creek Road, Suite 12',
    )
  })

  it('takes the capitalised name that holds the noun of a which-question', () => {
    expect(extract('Which bank holds the escrow?', 'After Friday, Juniper Ridge Bank holds the escrow for Coastal Pipe.')).toBe('Juniper Ridge Bank')
    expect(extract('Which dock was closed?', 'Trucks used the north lot while Dock 4 was closed.')).toBe('Dock 4')
  })

  it('prefers a precise date over a weekday and keeps date ranges whole', () => {
    expect(extract('What dates is the retreat?', 'On Friday we confirmed the retreat for May 3-4 at the lake.')).toBe('May 3-4')
  })

  it('gives undefined when the sentence holds nothing of the asked type', () => {
    expect(extract('When is the board meeting?', 'Nobody knows yet.')).toBeUndefined()
  })
})

describe('senderName', () => {
  it('uses the display name, else the address local part', () => {
    expect(senderName('"Jane Doe" <jane@acme.test>')).toBe('Jane Doe')
    expect(senderName('jane.doe@acme.test')).toBe('Jane Doe')
  })
})
