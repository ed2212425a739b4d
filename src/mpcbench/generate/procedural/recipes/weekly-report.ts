import { addDays } from '../../../../time/calendar.ts'
import type { SubScenario } from '../../../tasks/scenario.ts'
import { projectKeyOf, slug, type WorldBuilder } from '../world-builder.ts'
import type { PendingExpansion, Recipe } from './pending-expansion.ts'
import { engineers, ids, mainProject, participantsOf, productPeople } from './support.ts'

function weeklyReport(b: WorldBuilder, sub: SubScenario): Omit<PendingExpansion, 'from' | 'to'> {
  const depth = b.scenario.depth
  const project = mainProject(b)
  const key = project === undefined ? 'OPS' : projectKeyOf(project)
  const participants = participantsOf(b, sub, 0)
  const author = participants[0] ?? b.rng.pick(productPeople(b))
  const weekEnd = addDays(b.thisMonday, 4)
  const hint = typeof sub.metrics_hint === 'object' && sub.metrics_hint !== null ? (sub.metrics_hint as Record<string, unknown>) : {}
  const metrics: Record<string, number> = {}
  for (const [name, value] of Object.entries(hint)) if (typeof value === 'number') metrics[name] = value
  if (Object.keys(metrics).length === 0) {
    metrics.p95_latency_reduction_percent = b.rng.int(5, 30)
    metrics.weekly_active_users_growth_percent = b.rng.int(2, 12)
    metrics.open_bugs = b.rng.int(3, 20)
  }
  const describeMetric = (name: string, value: number): string =>
    name.endsWith('_percent') ? `${name.slice(0, -'_percent'.length).replace(/_/g, ' ')}: ${value}%` : `${name.replace(/_/g, ' ')}: ${value}`
  const template = b.drive({
    timestamp: b.randomTime(addDays(b.thisMonday, -30), addDays(b.thisMonday, -20)).iso,
    name: 'Weekly Report Template',
    mime_type: 'application/vnd.google-apps.document',
    owner: author.email,
    content: [
      'Weekly Report - <team> - week of <date>',
      '',
      '1. Highlights',
      '2. Metrics (value and change vs last week)',
      '3. Completed work (issue keys)',
      '4. Risks and blockers',
      '5. Next week',
    ].join('\n'),
  })
  // biome-ignore lint/complexity/useMathMinMax: the earlier of two `YYYY-MM-DD` days, compared as strings
  const lastDay = weekEnd > b.today ? b.today : weekEnd
  const sheet = b.drive({
    timestamp: b.randomTime(addDays(weekEnd, -1), lastDay).iso,
    name: `${project?.name ?? 'Team'} metrics - week of ${b.thisMonday}`,
    mime_type: 'application/vnd.google-apps.spreadsheet',
    owner: author.email,
    content: ['metric,value', ...Object.entries(metrics).map(([name, value]) => `${name},${value}`)].join('\n'),
  })
  const done: string[] = []
  const eng = engineers(b)
  const doneSummaries = b.rng.sample(
    [
      'Add request tracing to gateway',
      'Cache tenant settings',
      'Tighten rate limits for batch API',
      'Remove legacy auth path',
      'Paginate audit log endpoint',
      'Backfill usage metrics',
    ],
    3,
  )
  for (const summary of doneSummaries) {
    const issueKey = b.issueKey(key)
    done.push(issueKey)
    b.jira({
      timestamp: b.randomTime(b.thisMonday, lastDay).iso,
      issue_key: issueKey,
      project_key: key,
      summary,
      description: 'Completed this week.',
      status: 'Done',
      issue_type: 'Task',
      priority: 'Medium',
      assignee: b.rng.pick(eng).email,
      reporter: author.email,
      created: b.randomTime(addDays(b.thisMonday, -14), addDays(b.thisMonday, -8)).iso,
      labels: ['weekly-report'],
    })
  }
  const riskKey = b.issueKey(key)
  b.jira({
    timestamp: b.randomTime(b.thisMonday, b.today).iso,
    issue_key: riskKey,
    project_key: key,
    summary: 'Load test shows memory growth under sustained traffic',
    description: 'Needs investigation before the next milestone.',
    status: 'In Progress',
    issue_type: 'Bug',
    priority: 'High',
    assignee: b.rng.pick(eng).email,
    reporter: author.email,
    created: b.randomTime(b.thisMonday, b.today).iso,
    labels: ['risk'],
  })
  const channel = project === undefined ? 'general' : `proj-${slug(project.name)}`
  const numbers = Object.entries(metrics)
    .map(([name, value]) => describeMetric(name, value))
    .join(', ')
  b.slack(
    channel,
    author,
    depth < 0.5
      ? `Wins this week: ${numbers}. Closed ${done.join(', ')}.`
      : `Good week overall; the numbers are in "${sheet.name}". Risk to watch: ${riskKey}.`,
    b.randomTime(b.today, b.today).iso,
  )
  return {
    id: sub.id,
    type: sub.type,
    abstract_description: sub.abstract_description,
    timestamp: b.at(b.today, b.workEnd - 60),
    participants: ids([author]),
    event_description: `${author.name} reports on the week of ${b.thisMonday}: ${numbers}; done ${done.join(', ')}; risk ${riskKey}.`,
    facts: {
      window: { start: b.thisMonday, end: weekEnd },
      metrics,
      done_issues: done,
      risk_issue: riskKey,
      template_file_id: template.file_id,
      metrics_file_id: sheet.file_id,
    },
  }
}

/** A report to write from the week's metrics, issues and messages. */
export const weeklyReportRecipe: Recipe = {
  name: 'weekly report',
  matches: (type, sub) => /report|summary|weekly|document/.test(type) || typeof sub.metrics_hint === 'object',
  expand: weeklyReport,
}
