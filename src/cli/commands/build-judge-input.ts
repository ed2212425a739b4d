import type { Command } from '../command.ts'

/** `agent-bench build-judge-input` (not implemented yet). */
export const command: Command = {
  summary: '(not implemented yet)',
  usage: 'agent-bench build-judge-input: not implemented yet',
  async run() {
    console.error('agent-bench build-judge-input: not implemented yet')
    return 2
  },
}
