// The job that pays a refund out once its undo window has passed: `orders/settle-refund`,
// enqueued in the refund's own transaction with the window as delay (so it exists only if the
// refund commits), retried with backoff while the provider is unreachable.
import type { Tx } from '../../db/client.js';
import { defineTask, JobError } from '../../jobs/tasks.js';
import { settleRefund } from './refunds.js';
import type { OrdersCtx } from './shared.js';

export const SETTLE_REFUND_TASK = 'orders/settle-refund';

declare module '../../jobs/tasks.js' {
  interface TaskTypes {
    'orders/settle-refund': { input: { refundId: string }; output: { outcome: string } };
  }
}

/** A little after the deadline, so the job never wakes up just before it. */
const MARGIN_MS = 1_000;

export async function scheduleRefundSettlement(tx: Tx, ctx: Pick<OrdersCtx, 'services' | 'organization'>, refundId: string, windowMs: number): Promise<void> {
  // A zero window settles right after commit (refunds.ts); the job is the safety net if that fails.
  await ctx.services.jobs.enqueue(
    { task: SETTLE_REFUND_TASK, organizationId: ctx.organization.id, input: { refundId }, delayMs: windowMs + MARGIN_MS },
    tx,
  );
}

defineTask({
  slug: SETTLE_REFUND_TASK,
  retries: { attempts: 8, backoff: { type: 'exponential', delay: 30_000 } },
  concurrency: { key: (input) => `refund:${input.refundId}` },
  async handler(input, ctx) {
    const outcome = await settleRefund({ db: ctx.db, payments: ctx.services.payments, logger: ctx.logger }, ctx.organizationId, input.refundId);
    if (outcome === 'notDue') throw new JobError('the undo window of this refund has not closed yet', { retryAfterMs: 5_000 });
    return { outcome };
  },
});
