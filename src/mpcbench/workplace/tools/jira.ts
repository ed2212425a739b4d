import { z } from 'zod'
import { defineTool } from '../../../tools/define-tool.ts'
import { compileJql } from '../jql/evaluate.ts'
import { parseJql } from '../jql/parser.ts'
import type { JiraSearchResult } from '../tool-results.ts'
import type { Workplace } from '../workplace.ts'

/** Most issues `Jira.SearchIssuesWithJql` returns when no `limit` is given. */
export const DEFAULT_JIRA_LIMIT = 50

/** `Jira.SearchIssuesWithJql {jql}`: issues matching a query of the JQL subset (see `jql/parser.ts`); a bad query throws `JqlError`. */
export function searchIssuesTool(workplace: Workplace) {
  return defineTool({
    name: 'Jira.SearchIssuesWithJql',
    description:
      'Search Jira issues with JQL: field = | != | ~ | !~ | > | >= | < | <= value, field IN (a, b), field IS EMPTY, AND, OR, NOT, parentheses, ORDER BY field ASC|DESC; ' +
      'a bare word or "quoted text" searches summary and description. Fields: project, key, summary, description, text, status, fixVersion, updated, created, assignee, reporter, priority, labels, issuetype. ' +
      `Dates: "YYYY-MM-DD" (whole day, ${workplace.settings.timezone}), -7d, now(), startOfDay(). Example: project = APP AND text ~ "feature X" ORDER BY updated DESC`,
    parameters: z.object({
      jql: z.string().describe('JQL query'),
      limit: z.number().int().positive().optional().describe(`Maximum issues to return (default ${DEFAULT_JIRA_LIMIT})`),
    }),
    handler: ({ jql, limit }): JiraSearchResult => {
      const { filter, compare } = compileJql(parseJql(jql), { query: jql, timezone: workplace.settings.timezone, now: workplace.now })
      const matches = workplace.issues.filter(filter).sort(compare)
      return {
        issues: matches.slice(0, limit ?? DEFAULT_JIRA_LIMIT).map(({ issue }) => ({
          key: issue.key,
          summary: issue.summary,
          status: issue.status,
          ...(issue.updated === undefined ? {} : { updated: issue.updated }),
          fixVersions: (issue.fixVersions ?? []).map((v) => ({ ...v })),
          project: issue.project === undefined ? null : { key: issue.project.key },
          ...(issue.description === undefined ? {} : { description: issue.description }),
          ...(issue.assignee === undefined ? {} : { assignee: issue.assignee }),
          ...(issue.priority === undefined ? {} : { priority: issue.priority }),
          ...(issue.labels === undefined ? {} : { labels: [...issue.labels] }),
        })),
        total: matches.length,
      }
    },
  })
}
