import { execFileSync } from 'node:child_process'
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import PostalMime from 'postal-mime'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { describeWithSharedData, sharedDataPath } from '../../testing/shared-data.ts'
import { scaledMs } from '../../testing/time-scale.ts'

/**
 * `patches/postal-mime+<version>.patch` (applied by patch-package on `npm install`) makes postal-mime's decoders
 * concatenate their chunks into one ArrayBuffer instead of building a `Blob` per part (about 2x faster parsing).
 * Here the patch is reversed on a copy of the package, and both parse every real Enron message: same output.
 */
const root = fileURLToPath(new URL('../../../', import.meta.url))
const patchFile = readdirSync(join(root, 'patches')).find((name) => name.startsWith('postal-mime+'))

function listFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? listFiles(join(dir, entry.name)) : entry.name.startsWith('.') ? [] : [join(dir, entry.name)],
  )
}

type Parse = (raw: Uint8Array) => Promise<unknown>

describeWithSharedData('postal-mime patch', () => {
  const copy = mkdtempSync(join(tmpdir(), 'postal-mime-unpatched-'))
  let unpatched: Parse
  beforeAll(async () => {
    cpSync(join(root, 'node_modules', 'postal-mime'), join(copy, 'node_modules', 'postal-mime'), { recursive: true })
    execFileSync('git', ['apply', '--reverse', join(root, 'patches', patchFile ?? 'missing.patch')], { cwd: copy })
    const module = (await import(pathToFileURL(join(copy, 'node_modules', 'postal-mime', 'src', 'postal-mime.js')).href)) as { default: { parse: Parse } }
    unpatched = (raw) => module.default.parse(raw)
  })
  afterAll(() => rmSync(copy, { recursive: true, force: true }))

  it('is applied to the installed package', () => {
    expect(patchFile).toBeDefined()
    expect(readFileSync(join(root, 'node_modules', 'postal-mime', 'src', 'pass-through-decoder.js'), 'utf8')).toContain('concatChunks')
    expect(readFileSync(join(copy, 'node_modules', 'postal-mime', 'src', 'pass-through-decoder.js'), 'utf8')).toContain('new Blob')
  })

  it('parses every message of the real maildir exactly as the unpatched package', { timeout: scaledMs(120_000) }, async () => {
    const files = listFiles(sharedDataPath('enron_agent_course', 'mail'))
    expect(files.length).toBeGreaterThan(2_800)
    for (const file of files) {
      const raw = readFileSync(file)
      expect(await PostalMime.parse(raw), file).toEqual(await unpatched(raw))
    }
  })
})
