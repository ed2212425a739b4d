import type { Command } from '../command.ts'

/** `agent-bench run-task` (not implemented yet). */
export const command: Command = {
  summary: '(not implemented yet)',
  usage: 'agent-bench run-task: not implemented yet',
  async run() {
    console.error('agent-bench run-task: not implemented yet')
    return 2
  },
}
