import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo, Socket } from 'node:net'

/**
 * A real OTLP/HTTP trace receiver on 127.0.0.1 for tests: it takes `POST /v1/traces` in both encodings of the OTLP
 * specification (`application/x-protobuf`, decoded here by the field numbers of opentelemetry-proto's
 * `collector/trace/v1/trace_service.proto` and `trace/v1/trace.proto`; `application/json`, OTLP/JSON) and keeps every
 * span. It can answer 503 or never answer, as a collector that is down or stuck does.
 */

/** One received span, the same whichever encoding it came in. */
export interface ReceivedSpan {
  traceId: string
  spanId: string
  /** Empty for a root span. */
  parentSpanId: string
  name: string
  /** OTLP's `SpanKind` (1 internal, 2 server, 3 client, ...). */
  kind: number
  attributes: Record<string, unknown>
  events: Array<{ name: string; attributes: Record<string, unknown> }>
  /** OTLP's status code: 0 unset, 1 ok, 2 error. */
  status: { code: number; message: string }
  /** The attributes of the span's resource (`service.name`, ...). */
  resource: Record<string, unknown>
  /** The instrumentation scope's name. */
  scope: string
}

/** One export request as it arrived. */
export interface ReceivedExport {
  path: string
  contentType: string
  headers: IncomingMessage['headers']
  spans: number
}

/** What the receiver does with a request: accept it (200), answer 503, or never answer. */
export type ReceiverMode = 'accept' | 'unavailable' | 'hang'

/** A running receiver. */
export interface OtlpReceiver extends AsyncDisposable {
  /** `http://127.0.0.1:PORT`: the value of `OTEL_EXPORTER_OTLP_ENDPOINT`. */
  endpoint: string
  spans: ReceivedSpan[]
  requests: ReceivedExport[]
  mode: ReceiverMode
  close(): Promise<void>
}

/** Starts a receiver on a free port of 127.0.0.1. */
export async function startOtlpReceiver(mode: ReceiverMode = 'accept'): Promise<OtlpReceiver> {
  const sockets = new Set<Socket>()
  const receiver = { spans: [] as ReceivedSpan[], requests: [] as ReceivedExport[], mode } as OtlpReceiver
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = []
    request.on('data', (chunk: Buffer) => chunks.push(chunk))
    request.on('end', () => {
      if (receiver.mode === 'hang') return
      if (receiver.mode === 'unavailable') {
        response.writeHead(503, { 'content-type': 'text/plain' }).end('collector unavailable (test receiver)')
        return
      }
      const body = Buffer.concat(chunks)
      const contentType = request.headers['content-type'] ?? ''
      let spans: ReceivedSpan[]
      try {
        spans = contentType.includes('json') ? decodeJsonRequest(JSON.parse(body.toString('utf8'))) : decodeProtobufRequest(body)
      } catch (error) {
        response.writeHead(400, { 'content-type': 'text/plain' }).end(`cannot decode: ${(error as Error).message}`)
        return
      }
      receiver.requests.push({ path: request.url ?? '', contentType, headers: request.headers, spans: spans.length })
      receiver.spans.push(...spans)
      if (contentType.includes('json')) response.writeHead(200, { 'content-type': 'application/json' }).end('{}')
      else response.writeHead(200, { 'content-type': 'application/x-protobuf' }).end(Buffer.alloc(0))
    })
  })
  server.on('connection', (socket) => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  receiver.endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  receiver.close = () =>
    new Promise<void>((resolve) => {
      for (const socket of sockets) socket.destroy()
      server.close(() => resolve())
    })
  receiver[Symbol.asyncDispose] = receiver.close
  return receiver
}

/** The spans of one trace, by name, and the children of a span: helpers of the assertions. */
export function childrenOf(spans: ReadonlyArray<ReceivedSpan>, parent: ReceivedSpan): ReceivedSpan[] {
  return spans.filter((span) => span.traceId === parent.traceId && span.parentSpanId === parent.spanId)
}

// --- OTLP/JSON ---

type JsonObject = Record<string, unknown>

