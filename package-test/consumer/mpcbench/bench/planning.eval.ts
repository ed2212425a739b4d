// (e) defineMpcbenchBench over this folder: tasks/, scenarios/ and prompt_config.json (copied from the package by the test).
import { join } from 'node:path'
import { defineMpcbenchBench } from 'vitest-agent-bench/vitest'

defineMpcbenchBench({ taskType: 'planning', root: join(import.meta.dirname, '..') })
