// Enqueues the settlement job of a refund (the job itself: settlement.ts). Apart from the job, so
// refunds.ts schedules it without importing the job that calls back into refunds.ts.
import type { Tx } from '../../db/client.js';
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
  await ctx.services.jobs.enqueue({ task: SETTLE_REFUND_TASK, organizationId: ctx.organization.id, input: { refundId }, delayMs: windowMs + MARGIN_MS }, tx);
}
