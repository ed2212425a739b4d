import { randomUUID } from 'node:crypto'
import { relative } from 'node:path'
import type { TestProject } from 'vitest/node'
import { benchIncluded, benchLeftOut } from '../../core/bench-only.ts'
import { prepareArteDb } from './demo-db.ts'
import { limitHint } from './limit-hint.ts'
import { arteSettingsFromEnv } from '../settings.ts'
import './provided-context.ts'

/**
 * ART-E globalSetup: makes sure the email database exists (building the demo one from the shipped
 * maildir when missing or stale, see `prepareArteDb`) and provides `arteDbPath`, `arteDatasetPath`
 * and `arteRunId` to the tests (`inject(...)`). With `BENCH_ONLY` leaving ART-E out it prepares nothing, and the
 * ART-E test files of such a run fail saying so (`arteNotPrepared`).
 */
export default async function setup(project: TestProject): Promise<void> {
  if (!benchIncluded('arte')) {
    // The ART-E variables are not read, so none of them can fail a run that leaves ART-E out.
    project.provide('arteNotPrepared', benchLeftOut('arte'))
    return
  }
  const settings = arteSettingsFromEnv()
  const prepared = await prepareArteDb({ db: settings.db, maildir: settings.maildir, dataset: settings.dataset })
  if (prepared.kind === 'built') {
    const { report } = prepared
    // Setup messages go to stderr, so stdout stays the reporters' (e.g. `--reporter=junit` to stdout is valid XML).
    project.vitest.logger.error(
      `ART-E: built ${relative(process.cwd(), prepared.path)} (${report.imported} emails, ${report.duplicates} duplicates, ${report.failed} failed, ${prepared.tasks} tasks)`,
    )
  }
  const hint = await limitHint(settings, project.vitest.config.testNamePattern)
  if (hint !== undefined) project.vitest.logger.error(hint)
  project.provide('arteDbPath', prepared.path)
  project.provide('arteDatasetPath', settings.dataset)
  project.provide('arteRunId', `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomUUID().slice(0, 8)}`)
}
