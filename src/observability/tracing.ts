// OpenTelemetry tracing, started by a process entry (server.ts, worker.ts) before the app is
// built. Off unless OTEL_EXPORTER_OTLP_ENDPOINT is set, and then the SDK is imported here and
// only here (dynamic imports): with tracing off not one SDK module is loaded, and the app's
// spans (trace-context.ts, on @opentelemetry/api alone) are skipped behind one boolean.
//
// Standard variables apply: OTEL_EXPORTER_OTLP_ENDPOINT (the collector's base URL; spans go to
// <it>/v1/traces as OTLP JSON over HTTP), OTEL_SERVICE_NAME, OTEL_TRACES_SAMPLER and
// OTEL_TRACES_SAMPLER_ARG (default parentbased_always_on; e.g. parentbased_traceidratio + 0.1).
// SQL spans come from Prisma's instrumentation (every Prisma statement, with its query text)
// and, for statements sent to the pool directly (hot reads, job claims), from sqlPool in
// db/client.ts: the pg instrumentation stays registered for pg loaded through require, but it
// cannot hook pg loaded as an ES module, which is how this app loads it.
import { markTracingActive } from './trace-context.js';

export interface Tracing {
  /** Exports every span ended so far (tests, and before exit). */
  flush(): Promise<void>;
  shutdown(): Promise<void>;
}

let started: Tracing | null = null;

/** Starts the SDK when OTEL_EXPORTER_OTLP_ENDPOINT is set; null (nothing loaded) otherwise. */
export async function startTracing(options: { serviceName: string; env?: NodeJS.ProcessEnv }): Promise<Tracing | null> {
  const env = options.env ?? process.env;
  if (!env.OTEL_EXPORTER_OTLP_ENDPOINT && !env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) return null;
  if (env.OTEL_SDK_DISABLED === 'true') return null;
  if (started) return started;
  const [{ NodeSDK }, { OTLPTraceExporter }, { BatchSpanProcessor }, { PrismaInstrumentation }, { PgInstrumentation }] = await Promise.all([
    import('@opentelemetry/sdk-node'),
    import('@opentelemetry/exporter-trace-otlp-http'),
    import('@opentelemetry/sdk-trace-base'),
    import('@prisma/instrumentation'),
    import('@opentelemetry/instrumentation-pg'),
  ]);
  // The exporter reads the endpoint, headers and timeout from the standard variables itself.
  const processor = new BatchSpanProcessor(new OTLPTraceExporter());
  const sdk = new NodeSDK({
    serviceName: env.OTEL_SERVICE_NAME ?? options.serviceName,
    spanProcessors: [processor],
    // Prisma's client-side steps (serializing the result, compiling the query plan) are
    // in-process CPU, not SQL: left out, they halve the spans per statement.
    instrumentations: [new PrismaInstrumentation({ ignoreSpanTypes: ['prisma:client:serialize', 'prisma:client:compile'] }), new PgInstrumentation({ requireParentSpan: true })],
  });
  sdk.start();
  markTracingActive();
  started = {
    flush: () => processor.forceFlush(),
    shutdown: () => sdk.shutdown(),
  };
  return started;
}
