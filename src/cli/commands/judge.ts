import type { Command } from '../command.ts'

/** `agent-bench judge` (not implemented yet). */
export const command: Command = {
  summary: '(not implemented yet)',
  usage: 'agent-bench judge: not implemented yet',
  async run() {
    console.error('agent-bench judge: not implemented yet')
    return 2
  },
}
