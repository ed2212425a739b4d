import { z } from 'zod'
import { defineTool } from '../../../tools/define-tool.ts'
import { parseSlackQuery, searchSlack } from '../slack-query.ts'
import type { SlackSearchResult } from '../tool-results.ts'
import type { Workplace } from '../workplace.ts'

/** Most hits `Slack.search_messages` returns when no `limit` is given. */
export const DEFAULT_SLACK_LIMIT = 50

/** `Slack.search_messages {query}`: word search over message text with `from:`, `in:`, `before:`, `after:`, `on:` modifiers. */
export function slackSearchMessagesTool(workplace: Workplace) {
  return defineTool({
    name: 'Slack.search_messages',
    description:
      'Search Slack messages. Words must all appear (a word also matches longer words starting with it); use "quoted phrases", -word to exclude, OR and parentheses. ' +
      `Modifiers: from:@name (author by name, first name, email or id), in:#channel, before:YYYY-MM-DD, after:YYYY-MM-DD, on:YYYY-MM-DD (dates in ${workplace.settings.timezone}). ` +
      'Returns the newest matches first with channel and author names.',
    parameters: z.object({
      query: z.string().describe('Search query, e.g. `from:@alice in:#proj-api-launch after:2025-11-16 sync`'),
      limit: z.number().int().positive().optional().describe(`Maximum messages to return (default ${DEFAULT_SLACK_LIMIT})`),
    }),
    handler: ({ query, limit }): SlackSearchResult => {
      const hits = searchSlack(workplace, parseSlackQuery(query, workplace))
      const newestFirst = hits.slice(-(limit ?? DEFAULT_SLACK_LIMIT)).reverse()
      return {
        messages: newestFirst.map(({ message, user, channel }) => ({
          id: message.id,
          text: message.text,
          user_id: message.user_id,
          user_name: user?.name ?? null,
          channel_id: message.channel_id,
          channel_name: channel?.name ?? null,
          timestamp: message.timestamp,
          ...(message.thread_ts === undefined ? {} : { thread_ts: message.thread_ts }),
        })),
        total: hits.length,
      }
    },
  })
}
