/** Reads the standard OpenTelemetry exporter variables (OTEL_EXPORTER_OTLP_*, OTEL_BSP_*, OTEL_SERVICE_NAME) for the run traces. */
import { ConfigError, envInt, type Env } from '@switchboard/core';

/** Where and how run traces are exported (design/flows.md, "Traces"). */
export interface TracingConfig {
  /** The OTLP/HTTP traces URL: OTEL_EXPORTER_OTLP_TRACES_ENDPOINT as given, else OTEL_EXPORTER_OTLP_ENDPOINT + `/v1/traces`. */
  url: string;
  /** OTEL_EXPORTER_OTLP_TRACES_PROTOCOL, else OTEL_EXPORTER_OTLP_PROTOCOL: `http/protobuf` (default) or `http/json`. */
  protocol: 'http/protobuf' | 'http/json';
  /** OTEL_EXPORTER_OTLP_HEADERS, then OTEL_EXPORTER_OTLP_TRACES_HEADERS over them (`key=value,…`, values URL-encoded). */
  headers: Record<string, string>;
  /** OTEL_EXPORTER_OTLP_TRACES_TIMEOUT, else OTEL_EXPORTER_OTLP_TIMEOUT: longest an export may take, ms (default 10000). */
  timeoutMs: number;
  /** OTEL_BSP_SCHEDULE_DELAY: spans are sent in batches at most this many ms apart (default 5000). */
  scheduleDelayMs: number;
  /** OTEL_BSP_MAX_QUEUE_SIZE: spans held while the collector does not take them; more are dropped (default 2048). */
  maxQueueSize: number;
  /** OTEL_BSP_MAX_EXPORT_BATCH_SIZE: spans per export (default 512). */
  maxExportBatchSize: number;
  /** OTEL_SERVICE_NAME: the resource's `service.name` (default `switchboard-flows`). */
  serviceName: string;
  /** OTEL_RESOURCE_ATTRIBUTES: more resource attributes (`key=value,…`). */
  resourceAttributes: Record<string, string>;
}

const PROTOCOLS = ['http/protobuf', 'http/json'] as const;

/** `key=value,key2=value2` with URL-encoded values (the OTel spec's format for headers and resource attributes). */
function keyValues(env: Env, name: string): Record<string, string> {
  const raw = env[name]?.trim();
  const out: Record<string, string> = {};
  if (!raw) return out;
  for (const pair of raw.split(',')) {
    if (pair.trim() === '') continue;
    const at = pair.indexOf('=');
    if (at <= 0) throw new ConfigError(name, `must be key=value pairs separated by commas, got "${pair.trim().replace(/=.*/, '=…')}"`);
    try {
      out[decodeURIComponent(pair.slice(0, at).trim())] = decodeURIComponent(pair.slice(at + 1).trim());
    } catch {
      throw new ConfigError(name, 'has a value that is not valid URL encoding');
    }
  }
  return out;
}

function httpUrl(env: Env, name: string): URL {
  let url: URL;
  try {
    url = new URL(env[name]!.trim());
  } catch {
    throw new ConfigError(name, 'is not a valid URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new ConfigError(name, `must be an http(s) URL (traces go over OTLP/HTTP), got ${url.protocol}`);
  return url;
}

/**
 * The run traces' export settings, or undefined when no OTLP endpoint is set
 * (or OTEL_SDK_DISABLED=true, or OTEL_TRACES_EXPORTER=none): then runs make no spans at all.
 */
export function loadTracingConfig(env: Env): TracingConfig | undefined {
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === 'true') return undefined;
  const exporter = env.OTEL_TRACES_EXPORTER?.trim().toLowerCase();
  if (exporter === 'none') return undefined;
  if (exporter && exporter !== 'otlp') throw new ConfigError('OTEL_TRACES_EXPORTER', `must be otlp or none, got "${exporter}"`);
  let url: string;
  if (env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim()) url = httpUrl(env, 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT').toString();
  else if (env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim()) {
    const base = httpUrl(env, 'OTEL_EXPORTER_OTLP_ENDPOINT');
    url = `${base.toString().replace(/\/+$/, '')}/v1/traces`;
  } else return undefined;
  const protocolVariable = env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL?.trim() ? 'OTEL_EXPORTER_OTLP_TRACES_PROTOCOL' : 'OTEL_EXPORTER_OTLP_PROTOCOL';
  const protocol = env[protocolVariable]?.trim() || 'http/protobuf';
  if (protocol === 'grpc') throw new ConfigError(protocolVariable, 'grpc is not supported: run traces go over OTLP/HTTP; use http/protobuf or http/json');
  if (!(PROTOCOLS as readonly string[]).includes(protocol)) throw new ConfigError(protocolVariable, `must be http/protobuf or http/json, got "${protocol}"`);
  const timeoutVariable = env.OTEL_EXPORTER_OTLP_TRACES_TIMEOUT?.trim() ? 'OTEL_EXPORTER_OTLP_TRACES_TIMEOUT' : 'OTEL_EXPORTER_OTLP_TIMEOUT';
  return {
    url,
    protocol: protocol as TracingConfig['protocol'],
    headers: { ...keyValues(env, 'OTEL_EXPORTER_OTLP_HEADERS'), ...keyValues(env, 'OTEL_EXPORTER_OTLP_TRACES_HEADERS') },
    timeoutMs: envInt(env, timeoutVariable, 10_000, { min: 1 }),
    scheduleDelayMs: envInt(env, 'OTEL_BSP_SCHEDULE_DELAY', 5000, { min: 1 }),
    maxQueueSize: envInt(env, 'OTEL_BSP_MAX_QUEUE_SIZE', 2048, { min: 1 }),
    maxExportBatchSize: envInt(env, 'OTEL_BSP_MAX_EXPORT_BATCH_SIZE', 512, { min: 1 }),
    serviceName: env.OTEL_SERVICE_NAME?.trim() || 'switchboard-flows',
    resourceAttributes: keyValues(env, 'OTEL_RESOURCE_ATTRIBUTES'),
  };
}
