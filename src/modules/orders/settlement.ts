// The job that pays a refund out once its undo window has passed: `orders/settle-refund`,
// enqueued in the refund's own transaction with the window as delay (so it exists only if the
// refund commits), retried with backoff while the provider is unreachable.
import { defineTask, JobError } from '../../jobs/tasks.js';
import { settleRefund } from './refunds.js';
import { SETTLE_REFUND_TASK } from './settlement-schedule.js';

export { SETTLE_REFUND_TASK, scheduleRefundSettlement } from './settlement-schedule.js';

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
