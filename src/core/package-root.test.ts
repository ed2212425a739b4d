import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { defaultInput, distExternal, packageModule, packageRoot, runsOutsidePackage, shippedSourcesPlugin } from './package-root.ts'

describe('package-root', () => {
  it('finds the package folder and its modules from the sources', () => {
    expect(join(packageRoot, 'package.json')).toMatch(/package\.json$/)
    expect(packageModule('src/arte/vitest/global-setup.ts')).toBe(join(packageRoot, 'src/arte/vitest/global-setup.ts'))
    expect(runsOutsidePackage(packageRoot)).toBe(false)
    expect(runsOutsidePackage(tmpdir())).toBe(true)
  })

  it("prefers the working directory's input, then the package's, else names the working directory's", () => {
    const cwd = mkdtempSync(join(tmpdir(), 'package-root-'))
    expect(defaultInput('prompt_config.json', cwd)).toBe(join(packageRoot, 'prompt_config.json'))
    writeFileSync(join(cwd, 'prompt_config.json'), '{}')
    expect(defaultInput('prompt_config.json', cwd)).toBe(join(cwd, 'prompt_config.json'))
    expect(defaultInput('no-such-file.json', cwd)).toBe(join(cwd, 'no-such-file.json'))
  })

  it('resolves a shipped bench file’s import of a missing source to its compiled twin', () => {
    const root = mkdtempSync(join(tmpdir(), 'package-root-'))
    mkdirSync(join(root, 'dist/arte/vitest'), { recursive: true })
    writeFileSync(join(root, 'dist/arte/vitest/define-arte-tests.js'), '')
    const plugin = shippedSourcesPlugin(root)
    const importer = join(root, 'bench/arte/arte.eval.ts')
    expect(plugin.resolveId('../../src/arte/vitest/define-arte-tests.ts', importer)).toBe(join(root, 'dist/arte/vitest/define-arte-tests.js'))
    expect(plugin.resolveId('../../src/arte/missing.ts', importer)).toBeNull()
    expect(plugin.resolveId('vitest', importer)).toBeNull()
    mkdirSync(join(root, 'src/arte/vitest'), { recursive: true })
    writeFileSync(join(root, 'src/arte/vitest/define-arte-tests.ts'), '')
    expect(plugin.resolveId('../../src/arte/vitest/define-arte-tests.ts', importer)).toBeNull()
  })

  it('with built (a checkout whose dist/ is current), resolves the import to the compiled twin even where the source exists', () => {
    const root = mkdtempSync(join(tmpdir(), 'package-root-'))
    mkdirSync(join(root, 'dist/arte/vitest'), { recursive: true })
    mkdirSync(join(root, 'src/arte/vitest'), { recursive: true })
    writeFileSync(join(root, 'dist/arte/vitest/define-arte-tests.js'), '')
    writeFileSync(join(root, 'src/arte/vitest/define-arte-tests.ts'), '')
    const importer = join(root, 'bench/arte/arte.eval.ts')
    expect(shippedSourcesPlugin(root, true).resolveId('../../src/arte/vitest/define-arte-tests.ts', importer)).toBe(
      join(root, 'dist/arte/vitest/define-arte-tests.js'),
    )
    expect(shippedSourcesPlugin(root).resolveId('../../src/arte/vitest/define-arte-tests.ts', importer)).toBeNull()
    // Never outside src/, nor to a compiled file that is not there (the source then runs).
    expect(shippedSourcesPlugin(root, true).resolveId('./helper.ts', importer)).toBeNull()
    expect(shippedSourcesPlugin(root, true).resolveId('../../src/arte/missing.ts', importer)).toBeNull()
  })

  it("externalizes the package's dist/ modules, and nothing else, wherever the package lies", () => {
    const root = '/work/a.b (c)/vitest-agent-bench'
    const external = distExternal(root)
    expect(external.test('/work/a.b (c)/vitest-agent-bench/dist/arte/vitest/define-arte-tests.js')).toBe(true)
    expect(external.test('/work/a.b (c)/vitest-agent-bench/src/arte/vitest/define-arte-tests.ts')).toBe(false)
    expect(external.test('/work/a.b (c)/vitest-agent-bench/bench/arte/arte.eval.ts')).toBe(false)
    expect(external.test('/work/aXb (c)/vitest-agent-bench/dist/index.js')).toBe(false)
    expect(external.test('/elsewhere/dist/index.js')).toBe(false)
    expect(distExternal().test(join(packageRoot, 'dist/index.js'))).toBe(true)
  })
})
