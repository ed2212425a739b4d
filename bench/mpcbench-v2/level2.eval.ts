import { defineMpcbenchV2Tests } from '../../src/mpcbench-v2/vitest/define-mpcbench-v2-tests.ts'

defineMpcbenchV2Tests({ level: 2 })
