#!/usr/bin/env node
// Runs the compiled CLI (dist/, built by `npm run build`, which `npm install` runs in a checkout).
import { existsSync } from 'node:fs'
import module from 'node:module'

// Node 22.1+: V8 keeps compiled code of the CLI's modules on disk between runs (no-op on Node 20, which lacks it).
module.enableCompileCache?.()

const main = new URL('../dist/main.js', import.meta.url)
if (!existsSync(main)) {
  console.error(
    'agent-bench: dist/main.js is missing: the package is not built.\nhint: run `npm run build` in the vitest-agent-bench folder (`npm install` runs it too).',
  )
  process.exit(1)
}
const { main: run } = await import(main.href)
process.exitCode = await run(process.argv.slice(2))
