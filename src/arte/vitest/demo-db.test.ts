import { cpSync, existsSync, utimesSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { FIXTURE_DATASET, FIXTURE_MAILDIR, scratchDir } from '../../../fixtures/arte-e2e/harness.ts'
import { EmailStore } from '../store/email-store.ts'
import { ConfigError } from '../../core/errors.ts'
import { prepareArteDb, stampFile } from './demo-db.ts'

describe('prepareArteDb', () => {
  const scratch = scratchDir('arte-demo-db')
  afterAll(() => scratch.remove())

  it('builds from the maildir when missing, reuses it while fresh, rebuilds it when stale', async () => {
    const maildir = join(scratch.dir, 'maildir')
    cpSync(FIXTURE_MAILDIR, maildir, { recursive: true })
    const db = join(scratch.dir, 'built.db')
    const options = { db, maildir, dataset: FIXTURE_DATASET }

    const first = await prepareArteDb(options)
    expect(first).toMatchObject({ kind: 'built', path: db, tasks: 5, report: { imported: 4, failed: 0 } })
    expect(existsSync(stampFile(db))).toBe(true)
    {
      using store = EmailStore.open(db, { readonly: true })
      expect(store.count()).toBe(4)
      expect(store.search({ keywords: ['catering'] }, { inbox: 'ann.lee@fernwood.example', queryDate: '2003-03-10' })).toHaveLength(1)
    }
    expect(await prepareArteDb(options)).toEqual({ kind: 'fresh', path: db })

    const extra = join(maildir, 'lee-a', 'inbox', '4.')
    writeFileSync(
      extra,
      'Message-ID: <fx-1005@fernwood.example>\nDate: Fri, 7 Mar 2003 10:00:00 -0800\nFrom: bo.park@fernwood.example\nTo: ann.lee@fernwood.example\nSubject: Parking\n\nThe parking passes arrive on Monday.\n',
    )
    utimesSync(extra, new Date(), new Date())
    const rebuilt = await prepareArteDb(options)
    expect(rebuilt).toMatchObject({ kind: 'built', report: { imported: 5 } })
  })

  it('uses a given ARTE_DB as is, and says how to build a missing one', async () => {
    const db = join(scratch.dir, 'built.db')
    expect(await prepareArteDb({ db, maildir: undefined, dataset: FIXTURE_DATASET })).toEqual({ kind: 'given', path: db })
    const missing = join(scratch.dir, 'nope.db')
    await expect(prepareArteDb({ db: missing, maildir: undefined, dataset: FIXTURE_DATASET })).rejects.toThrow(ConfigError)
    await expect(prepareArteDb({ db: missing, maildir: undefined, dataset: FIXTURE_DATASET })).rejects.toThrow(/nope\.db does not exist[\s\S]*import-enron/)
  })

  it('turns a file system failure while building into an error naming the database and what to check', async () => {
    const notAFolder = join(scratch.dir, 'plain-file')
    writeFileSync(notAFolder, 'x')
    const db = join(notAFolder, 'demo.db')
    const error = await prepareArteDb({ db, maildir: FIXTURE_MAILDIR, dataset: FIXTURE_DATASET }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ConfigError)
    expect((error as ConfigError).message).toContain(
      `Cannot build the ART-E email database ${db} from ${FIXTURE_MAILDIR}: EEXIST: file already exists, mkdir '${notAFolder}'`,
    )
    expect((error as ConfigError).hint).toContain(`Check that ${notAFolder} can be written`)
  })

  it('never overwrites a database it did not build', async () => {
    const foreign = join(scratch.dir, 'foreign.db')
    EmailStore.open(foreign).close()
    await expect(prepareArteDb({ db: foreign, maildir: FIXTURE_MAILDIR, dataset: FIXTURE_DATASET })).rejects.toThrow(/Refusing to rebuild/)
  })
})
