import type { Command } from '../command.ts'

/** `agent-bench generate-evals` (not implemented yet). */
export const command: Command = {
  summary: '(not implemented yet)',
  usage: 'agent-bench generate-evals: not implemented yet',
  async run() {
    console.error('agent-bench generate-evals: not implemented yet')
    return 2
  },
}
