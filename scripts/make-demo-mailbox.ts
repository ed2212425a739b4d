/**
 * Writes the fictional Tamsin Ridge Energy demo data the repo ships:
 * `data/demo-mailbox/maildir/<user>/{inbox,sent_items}/<n>.` (raw RFC 2822, CMU maildir layout)
 * and `data/arte-demo-questions.jsonl` (ART-E rows whose evidence ids point into that maildir).
 *
 * Deterministic (seeded): running it again reproduces the committed files byte for byte.
 *
 *   npx tsx scripts/make-demo-mailbox.ts          # (re)write the files
 *   npx tsx scripts/make-demo-mailbox.ts --check  # exit 1 if the committed files differ
 */
import { mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { dirname, join, relative } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { createRandom, generateFiller } from './demo-mailbox-filler.ts'
import { PEOPLE, type Person, type PersonKey, QUESTIONS, STORY, type StoryMessage } from './demo-mailbox-story.ts'

/** Seed of the filler generator. */
export const DEMO_SEED = 20230109

/** Repo-relative folder of the maildir. */
export const DEMO_MAILDIR = 'data/demo-mailbox/maildir'

/** Repo-relative path of the questions file. */
export const DEMO_QUESTIONS = 'data/arte-demo-questions.jsonl'

const MAIL_HOST = 'mail.tamsinridge.example'
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec']
const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat']
const LONG_DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday']
const LONG_MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December']

/** A message with its place in the maildir. */
export interface DemoEmail extends StoryMessage {
  messageId: string
  /** UTC instant. */
  utc: Date
  /** Repo-relative file path. */
  path: string
}

/** Everything the script writes: file contents by repo-relative path, and the emails. */
export interface DemoMailbox {
  files: Map<string, string>
  emails: DemoEmail[]
}

/** Denver's UTC offset in hours for a local time in 2023 (MDT from March 12, 02:00 to November 5, 02:00). */
function denverOffset(local: string): number {
  return local >= '2023-03-12 02:00' && local < '2023-11-05 02:00' ? -6 : -7
}

function toUtc(local: string): Date {
  const [day = '', hm = ''] = local.split(' ')
  const offset = denverOffset(local)
  return new Date(Date.parse(`${day}T${hm}:00Z`) - offset * 3_600_000)
}

function pad(n: number, width = 2): string {
  return String(n).padStart(width, '0')
}

/** RFC 2822 date in Denver time: `Tue, 14 Feb 2023 10:05:00 -0700 (MST)`. */
function rfc2822(local: string): string {
  const offset = denverOffset(local)
  const d = new Date(Date.parse(`${local.replace(' ', 'T')}:00Z`))
  const zone = offset === -6 ? '-0600 (MDT)' : '-0700 (MST)'
  return `${DAYS[d.getUTCDay()]}, ${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:00 ${zone}`
}

/** Outlook-style `Sent:` line of a quoted message. */
function sentLine(local: string): string {
  const d = new Date(Date.parse(`${local.replace(' ', 'T')}:00Z`))
  const hour = d.getUTCHours()
  return `${LONG_DAYS[d.getUTCDay()]}, ${LONG_MONTHS[d.getUTCMonth()]} ${pad(d.getUTCDate())}, ${d.getUTCFullYear()} ${hour % 12 === 0 ? 12 : hour % 12}:${pad(d.getUTCMinutes())} ${hour < 12 ? 'AM' : 'PM'}`
}

function person(key: PersonKey): Person {
  return PEOPLE[key]
}

/** Folds a list header CMU-style: three addresses per line, continuation lines start with a tab. */
function addressHeader(name: string, keys: ReadonlyArray<PersonKey>): string {
  const addresses = keys.map((key) => person(key).email)
  const lines: string[] = []
  for (let i = 0; i < addresses.length; i += 3) lines.push(addresses.slice(i, i + 3).join(', '))
  return `${name}: ${lines.join(',\n\t')}`
}

/** Where a message is filed: the sender's sent items if the sender has a mailbox, else the first recipient's inbox. */
function homeFolder(message: StoryMessage): { owner: Person; folder: 'inbox' | 'sent_items' } {
  const sender = person(message.from)
  if (sender.mailbox !== undefined) return { owner: sender, folder: 'sent_items' }
  for (const key of [...message.to, ...(message.cc ?? [])]) {
    const recipient = person(key)
    if (recipient.mailbox !== undefined) return { owner: recipient, folder: 'inbox' }
  }
  throw new Error(`message ${message.key} (${message.subject}) has no mailbox to live in`)
}

function replySubject(subject: string): string {
  return /^re:/i.test(subject) ? subject : `Re: ${subject}`
}

function quote(original: DemoEmail): string {
  const to = original.to.map((key) => person(key).name).join('; ')
  const cc = (original.cc ?? []).map((key) => person(key).name).join('; ')
  return [
    '',
    '',
    ' -----Original Message-----',
    `From: \t${person(original.from).name}  `,
    `Sent:\t${sentLine(original.date)}`,
    `To:\t${to}`,
    ...(cc === '' ? [] : [`Cc:\t${cc}`]),
    `Subject:\t${original.subject}`,
    '',
    original.body,
  ].join('\n')
}

function render(email: DemoEmail, byKey: Map<string, DemoEmail>): string {
  const parent = email.replyTo === undefined ? undefined : byKey.get(email.replyTo)
  if (email.replyTo !== undefined && parent === undefined) throw new Error(`${email.key} replies to unknown ${email.replyTo}`)
  const body = parent === undefined ? email.body : `${email.body}${quote(parent)}`
  const { owner, folder } = homeFolder(email)
  const mailbox = owner.mailbox
  if (mailbox === undefined) throw new Error('unreachable')
  const ascii = /^[\x00-\x7f]*$/.test(body)
  const lines = [
    `Message-ID: ${email.messageId}`,
    `Date: ${rfc2822(email.date)}`,
    `From: ${person(email.from).email}`,
    addressHeader('To', email.to),
    ...(email.cc === undefined || email.cc.length === 0 ? [] : [addressHeader('Cc', email.cc)]),
    `Subject: ${parent === undefined ? email.subject : replySubject(email.subject)}`,
    ...(parent === undefined ? [] : [`In-Reply-To: ${parent.messageId}`, `References: ${parent.messageId}`]),
    'Mime-Version: 1.0',
    `Content-Type: text/plain; charset=${ascii ? 'us-ascii' : 'utf-8'}`,
    `Content-Transfer-Encoding: ${ascii ? '7bit' : '8bit'}`,
    `X-From: ${person(email.from).name}`,
    `X-To: ${email.to.map((key) => person(key).name).join(', ')}`,
    `X-cc: ${(email.cc ?? []).map((key) => person(key).name).join(', ')}`,
    'X-bcc: ',
    `X-Folder: \\${owner.name.replace(/ /g, '_')}_Jun2023\\Notes Folders\\${folder === 'inbox' ? 'Inbox' : 'Sent Items'}`,
    `X-Origin: ${mailbox.origin}`,
    `X-FileName: ${mailbox.fileName}`,
    '',
    body,
    '',
  ]
  return lines.join('\n')
}

/** Builds the demo maildir and questions in memory. */
export function buildDemoMailbox(): DemoMailbox {
  const random = createRandom(DEMO_SEED)
  const filler = generateFiller(random).map((message, index) => ({ ...message, key: message.key ?? `filler-${index}` }))
  const messages: StoryMessage[] = [...STORY, ...filler]
  const keys = new Set<string>()
  for (const message of messages) {
    if (keys.has(message.key)) throw new Error(`duplicate message key ${message.key}`)
    keys.add(message.key)
  }

  const ordered = messages
    .map((message) => ({ message, utc: toUtc(message.date) }))
    .sort((a, b) => a.utc.getTime() - b.utc.getTime() || (a.message.key < b.message.key ? -1 : a.message.key > b.message.key ? 1 : 0))

  const counters = new Map<string, number>()
  const emails: DemoEmail[] = ordered.map(({ message, utc }, index) => {
    const { owner, folder } = homeFolder(message)
    const dir = `${DEMO_MAILDIR}/${owner.mailbox?.folder}/${folder}`
    const n = (counters.get(dir) ?? 0) + 1
    counters.set(dir, n)
    const stamp = `${utc.getUTCFullYear()}${pad(utc.getUTCMonth() + 1)}${pad(utc.getUTCDate())}${pad(utc.getUTCHours())}${pad(utc.getUTCMinutes())}`
    return { ...message, utc, messageId: `<${stamp}.${pad(index + 1, 4)}.demo@${MAIL_HOST}>`, path: `${dir}/${n}.` }
  })
  const byKey = new Map(emails.map((email) => [email.key, email]))

  const files = new Map<string, string>()
  for (const email of emails) files.set(email.path, render(email, byKey))

  const rows = QUESTIONS.map((q, index) => {
    const messageIds = q.evidence.map((key) => {
      const email = byKey.get(key)
      if (email === undefined) throw new Error(`question ${index + 1} cites unknown message ${key}`)
      if (email.date.slice(0, 10) >= q.queryDate) throw new Error(`question ${index + 1}: evidence ${key} is not before ${q.queryDate}`)
      return email.messageId
    })
    for (const key of q.laterDistractors ?? []) {
      const email = byKey.get(key)
      if (email === undefined || email.date.slice(0, 10) <= q.queryDate)
        throw new Error(`question ${index + 1}: distractor ${key} must come after ${q.queryDate}`)
    }
    return {
      id: index + 1,
      question: q.question,
      answer: q.answer,
      message_ids: messageIds,
      how_realistic: q.howRealistic,
      inbox_address: person(q.inbox).email,
      query_date: q.queryDate,
      split: q.split,
    }
  })
  files.set(DEMO_QUESTIONS, `${rows.map((row) => JSON.stringify(row)).join('\n')}\n`)
  return { files, emails }
}

function listFiles(dir: string): string[] {
  let entries: string[]
  try {
    entries = readdirSync(dir, { recursive: true, encoding: 'utf8' })
  } catch {
    return []
  }
  return entries.filter((entry) => !readdirSafe(join(dir, entry))).map((entry) => join(dir, entry))
}

function readdirSafe(path: string): boolean {
  try {
    readdirSync(path)
    return true
  } catch {
    return false
  }
}

/** Paths (repo-relative) whose committed content differs from what the script builds, plus stray files. */
export function diffDemoMailbox(root: string, built: DemoMailbox = buildDemoMailbox()): string[] {
  const differences: string[] = []
  for (const [path, content] of built.files) {
    let onDisk: string | undefined
    try {
      onDisk = readFileSync(join(root, path), 'utf8')
    } catch {
      onDisk = undefined
    }
    if (onDisk !== content) differences.push(path)
  }
  for (const file of listFiles(join(root, DEMO_MAILDIR))) {
    const path = relative(root, file).split('\\').join('/')
    if (!built.files.has(path)) differences.push(path)
  }
  return differences
}

function main(): void {
  const root = join(dirname(fileURLToPath(import.meta.url)), '..')
  const built = buildDemoMailbox()
  if (process.argv.includes('--check')) {
    const differences = diffDemoMailbox(root, built)
    if (differences.length > 0) {
      console.error(`${differences.length} demo file(s) differ from the generator, e.g.:\n  ${differences.slice(0, 10).join('\n  ')}`)
      console.error('Run `npx tsx scripts/make-demo-mailbox.ts` to regenerate them.')
      process.exitCode = 1
      return
    }
    console.log(`demo data up to date (${built.files.size} files)`)
    return
  }
  rmSync(join(root, DEMO_MAILDIR), { recursive: true, force: true })
  for (const [path, content] of built.files) {
    mkdirSync(dirname(join(root, path)), { recursive: true })
    writeFileSync(join(root, path), content)
  }
  const folders = new Map<string, number>()
  for (const email of built.emails) {
    const folder = email.path.split('/').slice(3, 5).join('/')
    folders.set(folder, (folders.get(folder) ?? 0) + 1)
  }
  console.log(`wrote ${built.emails.length} emails and ${DEMO_QUESTIONS}`)
  for (const [folder, count] of [...folders].sort()) console.log(`  ${folder}: ${count}`)
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) main()
