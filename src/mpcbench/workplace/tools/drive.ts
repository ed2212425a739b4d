import { z } from 'zod'
import { defineTool } from '../../../tools/define-tool.ts'
import { hasAllWords, words } from '../text-match.ts'
import type { DriveReadResult, DriveSearchResult } from '../tool-results.ts'
import { WorkplaceToolError } from '../tool-error.ts'
import type { IndexedFile, Workplace } from '../workplace.ts'

/** Most files `GoogleDrive.gdrive_search` returns when no `limit` is given. */
export const DEFAULT_DRIVE_LIMIT = 20

const DRIVE_QUERY = /^\s*(name|fullText)\s+contains\s+(['"])(.*)\2\s*$/i

/**
 * `GoogleDrive.gdrive_search {name, query}`: files whose name has every word of `name`, and whose name or content
 * has every word of `query` (Drive's `name contains '...'` / `fullText contains '...'` forms are understood too).
 * Name matches on `query` rank first, then newest modification.
 */
export function driveSearchTool(workplace: Workplace) {
  return defineTool({
    name: 'GoogleDrive.gdrive_search',
    description:
      'Search Drive files. name: words that must all appear in the file name; query: words that must all appear in the name or content ' +
      "(or `name contains 'x'` / `fullText contains 'x'`). Returns id, name, mimeType and modifiedTime; read content with GoogleDrive.gdrive_read_file.",
    parameters: z.object({
      name: z.string().optional().describe('Words of the file name'),
      query: z.string().optional().describe('Words of the name or content'),
      limit: z.number().int().positive().optional().describe(`Maximum files to return (default ${DEFAULT_DRIVE_LIMIT})`),
    }),
    handler: ({ name, query, limit }): DriveSearchResult => {
      let wantedInName = name === undefined ? [] : words(name)
      let wantedInText: string[] = []
      if (query !== undefined) {
        const structured = DRIVE_QUERY.exec(query)
        if (structured === null) wantedInText = words(query)
        else if ((structured[1] as string).toLowerCase() === 'name') wantedInName = [...wantedInName, ...words(structured[3] as string)]
        else wantedInText = words(structured[3] as string)
      }
      const found: Array<{ file: IndexedFile; rank: number }> = []
      for (const file of workplace.files) {
        if (wantedInName.length > 0 && !hasAllWords(file.nameWords, wantedInName)) continue
        if (wantedInText.length > 0) {
          if (hasAllWords(file.nameWords, wantedInText)) found.push({ file, rank: 0 })
          else if (hasAllWords(file.fullTextWords, wantedInText)) found.push({ file, rank: 1 })
          continue
        }
        found.push({ file, rank: 0 })
      }
      found.sort((a, b) => a.rank - b.rank || b.file.modified - a.file.modified)
      return {
        files: found.slice(0, limit ?? DEFAULT_DRIVE_LIMIT).map(({ file: { file } }) => ({
          id: file.id,
          name: file.name,
          ...(file.mimeType === undefined ? {} : { mimeType: file.mimeType }),
          modifiedTime: file.modifiedTime,
        })),
      }
    },
  })
}

/** `GoogleDrive.gdrive_read_file {file_id}`: the file's metadata and text content. */
export function driveReadFileTool(workplace: Workplace) {
  return defineTool({
    name: 'GoogleDrive.gdrive_read_file',
    description: 'Read a Drive file by id (from GoogleDrive.gdrive_search): its name, mimeType, modifiedTime and text content.',
    parameters: z.object({ file_id: z.string().describe('File id') }),
    handler: ({ file_id }): DriveReadResult => {
      const indexed = workplace.filesById.get(file_id.trim())
      if (indexed === undefined) {
        throw new WorkplaceToolError('GoogleDrive.gdrive_read_file', `no file with id ${JSON.stringify(file_id)}`, {
          hint: 'Use a file id returned by GoogleDrive.gdrive_search.',
        })
      }
      const { file } = indexed
      return {
        file: {
          id: file.id,
          name: file.name,
          ...(file.mimeType === undefined ? {} : { mimeType: file.mimeType }),
          modifiedTime: file.modifiedTime,
          content: file.content,
        },
      }
    },
  })
}
