/**
 * A minimal parquet writer for tests (no parquet writer is a dependency): one row group,
 * one uncompressed PLAIN data page (v1) per column, every column OPTIONAL as Arrow writes
 * them. Supports int64 (bigint), float (float32, like Hugging Face's `how_realistic`),
 * double, UTF-8 string and list-of-string columns. `null` is a missing value.
 */

/** One column: its name, type and one value per row. */
export type TestParquetColumn =
  | { name: string; type: 'int64'; values: Array<bigint | null> }
  | { name: string; type: 'float' | 'double'; values: Array<number | null> }
  | { name: string; type: 'string'; values: Array<string | null> }
  | { name: string; type: 'string-list'; values: Array<string[] | null> }

const enum CType {
  I32 = 5,
  I64 = 6,
  Binary = 8,
  List = 9,
  Struct = 12,
}

/** Thrift compact protocol encoder, just what parquet metadata needs. */
class CompactWriter {
  readonly bytes: number[] = []
  private lastField: number[] = [0]

  varint(n: bigint | number): void {
    let v = BigInt(n)
    while (v >= 0x80n) {
      this.bytes.push(Number((v & 0x7fn) | 0x80n))
      v >>= 7n
    }
    this.bytes.push(Number(v))
  }

  zigzag(n: bigint | number): void {
    const v = BigInt(n)
    this.varint(v >= 0n ? v << 1n : ((-v) << 1n) - 1n)
  }

  fieldHeader(id: number, type: CType): void {
    const last = this.lastField[this.lastField.length - 1] ?? 0
    const delta = id - last
    if (delta > 0 && delta <= 15) this.bytes.push((delta << 4) | type)
    else {
      this.bytes.push(type)
      this.zigzag(id)
    }
    this.lastField[this.lastField.length - 1] = id
  }

  i32(id: number, value: number): void {
    this.fieldHeader(id, CType.I32)
    this.zigzag(value)
  }

  i64(id: number, value: number | bigint): void {
    this.fieldHeader(id, CType.I64)
    this.zigzag(value)
  }

  string(id: number, value: string): void {
    this.fieldHeader(id, CType.Binary)
    const encoded = new TextEncoder().encode(value)
    this.varint(encoded.length)
    this.bytes.push(...encoded)
  }

  listHeader(id: number, elementType: CType, size: number): void {
    this.fieldHeader(id, CType.List)
    if (size < 15) this.bytes.push((size << 4) | elementType)
    else {
      this.bytes.push(0xf0 | elementType)
      this.varint(size)
    }
  }

  /** Writes a struct element (inside a list) or a struct field (`id` given). */
  struct(id: number | undefined, body: () => void): void {
    if (id !== undefined) this.fieldHeader(id, CType.Struct)
    this.lastField.push(0)
    body()
    this.bytes.push(0)
    this.lastField.pop()
  }

  listElementI32(value: number): void {
    this.zigzag(value)
  }

  listElementString(value: string): void {
    const encoded = new TextEncoder().encode(value)
    this.varint(encoded.length)
    this.bytes.push(...encoded)
  }
}

const TYPE = { int64: 2, float: 4, double: 5, string: 6, 'string-list': 6 } as const
const UTF8 = 0
const LIST = 3
const OPTIONAL = 1
const REPEATED = 2

/** RLE/bit-packed hybrid levels, one RLE run per value, with the 4-byte length prefix of data page v1. */
function encodeLevels(levels: number[], maxLevel: number): number[] {
  const width = Math.ceil(Math.log2(maxLevel + 1))
  const valueBytes = Math.ceil(width / 8)
  const out: number[] = []
  for (const level of levels) {
    out.push(2)
    for (let b = 0; b < valueBytes; b++) out.push((level >> (8 * b)) & 0xff)
  }
  return [...u32(out.length), ...out]
}

function u32(n: number): number[] {
  return [n & 0xff, (n >> 8) & 0xff, (n >> 16) & 0xff, (n >>> 24) & 0xff]
}

function plainString(value: string): number[] {
  const encoded = new TextEncoder().encode(value)
  return [...u32(encoded.length), ...encoded]
}

function plainValue(column: TestParquetColumn, value: unknown): number[] {
  const view = new DataView(new ArrayBuffer(8))
  switch (column.type) {
    case 'int64':
      view.setBigInt64(0, value as bigint, true)
      return [...new Uint8Array(view.buffer)]
    case 'float':
      view.setFloat32(0, value as number, true)
      return [...new Uint8Array(view.buffer, 0, 4)]
    case 'double':
      view.setFloat64(0, value as number, true)
      return [...new Uint8Array(view.buffer)]
    default:
      return plainString(value as string)
  }
}

