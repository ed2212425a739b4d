import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { spawn } from 'node:child_process'
import { WriteFileError, checkWritableFile, removeLeftoverTempFiles, writeFileAtomic, writeJsonAtomic } from './atomic-write.ts'

function thrown(fn: () => void): unknown {
  try {
    fn()
  } catch (error) {
    return error
  }
  throw new Error('expected a throw')
}

describe('writeFileAtomic', () => {
  it('removes, on its first write in a folder, the temp file a writer killed with -9 left there, and keeps a live one', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'atomic-'))
    const file = join(dir, 'results.json')
    // A writer that creates its temp file (as writeFileAtomic names it) and is killed before it renames it.
    const script = `require('node:fs').writeFileSync(${JSON.stringify(file)} + '.' + process.pid + '.' + Date.now() + '.k9k9k9.tmp', ''); process.stdout.write('ready'); setInterval(() => {}, 1000)`
    const writer = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] })
    await new Promise<void>((resolve) => writer.stdout.once('data', () => resolve()))
    const exited = new Promise<void>((resolve) => writer.once('exit', () => resolve()))
    writer.kill('SIGKILL')
    await exited
    const live = `results.json.${process.pid}.${Date.now()}.live01.tmp`
    writeFileSync(join(dir, live), '')
    expect(readdirSync(dir).filter((name) => name.endsWith('.k9k9k9.tmp'))).toHaveLength(1)
    writeJsonAtomic(file, { run: 1 })
    expect(readdirSync(dir).sort()).toEqual([live, 'results.json'].sort())
    // A temp file older than 10 minutes is left over whoever wrote it.
    expect(removeLeftoverTempFiles(dir, Date.now() + 11 * 60 * 1000)).toEqual([live])
    // Files that only look alike are not ours.
    writeFileSync(join(dir, 'notes.1.2.tmp'), 'mine')
    expect(removeLeftoverTempFiles(dir)).toEqual([])
  })

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
