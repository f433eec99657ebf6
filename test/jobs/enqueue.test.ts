// Enqueue options and defaults (spec: Background job fields, Limits → job enqueue options).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../../src/errors.js';
import { enqueueJob } from '../../src/jobs/enqueue.js';
import { defineTask } from '../../src/jobs/tasks.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { defaultOrgId, job, runner } from './support.js';

let t: TestApp;
let org: string;

defineTask({ slug: 'test-enqueue/noop', handler: () => ({ ok: true }) });
defineTask({
  slug: 'test-enqueue/keyed',
  retries: { attempts: 4 },
  concurrency: { key: (input) => `store:${String(input.storeId)}`, supersedes: true },
  handler: (input) => ({ synced: input.version }),
});

beforeAll(async () => {
  t = await startTestApp();
  org = await defaultOrgId(t);
});
afterAll(() => t?.close());

describe('enqueue', () => {
  it('fills the spec defaults: queue default, input {}, attempts 0, max_attempts 1, pending', async () => {
    const created = await t.app.services.jobs.enqueue({ task: 'test-enqueue/noop', organizationId: org });
    expect(created).toMatchObject({
      organizationId: org,
      queue: 'default',
      taskSlug: 'test-enqueue/noop',
      status: 'pending',
      input: {},
      output: null,
      error: null,
      attempts: 0,
      maxAttempts: 1,
      waitUntil: null,
      concurrencyKey: null,
      processingStartedAt: null,
      completedAt: null,
    });
    expect(created.createdAt).toBeInstanceOf(Date);
    expect(created.updatedAt).toBeInstanceOf(Date);
  });

  it.each([[''], ['   ']])('rejects a blank organization id (%j)', async (organizationId) => {
    const before = await t.app.db.job.count();
    const error = await t.app.services.jobs.enqueue({ task: 'test-enqueue/noop', organizationId }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe('VALIDATION_FAILED');
    expect((error as AppError).details).toEqual([expect.objectContaining({ field: 'organizationId' })]);
    expect(await t.app.db.job.count()).toBe(before);
  });

  it('rejects an organization that does not exist, and bad options, with the field named', async () => {
    const rejection = (promise: Promise<unknown>) =>
      promise.then(
        () => {
          throw new Error('expected a rejection');
        },
        (e: unknown) => e as AppError,
      );
    const missing = await rejection(t.app.services.jobs.enqueue({ task: 'test-enqueue/noop', organizationId: '00000000-0000-4000-8000-000000000000' }));
    expect(missing.details).toEqual([{ field: 'organizationId', message: 'no such organization' }]);
    const bad = await rejection(t.app.services.jobs.enqueue({ task: 'test-enqueue/noop', organizationId: org, queue: '', maxAttempts: 0, delayMs: -5 }));
    expect((bad.details as Array<{ field: string }>).map((d) => d.field).sort()).toEqual(['delayMs', 'maxAttempts', 'queue']);
  });

  it('takes queue, delayMs, maxAttempts and concurrencyKey', async () => {
    const created = await t.app.services.jobs.enqueue({
      task: 'test-enqueue/noop',
      organizationId: org,
      queue: 'imports',
      delayMs: 30_000,
      maxAttempts: 3,
      concurrencyKey: 'custom',
      input: { a: 1 },
    });
    expect(created).toMatchObject({ queue: 'imports', maxAttempts: 3, concurrencyKey: 'custom', input: { a: 1 } });
    expect(created.waitUntil!.getTime() - created.createdAt.getTime()).toBeGreaterThanOrEqual(29_000);
  });

  it("takes the task's key and retries as defaults; concurrencyKey overrides the key", async () => {
    const keyed = await t.app.services.jobs.enqueue({ task: 'test-enqueue/keyed', organizationId: org, input: { storeId: 7, version: 1 } });
    expect(keyed).toMatchObject({ concurrencyKey: 'store:7', maxAttempts: 5 });
    const overridden = await t.app.services.jobs.enqueue({
      task: 'test-enqueue/keyed',
      organizationId: org,
      input: { storeId: 7, version: 2 },
      concurrencyKey: 'store:8',
    });
    expect(overridden.concurrencyKey).toBe('store:8');
    // Different key: the first job was not superseded.
    expect((await job(t, keyed.id)).status).toBe('pending');
  });

  it('supersedes: a new job replaces an older pending job of the same task, organization and key', async () => {
    const older = await t.app.services.jobs.enqueue({ task: 'test-enqueue/keyed', organizationId: org, input: { storeId: 42, version: 1 } });
    const newer = await t.app.services.jobs.enqueue({ task: 'test-enqueue/keyed', organizationId: org, input: { storeId: 42, version: 2 } });
    expect(await t.app.db.job.findUnique({ where: { id: older.id } })).toBeNull();
    expect((await job(t, newer.id)).status).toBe('pending');
    // supersedes: false keeps both
    const kept = await t.app.services.jobs.enqueue({ task: 'test-enqueue/keyed', organizationId: org, input: { storeId: 42, version: 3 }, supersedes: false });
    expect((await job(t, newer.id)).status).toBe('pending');
    expect((await job(t, kept.id)).status).toBe('pending');
  });

  it('supersedes only within one organization', async () => {
    const other = await t.app.services.organizations.create({ slug: 'enqueue-other', name: 'Other' });
    const mine = await t.app.services.jobs.enqueue({ task: 'test-enqueue/keyed', organizationId: org, input: { storeId: 99 } });
    const theirs = await t.app.services.jobs.enqueue({ task: 'test-enqueue/keyed', organizationId: other.id, input: { storeId: 99 } });
    expect((await job(t, mine.id)).status).toBe('pending');
    expect((await job(t, theirs.id)).status).toBe('pending');
  });

  it('inside a transaction, the job exists only if the transaction commits', async () => {
    const before = await t.app.db.job.count();
    await t.app.db
      .$transaction(async (tx) => {
        await enqueueJob({ db: tx, config: t.app.config }, { task: 'test-enqueue/noop', organizationId: org });
        await t.app.services.jobs.enqueue({ task: 'test-enqueue/keyed', organizationId: org, input: { storeId: 'tx' } }, tx);
        throw new Error('rolled back');
      })
      .catch(() => undefined);
    expect(await t.app.db.job.count()).toBe(before);
  });

  it('the queue runs what was enqueued', async () => {
    const created = await t.app.services.jobs.enqueue({ task: 'test-enqueue/noop', organizationId: org, queue: 'enqueue-run' });
    const report = await runner(t).runBatch({ queue: 'enqueue-run', limit: 5 });
    expect(report.succeeded).toBe(1);
    expect((await job(t, created.id)).output).toEqual({ ok: true });
  });
});
