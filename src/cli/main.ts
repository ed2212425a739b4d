import { BenchError } from '../errors.ts'
import type { Command } from './command.ts'

const commands: Record<string, () => Promise<{ command: Command }>> = {
  'import-enron': () => import('./commands/import-enron.ts'),
  arte: () => import('./commands/arte.ts'),
  trace: () => import('./commands/trace.ts'),
  traces: () => import('./commands/traces.ts'),
  'generate-evals': () => import('./commands/generate-evals.ts'),
  generate: () => import('./commands/generate.ts'),
  'run-task': () => import('./commands/run-task.ts'),
  'build-judge-input': () => import('./commands/build-judge-input.ts'),
  judge: () => import('./commands/judge.ts'),
  'run-and-judge': () => import('./commands/run-and-judge.ts'),
}

async function help(): Promise<string> {
  const lines = ['Usage: agent-bench <command> [options]', '', 'Commands:']
  for (const [name, load] of Object.entries(commands)) {
    const { command } = await load()
    lines.push(`  ${name.padEnd(18)} ${command.summary}`)
  }
  lines.push('', 'Run `agent-bench <command> --help` for the options of a command.')
  return lines.join('\n')
}

/** Entry point of the `agent-bench` CLI; resolves to the process exit code. */
export async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    console.log(await help())
    return name === undefined ? 1 : 0
  }
  const load = Object.hasOwn(commands, name) ? commands[name] : undefined
  if (load === undefined) {
    console.error(`Unknown command ${JSON.stringify(name)}.\n\n${await help()}`)
    return 2
  }
  const { command } = await load()
  if (rest.includes('--help') || rest.includes('-h')) {
    console.log(command.usage)
    return 0
  }
  try {
    return await command.run(rest)
  } catch (error) {
    if (error instanceof BenchError) {
      console.error(`agent-bench ${name}: ${error.message}`)
      return 1
    }
    throw error
  }
}
