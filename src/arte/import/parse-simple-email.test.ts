import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { describeWithSharedData, sharedDataPath } from '../../testing/shared-data.ts'
import { parseRawEmail } from './parse-raw-email.ts'
import { parseSimpleEmail } from './parse-simple-email.ts'

/** Headers (`Key: value` lines, LF unless `eol` says otherwise), an empty line, the body; as bytes (latin1 for `\xNN`). */
function mail(headers: string[], body: string, eol = '\n'): Buffer {
  return Buffer.from(`${headers.join(eol)}${eol}${eol}${body}`, 'latin1')
}

const ID = 'Message-ID: <1.fixture@test.example>'
const FROM = 'From: alice@test.example'

/** Expects the fast path to take `raw` and give exactly what postal-mime gives; returns the email. */
async function fastAndEqual(raw: Uint8Array | string) {
  const fast = parseSimpleEmail(raw, 'fixture/1.')
  expect(fast, 'fast path declined').toBeDefined()
  expect(fast).toEqual(await parseRawEmail(raw, 'fixture/1.'))
  return fast?.kind === 'read' ? fast.value : undefined
}

describe('parseSimpleEmail fixtures (each gives what postal-mime gives)', () => {
  it('reads a plain us-ascii message: addresses, subject, date, body with a newline added at the end', async () => {
    const email = await fastAndEqual(
      mail(
        [
          ID,
          'Date: Mon, 14 May 2001 16:39:00 -0700 (PDT)',
          FROM,
          'To: bob@test.example, carol@test.example',
          'Subject: Hello',
          'Mime-Version: 1.0',
          'Content-Type: text/plain; charset=us-ascii',
          'Content-Transfer-Encoding: 7bit',
          'X-Origin: Allen-P',
        ],
        'Line one.\nLine two.',
      ),
    )
    expect(email?.email).toMatchObject({
      messageId: '<1.fixture@test.example>',
      from: 'alice@test.example',
      to: ['bob@test.example', 'carol@test.example'],
      subject: 'Hello',
      date: '2001-05-14T23:39:00.000Z',
      body: 'Line one.\nLine two.\n',
    })
    expect(email?.origin).toBe('Allen-P')
  })

  it('unfolds folded headers (CRLF) and collapses their whitespace', async () => {
    const email = await fastAndEqual(
      mail(
        [
          ID,
          FROM,
          'To: bob@test.example,\r\n\tcarol@test.example,\r\n  dave@test.example',
          'Subject: A subject\r\n  folded   twice\r\n\tover lines',
          'Content-Type: text/plain;\r\n\tcharset="us-ascii"',
        ],
        'Body\r\nwith CRLF\r\r\n',
        '\r\n',
      ),
    )
    expect(email?.email.subject).toBe('A subject folded twice over lines')
    expect(email?.email.to).toEqual(['bob@test.example', 'carol@test.example', 'dave@test.example'])
    expect(email?.email.body).toBe('Body\nwith CRLF\n')
  })

  it('decodes RFC 2047 encoded words in the subject and names, through postal-mime', async () => {
    const email = await fastAndEqual(
      mail(
        [
          ID,
          'From: =?iso-8859-1?Q?J=F6rg_M=FCller?= <joerg@test.example>',
          'To: "Kean, Steven" <steven.kean@test.example>, =?utf-8?B?w4lsb2RpZQ==?= <elodie@test.example>',
          'Subject: =?iso-8859-1?Q?Caf=E9?= =?iso-8859-1?Q?_au_lait?= and more',
        ],
        'x',
      ),
    )
    expect(email?.email.subject).toBe('Café au lait and more')
    expect(email?.email.from).toBe('joerg@test.example')
    expect(email?.email.to).toEqual(['steven.kean@test.example', 'elodie@test.example'])
  })

  it('decodes encoded words whose charset name postal-mime does not take (ANSI_X3.4-1968, as in Enron), in both paths', async () => {
    const subject = 'Subject: =?ANSI_X3.4-1968?Q?Mind=27s_Eye?= =?ANSI_X3.4-1968?Q?_Madness?= in =?x-unknown.1?Q?place?='
    const email = await fastAndEqual(mail([ID, FROM, subject], 'x'))
    expect(email?.email.subject).toBe("Mind's Eye Madness in =?x-unknown.1?Q?place?=")
    const multipart = await parseRawEmail(mail([ID, FROM, subject, 'Content-Type: multipart/mixed; boundary="b"'], '--b\n\nx\n--b--\n'), 'f')
    expect(multipart.kind === 'read' ? multipart.value.email.subject : multipart.reason).toBe(email?.email.subject)
  })

  it('decodes quoted-printable: soft breaks, =XX bytes in the charset, a soft break that completes an escape', async () => {
    const email = await fastAndEqual(
      mail(
        [ID, FROM, 'Content-Type: text/plain; charset=iso-8859-1', 'Content-Transfer-Encoding: quoted-printable'],
        'A long line that is=\n continued, caf=E9 =3D equal, =9 stays, =4=\n1 joined,=\r\nend=\n',
      ),
    )
    expect(email?.email.body).toBe('A long line that is continued, café = equal, =9 stays, A joined,end')
  })

  it('decodes latin1 and 0x80-0x9f bytes of an 8bit body with the decoder postal-mime uses (windows-1252 for us-ascii and iso-8859-1)', async () => {
    const email = await fastAndEqual(
      mail([ID, FROM, 'Content-Type: text/plain; charset=iso-8859-1', 'Content-Transfer-Encoding: 8bit'], 'caf\xe9 \x93quoted\x94 \x80 5'),
    )
    expect(email?.email.body).toMatch(/^café .*quoted.* 5\n$/)
    await fastAndEqual(mail([ID, FROM, 'Content-Type: text/plain; charset=us-ascii'], 'stray \xe9 byte'))
  })

  it('decodes UTF-8 when there is no Content-Type, and in header lines', async () => {
    const raw = Buffer.concat([
      Buffer.from(`${ID}\nSubject: Ünïcödé subject\n${FROM}\n\n`, 'utf8'),
      Buffer.from('\ufeffbom then é and a bad byte \xff\n', 'utf8'),
      Buffer.from([0xc3]),
    ])
    const email = await fastAndEqual(raw)
    expect(email?.email.subject).toBe('Ünïcödé subject')
  })

  it('takes the last Subject, Message-ID and From, the first Date and X-Origin, every To (last first)', async () => {
    const email = await fastAndEqual(
      mail(
        [
          'Message-ID: <first@test>',
          'Message-ID: <last@test>',
          'Date: Tue, 15 May 2001 10:00:00 -0700',
          'Date: Wed, 16 May 2001 10:00:00 -0700',
          'From: first@test.example',
          'From: last@test.example',
          'To: a@test.example',
          'To: b@test.example',
          'Subject: first',
          'Subject: last',
          'X-Origin: ONE',
          'X-Origin: TWO',
        ],
        'x',
      ),
    )
    expect(email?.email).toMatchObject({
      messageId: '<last@test>',
      from: 'last@test.example',
      subject: 'last',
      to: ['b@test.example', 'a@test.example'],
      date: '2001-05-15T17:00:00.000Z',
    })
    expect(email?.origin).toBe('ONE')
  })

  it('fails a message without a Message-ID, as postal-mime does', async () => {
    expect(parseSimpleEmail(mail([FROM, 'Subject: no id'], 'x'), 'f')).toEqual({ kind: 'failed', reason: 'no Message-ID header' })
    await fastAndEqual(mail(['Message-ID:   ', FROM], 'x'))
  })

  it('keeps a bad or missing date as postal-mime does (null, with a note)', async () => {
    const bad = await fastAndEqual(mail([ID, FROM, 'Date: sometime next week'], 'x'))
    expect(bad?.email.date).toBeNull()
    expect(bad?.dateNote).toMatch(/unparseable date/)
    expect((await fastAndEqual(mail([ID, FROM], 'x')))?.dateNote).toBe('no date')
    expect((await fastAndEqual(mail([ID, FROM, 'Date: Mon, 31 Dec 1979 16:00:00 -0800 (PST)'], 'x')))?.dateNote).toMatch(/implausible/)
  })

  it('handles Enron address oddities (names with dots, quotes, apostrophes) through postal-mime', async () => {
    const email = await fastAndEqual(
      mail([ID, "From: o'neil@test.example", "To: e-mail <.brian@test.example>, 'quoted@test.example', dan.o'brien@test.example; ; x@y.example"], 'x'),
    )
    expect(email?.email.to.length).toBeGreaterThan(2)
  })

  it('reads header-only messages, empty bodies and bodies without a final newline', async () => {
    expect((await fastAndEqual(Buffer.from(`${ID}\n${FROM}\n`)))?.email.body).toBe('')
    expect((await fastAndEqual(Buffer.from(`${ID}\n${FROM}`)))?.email.body).toBe('')
    expect((await fastAndEqual(Buffer.from(`${ID}\n${FROM}\n\n`)))?.email.body).toBe('')
    expect((await fastAndEqual(Buffer.from(`${ID}\n${FROM}\n\n\n\n`)))?.email.body).toBe('\n\n')
    expect((await fastAndEqual(Buffer.from(`${ID}\n${FROM}\r\n\r\nlast line\r`)))?.email.body).toBe('last line\n')
    await fastAndEqual(Buffer.from(`${ID}\n${FROM}\n\nmid\rline CR\n`))
    await fastAndEqual(`${ID}\n${FROM}\n\nfrom a string, é\n`)
  })

  it('leaves everything else to postal-mime', () => {
    const declined = [
      mail([ID, FROM, 'Content-Type: multipart/mixed; boundary="b"'], '--b\n\nx\n--b--\n'),
      mail([ID, FROM, 'Content-Type: text/html'], '<p>x</p>'),
      mail([ID, FROM, 'Content-Transfer-Encoding: base64'], 'eA=='),
      mail([ID, FROM, 'Content-Type: text/plain; format=flowed'], 'x '),
      mail([ID, FROM, 'Content-Type: text/plain; charset=koi8-r'], 'x'),
      mail([ID, FROM, 'Content-Type: text/plain (comment)'], 'x'),
      mail([ID, FROM, 'Content-Disposition: attachment'], 'x'),
      mail([ID, FROM, 'Content-Type: text/plain', 'Content-Type: text/html'], 'x'),
      mail([ID, FROM, 'Content-Transfer-Encoding: 7bit', 'Content-Transfer-Encoding: base64'], 'x'),
      mail([ID, FROM, 'Content-Transfer-Encoding: quoted-printable'], 'caf\xe9'),
      mail([ID, FROM, 'Content-Transfer-Encoding: quoted-printable'], '=zz starts with a bare ='),
      Buffer.alloc(0),
    ]
    for (const raw of declined) expect(parseSimpleEmail(raw, 'f'), raw.toString('latin1')).toBeUndefined()
  })
})

function listFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? listFiles(join(dir, entry.name)) : entry.name.startsWith('.') ? [] : [join(dir, entry.name)],
  )
}

describeWithSharedData('parseSimpleEmail on the real Enron maildir', () => {
  it('gives exactly the postal-mime result for every message it takes, and takes almost all of them', async () => {
    const files = listFiles(sharedDataPath('enron_agent_course', 'mail')).sort()
    let taken = 0
    for (const file of files) {
      const raw = readFileSync(file)
      const fast = parseSimpleEmail(raw, file)
      if (fast === undefined) continue
      taken++
      expect(fast, file).toEqual(await parseRawEmail(raw, file))
    }
    // 2,892 of 2,892 at the time of writing: every message of the sample is single-part text/plain.
    expect(taken / files.length).toBeGreaterThan(0.95)
  })
})
