import { existsSync } from 'node:fs'

/** Where Debian/Ubuntu and common installs put a Chromium or Chrome binary. */
const CANDIDATES = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome', '/usr/bin/google-chrome-stable', '/snap/bin/chromium']

/**
 * The system's Chromium for browser tests: `CHROMIUM_PATH` when set, else the first installed candidate
 * (Debian: `apt-get install chromium`). `undefined` when there is none; tests then skip and say so.
 * No browser is ever downloaded.
 */
export function systemChromium(env: Record<string, string | undefined> = process.env): string | undefined {
  const fromEnv = env.CHROMIUM_PATH
  if (fromEnv !== undefined && fromEnv !== '') return existsSync(fromEnv) ? fromEnv : undefined
  return CANDIDATES.find((path) => existsSync(path))
}

/** Why browser tests skip when {@link systemChromium} finds nothing. */
export const NO_BROWSER_MESSAGE =
  'skipped: no system Chromium (install it, e.g. `apt-get install chromium`, or set CHROMIUM_PATH); browsers are never downloaded'
