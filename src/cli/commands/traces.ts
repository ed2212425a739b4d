import type { Command } from '../command.ts'

/** `agent-bench traces` (not implemented yet). */
export const command: Command = {
  summary: '(not implemented yet)',
  usage: 'agent-bench traces: not implemented yet',
  async run() {
    console.error('agent-bench traces: not implemented yet')
    return 2
  },
}
