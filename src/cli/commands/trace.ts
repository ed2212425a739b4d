import type { Command } from '../command.ts'

/** `agent-bench trace` (not implemented yet). */
export const command: Command = {
  summary: '(not implemented yet)',
  usage: 'agent-bench trace: not implemented yet',
  async run() {
    console.error('agent-bench trace: not implemented yet')
    return 2
  },
}
