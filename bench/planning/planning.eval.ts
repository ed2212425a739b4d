import { defineMpcbenchBench } from '../../src/vitest/mpcbench-bench.ts'

defineMpcbenchBench({ taskType: 'planning' })
