// Payment jobs (the job table):
//   payments/capture-on-fulfilment  enqueued in the transaction that records an order's first
//                                   fulfilment when a payment of it is in capture mode
//                                   on_fulfilment: captures the WHOLE remaining authorization (the
//                                   merchant ships the order; splitting per shipment would leave
//                                   rounding and shipping-line questions to the provider). Retried
//                                   with backoff while the provider is unreachable.
//   payments/expire-action          enqueued when checkout answers requires_action, delayed by the
//                                   reservation expiry (settings payments.actionExpiryMinutes,
//                                   default 30): a payment still waiting for the shopper is marked
//                                   failed (authentication_abandoned), the order cancelled and its
//                                   stock and promotion uses released.
import type { Tx } from '../../db/client.js';
import { AppError } from '../../errors.js';
import { defineTask, JobError } from '../../jobs/tasks.js';
import type { TaskContext } from '../../jobs/tasks.js';
import type { OrdersCtx } from '../orders/shared.js';
import { captureOrder } from './capture.js';
import { abandonAction } from './confirm.js';

export const CAPTURE_ON_FULFILMENT_TASK = 'payments/capture-on-fulfilment';
export const EXPIRE_ACTION_TASK = 'payments/expire-action';

declare module '../../jobs/tasks.js' {
  interface TaskTypes {
    'payments/capture-on-fulfilment': { input: { orderId: string }; output: { captured: number } };
    'payments/expire-action': { input: { paymentId: string }; output: { outcome: string } };
  }
}

/** The organization's context for system work in a job. */
export function jobCtx(ctx: TaskContext): OrdersCtx {
  return {
    db: ctx.db,
    organization: { id: ctx.organizationId } as OrdersCtx['organization'],
    actor: null,
    config: ctx.config,
    services: ctx.services,
    requestId: `job:${ctx.job.id}`,
    logger: ctx.logger,
  };
}

/** Called where a fulfilment is recorded: schedules the capture when a payment waits for it. */
export async function captureOnFulfilment(tx: Tx, ctx: Pick<OrdersCtx, 'services' | 'organization'>, orderId: string): Promise<void> {
  const waiting = await tx.payment.count({
    where: { orderId, organizationId: ctx.organization.id, captureMode: 'on_fulfilment', status: { in: ['authorized', 'partially_captured'] } },
  });
  if (!waiting) return;
  await ctx.services.jobs.enqueue({ task: CAPTURE_ON_FULFILMENT_TASK, organizationId: ctx.organization.id, input: { orderId } }, tx);
}

export async function scheduleActionExpiry(tx: Tx, ctx: Pick<OrdersCtx, 'services' | 'organization'>, paymentId: string, delayMs: number): Promise<void> {
  await ctx.services.jobs.enqueue({ task: EXPIRE_ACTION_TASK, organizationId: ctx.organization.id, input: { paymentId }, delayMs }, tx);
}

defineTask({
  slug: CAPTURE_ON_FULFILMENT_TASK,
  retries: { attempts: 8, backoff: { type: 'exponential', delay: 30_000 } },
  concurrency: { key: (input) => `order-capture:${input.orderId}` },
  async handler(input, ctx) {
    try {
      const outcome = await captureOrder(jobCtx(ctx), input.orderId, undefined, { system: true });
      return { captured: outcome.captured };
    } catch (error) {
      // Captured already (by staff, or a previous run whose answer was recorded): nothing to do.
      if (error instanceof AppError && error.code === 'CONFLICT' && (error.details as { capturable?: number } | undefined)?.capturable === 0) return { captured: 0 };
      if (error instanceof AppError && error.code === 'SERVICE_UNAVAILABLE') throw new JobError(error.message);
      throw error;
    }
  },
});

defineTask({
  slug: EXPIRE_ACTION_TASK,
  retries: { attempts: 5, backoff: { type: 'exponential', delay: 30_000 } },
  concurrency: { key: (input) => `payment:${input.paymentId}` },
  async handler(input, ctx) {
    return { outcome: await abandonAction(jobCtx(ctx), input.paymentId) };
  },
});
