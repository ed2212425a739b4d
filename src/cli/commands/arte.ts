import type { Command } from '../command.ts'

/** `agent-bench arte` (not implemented yet). */
export const command: Command = {
  summary: '(not implemented yet)',
  usage: 'agent-bench arte: not implemented yet',
  async run() {
    console.error('agent-bench arte: not implemented yet')
    return 2
  },
}
