import type { Command } from '../command.ts'

/** `agent-bench import-enron` (not implemented yet). */
export const command: Command = {
  summary: '(not implemented yet)',
  usage: 'agent-bench import-enron: not implemented yet',
  async run() {
    console.error('agent-bench import-enron: not implemented yet')
    return 2
  },
}
