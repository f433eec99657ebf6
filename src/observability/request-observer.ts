// Measures and traces one HTTP request around the whole pipeline (http/app.ts): the duration
// histogram by route template, the SQL statements it sent, 429 refusals, and the server span
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

export function requestObserver(options: { metrics: Metrics | null }) {
  const { metrics } = options;
  const tracing = tracingActive();
  async function observe(request: Request, serve: (request: Request) => Promise<Response>): Promise<Response> {
    const started = performance.now();
    const path = pathOf(request.url);
    const route = routeTemplate(request.method, path);
    const scope = { statements: 0 };
    const run = () => (metrics ? statementScope.run(scope, () => serve(request)) : serve(request));
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
      metrics.httpRequest(request.method, route, response.status, (performance.now() - started) / 1000, scope.statements);
      if (response.status === 429) metrics.rateLimitRefusal(route);
    }
    return response;
  }
  return { observed: metrics !== null || tracing, observe };
}
