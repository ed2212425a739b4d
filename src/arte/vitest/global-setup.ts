import { randomUUID } from 'node:crypto'
import { relative } from 'node:path'
import type { TestProject } from 'vitest/node'
import { benchIncluded, benchLeftOut } from '../../core/bench-only.ts'
import { BenchError } from '../../core/errors.ts'
import { redactLoggerOutput } from '../../core/redact-output.ts'
import { annotationsRead } from '../../core/annotation-readers.ts'
import { checkArteInputs, prepareArteDb } from './demo-db.ts'
import { limitHint } from './limit-hint.ts'
import { arteSettingsFromEnv } from '../settings.ts'
import './provided-context.ts'

/**
 * ART-E globalSetup: checks the selected dataset rows, makes sure the email database exists (building the demo one
 * from the shipped maildir when missing or stale, see `prepareArteDb`) and provides `arteDbPath`, `arteDatasetPath`
 * and `arteRunId` to the tests (`inject(...)`), and whether a reporter reads the annotations of passed tests
 * (`arteAnnotations`, see `annotationsRead`). With `BENCH_ONLY` leaving ART-E out it prepares nothing, and the
 * ART-E test files of such a run fail saying so (`arteNotPrepared`).
 *
 * A failure (a bad dataset row, a missing `ARTE_DB`, a bad ART-E variable or `BENCH_ONLY`) is printed here, before
 * any test runs, as its message and fix line, and given to the tests as `arteNotPrepared`, so the ART-E test files
 * fail with it. It is not thrown: Vitest would then print "No test files found" first, and the error after it with
 * its stack.
 */
export default async function setup(project: TestProject): Promise<void> {
  // Everything Vitest prints in this run (reporters, test errors, console output) goes through the one redactor.
  redactLoggerOutput(project.vitest?.logger)
  try {
    await prepare(project)
  } catch (error) {
    reportFailure(project, error)
  }
}

async function prepare(project: TestProject): Promise<void> {
  if (!benchIncluded('arte')) {
    // The ART-E variables are not read, so none of them can fail a run that leaves ART-E out.
    project.provide('arteNotPrepared', benchLeftOut('arte'))
    return
  }
  const settings = arteSettingsFromEnv()
  // The rows the test files will load: a bad one is reported now, before the database is built.
  await checkArteInputs(settings)
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
  // Each annotation costs a test two round trips to the main thread: passed tests skip it when no reporter reads it.
  project.provide('arteAnnotations', annotationsRead(project.vitest))
}

/** Prints why the setup failed (ours: message and fix; anything else: with its stack) and tells the tests. */
function reportFailure(project: TestProject, error: unknown): void {
  const { logger } = project.vitest
  if (error instanceof BenchError) {
    logger.error(`\nART-E setup failed, so no ART-E task can run:\n${error.message}\n`)
    project.provide('arteNotPrepared', `its globalSetup failed: ${error.problem.replace(/\.$/, '')} (fix: ${error.hint.replace(/\.$/, '')})`)
    return
  }
  logger.error('\nART-E setup failed, so no ART-E task can run:')
  logger.printError(error, { fullStack: true })
  project.provide('arteNotPrepared', `its globalSetup failed: ${error instanceof Error ? error.message : String(error)}`)
}
