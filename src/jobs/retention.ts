// Retention: finished work is deleted after config.retention.maxAgeDays (default 30), so the
// outbox, the job table and the webhook attempt log do not grow without bound. Only finished rows
// go: dispatched events, succeeded jobs (failed ones stay for operators to inspect and retry) and
// delivery attempts (the delivery row with its status and last error stays while its endpoint
// does). Every worker runs the prune on its own timer (retention.intervalMs); the deletes are
// idempotent, so several workers pruning at once only repeat a no-op. The `retention/prune` task
// does the same for one organization, for cron-only deployments.
import type { Db } from '../db/client.js';
import { defineTask } from './tasks.js';

export interface PruneReport {
  events: number;
  jobs: number;
  webhookAttempts: number;
}

export async function pruneFinished(db: Db, options: { maxAgeDays: number; organizationId?: string; now?: Date }): Promise<PruneReport> {
  const cutoff = new Date((options.now ?? new Date()).getTime() - options.maxAgeDays * 24 * 60 * 60 * 1000);
  const org = options.organizationId ? { organizationId: options.organizationId } : {};
  // One transaction: a prune either happens as a whole or not at all.
  const [events, jobs, webhookAttempts] = await db.$transaction([
    db.domainEvent.deleteMany({ where: { ...org, dispatchedAt: { not: null, lt: cutoff } } }),
    db.job.deleteMany({ where: { ...org, status: 'succeeded', completedAt: { lt: cutoff } } }),
    db.webhookDeliveryAttempt.deleteMany({ where: { ...org, createdAt: { lt: cutoff } } }),
  ]);
  return { events: events.count, jobs: jobs.count, webhookAttempts: webhookAttempts.count };
}

declare module './tasks.js' {
  interface TaskTypes {
    'retention/prune': { input: { maxAgeDays?: number }; output: PruneReport };
  }
}

defineTask({
  slug: 'retention/prune',
  async handler(input, ctx) {
    const maxAgeDays = typeof input.maxAgeDays === 'number' && input.maxAgeDays > 0 ? input.maxAgeDays : ctx.config.retention.maxAgeDays;
    return pruneFinished(ctx.db, { maxAgeDays, organizationId: ctx.organizationId });
  },
});