interface EncodedColumn {
  levelCount: number
  body: number[]
}

function encodeColumn(column: TestParquetColumn): EncodedColumn {
  if (column.type === 'string-list') {
    const rep: number[] = []
    const def: number[] = []
    const values: number[] = []
    for (const list of column.values) {
      if (list === null) {
        rep.push(0)
        def.push(0)
      } else if (list.length === 0) {
        rep.push(0)
        def.push(1)
      } else {
        list.forEach((item, i) => {
          rep.push(i === 0 ? 0 : 1)
          def.push(3)
          values.push(...plainString(item))
        })
      }
    }
    return { levelCount: rep.length, body: [...encodeLevels(rep, 1), ...encodeLevels(def, 3), ...values] }
  }
  const def: number[] = []
  const values: number[] = []
  for (const value of column.values as unknown[]) {
    def.push(value === null ? 0 : 1)
    if (value !== null) values.push(...plainValue(column, value))
  }
  return { levelCount: def.length, body: [...encodeLevels(def, 1), ...values] }
}

/** Encodes `columns` (all of the same length) as the bytes of a parquet file. */
export function encodeTestParquet(columns: ReadonlyArray<TestParquetColumn>): Uint8Array {
  const numRows = columns[0]?.values.length ?? 0
  const out: number[] = [...new TextEncoder().encode('PAR1')]
  const chunks: Array<{ column: TestParquetColumn; offset: number; size: number; levelCount: number }> = []
  for (const column of columns) {
    if (column.values.length !== numRows) throw new Error(`column ${column.name} has ${column.values.length} values, expected ${numRows}`)
    const { levelCount, body } = encodeColumn(column)
    const header = new CompactWriter()
    header.i32(1, 0)
    header.i32(2, body.length)
    header.i32(3, body.length)
    header.struct(5, () => {
      header.i32(1, levelCount)
      header.i32(2, 0)
      header.i32(3, 3)
      header.i32(4, 3)
    })
    header.bytes.push(0)
    const offset = out.length
    out.push(...header.bytes, ...body)
    chunks.push({ column, offset, size: header.bytes.length + body.length, levelCount })
  }

  const meta = new CompactWriter()
  meta.i32(1, 1)
  const schemaCount = 1 + columns.reduce((n, c) => n + (c.type === 'string-list' ? 3 : 1), 0)
  meta.listHeader(2, CType.Struct, schemaCount)
  meta.struct(undefined, () => {
    meta.string(4, 'schema')
    meta.i32(5, columns.length)
  })
  for (const column of columns) {
    if (column.type === 'string-list') {
      meta.struct(undefined, () => {
        meta.i32(3, OPTIONAL)
        meta.string(4, column.name)
        meta.i32(5, 1)
        meta.i32(6, LIST)
      })
      meta.struct(undefined, () => {
        meta.i32(3, REPEATED)
        meta.string(4, 'list')
        meta.i32(5, 1)
      })
      meta.struct(undefined, () => {
        meta.i32(1, TYPE.string)
        meta.i32(3, OPTIONAL)
        meta.string(4, 'element')
        meta.i32(6, UTF8)
      })
    } else {
      meta.struct(undefined, () => {
        meta.i32(1, TYPE[column.type])
        meta.i32(3, OPTIONAL)
        meta.string(4, column.name)
        if (column.type === 'string') meta.i32(6, UTF8)
      })
    }
  }
  meta.i64(3, numRows)
  meta.listHeader(4, CType.Struct, 1)
  meta.struct(undefined, () => {
    meta.listHeader(1, CType.Struct, chunks.length)
    for (const chunk of chunks) {
      meta.struct(undefined, () => {
        meta.i64(2, chunk.offset)
        meta.struct(3, () => {
          meta.i32(1, TYPE[chunk.column.type])
          meta.listHeader(2, CType.I32, 2)
          meta.listElementI32(0)
          meta.listElementI32(3)
          const path = chunk.column.type === 'string-list' ? [chunk.column.name, 'list', 'element'] : [chunk.column.name]
          meta.listHeader(3, CType.Binary, path.length)
          for (const part of path) meta.listElementString(part)
          meta.i32(4, 0)
          meta.i64(5, chunk.levelCount)
          meta.i64(6, chunk.size)
          meta.i64(7, chunk.size)
          meta.i64(9, chunk.offset)
        })
      })
    }
    meta.i64(2, chunks.reduce((n, c) => n + c.size, 0))
    meta.i64(3, numRows)
  })
  meta.string(6, 'vitest-agent-bench test writer')
  meta.bytes.push(0)
  out.push(...meta.bytes, ...u32(meta.bytes.length), ...new TextEncoder().encode('PAR1'))
  return Uint8Array.from(out)
}
