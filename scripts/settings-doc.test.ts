import { readFileSync, readdirSync } from 'node:fs'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { DESCRIPTIONS, OTHER_VARIABLES, SETTINGS_DOC, schemaVariables, settingsDoc } from './settings-doc.ts'

const root = fileURLToPath(new URL('..', import.meta.url))
const page = (): string => readFileSync(join(root, SETTINGS_DOC), 'utf8')

/** The source files of the package (tests left out). */
function sources(dir = join(root, 'src')): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return sources(path)
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : []
  })
}

describe('docs/settings.md (npm run docs:settings)', () => {
  it('is what the settings schemas give: run `npm run docs:settings` after changing a schema', () => {
    expect(page(), `${SETTINGS_DOC} is stale: run \`npm run docs:settings\``).toBe(settingsDoc())
  })

  it('lists every variable a settings schema reads, each with a description', () => {
    const names = schemaVariables()
    expect(names.length).toBeGreaterThan(40)
    for (const name of names) {
      expect(DESCRIPTIONS[name], `${name}: no description in scripts/settings-doc.ts`).toBeTruthy()
      expect(page(), `${name} is missing from ${SETTINGS_DOC}`).toContain(`| \`${name}\` |`)
    }
  })

  it('lists every BENCH_, ARTE_ and MPCBENCH_ variable the package reads', () => {
    const documented = new Set([...schemaVariables(), ...OTHER_VARIABLES.flatMap((variable) => variable.name.split(', '))])
    const read = new Map<string, string>()
    for (const file of sources()) {
      const text = readFileSync(file, 'utf8')
      for (const match of text.matchAll(/(?:env\.|env\[['"]|['"])((?:BENCH|ARTE|MPCBENCH)_[A-Z0-9_]+)\b(?=['"\]]|[^A-Z0-9_'"])/g)) {
        const name = match[1]!
        if (!read.has(name)) read.set(name, relative(root, file))
      }
    }
    expect(read.size).toBeGreaterThan(30)
    const undocumented = [...read].filter(([name]) => !documented.has(name)).map(([name, file]) => `${name} (${file})`)
    expect(undocumented, `add them to scripts/settings-doc.ts and run npm run docs:settings`).toEqual([])
  })
})
