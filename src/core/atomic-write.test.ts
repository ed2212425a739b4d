import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { WriteFileError, checkWritableFile, writeFileAtomic, writeJsonAtomic } from './atomic-write.ts'

function thrown(fn: () => void): unknown {
  try {
    fn()
  } catch (error) {
    return error
  }
  throw new Error('expected a throw')
}

describe('writeFileAtomic', () => {
  it('writes and replaces a file, creating its folders', () => {
    const dir = mkdtempSync(join(tmpdir(), 'atomic-'))
    const file = join(dir, 'a', 'b', 'r.json')
    writeJsonAtomic(file, { run: 1 })
    writeJsonAtomic(file, { run: 2 })
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ run: 2 })
    expect(readdirSync(join(dir, 'a', 'b'))).toEqual(['r.json'])
  })

  it('onto an existing folder: a WriteFileError naming the file, and no temp file left beside it', () => {
    const dir = mkdtempSync(join(tmpdir(), 'atomic-'))
    const target = join(dir, 'results')
    mkdirSync(join(target, 'inside'), { recursive: true })
    const error = thrown(() => writeFileAtomic(target, 'data'))
    expect(error).toBeInstanceOf(WriteFileError)
    expect((error as WriteFileError).code).toBe('ERR_WRITE_FILE')
    expect((error as WriteFileError).file).toBe(target)
    expect((error as Error).message).toMatch(new RegExp(`^Cannot write ${target}: it is a folder\\.\\n  Fix: Name a file`))
    expect(readdirSync(dir)).toEqual(['results'])
    expect(readdirSync(target)).toEqual(['inside'])
  })

  it('under a file (as /dev/null/r.json): names the file that stands where a folder should', () => {
    const dir = mkdtempSync(join(tmpdir(), 'atomic-'))
    const blocker = join(dir, 'blocker')
    writeFileSync(blocker, 'mine')
    for (const target of [join(blocker, 'r.json'), join(blocker, 'deeper', 'r.json')]) {
      const error = thrown(() => writeFileAtomic(target, 'data'))
      expect(error).toBeInstanceOf(WriteFileError)
      expect((error as Error).message).toContain(`Cannot write ${target}: ${blocker} is not a folder.`)
      expect((error as WriteFileError).hint).toContain(`nothing can be created under ${blocker}`)
    }
    expect(readdirSync(dir)).toEqual(['blocker'])
    expect(readFileSync(blocker, 'utf8')).toBe('mine')
  })
})

describe('checkWritableFile', () => {
  it('finds a folder, a file in the way or a device before anything is written, and creates nothing', () => {
    const dir = mkdtempSync(join(tmpdir(), 'atomic-check-'))
    writeFileSync(join(dir, 'blocker'), '')
    expect(checkWritableFile(join(dir, 'new', 'folders', 'r.json'))).toBeUndefined()
    expect(existsSync(join(dir, 'new'))).toBe(false)
    expect(checkWritableFile(dir)?.reason).toBe('it is a folder')
    expect(checkWritableFile(join(dir, 'blocker', 'r.json'))?.reason).toBe(`${join(dir, 'blocker')} is not a folder`)
    if (process.platform !== 'win32') expect(checkWritableFile('/dev/null')?.reason).toMatch(/not a regular file/)
  })
})
