import { defineMpcbenchBench } from '../../src/vitest/mpcbench-bench.ts'

defineMpcbenchBench({ taskType: 'email_reply' })
