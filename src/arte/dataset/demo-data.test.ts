import { readFileSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import PostalMime, { type Address } from 'postal-mime'
import { beforeAll, describe, expect, it } from 'vitest'
import { diffDemoMailbox } from '../../../scripts/make-demo-mailbox.ts'
import { jaccardWords } from '../scoring/jaccard.ts'
import { loadArteDataset } from './load-dataset.ts'
import type { ArteRow } from './row.ts'

const root = fileURLToPath(new URL('../../../', import.meta.url))
const maildir = join(root, 'data', 'demo-mailbox', 'maildir')
const questionsFile = join(root, 'data', 'arte-demo-questions.jsonl')

interface ParsedMail {
  user: string
  folder: string
  file: string
  raw: string
  messageId: string
  date: Date
  from: string
  to: string[]
  cc: string[]
  subject: string
  text: string
}

function addresses(list: Address[] | undefined): string[] {
  return (list ?? []).flatMap((a) => ('address' in a && a.address !== undefined ? [a.address.toLowerCase()] : []))
}

const mails: ParsedMail[] = []
let rows: ArteRow[] = []
/** Owner address of each user folder: the one sender of its sent_items, found from the mail itself. */
const owners = new Map<string, string>()

beforeAll(async () => {
  for (const user of readdirSync(maildir).sort()) {
    for (const folder of readdirSync(join(maildir, user)).sort()) {
      for (const file of readdirSync(join(maildir, user, folder))) {
        const raw = readFileSync(join(maildir, user, folder, file), 'utf8')
        const email = await PostalMime.parse(raw)
        mails.push({
          user,
          folder,
          file,
          raw,
          messageId: email.messageId ?? '',
          date: new Date(email.date ?? 'invalid'),
          from: email.from?.address?.toLowerCase() ?? '',
          to: addresses(email.to),
          cc: addresses(email.cc),
          subject: email.subject ?? '',
          text: email.text ?? '',
        })
      }
    }
  }
  for (const user of new Set(mails.map((m) => m.user))) {
    const senders = new Set(mails.filter((m) => m.user === user && m.folder === 'sent_items').map((m) => m.from))
    expect(senders.size, `${user}/sent_items has one sender`).toBe(1)
    owners.set(user, [...senders][0] ?? '')
  }
  rows = await loadArteDataset(questionsFile)
})

describe('demo mailbox (data/demo-mailbox/maildir)', () => {
  it('is what scripts/make-demo-mailbox.ts generates, byte for byte', () => {
    expect(diffDemoMailbox(root)).toEqual([])
  })

  it('holds a few hundred messages in 4-6 user mailboxes, each with inbox and sent_items', () => {
    expect(mails.length).toBeGreaterThanOrEqual(250)
    expect(mails.length).toBeLessThanOrEqual(400)
    const users = [...new Set(mails.map((m) => m.user))]
    expect(users.length).toBeGreaterThanOrEqual(4)
    expect(users.length).toBeLessThanOrEqual(6)
    for (const user of users) {
      expect(readdirSync(join(maildir, user)).sort(), user).toEqual(['inbox', 'sent_items'])
      expect(mails.filter((m) => m.user === user && m.folder === 'sent_items').length, user).toBeGreaterThanOrEqual(5)
    }
  })

  it('parses as RFC 2822: unique Message-IDs, valid dates, a sender, recipients and a body', () => {
    const ids = new Set<string>()
    for (const mail of mails) {
      const where = `${mail.user}/${mail.folder}/${mail.file}`
      expect(mail.file, where).toMatch(/^\d+\.$/)
      expect(mail.messageId, where).toMatch(/^<[^<>\s]+@[^<>\s]+>$/)
      expect(ids.has(mail.messageId), `${where} repeats ${mail.messageId}`).toBe(false)
      ids.add(mail.messageId)
      expect(Number.isNaN(mail.date.getTime()), where).toBe(false)
      expect(mail.raw, where).toMatch(/^Date: (Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d{1,2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} [+-]\d{4}/m)
      expect(mail.from, where).toContain('@')
      expect(mail.to.length, where).toBeGreaterThan(0)
      expect(mail.subject, where).not.toBe('')
      expect(mail.text.trim(), where).not.toBe('')
    }
  })

  it('names its owner: From in sent_items, To or Cc in inbox (so the importer can infer the inbox)', () => {
    for (const mail of mails) {
      const owner = owners.get(mail.user) ?? ''
      expect(owner.split('@')[0]?.replace('.', ''), mail.user).toContain(mail.user.split('-')[0])
      if (mail.folder === 'inbox') expect([...mail.to, ...mail.cc], `${mail.user}/inbox/${mail.file}`).toContain(owner)
    }
  })

  it('has reply threads whose In-Reply-To points at a message in the maildir', () => {
    const ids = new Set(mails.map((m) => m.messageId))
    const replies = mails.filter((m) => /^Re: /.test(m.subject))
    expect(replies.length).toBeGreaterThanOrEqual(20)
    for (const reply of replies) {
      const inReplyTo = reply.raw.match(/^In-Reply-To: (<[^>]+>)$/m)?.[1]
      expect(inReplyTo !== undefined && ids.has(inReplyTo), reply.file).toBe(true)
    }
  })

  it('is fictional: no Enron names or domains', () => {
    for (const mail of mails) expect(mail.raw.toLowerCase(), mail.file).not.toMatch(/enron|kaminski|javamail\.evans/)
  })
})

describe('demo questions (data/arte-demo-questions.jsonl)', () => {
  const STOPWORDS = new Set(['the', 'a', 'an', 'of', 'per', 'and', 'on', 'at', 'in', 'to'])

  function mailById(id: string): ParsedMail {
    const mail = mails.find((m) => m.messageId === id)
    if (mail === undefined) throw new Error(`evidence ${id} is not in the maildir`)
    return mail
  }

  it('has 30+ valid ART-E rows with unique ids, mostly test, some train', () => {
    expect(rows.length).toBeGreaterThanOrEqual(30)
    expect(new Set(rows.map((r) => r.id)).size).toBe(rows.length)
    const train = rows.filter((r) => r.split === 'train').length
    expect(train).toBeGreaterThan(0)
    expect(train).toBeLessThan(rows.length / 2)
    expect(new Set(rows.map((r) => r.inbox_address)).size).toBeGreaterThanOrEqual(4)
  })

  it('cites evidence that exists, in or to/from the asked inbox, dated on or before query_date', () => {
    for (const row of rows) {
      expect(row.message_ids.length, `question ${row.id}`).toBeGreaterThan(0)
      for (const id of row.message_ids) {
        const mail = mailById(id)
        const where = `question ${row.id}, evidence ${id}`
        const inOwnMailbox = owners.get(mail.user) === row.inbox_address
        const addressed = [mail.from, ...mail.to, ...mail.cc].includes(row.inbox_address)
        expect(inOwnMailbox || addressed, where).toBe(true)
        expect(mail.date.toISOString().slice(0, 10) <= row.query_date, where).toBe(true)
      }
    }
  })

  it("has each answer's key words in the evidence text", () => {
    for (const row of rows) {
      const evidenceWords = new Set(row.message_ids.flatMap((id) => jaccardWords(`${mailById(id).subject}\n${mailById(id).text}`)))
      const keyWords = jaccardWords(row.answer).filter((word) => !STOPWORDS.has(word))
      expect(keyWords.length, `question ${row.id}`).toBeGreaterThan(0)
      for (const word of keyWords) expect(evidenceWords.has(word), `question ${row.id}: "${word}" of "${row.answer}"`).toBe(true)
    }
  })

  it('has short factual answers, multi-message evidence for some, and questions about the current value of a fact that changed', () => {
    for (const row of rows) expect(row.answer.split(/\s+/).length, `question ${row.id}`).toBeLessThanOrEqual(6)
    expect(rows.filter((r) => r.message_ids.length >= 2).length).toBeGreaterThanOrEqual(3)
    const changed = rows.filter((r) => /current/.test(r.question))
    expect(changed.length).toBeGreaterThanOrEqual(3)
  })
})
