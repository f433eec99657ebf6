// Measures and traces one HTTP request around the whole pipeline (http/app.ts): the duration
// histogram by route template, the SQL statements it sent (sampled: statementSampler), 429 refusals, and the server span
// (child of an incoming `traceparent`). With metrics off and tracing off, app.ts never calls it.
import { performance } from 'node:perf_hooks';
import { context, propagation, SpanKind, SpanStatusCode, trace, type TextMapGetter } from '@opentelemetry/api';
import { statementScope } from '../db/client.js';
import type { Metrics } from './metrics.js';
import { routeTemplate } from './route-label.js';
import { tracingActive, TRACER_NAME } from './trace-context.js';

const headerGetter: TextMapGetter<Headers> = {
  keys: (headers) => [...headers.keys()],
  get: (headers, key) => headers.get(key) ?? undefined,
};

function pathOf(url: string): string {
  // The path without parsing the whole URL: the request line is absolute (scheme://host/path?q).
  const start = url.indexOf('/', url.indexOf('//') + 2);
  if (start < 0) return '/';
  const end = url.indexOf('?', start);
  return end < 0 ? url.slice(start) : url.slice(start, end);
}

/** One request in a hundred, besides each route's first (config metrics.sqlStatementsSampleRate). */
export const DEFAULT_SQL_STATEMENTS_SAMPLE_RATE = 0.01;

/**
 * Which requests count their SQL statements: each route's first one, then `rate` of the rest,
 * evenly (with 0.01, one in a hundred). Counting needs the statement scope's AsyncLocalStorage,
 * and while one counted request is in flight Node 20 runs its promise hooks for every request of
 * the process (src/async-storage.ts): counting them all cost 8–20% of a read's CPU. Route
 * templates are a bounded set (route-label.ts), so is this map.
 */
export function statementSampler(rate: number): (route: string) => boolean {
  const credit = new Map<string, number>();
  return (route) => {
    if (rate <= 0) return false;
    const owed = credit.get(route);
    if (owed === undefined) {
      credit.set(route, 0);
      return true;
    }
    const next = owed + rate;
    credit.set(route, next >= 1 ? next - 1 : next);
    return next >= 1;
  };
}

export function requestObserver(options: { metrics: Metrics | null; sqlStatementsSampleRate: number }) {
  const { metrics } = options;
  const tracing = tracingActive();
  const counted = statementSampler(options.sqlStatementsSampleRate);
  async function observe(request: Request, serve: (request: Request) => Promise<Response>): Promise<Response> {
    const started = performance.now();
    const path = pathOf(request.url);
    const route = routeTemplate(request.method, path);
    const scope = metrics && counted(route) ? { statements: 0 } : null;
    const run = () => (scope ? statementScope.run(scope, () => serve(request)) : serve(request));
    let response: Response;
    if (tracing) {
      const parent = propagation.extract(context.active(), request.headers, headerGetter);
      const span = trace
        .getTracer(TRACER_NAME)
        .startSpan(`${request.method} ${route}`, { kind: SpanKind.SERVER, attributes: { 'http.request.method': request.method, 'http.route': route, 'url.path': path } }, parent);
      try {
        response = await context.with(trace.setSpan(parent, span), run);
        span.setAttribute('http.response.status_code', response.status);
        if (response.status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
      } catch (error) {
        span.recordException(error as Error);
        span.setStatus({ code: SpanStatusCode.ERROR });
        throw error;
      } finally {
        span.end();
      }
    } else {
      response = await run();
    }
    if (metrics) {
      metrics.httpRequest(request.method, route, response.status, (performance.now() - started) / 1000, scope ? scope.statements : null);
      if (response.status === 429) metrics.rateLimitRefusal(route);
    }
    return response;
  }
  return { observed: metrics !== null || tracing, observe };
}
