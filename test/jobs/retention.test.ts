// Retention: a worker deletes dispatched events, succeeded jobs and webhook delivery attempts
// older than retention.maxAgeDays on its own timer; undispatched events, failed or pending jobs
// and recent rows stay. The retention/prune task does the same within one organization.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startJobWorker, workerOptionsFrom } from '../../src/jobs/worker.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { defaultOrgId, eventually, job, runner } from './support.js';
import { defineTask } from '../../src/jobs/tasks.js';

let t: TestApp;
let org: string;

defineTask({ slug: 'test-retention/noop', handler: () => 'ok' });

beforeAll(async () => {
  t = await startTestApp({ retention: { maxAgeDays: 30 } });
  org = await defaultOrgId(t);
});
afterAll(() => t?.close());

const DAY = 24 * 60 * 60 * 1000;

/** One of each kind of row, `daysAgo` old; returns their ids. */
async function rows(organizationId: string, daysAgo: number) {
  const at = new Date(Date.now() - daysAgo * DAY);
  const dispatched = await t.app.db.domainEvent.create({ data: { organizationId, type: 'test.retention', payload: {}, createdAt: at, dispatchedAt: at } });
  const undispatched = await t.app.db.domainEvent.create({ data: { organizationId, type: 'test.retention', payload: {}, createdAt: at, dispatchedAt: null } });
  const succeeded = await t.app.db.job.create({
    data: { organizationId, queue: 'retention', taskSlug: 'test-retention/noop', status: 'succeeded', completedAt: at, createdAt: at },
  });
  const failed = await t.app.db.job.create({ data: { organizationId, queue: 'retention', taskSlug: 'test-retention/noop', status: 'failed', completedAt: at, createdAt: at } });
  const endpoint = await t.app.db.webhookEndpoint.create({ data: { organizationId, url: 'https://example.com/hook', events: ['*'], secret: 'whsec_retention' } });
  const delivery = await t.app.db.webhookDelivery.create({
    data: { organizationId, endpointId: endpoint.id, eventId: dispatched.id, eventType: 'test.retention', payload: {}, status: 'failed', attempts: 1, createdAt: at },
  });
  const attempt = await t.app.db.webhookDeliveryAttempt.create({ data: { organizationId, deliveryId: delivery.id, attempt: 1, statusCode: 500, durationMs: 12, createdAt: at } });
  return { dispatched: dispatched.id, undispatched: undispatched.id, succeeded: succeeded.id, failed: failed.id, delivery: delivery.id, attempt: attempt.id };
}

async function exists(ids: Awaited<ReturnType<typeof rows>>) {
  const db = t.app.db;
  return {
    dispatched: !!(await db.domainEvent.findUnique({ where: { id: ids.dispatched } })),
    undispatched: !!(await db.domainEvent.findUnique({ where: { id: ids.undispatched } })),
    succeeded: !!(await db.job.findUnique({ where: { id: ids.succeeded } })),
    failed: !!(await db.job.findUnique({ where: { id: ids.failed } })),
    delivery: !!(await db.webhookDelivery.findUnique({ where: { id: ids.delivery } })),
    attempt: !!(await db.webhookDeliveryAttempt.findUnique({ where: { id: ids.attempt } })),
  };
}

describe('retention', () => {
  it('a running worker prunes finished rows older than maxAgeDays and keeps the rest', async () => {
    const old = await rows(org, 31);
    const recent = await rows(org, 29);
    const worker = startJobWorker(
      { db: t.app.db, config: t.app.config, logger: t.app.logger, services: t.app.services },
      workerOptionsFrom(t.app.config, { queues: ['retention-none'], pollIntervalMs: 50, dispatch: false }),
    );
    try {
      await eventually(async () => !(await exists(old)).dispatched, 20_000);
    } finally {
      await worker.stop();
    }
    expect(await exists(old)).toEqual({ dispatched: false, undispatched: true, succeeded: false, failed: true, delivery: true, attempt: false });
    expect(await exists(recent)).toEqual({ dispatched: true, undispatched: true, succeeded: true, failed: true, delivery: true, attempt: true });
  });

  it('retention/prune prunes only its own organization, with the age given in its input', async () => {
    const other = await t.app.services.organizations.create({ slug: `retention-other-${Date.now()}`, name: 'Other' });
    const mine = await rows(org, 10);
    const theirs = await rows(other.id, 10);
    const prune = await t.app.services.jobs.enqueue({ task: 'retention/prune', organizationId: org, input: { maxAgeDays: 7 } });
    await runner(t).runBatch({ queue: 'default', limit: 5 });
    expect(await job(t, prune.id)).toMatchObject({
      status: 'succeeded', // Two of each: these rows and the 29-day-old ones the first test kept.
      output: { events: 2, jobs: 2, webhookAttempts: 2 },
    });
    expect(await exists(mine)).toMatchObject({ dispatched: false, succeeded: false, attempt: false, undispatched: true, failed: true });
    expect(await exists(theirs)).toMatchObject({ dispatched: true, succeeded: true, attempt: true });
  });
});
