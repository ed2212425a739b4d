import { ByteWriter, parquetWrite } from 'hyparquet-writer'
import type { ColumnSource, SchemaElement } from 'hyparquet-writer'

/** One column: its name, type and one value per row (`null` is a missing value). */
export type TestParquetColumn =
  | { name: string; type: 'int64'; values: Array<bigint | null> }
  | { name: string; type: 'float' | 'double'; values: Array<number | null> }
  | { name: string; type: 'string'; values: Array<string | null> }
  | { name: string; type: 'string-list'; values: Array<string[] | null> }

const PRIMITIVE = { int64: 'INT64', float: 'FLOAT', double: 'DOUBLE' } as const

function schemaOf(column: TestParquetColumn): SchemaElement[] {
  const { name } = column
  switch (column.type) {
    case 'string':
      return [{ name, type: 'BYTE_ARRAY', converted_type: 'UTF8', repetition_type: 'OPTIONAL' }]
    case 'string-list':
      // The three-level LIST layout Arrow (and so Hugging Face) writes.
      return [
        { name, repetition_type: 'OPTIONAL', converted_type: 'LIST', num_children: 1 },
        { name: 'list', repetition_type: 'REPEATED', num_children: 1 },
        { name: 'element', type: 'BYTE_ARRAY', converted_type: 'UTF8', repetition_type: 'OPTIONAL' },
      ]
    default:
      return [{ name, type: PRIMITIVE[column.type], repetition_type: 'OPTIONAL' }]
  }
}

/**
 * A parquet file (with `hyparquet-writer`) laid out as Hugging Face's ART-E files are: every column OPTIONAL,
 * int64 ids, float32 scores, UTF-8 strings and lists of strings. For tests.
 */
export function encodeTestParquet(columns: ReadonlyArray<TestParquetColumn>): Uint8Array {
  const writer = new ByteWriter()
  const columnData: ColumnSource[] = columns.map((column) => ({ name: column.name, data: column.values }))
  const schema: SchemaElement[] = [{ name: 'root', num_children: columns.length }, ...columns.flatMap(schemaOf)]
  parquetWrite({ writer, columnData, schema })
  return new Uint8Array(writer.getBuffer())
}
