// Webhook fan-out and delivery.
//   fan-out  — a required batch subscriber of the event dispatcher: for each dispatched event and
//              each endpoint of its organization subscribed to it (by name or `*`), one delivery
//              row and one `webhooks/deliver` job, in the dispatch transaction;
//   delivery — the task: POST the body, signed the Standard Webhooks way, record the attempt.
//              Network errors, 5xx, 408 and 429 are retried with exponential backoff
//              (webhooks.retryDelayMs · 2^(n−1), up to webhooks.maxAttempts); any other answer ends
//              the delivery as failed at once. A failed delivery can be redelivered (service.ts).
import { randomUUID } from 'node:crypto';
import type { Config } from '../../config/index.js';
import { allowsPrivateWebhookTargets } from '../../config/schema.js';
import type { Tx } from '../../db/client.js';
import type { Prisma } from '../../generated/prisma/client.js';
import { eventSubscribers, type DispatchedEvent } from '../../events/subscribers.js';
import { backoffDelayMs, MAX_BACKOFF_MS } from '../../jobs/backoff.js';
import { enqueueMany } from '../../jobs/enqueue.js';
import { injectTraceHeaders, inSpan, SpanKind } from '../../observability/trace-context.js';
import { defineTask, JobError, type RetryPolicy } from '../../jobs/tasks.js';
import { sendWebhook } from './send.js';
import { signatureHeaders } from './signing.js';

export const DELIVER_TASK = 'webhooks/deliver';

/** The body of every delivery. */
export interface WebhookBody {
  id: string;
  type: string;
  createdAt: string;
  organizationId: string;
  data: unknown;
}

export interface DeliveryOutcome {
  deliveryId: string;
  statusCode: number | null;
  attempt: number;
  durationMs: number;
  skipped?: string;
}

declare module '../../jobs/tasks.js' {
  interface TaskTypes {
    'webhooks/deliver': { input: { deliveryId: string }; output: DeliveryOutcome };
  }
}

export function webhookRetryPolicy(config: Config): RetryPolicy {
  return { attempts: config.webhooks.maxAttempts - 1, backoff: { type: 'exponential', delay: config.webhooks.retryDelayMs } };
}

/** Statuses worth another attempt: the receiver may answer differently later. */
export function isRetryableStatus(status: number): boolean {
  return status >= 500 || status === 408 || status === 429;
}

export function bodyOf(event: DispatchedEvent): WebhookBody {
  return { id: event.id, type: event.type, createdAt: event.createdAt.toISOString(), organizationId: event.organizationId, data: event.payload };
}

/** Creates a delivery job for a delivery row (fan-out and redelivery). */
export async function enqueueDeliveries(
  tx: Tx,
  config: Config,
  deliveries: Array<{ id: string; organizationId: string; jobId: string; traceparent?: string | null }>,
): Promise<void> {
  await enqueueMany(
    { db: tx, config },
    deliveries.map((d) => ({ id: d.jobId, task: DELIVER_TASK, organizationId: d.organizationId, input: { deliveryId: d.id }, traceparent: d.traceparent })),
  );
}

eventSubscribers.onBatch(
  async function webhookFanOut(events, ctx) {
    const organizations = [...new Set(events.map((e) => e.organizationId))];
    const endpoints = await ctx.db.webhookEndpoint.findMany({
      where: { organizationId: { in: organizations } },
      select: { id: true, organizationId: true, events: true },
    });
    if (endpoints.length === 0) return;
    const deliveries: Prisma.WebhookDeliveryCreateManyInput[] = [];
    // Each delivery continues the trace of the request that recorded its event.
    const traceOf = new Map<string, string | null | undefined>();
    for (const event of events) {
      for (const endpoint of endpoints) {
        if (endpoint.organizationId !== event.organizationId) continue;
        if (!endpoint.events.includes('*') && !endpoint.events.includes(event.type)) continue;
        deliveries.push({
          id: randomUUID(),
          organizationId: event.organizationId,
          endpointId: endpoint.id,
          eventId: event.id,
          eventType: event.type,
          payload: bodyOf(event) as unknown as Prisma.InputJsonValue,
          jobId: randomUUID(),
        });
        // biome-ignore lint/style/noNonNullAssertion: predates the rule (issue 31), not reviewed yet: justify here or remove it when touching this line
        traceOf.set(deliveries.at(-1)!.id!, event.traceparent);
      }
    }
    if (deliveries.length === 0) return;
    await ctx.db.webhookDelivery.createMany({ data: deliveries });
    await enqueueDeliveries(
      ctx.db,
      ctx.config,
      // biome-ignore lint/style/noNonNullAssertion: predates the rule (issue 31), not reviewed yet: justify here or remove it when touching this line
      deliveries.map((d) => ({ id: d.id!, organizationId: d.organizationId, jobId: d.jobId!, traceparent: traceOf.get(d.id!) })),
    );
  },
  { name: 'webhooks fan-out', required: true },
);

