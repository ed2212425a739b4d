import { z } from 'zod'
import { isRealDate } from '../../time/calendar.ts'

/** A day `YYYY-MM-DD`, optionally followed by a clock time (`2001-05-14T00:00:00`, `2001-05-14 09:30Z`). */
const QUERY_DATE = /^(\d{4}-\d{2}-\d{2})(?:[T ](?:[01]\d|2[0-3]):[0-5]\d(?::[0-5]\d(?:\.\d+)?)?(?:Z|[+-](?:[01]\d|2[0-3]):?[0-5]\d)?)?$/

/**
 * Whether `text` is a row's `query_date`: a day that exists on the calendar, written `YYYY-MM-DD`, optionally followed
 * by a clock time (`T` or a space, `HH:MM[:SS[.fff]]`, an optional zone). `2023-02-30`, `2023-13-45` and
 * `2023-03-01garbage` are not.
 */
export function isQueryDate(text: string): boolean {
  const day = QUERY_DATE.exec(text)?.[1]
  return day !== undefined && isRealDate(day)
}

/** One ART-E question row, as in `corbt/enron_emails_sample_questions`. */
export const ArteRowSchema = z.object({
  id: z.union([z.number().int(), z.string().min(1)]),
  question: z.string().min(1),
  answer: z.string(),
  message_ids: z.array(z.string()),
  inbox_address: z.string().min(1),
  query_date: z.string().refine(isQueryDate, 'expected a real calendar day YYYY-MM-DD'),
  how_realistic: z.number().min(0).max(1),
  split: z.enum(['train', 'test']),
})

/** One ART-E question row. */
export type ArteRow = z.infer<typeof ArteRowSchema>

/** What a field of an ART-E row holds (`expected`), an `example`, and a `note` for the fix line. */
export interface ArteRowFieldFormat {
  expected: string
  example: string
  note?: string
}

/** What each field of an ART-E row holds: the error of a bad row names it. */
export const ARTE_ROW_FIELD_FORMATS: Readonly<Record<keyof ArteRow, ArteRowFieldFormat>> = {
  id: { expected: 'a whole number or a non-empty string', example: '6143', note: 'unique in the file: it is the test name' },
  question: { expected: 'a non-empty string', example: '"Who will interview Chris Kenyon?"' },
  answer: { expected: 'a string (empty allowed)', example: '"Zimin Lu"' },
  message_ids: {
    expected: 'a list of Message-ID strings',
    example: '["<32299015.1075856739201.JavaMail.evans@thyme>"]',
    note: `in a CSV cell, a JSON or Python list: "['<a@b>', '<c@d>']"`,
  },
  inbox_address: { expected: 'the email address of the inbox searched', example: '"vince.kaminski@enron.com"' },
  query_date: {
    expected: 'a real calendar day written YYYY-MM-DD',
    example: '"2001-05-14"',
    note: 'a time may follow the day, as in "2001-05-14T00:00:00"',
  },
  how_realistic: { expected: 'a number from 0 to 1', example: '0.75' },
  split: { expected: '"train" or "test"', example: '"test"', note: 'it may be left out when the file name names the split, as in test-00000-of-00001.parquet' },
}
