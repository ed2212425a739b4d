import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { BUILD_ENTRIES, BUILD_STAMP, staleReason } from './build-if-stale.ts'

const dirs: string[] = []
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

/** A project whose inputs were last changed at `inputsAt` (ms) and whose last build started at `builtAt`. */
function project(inputsAt: number, builtAt: number | undefined): string {
  const root = mkdtempSync(join(tmpdir(), 'build-if-stale-'))
  dirs.push(root)
  const files = ['src/index.ts', 'src/arte/settings.ts', 'tsconfig.json', 'tsconfig.build.json', 'package.json']
  for (const file of files) {
    mkdirSync(join(root, file, '..'), { recursive: true })
    writeFileSync(join(root, file), '')
  }
  for (const path of [...files, 'src/arte', 'src']) utimesSync(join(root, path), inputsAt / 1000, inputsAt / 1000)
  for (const entry of BUILD_ENTRIES) {
    mkdirSync(join(root, entry, '..'), { recursive: true })
    writeFileSync(join(root, entry), '')
  }
  if (builtAt !== undefined) {
    mkdirSync(join(root, BUILD_STAMP, '..'), { recursive: true })
    writeFileSync(join(root, BUILD_STAMP), JSON.stringify({ startedAtMs: builtAt }))
  }
  return root
}

const T = Date.parse('2026-01-01T00:00:00Z')
const touch = (root: string, path: string, at: number) => utimesSync(join(root, path), at / 1000, at / 1000)

describe('build-if-stale: npm test builds dist/ only when an input changed after the last build', () => {
  it('is fresh when every input is older than the last build start', () => {
    expect(staleReason(project(T, T + 60_000))).toBeUndefined()
  })

  it('is stale with no finished build, a missing entry file, or an unreadable stamp', () => {
    expect(staleReason(project(T, undefined))).toBe('no finished build recorded')
    const noMain = project(T, T + 60_000)
    rmSync(join(noMain, 'dist/main.js'))
    expect(staleReason(noMain)).toBe('dist/main.js is missing')
    const garbled = project(T, T + 60_000)
    writeFileSync(join(garbled, BUILD_STAMP), '{')
    expect(staleReason(garbled)).toBe(`${BUILD_STAMP} is unreadable`)
  })

  it('is stale when a source deep in src/, a tsconfig or package.json changed during or after the build', () => {
    const source = project(T, T + 60_000)
    touch(source, 'src/arte/settings.ts', T + 60_000)
    expect(staleReason(source)).toBe('src changed since the last build')
    for (const config of ['tsconfig.json', 'tsconfig.build.json', 'package.json']) {
      const root = project(T, T + 60_000)
      touch(root, config, T + 120_000)
      expect(staleReason(root)).toBe(`${config} changed since the last build`)
    }
  })

  it('is stale when a source was deleted (its folder changed) or added', () => {
    const deleted = project(T, T + 60_000)
    rmSync(join(deleted, 'src/arte/settings.ts'))
    expect(staleReason(deleted)).toBe('src changed since the last build')
    const added = project(T, T + 60_000)
    writeFileSync(join(added, 'src/new.ts'), '')
    touch(added, 'src/new.ts', T)
    expect(staleReason(added), 'the folder of a new file changed').toBe('src changed since the last build')
  })

  it('stays fresh when only a test file changed (the build leaves tests out), not when a source beside it did', () => {
    const root = project(T, T + 60_000)
    writeFileSync(join(root, 'src/arte/settings.test.ts'), '')
    touch(root, 'src/arte', T)
    touch(root, 'src/arte/settings.test.ts', T + 120_000)
    expect(staleReason(root)).toBeUndefined()
    touch(root, 'src/arte/settings.ts', T + 120_000)
    expect(staleReason(root)).toBe('src changed since the last build')
  })
})
