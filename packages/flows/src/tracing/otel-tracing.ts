/**
 * The OpenTelemetry trace pipeline of the flows service: a tracer provider of its own (nothing registered
 * globally), batched OTLP/HTTP export, W3C trace context in and out. Export never slows or fails a run:
 * spans wait in the batch queue (dropped when it is full), and a collector that is down or slow costs one
 * warning per interval in the log.
 */
import { ROOT_CONTEXT, defaultTextMapGetter, type Context } from '@opentelemetry/api';
import type { Logger } from '@switchboard/core';
import type { ExportResult } from '@opentelemetry/core';
import type { ReadableSpan, SpanExporter } from '@opentelemetry/sdk-trace-base';
import type { TracingConfig } from './otel-config.ts';
import { RunTrace, SpanFactory, type RunSpanInfo } from './run-trace.ts';

/** W3C trace context headers of a request (either may be absent). */
export interface TraceCarrier {
  traceparent?: string | string[];
  tracestate?: string | string[];
}

/** Starts runs' traces; `undefined` where tracing is off, so that runs pay nothing for it. */
export interface Tracing {
  /** A run's root span, a child of the caller's trace when `carrier` holds a valid `traceparent`. */
  startRun(info: RunSpanInfo, carrier?: TraceCarrier): RunTrace;
  /** Sends what is queued (at most `timeoutMs` waiting for the collector) and stops. */
  shutdown(timeoutMs?: number): Promise<void>;
}

/**
 * Passes every export on and warns when exports fail: at most once per `intervalMs`, saying how many failed
 * since the last warning and why the latest did (the collector's URL, never the headers: they may hold keys).
 */
class WarningExporter implements SpanExporter {
  private failures = 0;
  private lastWarning = -Infinity;

  constructor(
    private readonly inner: SpanExporter,
    private readonly logger: Logger,
    private readonly url: string,
    private readonly intervalMs: number,
    private readonly now: () => number = () => Date.now(),
  ) {}

  export(spans: ReadableSpan[], done: (result: ExportResult) => void): void {
    this.inner.export(spans, (result) => {
      if (result.code !== 0) this.failed(spans.length, result.error);
      done(result);
    });
  }

  private failed(spans: number, error: Error | undefined): void {
    this.failures += 1;
    const now = this.now();
    if (now - this.lastWarning < this.intervalMs) return;
    this.logger.warn(
      { otlp_url: this.url, failed_exports: this.failures, spans, reason: error?.message ?? 'unknown' },
      'could not export run traces to the OTLP collector; runs go on, their spans are dropped',
    );
    this.failures = 0;
    this.lastWarning = now;
  }

  shutdown(): Promise<void> {
    return this.inner.shutdown();
  }

  forceFlush(): Promise<void> {
    return this.inner.forceFlush?.() ?? Promise.resolve();
  }
}

/**
 * The service's tracing when an OTLP endpoint is configured, else undefined. The SDK is loaded only then,
 * so a service without tracing does not pay for its modules.
 */
export async function createTracing(
  config: TracingConfig | undefined,
  options: { captureContent: boolean; warnIntervalMs: number; logger: Logger },
): Promise<Tracing | undefined> {
  if (!config) return undefined;
  const [{ BasicTracerProvider, BatchSpanProcessor }, { resourceFromAttributes }, { W3CTraceContextPropagator }, exporters] = await Promise.all([
    import('@opentelemetry/sdk-trace-base'),
    import('@opentelemetry/resources'),
    import('@opentelemetry/core'),
    config.protocol === 'http/json' ? import('@opentelemetry/exporter-trace-otlp-http') : import('@opentelemetry/exporter-trace-otlp-proto'),
  ]);
  const exporter = new exporters.OTLPTraceExporter({ url: config.url, headers: config.headers, timeoutMillis: config.timeoutMs });
  const processor = new BatchSpanProcessor(new WarningExporter(exporter, options.logger, config.url, options.warnIntervalMs), {
    scheduledDelayMillis: config.scheduleDelayMs,
    maxQueueSize: config.maxQueueSize,
    maxExportBatchSize: Math.min(config.maxExportBatchSize, config.maxQueueSize),
    exportTimeoutMillis: config.timeoutMs,
  });
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({ ...config.resourceAttributes, 'service.name': config.serviceName }),
    spanProcessors: [processor],
  });
  // The instrumentation scope's name: not the package's (a bundle must name no workspace package, cli/test/build.test.ts).
  const factory = new SpanFactory(provider.getTracer('switchboard-flows', '1.0.0'), options.captureContent);
  const propagator = new W3CTraceContextPropagator();
  const parentOf = (carrier: TraceCarrier | undefined): Context =>
    carrier?.traceparent ? propagator.extract(ROOT_CONTEXT, carrier, defaultTextMapGetter) : ROOT_CONTEXT;
  options.logger.info({ otlp_url: config.url, protocol: config.protocol, capture_content: options.captureContent }, 'exporting run traces over OTLP/HTTP');
  return {
    startRun: (info, carrier) => RunTrace.start(factory, info, parentOf(carrier)),
    async shutdown(timeoutMs = 2000) {
      let timer: NodeJS.Timeout | undefined;
      // A collector that does not answer must not hold a stop for its whole export timeout.
      await Promise.race([provider.shutdown().catch(() => undefined), new Promise((resolve) => (timer = setTimeout(resolve, timeoutMs)))]);
      clearTimeout(timer);
    },
  };
}
