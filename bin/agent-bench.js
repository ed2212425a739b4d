#!/usr/bin/env node
// Runs the compiled CLI (dist/, built by `npm run build`, which `npm install` runs in a checkout).
import { existsSync } from 'node:fs'

const main = new URL('../dist/main.js', import.meta.url)
if (!existsSync(main)) {
  console.error('agent-bench: dist/main.js is missing: the package is not built.\nhint: run `npm run build` in the vitest-agent-bench folder (`npm install` runs it too).')
  process.exit(1)
}
const { main: run } = await import(main.href)
process.exitCode = await run(process.argv.slice(2))
