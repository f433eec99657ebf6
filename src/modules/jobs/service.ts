// Jobs operations for operators and cron: list failed jobs, retry one, run one batch. Everything
// is scoped to ctx.organization: an organization sees, retries and runs only its own jobs.
import { randomUUID } from 'node:crypto';
import type { RequestContext } from '../../context.js';
import { AppError, forbidden, notFound } from '../../errors.js';
import type { Job } from '../../generated/prisma/client.js';
import { paginate, type Page, type PageInput } from '../../graphql/pagination.js';
import { WILDCARD } from '../../auth/permissions.js';
import { dispatchEvents } from '../../events/dispatcher.js';
import { JobRunner, type BatchReport } from '../../jobs/runner.js';
import { reapStaleJobs, retryFailedJob } from '../../jobs/store.js';

type Ctx = Pick<RequestContext, 'db' | 'organization' | 'services' | 'logger' | 'config' | 'actor' | 'requestId'>;

export async function listFailedJobs(ctx: Ctx, input: PageInput): Promise<Page<Job>> {
  const where = { organizationId: ctx.organization.id, status: 'failed' };
  return paginate(ctx, input, {
    list: 'jobs',
    model: 'Job',
    where,
    orderBy: [{ updatedAt: 'desc' as const }, { id: 'asc' as const }],
    findMany: (args) => ctx.db.job.findMany(args),
    count: (w) => ctx.db.job.count({ where: w }),
    view: (rows) => rows,
  });
}

/** failed → pending with a fresh attempt budget; 404 outside the organization, 422 unless failed. */
export async function retryJob(ctx: Ctx, id: string): Promise<Job> {
  const job = await retryFailedJob(ctx.db, ctx.organization.id, id);
  if (job) return job;
  const existing = await ctx.db.job.findFirst({ where: { id, organizationId: ctx.organization.id }, select: { status: true } });
  if (!existing) throw notFound('Job');
  throw new AppError('INVALID_TRANSITION', `Only a failed job can be retried; this one is ${existing.status}`, { from: existing.status, to: 'pending', allowed: [] });
}

export interface CronRunReport extends BatchReport {
  /** Outbox events dispatched before the batch (webhook deliveries among the jobs). */
  dispatchedEvents: number;
  /** This organization's jobs taken back from stopped workers before the batch. */
  reaped: number;
}

/**
 * GET /jobs/run: reap this organization's stale jobs, dispatch its pending events, then claim and
 * run one batch of its jobs and report. In production only an API key holding *:* may call it
 * (a cron secret, not a person's session).
 */
export async function runJobsOnce(ctx: Ctx, input: { queue: string; limit: number }): Promise<CronRunReport> {
  if (ctx.config.env === 'production' && !(ctx.actor?.kind === 'apiKey' && ctx.actor.permissions.includes(WILDCARD))) {
    throw forbidden('In production GET /jobs/run needs an API key with *:*');
  }
  const deps = { db: ctx.db, config: ctx.config, logger: ctx.logger, services: ctx.services };
  const reaped = await reapStaleJobs(ctx.db, { staleAfterMs: ctx.config.jobs.staleAfterMs, organizationId: ctx.organization.id });
  const dispatched = await dispatchEvents(deps, { organizationId: ctx.organization.id });
  const runner = new JobRunner(deps, { workerId: `cron:${ctx.requestId || randomUUID()}` });
  const report = await runner.runBatch({ queue: input.queue, limit: input.limit, organizationId: ctx.organization.id });
  return { ...report, dispatchedEvents: dispatched.dispatched, reaped: reaped.length };
}