defineTask({
  slug: DELIVER_TASK,
  retries: webhookRetryPolicy,
  async handler(input, ctx) {
    const delivery = await ctx.db.webhookDelivery.findFirst({
      where: { id: input.deliveryId, organizationId: ctx.organizationId },
      include: { endpoint: { select: { url: true, secret: true } } },
    });
    if (!delivery) return { deliveryId: input.deliveryId, statusCode: null, attempt: 0, durationMs: 0, skipped: 'the delivery or its endpoint was deleted' };

    const attempt = delivery.attempts + 1;
    const body = JSON.stringify(delivery.payload);
    const timestamp = Math.floor(Date.now() / 1000);
    const url = new URL(delivery.endpoint.url);
    // The outbound POST is a client span of the job's trace; the receiver gets its traceparent.
    const result = await inSpan(
      `webhook POST ${url.host}`,
      { kind: SpanKind.CLIENT, attributes: { 'http.request.method': 'POST', 'server.address': url.hostname, 'webhook.delivery_id': delivery.id } },
      async (span) => {
        const sent = await sendWebhook({
          url,
          headers: injectTraceHeaders(signatureHeaders(delivery.endpoint.secret, delivery.id, timestamp, body)),
          body,
          timeoutMs: ctx.config.webhooks.timeoutMs,
          allowPrivate: allowsPrivateWebhookTargets(ctx.config),
          signal: ctx.signal,
        });
        if (sent.statusCode !== null) span?.setAttribute('http.response.status_code', sent.statusCode);
        return sent;
      },
    );

    const ok = result.statusCode !== null && result.statusCode >= 200 && result.statusCode < 300;
    const retryable = !ok && !result.blocked && (result.statusCode === null || isRetryableStatus(result.statusCode));
    const willRetry = retryable && ctx.job.attempts < ctx.job.maxAttempts;
    const problem = ok ? null : (result.error ?? `the receiver answered HTTP ${result.statusCode}`);
    await ctx.db.$transaction([
      ctx.db.webhookDeliveryAttempt.create({
        data: {
          organizationId: delivery.organizationId,
          deliveryId: delivery.id,
          attempt,
          statusCode: result.statusCode,
          durationMs: result.durationMs,
          responseExcerpt: result.responseExcerpt,
          error: result.error,
        },
      }),
      ctx.db.webhookDelivery.update({
        where: { id: delivery.id },
        data: {
          attempts: { increment: 1 },
          status: ok ? 'succeeded' : willRetry ? 'pending' : 'failed',
          lastStatusCode: result.statusCode,
          lastError: problem,
          ...(ok ? { deliveredAt: new Date() } : {}),
        },
      }),
    ]);
    ctx.services.metrics?.webhookDelivery(ok ? 'succeeded' : willRetry ? 'retrying' : 'failed');
    if (ok) return { deliveryId: delivery.id, statusCode: result.statusCode, attempt, durationMs: result.durationMs };

    // Retry-After (429, 503) may ask for a longer wait than the backoff, never a shorter one.
    const backoff = backoffDelayMs(webhookRetryPolicy(ctx.config).backoff, ctx.job.attempts);
    throw new JobError(`delivery attempt ${attempt} failed: ${problem}`, {
      retry: retryable,
      ...(result.retryAfterMs !== undefined ? { retryAfterMs: Math.min(Math.max(result.retryAfterMs, backoff), MAX_BACKOFF_MS) } : {}),
    });
  },
});
