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
 * The most of the time counted requests may be in flight (below a rate of 1). While one is, Node 20
 * runs its promise hooks for every request of the process, ~10% of a catalog page's CPU, and "one
 * request in a hundred" alone did not bound that time: under 50 connections a storefront card
 * takes ~300 ms, so at 140 pages/s a counted one was in flight about 40% of the time (GraphQL card,
 * 7 A/B rounds: counting off cost 0.91 of counting on).
 */
export const MAX_COUNTING_SHARE = 0.05;

export interface StatementSampler {
  /** Whether this request of `route` counts its statements; if so, call done() when it has ended. */
  take(route: string): boolean;
  done(): void;
}

/**
 * Which requests count their SQL statements: each route's first one, then `rate` of the rest,
 * evenly (with 0.01, one in a hundred), and below a rate of 1 only while counted requests have
 * been in flight at most `maxShare` of the time: after they were in flight for t ms, the next
 * counted request (a route's first excepted) waits until t × (1 / maxShare − 1) ms have passed,
 * and keeps its turn till then. Counting needs the statement scope's AsyncLocalStorage (see
 * MAX_COUNTING_SHARE). Route templates are a bounded set (route-label.ts), so is this map.
 */
export function statementSampler(rate: number, options: { maxShare?: number; now?: () => number } = {}): StatementSampler {
  const credit = new Map<string, number>();
  const maxShare = options.maxShare ?? MAX_COUNTING_SHARE;
  const now = options.now ?? (() => performance.now());
  let inFlight = 0;
  let onSince = 0;
  let quietUntil = 0;
  const start = () => {
    if (inFlight === 0) onSince = now();
    inFlight += 1;
    return true;
  };
  return {
    take(route) {
      if (rate <= 0) return false;
      const owed = credit.get(route);
      if (owed === undefined) {
        credit.set(route, 0);
        return start();
      }
      const next = owed + rate;
      if (next < 1) {
        credit.set(route, next);
        return false;
      }
      // Due, but counting is resting: the turn is kept for the first request after the rest.
      if (rate < 1 && inFlight === 0 && now() < quietUntil) {
        credit.set(route, 1 - rate);
        return false;
      }
      credit.set(route, next - 1);
      return start();
    },
    done() {
      inFlight -= 1;
      // A route's first request may end inside a rest: it lengthens the rest, never shortens it.
      if (inFlight > 0) return;
      const at = now();
      quietUntil = Math.max(quietUntil, at + (at - onSince) * (1 / maxShare - 1));
    },
  };
}

export function requestObserver(options: { metrics: Metrics | null; sqlStatementsSampleRate: number }) {
  const { metrics } = options;
  const tracing = tracingActive();
  const sampler = statementSampler(options.sqlStatementsSampleRate);
  async function observe(request: Request, serve: (request: Request) => Promise<Response>): Promise<Response> {
    const started = performance.now();
    const path = pathOf(request.url);
    const route = routeTemplate(request.method, path);
    const scope = metrics && sampler.take(route) ? { statements: 0 } : null;
    const run = () => (scope ? statementScope.run(scope, () => serve(request)).finally(() => sampler.done()) : serve(request));
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
