import { defineMpcbenchBench } from '../../src/mpcbench/vitest/define-mpcbench-bench.ts'

defineMpcbenchBench({ taskType: 'document_generation' })
