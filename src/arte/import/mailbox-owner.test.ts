import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { normalizeAddress } from '../store/normalize.ts'
import { inferMailboxOwner, MailboxTally, type MailboxMember, surnameHint } from './mailbox-owner.ts'

/** The rules of {@link inferMailboxOwner} as first written: every count over every member, then the first rule that gives one. */
function referenceOwner(members: ReadonlyArray<MailboxMember>, mailboxName: string | undefined): string | undefined {
  const count = (map: Map<string, number>, key: string): void => {
    if (key !== '') map.set(key, (map.get(key) ?? 0) + 1)
  }
  const mostCommon = (counts: Map<string, number>): string | undefined => {
    let best: string | undefined
    let bestCount = 0
    for (const [address, n] of counts) {
      if (n > bestCount || (n === bestCount && best !== undefined && address < best)) {
        best = address
        bestCount = n
      }
    }
    return best
  }
  const sent = new Map<string, number>()
  const named = new Map<string, number>()
  const recipients = new Map<string, number>()
  const senders = new Map<string, number>()
  const surname = surnameHint(mailboxName)
  for (const { source, path } of members) {
    const { email } = source
    const from = normalizeAddress(email.from)
    if (email.from !== '') {
      count(senders, from)
      if (
        path
          .split(/[\\/]/)
          .slice(0, -1)
          .some((name) => /sent/i.test(name))
      )
        count(sent, from)
    }
    const people = new Set([...email.to, ...email.cc, ...email.bcc].map(normalizeAddress))
    for (const address of people) count(recipients, address)
    if (surname !== undefined) {
      for (const address of new Set([...people, from])) if (address.split('@')[0]?.includes(surname)) count(named, address)
    }
  }
  return mostCommon(sent) ?? mostCommon(named) ?? mostCommon(recipients) ?? mostCommon(senders)
}

const address = fc.constantFrom(
  'kean@enron.com',
  'steven.kean@enron.com',
  'Steven.Kean@Enron.com',
  '"Steven Kean" <steven.kean@enron.com>',
  'jeff.dasovich@enron.com',
  ' <jeff.dasovich@enron.com> ',
  'ann@corp.test',
  'bob@corp.test',
  'keane.x@corp.test',
  'nobody',
  '',
)
const member = fc.record({
  from: address,
  to: fc.array(address, { maxLength: 4 }),
  cc: fc.array(address, { maxLength: 3 }),
  bcc: fc.array(address, { maxLength: 2 }),
  folder: fc.constantFrom('kean-s/inbox/', 'kean-s/sent_items/', 'kean-s/_sent_mail/', 'kean-s/notes/', 'SENT/', '', 'a\\Sent\\', 'kean-s/resent/x/'),
})

describe('inferMailboxOwner', () => {
  it('gives the owner the rules give, on generated mailboxes (with and without sent folders and surname hints)', () => {
    fc.assert(
      fc.property(fc.array(member, { maxLength: 30 }), fc.constantFrom('kean-s', 'KEAN-S', 'dasovich-j', 'x', undefined, 'full_mailboxes'), (rows, name) => {
        const members: MailboxMember[] = rows.map((row, i) => ({
          source: { email: { from: row.from, to: row.to, cc: row.cc, bcc: row.bcc } },
          path: `${row.folder}${i}.`,
        }))
        expect(inferMailboxOwner(members, name)).toBe(referenceOwner(members, name))
      }),
      { numRuns: 2000 },
    )
  })

  it('counts message by message (MailboxTally): after each message, the owner of the messages so far', () => {
    fc.assert(
      fc.property(fc.array(member, { maxLength: 20 }), fc.constantFrom('kean-s', 'dasovich-j', undefined), (rows, name) => {
        const members: MailboxMember[] = rows.map((row, i) => ({
          source: { email: { from: row.from, to: row.to, cc: row.cc, bcc: row.bcc } },
          path: `${row.folder}${i}.`,
        }))
        const tally = new MailboxTally(name)
        expect(tally.owner()).toBeUndefined()
        members.forEach((one, i) => {
          tally.add(one)
          expect(tally.owner()).toBe(referenceOwner(members.slice(0, i + 1), name))
        })
      }),
      { numRuns: 500 },
    )
  })

  it('takes the most common sender of sent folders before any other rule', () => {
    const mail = (from: string, to: string[], path: string): MailboxMember => ({
      source: { email: { from, to, cc: [], bcc: [] } },
      path,
    })
    const members = [
      mail('other@corp.test', ['kean@corp.test'], 'kean-s/inbox/1.'),
      mail('other@corp.test', ['kean@corp.test'], 'kean-s/inbox/2.'),
      mail('Boss <boss@corp.test>', ['x@corp.test'], 'kean-s/sent/1.'),
    ]
    expect(inferMailboxOwner(members, 'kean-s')).toBe('boss@corp.test')
    expect(inferMailboxOwner(members.slice(0, 2), 'kean-s')).toBe('kean@corp.test')
    expect(inferMailboxOwner(members.slice(0, 2), undefined)).toBe('kean@corp.test')
    expect(inferMailboxOwner([mail('solo@corp.test', [], 'x/inbox/1.')], undefined)).toBe('solo@corp.test')
    expect(inferMailboxOwner([mail('', [], 'x/inbox/1.')], undefined)).toBeUndefined()
  })
})