function jsonValue(value: JsonObject | undefined): unknown {
  if (value === undefined) return undefined
  if ('stringValue' in value) return value.stringValue
  if ('boolValue' in value) return value.boolValue
  if ('intValue' in value) return Number(value.intValue)
  if ('doubleValue' in value) return Number(value.doubleValue)
  if ('arrayValue' in value) return ((value.arrayValue as { values?: JsonObject[] }).values ?? []).map(jsonValue)
  return undefined
}

function jsonAttributes(list: unknown): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const item of (list as Array<{ key: string; value?: JsonObject }> | undefined) ?? []) out[item.key] = jsonValue(item.value)
  return out
}

function decodeJsonRequest(body: JsonObject): ReceivedSpan[] {
  const out: ReceivedSpan[] = []
  for (const resourceSpans of (body.resourceSpans as JsonObject[] | undefined) ?? []) {
    const resource = jsonAttributes((resourceSpans.resource as JsonObject | undefined)?.attributes)
    for (const scopeSpans of (resourceSpans.scopeSpans as JsonObject[] | undefined) ?? []) {
      const scope = String((scopeSpans.scope as JsonObject | undefined)?.name ?? '')
      for (const span of (scopeSpans.spans as JsonObject[] | undefined) ?? []) {
        const status = (span.status as JsonObject | undefined) ?? {}
        out.push({
          traceId: String(span.traceId),
          spanId: String(span.spanId),
          parentSpanId: String(span.parentSpanId ?? ''),
          name: String(span.name),
          kind: Number(span.kind ?? 0),
          attributes: jsonAttributes(span.attributes),
          events: ((span.events as JsonObject[] | undefined) ?? []).map((event) => ({
            name: String(event.name),
            attributes: jsonAttributes(event.attributes),
          })),
          status: { code: Number(status.code ?? 0), message: String(status.message ?? '') },
          resource,
          scope,
        })
      }
    }
  }
  return out
}

// --- OTLP/protobuf ---

/** A minimal protobuf reader: varints, fixed 32/64-bit and length-delimited fields (all that the trace protos use). */
class Reader {
  pos = 0
  readonly buf: Uint8Array

  constructor(buf: Uint8Array) {
    this.buf = buf
  }

  done(): boolean {
    return this.pos >= this.buf.length
  }

  varint(): bigint {
    let result = 0n
    let shift = 0n
    for (;;) {
      if (this.pos >= this.buf.length) throw new Error('truncated varint')
      const byte = this.buf[this.pos++] as number
      result |= BigInt(byte & 0x7f) << shift
      if ((byte & 0x80) === 0) return result
      shift += 7n
    }
  }

  tag(): { field: number; wire: number } {
    const tag = Number(this.varint())
    return { field: tag >>> 3, wire: tag & 7 }
  }

  bytes(): Uint8Array {
    const length = Number(this.varint())
    const out = this.buf.subarray(this.pos, this.pos + length)
    this.pos += length
    return out
  }

  fixed64(): DataView {
    const view = new DataView(this.buf.buffer, this.buf.byteOffset + this.pos, 8)
    this.pos += 8
    return view
  }

  skip(wire: number): void {
    if (wire === 0) this.varint()
    else if (wire === 1) this.pos += 8
    else if (wire === 2) this.bytes()
    else if (wire === 5) this.pos += 4
    else throw new Error(`unsupported wire type ${wire}`)
  }
}

/** Calls `on(field, wire, reader)` for each field of a message; `on` returns false for a field it did not read. */
function fields(buf: Uint8Array, on: (field: number, wire: number, reader: Reader) => boolean): void {
  const reader = new Reader(buf)
  while (!reader.done()) {
    const { field, wire } = reader.tag()
    if (!on(field, wire, reader)) reader.skip(wire)
  }
}

const text = (bytes: Uint8Array): string => new TextDecoder().decode(bytes)
const hex = (bytes: Uint8Array): string => Buffer.from(bytes).toString('hex')

/** `AnyValue`: 1 string, 2 bool, 3 int, 4 double, 5 array. */
function protobufValue(buf: Uint8Array): unknown {
  let value: unknown
  fields(buf, (field, wire, reader) => {
    if (field === 1 && wire === 2) value = text(reader.bytes())
    else if (field === 2 && wire === 0) value = reader.varint() !== 0n
    else if (field === 3 && wire === 0) value = Number(BigInt.asIntN(64, reader.varint()))
    else if (field === 4 && wire === 1) value = reader.fixed64().getFloat64(0, true)
    else if (field === 5 && wire === 2) {
      const values: unknown[] = []
      fields(reader.bytes(), (f, w, r) => {
        if (f !== 1 || w !== 2) return false
        values.push(protobufValue(r.bytes()))
        return true
      })
      value = values
    } else return false
    return true
  })
  return value
}

