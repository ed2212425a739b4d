/**
 * Takes the README's screenshots of the HTML report (docs/report-arte.png, docs/report-mpcbench.png) with the
 * system Chromium: `npm run bench && tsx scripts/report-screenshots.ts [report.html]`. Each shows a section with
 * one task opened (an ART-E trace, an MPCBench run log with the judge's reasons).
 */
import { mkdirSync } from 'node:fs'
import { resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { chromium } from 'playwright-core'
import { systemChromium, NO_BROWSER_MESSAGE } from '../src/testing/system-browser.ts'

const report = resolve(process.argv[2] ?? 'evaluation/report/index.html')
const executablePath = systemChromium()
if (executablePath === undefined) {
  console.error(NO_BROWSER_MESSAGE.replace(/^skipped: /, ''))
  process.exit(1)
}
mkdirSync('docs', { recursive: true })
const browser = await chromium.launch({ executablePath, args: ['--no-sandbox'] })
try {
  const page = await browser.newPage({ viewport: { width: 1180, height: 900 }, deviceScaleFactor: 1 })
  await page.goto(pathToFileURL(report).href)
  for (const bench of ['arte', 'mpcbench'] as const) {
    const section = page.locator(`section[data-bench="${bench}"]`).first()
    const row = bench === 'arte' ? section.locator('tr.task[data-pass="0"]').first() : section.locator('tr.task', { hasText: '_planning' }).first()
    // Show one task with its trace opened right under the charts: filter the table to it.
    const text = bench === 'arte' ? ((await row.locator('td').nth(1).textContent()) ?? '') : ((await row.getAttribute('data-task-id')) ?? '')
    await section.locator('input.filter').fill(text)
    await row.locator('button.open').click()
    await section.locator('tr.detail').waitFor()
    await page.evaluate('window.scrollTo(0, 0)')
    const box = await section.boundingBox()
    if (box === null) throw new Error(`no ${bench} section in ${report}`)
    const file = `docs/report-${bench}.png`
    await page.screenshot({
      path: file,
      fullPage: true,
      clip: { x: box.x, y: box.y, width: box.width, height: Math.min(box.height, 1250) },
      animations: 'disabled',
    })
    await row.locator('button.open').click()
    await section.locator('input.filter').fill('')
    await section.locator('input.filter').dispatchEvent('input')
    console.log(file)
  }
} finally {
  await browser.close()
}
