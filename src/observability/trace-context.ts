// The application's side of tracing, on @opentelemetry/api only (no SDK: that is loaded by
// tracing.ts when OTEL_EXPORTER_OTLP_ENDPOINT is set). While no SDK is registered every call
// here is a no-op and tracingActive() is false, so callers skip even the no-op work.
import { context, propagation, SpanKind, SpanStatusCode, trace, type Context, type Span } from '@opentelemetry/api';

export const TRACER_NAME = 'commerce';
let active = false;

/** Set by tracing.ts once the SDK is registered. */
export function markTracingActive(): void {
  active = true;
}

export function tracingActive(): boolean {
  return active;
}

/** The W3C traceparent of the current span, for a job or an outbox event to carry; null when none. */
export function currentTraceparent(): string | null {
  if (!active) return null;
  const carrier: Record<string, string> = {};
  propagation.inject(context.active(), carrier);
  return carrier.traceparent ?? null;
}

/** The context a stored traceparent continues (the root context when none). */
export function contextFrom(traceparent: string | null | undefined): Context {
  if (!traceparent) return context.active();
  return propagation.extract(context.active(), { traceparent });
}

/** Adds the current trace context's headers (traceparent, tracestate) to outbound headers. */
export function injectTraceHeaders(headers: Record<string, string>): Record<string, string> {
  if (active) propagation.inject(context.active(), headers);
  return headers;
}

/**
 * Runs `fn` in a span (child of `parent`, or of the current span), ending it when `fn` settles;
 * with tracing off, just runs `fn`.
 */
export async function inSpan<T>(
  name: string,
  options: { kind?: SpanKind; attributes?: Record<string, string | number | boolean>; parent?: Context },
  fn: (span: Span | null) => Promise<T>,
): Promise<T> {
  if (!active) return fn(null);
  const parent = options.parent ?? context.active();
  const span = trace.getTracer(TRACER_NAME).startSpan(name, { kind: options.kind ?? SpanKind.INTERNAL, attributes: options.attributes }, parent);
  try {
    return await context.with(trace.setSpan(parent, span), () => fn(span));
  } catch (error) {
    span.recordException(error as Error);
    span.setStatus({ code: SpanStatusCode.ERROR, message: (error as Error)?.message });
    throw error;
  } finally {
    span.end();
  }
}

/**
 * A fetch whose calls are client spans (`<label> POST api.goshippo.com`) carrying the trace's
 * `traceparent`, for calls to providers (tax, carrier rates, image imports); plain `send` while
 * tracing is off. Webhook deliveries make their own span (webhooks/deliver.ts).
 */
export function tracedFetch(send: typeof fetch, label: string): typeof fetch {
  return (input, init) => {
    if (!active) return send(input, init);
    const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
    const method = (init?.method ?? (input instanceof Request ? input.method : 'GET')).toUpperCase();
    return inSpan(
      `${label} ${method} ${url.host}`,
      { kind: SpanKind.CLIENT, attributes: { 'http.request.method': method, 'server.address': url.hostname, 'url.path': url.pathname } },
      async (span) => {
        const headers = new Headers(init?.headers);
        propagation.inject(context.active(), headers, { set: (carrier, key, value) => carrier.set(key, value) });
        const response = await send(input, { ...init, headers });
        span?.setAttribute('http.response.status_code', response.status);
        if (response.status >= 500) span?.setStatus({ code: SpanStatusCode.ERROR });
        return response;
      },
    );
  };
}

export { SpanKind };
