import type { CommandTable } from '../../cli/command.ts'

/** The MPCBench v2 commands of `agent-bench`: one line each (`--help` prints the summary without importing the command). */
export const mpcbenchV2Commands: CommandTable = {
  'mpcbench-v2': {
    summary: "Run MPCBench v2 (upstream e398410 scheduling levels 1-3) through Vitest; rows in upstream's results format",
    load: () => import('./mpcbench-v2.ts'),
  },
}