/** `KeyValue`: 1 key, 2 value. */
function protobufKeyValue(buf: Uint8Array, into: Record<string, unknown>): void {
  let key = ''
  let value: unknown
  fields(buf, (field, wire, reader) => {
    if (field === 1 && wire === 2) key = text(reader.bytes())
    else if (field === 2 && wire === 2) value = protobufValue(reader.bytes())
    else return false
    return true
  })
  into[key] = value
}

function decodeProtobufRequest(body: Uint8Array): ReceivedSpan[] {
  const out: ReceivedSpan[] = []
  // ExportTraceServiceRequest: 1 resource_spans.
  fields(body, (field, wire, reader) => {
    if (field !== 1 || wire !== 2) return false
    const resource: Record<string, unknown> = {}
    const scopes: Uint8Array[] = []
    // ResourceSpans: 1 resource (Resource: 1 attributes), 2 scope_spans.
    fields(reader.bytes(), (f, w, r) => {
      if (f === 1 && w === 2) {
        fields(r.bytes(), (rf, rw, rr) => {
          if (rf !== 1 || rw !== 2) return false
          protobufKeyValue(rr.bytes(), resource)
          return true
        })
      } else if (f === 2 && w === 2) scopes.push(r.bytes())
      else return false
      return true
    })
    for (const scopeSpans of scopes) {
      let scope = ''
      // ScopeSpans: 1 scope (InstrumentationScope: 1 name), 2 spans.
      fields(scopeSpans, (f, w, r) => {
        if (f === 1 && w === 2) {
          fields(r.bytes(), (sf, sw, sr) => {
            if (sf !== 1 || sw !== 2) return false
            scope = text(sr.bytes())
            return true
          })
        } else if (f === 2 && w === 2) out.push(protobufSpan(r.bytes(), resource, () => scope))
        else return false
        return true
      })
    }
    return true
  })
  return out
}

/** `Span`: 1 trace_id, 2 span_id, 4 parent_span_id, 5 name, 6 kind, 9 attributes, 11 events, 15 status. */
function protobufSpan(buf: Uint8Array, resource: Record<string, unknown>, scope: () => string): ReceivedSpan {
  const span: ReceivedSpan = {
    traceId: '',
    spanId: '',
    parentSpanId: '',
    name: '',
    kind: 0,
    attributes: {},
    events: [],
    status: { code: 0, message: '' },
    resource,
    scope: '',
  }
  fields(buf, (field, wire, reader) => {
    if (wire === 2 && field === 1) span.traceId = hex(reader.bytes())
    else if (wire === 2 && field === 2) span.spanId = hex(reader.bytes())
    else if (wire === 2 && field === 4) span.parentSpanId = hex(reader.bytes())
    else if (wire === 2 && field === 5) span.name = text(reader.bytes())
    else if (wire === 0 && field === 6) span.kind = Number(reader.varint())
    else if (wire === 2 && field === 9) protobufKeyValue(reader.bytes(), span.attributes)
    else if (wire === 2 && field === 11) {
      // Event: 2 name, 3 attributes.
      const event = { name: '', attributes: {} as Record<string, unknown> }
      fields(reader.bytes(), (f, w, r) => {
        if (f === 2 && w === 2) event.name = text(r.bytes())
        else if (f === 3 && w === 2) protobufKeyValue(r.bytes(), event.attributes)
        else return false
        return true
      })
      span.events.push(event)
    } else if (wire === 2 && field === 15) {
      // Status: 2 message, 3 code.
      fields(reader.bytes(), (f, w, r) => {
        if (f === 2 && w === 2) span.status.message = text(r.bytes())
        else if (f === 3 && w === 0) span.status.code = Number(r.varint())
        else return false
        return true
      })
    } else return false
    return true
  })
  span.scope = scope()
  return span
}
