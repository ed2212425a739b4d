import { execFile } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { afterAll, describe, expect, it } from 'vitest'
import { EmailStore } from '../store/email-store.ts'
import { describeWithSharedData, sharedDataPath } from '../../testing/shared-data.ts'
import { command } from './import-enron.ts'

const bin = fileURLToPath(new URL('../../../bin/agent-bench.js', import.meta.url))
const dir = mkdtempSync(join(tmpdir(), 'import-enron-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

async function cli(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [bin, 'import-enron', ...args], { encoding: 'utf8' })
    return { code: 0, stdout, stderr }
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string }
    return { code: failed.code ?? -1, stdout: failed.stdout ?? '', stderr: failed.stderr ?? '' }
  }
}

describe('agent-bench import-enron flags', () => {
  it('requires --db and exactly one source, saying how to fix it', async () => {
    const x = join(dir, 'x.db')
    await expect(command.run(['--maildir', dir])).rejects.toThrow('agent-bench import-enron: missing --db.')
    await expect(command.run(['--db', x, '--maildir', dir, '--jsonl', 'x.jsonl'])).rejects.toThrow('Give one source, got --maildir and --jsonl')
    await expect(command.run(['--db', x])).rejects.toThrow(/No source given.\n {2}Fix: Pass exactly one of --maildir DIR, --csv-path FILE or --jsonl FILE/)
    await expect(command.run(['--db', x, '--maildir', dir, '--limit=-3'])).rejects.toThrow('Expected `--limit` to be a whole number from 0')
    await expect(command.run(['--db', x, '--maildir', dir, '--batch-size', '0'])).rejects.toThrow('Expected `--batch-size` to be a whole number from 1')
    await expect(command.run(['--db', x, '--maildir', dir, '--inbox', 'nobody'])).rejects.toThrow('is not an email address')
    await expect(command.run(['--db', x, '--maildir', dir, '--frobnicate'])).rejects.toThrow('agent-bench import-enron: Unknown option --frobnicate.')
  })

  it('exits 1 with the message on stderr when run as a process', async () => {
    const run = await cli('--db', join(dir, 'y.db'))
    expect(run.code).toBe(1)
    expect(run.stderr).toContain('agent-bench import-enron: No source given.')
  })
})

describeWithSharedData('agent-bench import-enron on real mail', () => {
  const db = join(dir, 'enron.db')

  it('imports the maildir sample and prints exactly one JSON line', async () => {
    const run = await cli('--db', db, '--maildir', sharedDataPath('enron_agent_course', 'mail'), '--json')
    expect(run.code).toBe(0)
    expect(run.stdout.trimEnd().split('\n')).toEqual(['{"imported":2875,"duplicates":17,"failed":0}'])
  }, 120_000)

  it('is idempotent, honours --inbox and --limit, and prints a readable report without --json', async () => {
    const again = await cli('--db', db, '--maildir', sharedDataPath('enron_agent_course', 'mail', 'full_mailboxes', 'slinger-r'), '--limit', '40', '--batch-size', '7')
    expect(again.code).toBe(0)
    expect(again.stdout).toMatch(/Imported: +0\nDuplicates: +40\nFailed: +0/)
    expect(again.stdout).toContain('(2,875 emails)')
    const csv = await cli('--db', db, '--csv-path', sharedDataPath('enron_kaggle_format_samples', '5_randon.csv'), '--inbox', 'Reader@Example.com', '--json')
    expect(JSON.parse(csv.stdout)).toEqual({ imported: 5, duplicates: 0, failed: 0 })
    using store = EmailStore.open(db, { readonly: true })
    expect(store.count()).toBe(2880)
    expect(store.db.prepare("SELECT count(*) FROM emails WHERE inbox = 'reader@example.com'").pluck().get()).toBe(5)
  }, 60_000)
})
