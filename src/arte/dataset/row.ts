import { z } from 'zod'

/** One ART-E question row, as in `corbt/enron_emails_sample_questions`. */
export const ArteRowSchema = z.object({
  id: z.union([z.number().int(), z.string().min(1)]),
  question: z.string().min(1),
  answer: z.string(),
  message_ids: z.array(z.string()),
  inbox_address: z.string().min(1),
  query_date: z.string().regex(/^\d{4}-\d{2}-\d{2}/, 'expected a date YYYY-MM-DD'),
  how_realistic: z.number().min(0).max(1),
  split: z.enum(['train', 'test']),
})

/** One ART-E question row. */
export type ArteRow = z.infer<typeof ArteRowSchema>
