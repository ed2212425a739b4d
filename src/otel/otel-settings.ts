/**
 * The OpenTelemetry settings of a run, read only from the standard variables of the OpenTelemetry specification
 * (https://opentelemetry.io/docs/specs/otel/protocol/exporter/): tracing is off unless an OTLP endpoint is set.
 * This module imports nothing of OpenTelemetry, so a run without the variables loads none of it.
 */

type Env = Record<string, string | undefined>

/** The OTLP/HTTP encodings we export in (`grpc` is not supported). */
export const OTLP_PROTOCOLS = ['http/protobuf', 'http/json'] as const

/** One of {@link OTLP_PROTOCOLS}. */
export type OtlpProtocol = (typeof OTLP_PROTOCOLS)[number]

/** The service name of our spans when `OTEL_SERVICE_NAME` is unset. */
export const DEFAULT_SERVICE_NAME = 'vitest-agent-bench'

/** The OTLP export timeout when neither `OTEL_EXPORTER_OTLP_TRACES_TIMEOUT` nor `OTEL_EXPORTER_OTLP_TIMEOUT` is set (the specification's). */
export const DEFAULT_EXPORT_TIMEOUT_MS = 10_000

/** Tracing is on: where and how spans are exported. */
export interface OtelExportSettings {
  kind: 'on'
  /** The traces URL: `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT` as is, else `OTEL_EXPORTER_OTLP_ENDPOINT` + `/v1/traces`. */
  url: string
  protocol: OtlpProtocol
  /** `OTEL_EXPORTER_OTLP_HEADERS` and `OTEL_EXPORTER_OTLP_TRACES_HEADERS` (`k=v,k2=v2`, values URL-decoded; the traces ones win). */
  headers: Record<string, string>
  /** `OTEL_SERVICE_NAME`. @default DEFAULT_SERVICE_NAME */
  serviceName: string
  /** `OTEL_EXPORTER_OTLP_TRACES_TIMEOUT` / `OTEL_EXPORTER_OTLP_TIMEOUT` in ms, bounding each export. @default DEFAULT_EXPORT_TIMEOUT_MS */
  timeoutMs: number
  /** `OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT=true`: message and tool contents on the spans (redacted). @default false */
  captureContent: boolean
}

/** What the environment asks for: tracing off, on, or a setting we cannot use (tracing then stays off, with a warning). */
export type OtelSettings = { kind: 'off' } | OtelExportSettings | { kind: 'invalid'; message: string }

const value = (env: Env, name: string): string | undefined => {
  const raw = env[name]?.trim()
  return raw === undefined || raw === '' ? undefined : raw
}

/**
 * The tracing settings of `env` (see {@link OtelSettings}). A bad value is `invalid` with a message naming the
 * variable and the fix, never an exception: tracing is an observer of the run and fails nothing else.
 */
export function otelSettingsFromEnv(env: Env = process.env): OtelSettings {
  const tracesEndpoint = value(env, 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT')
  const endpoint = value(env, 'OTEL_EXPORTER_OTLP_ENDPOINT')
  if (tracesEndpoint === undefined && endpoint === undefined) return { kind: 'off' }
  if (value(env, 'OTEL_SDK_DISABLED')?.toLowerCase() === 'true') return { kind: 'off' }
  const url = tracesEndpoint ?? `${(endpoint as string).replace(/\/+$/, '')}/v1/traces`
  const variable = tracesEndpoint === undefined ? 'OTEL_EXPORTER_OTLP_ENDPOINT' : 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT'
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    return invalid(`${variable}=${tracesEndpoint ?? endpoint} is not a URL`, `set it to the collector's OTLP/HTTP address, e.g. http://127.0.0.1:4318`)
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    return invalid(
      `${variable}=${tracesEndpoint ?? endpoint} is not an http(s) URL`,
      'traces are exported over OTLP/HTTP: give an http:// or https:// address, e.g. http://127.0.0.1:4318',
    )
  }
  const protocolVariable = value(env, 'OTEL_EXPORTER_OTLP_TRACES_PROTOCOL') === undefined ? 'OTEL_EXPORTER_OTLP_PROTOCOL' : 'OTEL_EXPORTER_OTLP_TRACES_PROTOCOL'
  const protocol = value(env, protocolVariable) ?? 'http/protobuf'
  if (!(OTLP_PROTOCOLS as ReadonlyArray<string>).includes(protocol)) {
    return invalid(
      `${protocolVariable}=${protocol} is not supported`,
      `set it to ${OTLP_PROTOCOLS.join(' or ')} (OTLP over HTTP; gRPC is not supported), or unset it for http/protobuf`,
    )
  }
  const headers: Record<string, string> = {}
  for (const name of ['OTEL_EXPORTER_OTLP_HEADERS', 'OTEL_EXPORTER_OTLP_TRACES_HEADERS']) {
    const list = value(env, name)
    if (list === undefined) continue
    for (const pair of list.split(',')) {
      if (pair.trim() === '') continue
      const at = pair.indexOf('=')
      if (at <= 0)
        return invalid(
          `${name} holds ${JSON.stringify(pair.trim().slice(0, 40))}, not key=value`,
          'write it as key=value pairs separated by commas, e.g. authorization=Bearer%20abc,x-team=bench',
        )
      try {
        headers[decodeURIComponent(pair.slice(0, at).trim())] = decodeURIComponent(pair.slice(at + 1).trim())
      } catch {
        return invalid(`${name} holds a badly URL-encoded pair`, 'percent-encode reserved characters of the values (a space is %20)')
      }
    }
  }
  const timeoutVariable = value(env, 'OTEL_EXPORTER_OTLP_TRACES_TIMEOUT') === undefined ? 'OTEL_EXPORTER_OTLP_TIMEOUT' : 'OTEL_EXPORTER_OTLP_TRACES_TIMEOUT'
  const timeoutText = value(env, timeoutVariable)
  const timeoutMs = timeoutText === undefined ? DEFAULT_EXPORT_TIMEOUT_MS : Number(timeoutText)
  if (!Number.isInteger(timeoutMs) || timeoutMs < 1)
    return invalid(`${timeoutVariable}=${timeoutText} is not a whole number of milliseconds`, 'set it to a whole number from 1 up, e.g. 10000')
  return {
    kind: 'on',
    url,
    protocol: protocol as OtlpProtocol,
    headers,
    serviceName: value(env, 'OTEL_SERVICE_NAME') ?? DEFAULT_SERVICE_NAME,
    timeoutMs,
    captureContent: value(env, 'OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT')?.toLowerCase() === 'true',
  }
}

function invalid(problem: string, fix: string): OtelSettings {
  return { kind: 'invalid', message: `OpenTelemetry tracing is off: ${problem}. Fix: ${fix}.` }
}
