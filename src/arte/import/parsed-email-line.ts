import { z } from 'zod'

const AddressList = z
  .union([z.array(z.string()), z.string(), z.null()])
  .optional()
  .transform((value) => (value == null ? [] : typeof value === 'string' ? value.split(/[,;]/) : value))

/** One line of a parsed-email JSONL file, as in the `corbt/enron-emails` dataset. */
export const ParsedEmailLineSchema = z.object({
  message_id: z.string().min(1),
  subject: z.string().nullish(),
  from: z.string().nullish(),
  to: AddressList,
  cc: AddressList,
  bcc: AddressList,
  /** ISO string, RFC 2822 string, `YYYY-MM-DD HH:MM:SS` (read as UTC) or epoch milliseconds. */
  date: z.union([z.string(), z.number()]).nullish(),
  body: z.string().nullish(),
  file_name: z.string().nullish(),
  /** The mailbox this copy belongs to (an address): stored under it without owner inference. Absent or blank: inferred. */
  inbox: z.string().nullish(),
})

/** One parsed-email JSONL line. */
export type ParsedEmailLine = z.infer<typeof ParsedEmailLineSchema>
