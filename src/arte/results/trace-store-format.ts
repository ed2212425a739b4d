import type { AgentOutcome, AgentTrace } from '../../agent/trace.ts'
import type { ChatCompletionMessageParam } from '../../llm/types.ts'
import type { StoredTrace, TraceSummary } from './trace-store.ts'

function clip(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim()
  return flat.length <= max ? flat : `${flat.slice(0, max - 1)}…`
}

function contentText(content: unknown): string {
  if (typeof content === 'string') return content
  if (Array.isArray(content)) {
    return content.map((part) => (typeof part === 'object' && part !== null && 'text' in part ? String(part.text) : '')).join('')
  }
  return ''
}

/** One message as readable lines (role, text, tool calls), each clipped to `max` characters. */
export function formatMessage(message: ChatCompletionMessageParam, max = 400): string[] {
  const lines: string[] = []
  const text = contentText(message.content)
  if (message.role === 'tool') {
    lines.push(`  tool result [${message.tool_call_id}]: ${clip(text, max)}`)
    return lines
  }
  if (text !== '') lines.push(`  ${message.role}: ${clip(text, max)}`)
  if (message.role === 'assistant' && message.tool_calls !== undefined) {
    for (const call of message.tool_calls) {
      if (call.type === 'function') lines.push(`  assistant → ${call.function.name}(${clip(call.function.arguments, max)}) [${call.id}]`)
    }
  }
  if (lines.length === 0) lines.push(`  ${message.role}: (empty)`)
  return lines
}

/** How an agent run ended, in one line. */
export function formatOutcome(outcome: AgentOutcome): string {
  switch (outcome.kind) {
    case 'answered':
      return `answered (${outcome.via}): ${outcome.answer}`
    case 'max-turns':
      return `stopped after maxTurns (${outcome.maxTurns}) without an answer`
    case 'error':
      return `error ${outcome.code}: ${outcome.message}`
    case 'aborted':
      return `aborted: ${outcome.reason}`
  }
}

/** The last `count` non-system messages of a trace, for failure messages. */
export function formatLastTurns(trace: AgentTrace, count = 4): string {
  const messages = trace.messages.filter((message) => message.role !== 'system')
  const tail = messages.slice(-count)
  const skipped = messages.length - tail.length
  const lines = skipped > 0 ? [`  … ${skipped} earlier message(s)`] : []
  for (const message of tail) lines.push(...formatMessage(message, 300))
  return lines.join('\n')
}

/** A whole stored trace, readable in a terminal (`agent-bench trace ID`). */
export function formatStoredTrace(stored: StoredTrace): string {
  const { trace } = stored
  const usage = trace.usage
  const cost = usage.costUsd === null ? 'unknown cost' : `$${usage.costUsd.toFixed(4)}`
  const lines = [
    `Trace ${stored.traceId}`,
    `  task:          ${stored.taskId}${stored.trial > 1 ? ` [trial=${stored.trial}]` : ''} (run ${stored.runId})`,
    `  model:         ${trace.model} (${trace.modelKind === 'baseline' ? 'baseline, non-LLM' : 'llm'})`,
    `  started:       ${trace.startedAt}, ${trace.durationMs} ms, ${trace.turns} turn(s)`,
    `  usage:         ${usage.totalTokens} tokens (${usage.promptTokens} prompt, ${usage.completionTokens} completion), ${usage.calls} call(s), ${cost}`,
    `  question:      ${stored.question}`,
    `  ground truth:  ${stored.groundTruth}`,
    `  agent answer:  ${stored.agentAnswer === '' ? '(none)' : stored.agentAnswer}`,
    `  scores:        exact match ${stored.exactMatch ? 'yes' : 'no'}, semantic ${stored.semanticScore.toFixed(3)}`,
    `  outcome:       ${formatOutcome(trace.outcome)}`,
    '',
    'Messages:',
  ]
  for (const message of trace.messages) lines.push(...formatMessage(message, 2000))
  if (trace.toolCalls.length > 0) {
    lines.push('', 'Tool calls:')
    for (const call of trace.toolCalls) {
      lines.push(`  turn ${call.turn} ${call.name} ${call.status} ${call.durationMs} ms: ${clip(JSON.stringify(call.arguments) ?? '', 300)}`)
    }
  }
  if (trace.agentTrace !== undefined) lines.push('', "The external agent's own trace:", `  ${clip(JSON.stringify(trace.agentTrace) ?? '', 2000)}`)
  return lines.join('\n')
}

/** A table of trace summaries (`agent-bench traces`). */
export function formatTraceSummaries(rows: ReadonlyArray<TraceSummary>): string {
  if (rows.length === 0) return 'No traces found.'
  // A trial column only when some trace is of a trial after the first (BENCH_TRIALS).
  const trials = rows.some((row) => row.trial > 1)
  const header = `${'score'.padEnd(7)}${'EM'.padEnd(4)}${'task'.padEnd(12)}${trials ? 'trial'.padEnd(6) : ''}${'trace id'.padEnd(38)}question`
  const lines = [header]
  for (const row of rows) {
    lines.push(
      `${row.semanticScore.toFixed(3).padEnd(7)}${(row.exactMatch ? '1' : '0').padEnd(4)}${clip(row.taskId, 11).padEnd(12)}${trials ? String(row.trial).padEnd(6) : ''}${row.traceId.padEnd(38)}${clip(row.question, 70)}`,
    )
  }
  return lines.join('\n')
}
