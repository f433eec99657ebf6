// Jobs operations: GET /admin/jobs/failed, POST /admin/jobs/:id/retry (jobs:admin) and the cron
// target GET /jobs/run. Importing this module also registers the core task jobs/reap-stale.
import { z } from 'zod';
import { builder } from '../../graphql/builder.js';
import { defineOperation } from '../../graphql/operation.js';
import { pageOf } from '../../graphql/pagination.js';
import { pageInput } from '../../graphql/zod-args.js';
import type { JobOutcome } from '../../jobs/runner.js';
import '../../jobs/reaper.js';
import '../../jobs/retention.js';
import { listFailedJobs, retryJob, runJobsOnce, type CronRunReport } from './service.js';
import { defineEnum } from '../../graphql/enums.js';
import { JOB_STATUSES } from '../../jobs/store.js';
const JobStatusEnum = defineEnum('JobStatus', JOB_STATUSES, 'State of a job in the job table.');
const JobRunStatusEnum = defineEnum(
  'JobRunStatus',
  ['succeeded', 'pending', 'failed', 'lost'] as const,
  'What one run did to a job: pending = will retry; lost = its claim was taken back before it finished.',
);

export const JobRef = builder.prismaObject('Job', {
  description: 'A background job. status: pending → processing → succeeded | failed (failed jobs can be retried).',
  fields: (t) => ({
    id: t.expose('id', { type: 'UUID' }),
    organizationId: t.expose('organizationId', { type: 'UUID' }),
    queue: t.exposeString('queue'),
    taskSlug: t.exposeString('taskSlug', { description: 'The task that runs it, e.g. webhooks/deliver' }),
    status: t.field({ type: JobStatusEnum, resolve: (j) => j.status as never }),
    input: t.expose('input', { type: 'JSON' }),
    output: t.expose('output', { type: 'JSON', nullable: true }),
    error: t.exposeString('error', { nullable: true }),
    attempts: t.exposeInt('attempts', { description: 'Runs started so far' }),
    maxAttempts: t.exposeInt('maxAttempts', { description: 'Runs allowed in all, the first included' }),
    waitUntil: t.expose('waitUntil', { type: 'DateTime', nullable: true, description: 'Not run before this time' }),
    concurrencyKey: t.exposeString('concurrencyKey', { nullable: true }),
    processingStartedAt: t.expose('processingStartedAt', { type: 'DateTime', nullable: true }),
    completedAt: t.expose('completedAt', { type: 'DateTime', nullable: true }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
  }),
});

const JobOutcomeRef = builder.objectRef<JobOutcome>('JobRunOutcome').implement({
  description: 'What one run did to a job. lost: its claim was taken back before it finished.',
  fields: (t) => ({
    id: t.expose('id', { type: 'UUID' }),
    taskSlug: t.exposeString('taskSlug'),
    status: t.expose('status', { type: JobRunStatusEnum }),
    attempts: t.exposeInt('attempts'),
    error: t.exposeString('error', { nullable: true }),
    waitUntil: t.expose('waitUntil', { type: 'DateTime', nullable: true }),
  }),
});

const JobRunReportRef = builder.objectRef<CronRunReport>('JobRunReport').implement({
  description: 'What one GET /jobs/run did.',
  fields: (t) => ({
    queue: t.exposeString('queue'),
    reaped: t.exposeInt('reaped', { description: 'Jobs of stopped workers returned to the queue first' }),
    dispatchedEvents: t.exposeInt('dispatchedEvents', { description: 'Outbox events dispatched first (subscribers, webhook jobs)' }),
    claimed: t.exposeInt('claimed'),
    succeeded: t.exposeInt('succeeded'),
    retrying: t.exposeInt('retrying', { description: 'Failed and back to pending for another attempt' }),
    failed: t.exposeInt('failed'),
    released: t.exposeInt('released', { description: 'Exclusive jobs left pending because their key was busy' }),
    jobs: t.expose('jobs', { type: [JobOutcomeRef] }),
  }),
});

const admin = { permission: 'jobs:admin' } as const;

defineOperation({
  name: 'failedJobs',
  kind: 'query',
  summary: 'Failed jobs of the organization, most recently failed first',
  tag: 'jobs',
  rest: { method: 'GET', path: '/admin/jobs/failed' },
  access: admin,
  input: pageInput(20, 100),
  output: pageOf('Job', JobRef),
  paginated: true,
  resolve: (ctx, input) => listFailedJobs(ctx, input),
});

defineOperation({
  name: 'jobRetry',
  kind: 'mutation',
  summary: 'Re-enqueue a failed job (back to pending with a fresh attempt budget); returns the updated job',
  tag: 'jobs',
  rest: { method: 'POST', path: '/admin/jobs/:id/retry' },
  access: admin,
  input: { id: z.guid() },
  output: JobRef,
  resolve: (ctx, input) => retryJob(ctx, input.id),
});

defineOperation({
  name: 'jobsRun',
  kind: 'mutation',
  summary: 'Cron target: run one batch of the organization’s jobs and report what it did',
  description:
    'Takes back jobs of stopped workers, dispatches pending events, then claims up to `limit` runnable jobs of `queue` ' +
    'and runs them. Needs jobs:admin; in production, an API key with *:*.',
  tag: 'jobs',
  rest: { method: 'GET', path: '/jobs/run' },
  access: admin,
  input: {
    queue: z.string().min(1).max(200).default('default').describe('Queue to run, default `default`'),
    limit: z.number().int().min(1).max(100).default(10).describe('Jobs to claim, default 10, at most 100'),
  },
  output: JobRunReportRef,
  resolve: (ctx, input) => runJobsOnce(ctx, input),
  // Not wrapped in the audit transaction: the batch's jobs run on their own connections and must
  // see what the dispatcher wrote (committed), and each job commits on its own.
  audit: false,
});
