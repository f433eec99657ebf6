// GraphQL's share of metrics and traces, as one envelop plugin (last in Yoga's list, so the
// execute function it wraps is the final one, compiled or not): the operation duration histogram
// by operation name and first error code (documents refused at parse or validation included), and parse / validate / execute spans. The execute span
// is the active context while resolvers run, so Prisma's SQL spans become its children.
import { performance } from 'node:perf_hooks';
import { getOperationAST, type DocumentNode } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { context, SpanStatusCode, trace, type Span } from '@opentelemetry/api';
import type { Metrics } from './metrics.js';
import { tracingActive, TRACER_NAME } from './trace-context.js';

function isAsyncIterable(value: unknown): value is AsyncIterable<unknown> {
  return typeof value === 'object' && value !== null && Symbol.asyncIterator in value;
}

function firstErrorCode(result: { errors?: readonly { extensions?: Record<string, unknown> }[] }): string | null {
  const error = result.errors?.[0];
  if (!error) return null;
  return typeof error.extensions?.code === 'string' ? error.extensions.code : 'OTHER';
}

function endSpan(span: Span, failed: boolean): void {
  if (failed) span.setStatus({ code: SpanStatusCode.ERROR });
  span.end();
}

/** One operation's execution, observed: `run` makes its span the active context, `done` records it. */
export interface ExecutionObservation {
  run<T>(execute: () => T): T;
  done(result: { errors?: readonly { extensions?: Record<string, unknown> }[] }): void;
  /** A streamed result (async iterable): the span ends, no duration is recorded. */
  streamed(): void;
}

/**
 * Starts observing executions (the duration histogram by operation name and first error code, and
 * the execute span), or null when neither metrics nor tracing is on. The plugin below uses it for
 * /graphql, the REST facade's executor (http/rest-facade.ts) for REST routes.
 */
export function executionObserver(metrics: Metrics | null): ((args: { document: DocumentNode; operationName?: string | null }) => ExecutionObservation) | null {
  const tracing = tracingActive();
  if (!metrics && !tracing) return null;
  const tracer = () => trace.getTracer(TRACER_NAME);
  return (args) => {
    const started = performance.now();
    const operation = getOperationAST(args.document, args.operationName);
    const name = operation?.name?.value ?? null;
    let span: Span | undefined;
    let spanContext: ReturnType<typeof context.active> | undefined;
    if (tracing) {
      span = tracer().startSpan(`graphql.execute ${operation?.operation ?? 'query'} ${name ?? 'anonymous'}`, {
        attributes: { 'graphql.operation.name': name ?? 'anonymous', 'graphql.operation.type': operation?.operation ?? 'unknown' },
      });
      spanContext = trace.setSpan(context.active(), span);
    }
    return {
      run: (execute) => (spanContext ? context.with(spanContext, execute) : execute()),
      streamed: () => span?.end(),
      done(result) {
        const code = firstErrorCode(result);
        metrics?.graphqlOperation(name, code, (performance.now() - started) / 1000);
        if (span) {
          if (code) span.setAttribute('graphql.error.code', code);
          endSpan(span, code !== null);
        }
      },
    };
  };
}

export function useGraphqlObserver(metrics: Metrics | null): Plugin | null {
  const tracing = tracingActive();
  const observeExecution = executionObserver(metrics);
  if (!observeExecution) return null;
  const tracer = () => trace.getTracer(TRACER_NAME);
  return {
    // A document refused before execution still counts in the operation series, with the code
    // its answer carries (GRAPHQL_PARSE_FAILED / GRAPHQL_VALIDATION_FAILED): a client sending
    // broken queries shows on the dashboard's error rate like one whose operations fail.
    onParse() {
      const started = performance.now();
      const span = tracing ? tracer().startSpan('graphql.parse') : null;
      return ({ result }) => {
        const failed = result instanceof Error;
        if (span) endSpan(span, failed);
        if (failed) metrics?.graphqlOperation(null, 'GRAPHQL_PARSE_FAILED', (performance.now() - started) / 1000);
      };
    },
    onValidate({ params }) {
      const started = performance.now();
      const span = tracing ? tracer().startSpan('graphql.validate') : null;
      return ({ valid }) => {
        if (span) endSpan(span, !valid);
        if (!valid) metrics?.graphqlOperation(getOperationAST(params.documentAST)?.name?.value ?? null, 'GRAPHQL_VALIDATION_FAILED', (performance.now() - started) / 1000);
      };
    },
    onExecute({ args, executeFn, setExecuteFn }) {
      const observation = observeExecution(args as { document: DocumentNode; operationName?: string | null });
      if (tracing) setExecuteFn((executeArgs) => observation.run(() => executeFn(executeArgs)));
      return {
        onExecuteDone({ result }) {
          if (isAsyncIterable(result)) {
            observation.streamed();
            return;
          }
          observation.done(result);
        },
      };
    },
  };
}
