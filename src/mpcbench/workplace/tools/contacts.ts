import { z } from 'zod'
import { defineTool } from '../../../tools/define-tool.ts'
import { hasAllWords, memoizeByItem, words } from '../text-match.ts'
import type { Contact } from '../source-types.ts'
import type { ContactsSearchResult } from '../tool-results.ts'
import type { Workplace } from '../workplace.ts'

const nameWords = memoizeByItem((contact: Contact) => words(contact.name))

/**
 * `GoogleContacts.SearchContactsByName {name}`: contacts whose name has every word of `name` (by prefix, any order),
 * or whose email equals `name`; exact full-name matches first.
 */
export function searchContactsTool(workplace: Workplace) {
  return defineTool({
    name: 'GoogleContacts.SearchContactsByName',
    description:
      'Find contacts (name, email, phone, organization) by name. Every word of the name must match the start of a word of the contact name; an email address also works.',
    parameters: z.object({
      name: z.string().describe('Name to search for, e.g. "Alice Kim" or "Alice"'),
      limit: z.number().int().positive().optional().describe('Maximum contacts to return (default: all matches)'),
    }),
    handler: ({ name, limit }): ContactsSearchResult => {
      const query = name.trim().toLowerCase()
      const wanted = words(query)
      const exact = workplace.contactsByEmail.get(query)
      const matches = workplace.sources.contacts.contacts.filter((contact) => {
        if (contact === exact) return true
        return wanted.length > 0 && hasAllWords(nameWords(contact), wanted)
      })
      const rank = (c: { name: string }) => (c.name.trim().toLowerCase() === query ? 0 : 1)
      matches.sort((a, b) => rank(a) - rank(b))
      return {
        contacts: matches.slice(0, limit ?? matches.length).map((c) => ({
          id: c.id,
          name: c.name,
          email: c.email,
          ...(c.phone === undefined ? {} : { phone: c.phone }),
          ...(c.organization === undefined ? {} : { organization: c.organization }),
        })),
      }
    },
  })
}
