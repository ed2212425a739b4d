import { execFile } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { afterAll, describe, expect, it, vi } from 'vitest'
import { EmailStore } from '../store/email-store.ts'
import { describeWithSharedData, sharedDataPath } from '../../testing/shared-data.ts'
import { runCli } from '../../cli/run-cli.ts'
import { arteCommands } from './commands.ts'
import { command } from './import-enron.ts'
import { scaledMs } from '../../testing/time-scale.ts'

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

/** Runs `agent-bench import-enron` from the sources in this process (bin/agent-bench.js runs the build in dist/). */
async function cliFromSources(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const out: string[] = []
  const err: string[] = []
  const log = vi.spyOn(console, 'log').mockImplementation((...line: unknown[]) => void out.push(line.join(' ')))
  const error = vi.spyOn(console, 'error').mockImplementation((...line: unknown[]) => void err.push(line.join(' ')))
  try {
    const code = await runCli(arteCommands, ['import-enron', ...args])
    return { code, stdout: out.map((line) => `${line}\n`).join(''), stderr: err.map((line) => `${line}\n`).join('') }
  } finally {
    log.mockRestore()
    error.mockRestore()
  }
}

/** The packages `file` loads statically, through its relative imports (type-only imports aside). */
function staticPackages(file: string, seen = new Set<string>(), packages = new Set<string>()): Set<string> {
  if (seen.has(file)) return packages
  seen.add(file)
  for (const match of readFileSync(file, 'utf8').matchAll(/^(?:import|export)\s+(?!type\b)[^'"]*?from\s+'([^']+)'|^import\s+'([^']+)'/gm)) {
    const specifier = match[1] ?? match[2] ?? ''
    if (specifier.startsWith('.')) staticPackages(resolve(dirname(file), specifier), seen, packages)
    else if (!specifier.startsWith('node:')) packages.add(specifier.split('/')[0] as string)
  }
  return packages
}

describe('agent-bench import-enron start-up', () => {
  it('loads no package but better-sqlite3 for a JSONL import (zod alone costs 60 ms of CPU to load)', () => {
    const seen = new Set<string>()
    const packages = new Set<string>()
    for (const file of ['./import-enron.ts', '../import/import-jsonl.ts']) staticPackages(fileURLToPath(new URL(file, import.meta.url)), seen, packages)
    expect([...packages]).toEqual(['better-sqlite3'])
  })
})

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

  it('exits 2 on a bad command line (no source, a bad flag value), with the message on stderr', async () => {
    const run = await cliFromSources('--db', join(dir, 'y.db'))
    expect(run.code).toBe(2)
    expect(run.stderr).toContain('agent-bench import-enron: No source given.')
    const limit = await cliFromSources('--db', join(dir, 'y.db'), '--maildir', dir, '--limit', 'abc')
    expect(limit.code).toBe(2)
    expect(limit.stderr).toContain('Expected `--limit` to be a whole number from 0 and up, got "abc".')
  })
})

describe('agent-bench import-enron on sources it cannot fully import', () => {
  const email = (n: number) =>
    `Message-ID: <ie${n}@test>\nDate: Fri, 4 May 2001 13:51:00 -0700\nFrom: zed@corp.test\nTo: amy@corp.test\nSubject: S${n}\n\nBody ${n}`

  it('a CSV error part way: prints the report, then says how many were imported and where it stopped, and exits 1', async () => {
    const csv = join(dir, 'badquote.csv')
    writeFileSync(csv, ['file,message', `"zed-z/inbox/1.","${email(1)}"`, `"zed-z/inbox/2.","${email(2)}"`, `"zed-z/inbox/3.,"${email(3)}"`].join('\n'))
    const db = join(dir, 'partial.db')
    const run = await cliFromSources('--db', db, '--csv-path', csv)
    expect(run.code).toBe(1)
    expect(run.stdout).toMatch(/^Imported: +2\n/)
    expect(run.stderr).toContain(`agent-bench import-enron: The import stopped at ${csv}:16: Invalid Closing Quote`)
    expect(run.stderr).toContain(
      `2 email(s) before it were imported into ${db} (they stay there); the rest of the file was not read.\n  Fix: Fix the CSV at ${csv}:16`,
    )
    using store = EmailStore.open(db, { readonly: true })
    expect(store.count()).toBe(2)
  })

  it('a CSV without the file,message header: names its columns and the expected ones, imports nothing, exits 1', async () => {
    const csv = join(dir, 'wrongcols.csv')
    writeFileSync(csv, 'a,b,c\n1,2,3\n')
    const run = await cliFromSources('--db', join(dir, 'wrongcols.db'), '--csv-path', csv)
    expect(run.code).toBe(1)
    expect(run.stdout).toBe('')
    expect(run.stderr).toContain(
      `CSV file ${csv} has the columns a,b,c (line 1), without file and message.\n  Fix: Pass the Kaggle emails.csv, whose header line is file,message`,
    )
  })

  it.each([
    ['--maildir', 'emptydir', '', /the maildir \S+emptydir holds no message files\.\n {2}Fix: Pass the folder that holds the mailboxes/],
    ['--csv-path', 'hdr.csv', 'file,message\n', /the CSV file \S+hdr\.csv has no rows after its header\.\n {2}Fix: Pass the Kaggle emails\.csv/],
    ['--jsonl', 'blank.jsonl', '\n\n', /the JSONL file \S+blank\.jsonl has no lines\.\n {2}Fix: Pass a file of parsed emails/],
  ])('%s %s with no email: says so with a fix, exits 1', async (flag, name, content, message) => {
    const source = join(dir, name)
    if (flag === '--maildir') mkdirSync(source)
    else writeFileSync(source, content)
    const run = await cliFromSources('--db', join(dir, `${name}.db`), flag, source)
    expect(run.code).toBe(1)
    expect(run.stderr).toMatch(/agent-bench import-enron: Nothing imported: /)
    expect(run.stderr).toMatch(message)
  })
})

describeWithSharedData('agent-bench import-enron on real mail', () => {
  const db = join(dir, 'enron.db')

  it(
    'imports the maildir sample and prints exactly one JSON line',
    async () => {
      const run = await cli('--db', db, '--maildir', sharedDataPath('enron_agent_course', 'mail'), '--json')
      expect(run.code).toBe(0)
      expect(run.stdout.trimEnd().split('\n')).toEqual(['{"imported":2875,"duplicates":17,"failed":0}'])
    },
    scaledMs(120_000),
  )

  it(
    'is idempotent, honours --inbox and --limit, and prints a readable report without --json',
    async () => {
      const again = await cli(
        '--db',
        db,
        '--maildir',
        sharedDataPath('enron_agent_course', 'mail', 'full_mailboxes', 'slinger-r'),
        '--limit',
        '40',
        '--batch-size',
        '7',
      )
      expect(again.code).toBe(0)
      expect(again.stdout).toMatch(/Imported: +0\nDuplicates: +40\nFailed: +0/)
      expect(again.stdout).toContain('(2,875 emails)')
      const csv = await cli('--db', db, '--csv-path', sharedDataPath('enron_kaggle_format_samples', '5_randon.csv'), '--inbox', 'Reader@Example.com', '--json')
      expect(JSON.parse(csv.stdout)).toEqual({ imported: 5, duplicates: 0, failed: 0 })
      using store = EmailStore.open(db, { readonly: true })
      expect(store.count()).toBe(2880)
      expect(store.db.prepare("SELECT count(*) FROM emails WHERE inbox = 'reader@example.com'").pluck().get()).toBe(5)
    },
    scaledMs(60_000),
  )
})
