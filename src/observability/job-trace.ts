// Trace context through the job payload: a job enqueued inside a traced span carries that span's
// traceparent under TRACE_INPUT_KEY in its input; the runner takes it out before the handler sees
// the input and runs the handler in a span continuing that trace (and times it for metrics).
import { performance } from 'node:perf_hooks';
import type { Metrics } from './metrics.js';
import { contextFrom, currentTraceparent, inSpan, SpanKind, tracingActive } from './trace-context.js';

export const TRACE_INPUT_KEY = '__traceparent';

/** The input to store: with the trace's traceparent when there is one (the given one, else the current span's). */
export function withTraceparent<I>(input: I, traceparent?: string | null): I {
  if (!tracingActive()) return input;
  const value = traceparent ?? currentTraceparent();
  return value ? ({ ...(input as object), [TRACE_INPUT_KEY]: value } as I) : input;
}

/** The input a handler sees (without the trace key) and the traceparent it carried. */
export function splitTraceparent(input: unknown): { input: unknown; traceparent: string | null } {
  if (typeof input !== 'object' || input === null || !(TRACE_INPUT_KEY in input)) return { input, traceparent: null };
  const { [TRACE_INPUT_KEY]: traceparent, ...rest } = input as Record<string, unknown>;
  return { input: rest, traceparent: typeof traceparent === 'string' ? traceparent : null };
}

/** Runs a job's handler in its span and records its duration and outcome (succeeded / failed). */
export async function observeJob<T>(
  metrics: Metrics | undefined,
  job: { id: string; taskSlug: string; attempts: number },
  traceparent: string | null,
  run: () => Promise<T>,
): Promise<T> {
  const started = performance.now();
  let outcome = 'failed';
  try {
    const result = await inSpan(
      `job ${job.taskSlug}`,
      { kind: SpanKind.CONSUMER, parent: contextFrom(traceparent), attributes: { 'job.id': job.id, 'job.task': job.taskSlug, 'job.attempt': job.attempts } },
      () => run(),
    );
    outcome = 'succeeded';
    return result;
  } finally {
    metrics?.job(job.taskSlug, outcome, (performance.now() - started) / 1000);
  }
}
