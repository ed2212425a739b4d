import { relative } from 'node:path'
import { writeFileAtomic } from '../core/atomic-write.ts'
import { buildArteSection, buildMpcbenchSection, type ReportData, type ResultsFile, type SectionSources } from './report-data.ts'
import { renderReport } from './render-report.ts'
import { buildEvalSection } from './eval-section.ts'
import { buildMpcbenchV2Section } from './mpcbench-v2-section.ts'

export { DEFAULT_REPORT_FILE } from './report-settings.ts'

/** Default folder of earlier runs (one folder per run). */
export const DEFAULT_HISTORY_DIR = 'evaluation/history'

/** What {@link writeReport} builds the page from. */
export interface WriteReportInput {
  results: ResultsFile[]
  sources: SectionSources
  /** The page to write. */
  outFile: string
  /** File names in the page are shown relative to this folder. @default process.cwd() */
  displayRoot?: string
  generatedAt?: Date
}

/** Builds the page data from results files (loading traces, run logs and the previous runs). */
export function buildReportData(input: Omit<WriteReportInput, 'outFile'>): ReportData {
  const root = input.displayRoot ?? process.cwd()
  const shown = (file: string): string => relative(root, file) || file
  const data: ReportData = { generatedAt: (input.generatedAt ?? new Date()).toISOString(), arte: [], mpcbench: [], evals: [], mpcbenchV2: [] }
  for (const file of input.results) {
    const named = { ...file, file: shown(file.file) }
    if (named.kind === 'eval') {
      const section = buildEvalSection(named.file, named.results, input.sources.historyDir)
      if (section.previous !== undefined) section.previous.file = shown(section.previous.file)
      data.evals?.push(section)
    } else if (named.kind === 'mpcbench-v2') {
      const section = buildMpcbenchV2Section(named.file, named.summary, input.sources.historyDir)
      if (section.previous !== undefined) section.previous.file = shown(section.previous.file)
      data.mpcbenchV2?.push(section)
    } else if (named.kind === 'arte') {
      const section = buildArteSection(named, input.sources)
      if (section.previous !== undefined) section.previous.file = shown(section.previous.file)
      for (const skipped of section.skippedHistory) skipped.file = shown(skipped.file)
      data.arte.push(section)
    } else {
      const section = buildMpcbenchSection(named, input.sources)
      if (section.previous !== undefined) section.previous.file = shown(section.previous.file)
      for (const skipped of section.skippedHistory) skipped.file = shown(skipped.file)
      data.mpcbench.push(section)
    }
  }
  return data
}

/** Writes the report page atomically and returns its data. */
export function writeReport(input: WriteReportInput): ReportData {
  const data = buildReportData(input)
  writeFileAtomic(input.outFile, renderReport(data))
  return data
}
