// The jobs routes: GET /jobs/run (cron target), GET /admin/jobs/failed, POST /admin/jobs/:id/retry.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defineTask } from '../../src/jobs/tasks.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { defaultOrgId, job } from './support.js';

let t: TestApp;
let org: string;
let adminKey: string;
let other: { id: string };
let otherKey: string;

defineTask({ slug: 'test-routes/noop', handler: (input) => ({ n: input.n }) });
defineTask({
  slug: 'test-routes/fail',
  handler: () => {
    throw new Error('upstream refused');
  },
});

beforeAll(async () => {
  t = await startTestApp();
  org = await defaultOrgId(t);
  adminKey = await t.apiKey('admin');
  other = await t.app.services.organizations.create({ slug: 'routes-other', name: 'Other store' });
  otherKey = await t.apiKey('admin', { organizationId: other.id });
});
afterAll(() => t?.close());

async function failedJob(organizationId = org): Promise<string> {
  const created = await t.app.services.jobs.enqueue({ task: 'test-routes/fail', organizationId, queue: 'to-fail' });
  const key = organizationId === org ? adminKey : otherKey;
  const res = await t.request('/api/jobs/run?queue=to-fail', { apiKey: key });
  expect(res.status).toBe(200);
  return created.id;
}

describe('GET /jobs/run', () => {
  it('runs one batch of the default queue, 10 jobs by default, and reports what it did', async () => {
    const created = [];
    for (let n = 0; n < 12; n++) created.push(await t.app.services.jobs.enqueue({ task: 'test-routes/noop', organizationId: org, input: { n } }));
    const first = await t.request('/api/jobs/run', { apiKey: adminKey });
    expect(first.status).toBe(200);
    expect(first.body.data).toMatchObject({ queue: 'default', claimed: 10, succeeded: 10, retrying: 0, failed: 0, released: 0 });
    expect(first.body.data.jobs).toHaveLength(10);
    expect(first.body.data.jobs[0]).toEqual({ id: created[0]!.id, taskSlug: 'test-routes/noop', status: 'succeeded', attempts: 1, error: null, waitUntil: null });

    const second = await t.request('/api/jobs/run', { apiKey: adminKey });
    expect(second.body.data).toMatchObject({ claimed: 2, succeeded: 2 });
    expect(await job(t, created[11]!.id)).toMatchObject({ status: 'succeeded', output: { n: 11 } });
    const idle = await t.request('/api/jobs/run', { apiKey: adminKey });
    expect(idle.body.data).toMatchObject({ claimed: 0, jobs: [] });
  });

  it('takes queue and limit', async () => {
    await t.app.services.jobs.enqueue({ task: 'test-routes/noop', organizationId: org, queue: 'nightly', input: { n: 1 } });
    await t.app.services.jobs.enqueue({ task: 'test-routes/noop', organizationId: org, queue: 'nightly', input: { n: 2 } });
    const res = await t.request('/api/jobs/run?queue=nightly&limit=1', { apiKey: adminKey });
    expect(res.body.data).toMatchObject({ queue: 'nightly', claimed: 1 });
    expect((await t.request('/api/jobs/run?queue=nightly&limit=5', { apiKey: adminKey })).body.data.claimed).toBe(1);
  });

  it('reports failures and retries', async () => {
    await t.app.services.jobs.enqueue({ task: 'test-routes/fail', organizationId: org, queue: 'flaky', maxAttempts: 2 });
    const res = await t.request('/api/jobs/run?queue=flaky', { apiKey: adminKey });
    expect(res.body.data).toMatchObject({ claimed: 1, retrying: 1, failed: 0 });
    expect(res.body.data.jobs[0]).toMatchObject({ status: 'pending', error: 'upstream refused' });
  });

  it('runs only the caller organization’s jobs', async () => {
    const theirs = await t.app.services.jobs.enqueue({ task: 'test-routes/noop', organizationId: other.id, queue: 'shared-name' });
    const mine = await t.request('/api/jobs/run?queue=shared-name', { apiKey: adminKey });
    expect(mine.body.data.claimed).toBe(0);
    expect((await job(t, theirs.id)).status).toBe('pending');
    const res = await t.request('/api/jobs/run?queue=shared-name', { apiKey: otherKey });
    expect(res.body.data.jobs.map((j: { id: string }) => j.id)).toEqual([theirs.id]);
  });

  it.each([['limit=0'], ['limit=101'], ['limit=ten']])('refuses %s with 422', async (query) => {
    const res = await t.request(`/api/jobs/run?${query}`, { apiKey: adminKey });
    expect([400, 422]).toContain(res.status);
    if (query !== 'limit=ten') expect(res.body.error.code).toBe('VALIDATION_FAILED');
  });

  it('needs jobs:admin outside production: 401 anonymous, 403 for staff, customers and storefront keys', async () => {
    expect((await t.request('/api/jobs/run')).status).toBe(401);
    const staff = await t.signIn('staff');
    expect((await t.request('/api/jobs/run', { bearer: staff.token })).status).toBe(403);
    const customer = await t.signIn('customer');
    expect((await t.request('/api/jobs/run', { bearer: customer.token })).status).toBe(403);
    expect((await t.request('/api/jobs/run', { apiKey: await t.apiKey('storefront') })).status).toBe(403);
    const owner = await t.signIn('owner');
    expect((await t.request('/api/jobs/run', { bearer: owner.token })).status).toBe(200);
  });
});

describe('GET /admin/jobs/failed', () => {
  it('lists the organization’s failed jobs, most recent first, paginated', async () => {
    const first = await failedJob();
    const second = await failedJob();
    const theirs = await failedJob(other.id);
    const res = await t.request('/api/admin/jobs/failed?limit=1', { apiKey: adminKey });
    expect(res.status).toBe(200);
    expect(res.body.meta.pagination).toMatchObject({ page: 1, limit: 1 });
    const total = res.body.meta.pagination.total;
    expect(total).toBeGreaterThanOrEqual(2);
    expect(res.body.data).toEqual([
      expect.objectContaining({ id: second, status: 'failed', error: 'upstream refused', taskSlug: 'test-routes/fail', attempts: 1, maxAttempts: 1 }),
    ]);
    const all = await t.request(`/api/admin/jobs/failed?limit=100`, { apiKey: adminKey });
    const ids = all.body.data.map((j: { id: string }) => j.id);
    expect(ids).toContain(first);
    expect(ids).not.toContain(theirs);
    expect(all.body.data.every((j: { status: string; organizationId: string }) => j.status === 'failed' && j.organizationId === org)).toBe(true);
    const page2 = await t.request('/api/admin/jobs/failed?limit=1&page=2', { apiKey: adminKey });
    expect(page2.body.data[0].id).toBe(first === ids[1] ? first : ids[1]);
    const theirList = await t.request('/api/admin/jobs/failed', { apiKey: otherKey });
    expect(theirList.body.data.map((j: { id: string }) => j.id)).toEqual([theirs]);
  });

  it('answers GraphQL too', async () => {
    const res = await t.graphql('{ failedJobs(limit: 2) { data { id status taskSlug } meta { pagination { total } } } }', {}, { apiKey: adminKey });
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.failedJobs.data.length).toBeGreaterThan(0);
  });

  it('needs jobs:admin', async () => {
    expect((await t.request('/api/admin/jobs/failed')).status).toBe(401);
    const staff = await t.signIn('staff');
    expect((await t.request('/api/admin/jobs/failed', { bearer: staff.token })).status).toBe(403);
  });
});

describe('POST /admin/jobs/:id/retry', () => {
  it('re-enqueues a failed job and returns it; the next run runs it again', async () => {
    const id = await failedJob();
    const res = await t.request(`/api/admin/jobs/${id}/retry`, { method: 'POST', apiKey: adminKey });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ id, status: 'pending', attempts: 0, error: null, waitUntil: null, completedAt: null });
    const run = await t.request('/api/jobs/run?queue=to-fail', { apiKey: adminKey });
    expect(run.body.data.jobs.map((j: { id: string }) => j.id)).toEqual([id]);
  });

  it('404 for an unknown job and for another organization’s job; 422 for a job that has not failed or a bad id', async () => {
    expect((await t.request('/api/admin/jobs/00000000-0000-4000-8000-000000000000/retry', { method: 'POST', apiKey: adminKey })).status).toBe(404);
    const theirs = await failedJob(other.id);
    const foreign = await t.request(`/api/admin/jobs/${theirs}/retry`, { method: 'POST', apiKey: adminKey });
    expect(foreign.status).toBe(404);
    expect((await job(t, theirs)).status).toBe('failed');

    const pending = await t.app.services.jobs.enqueue({ task: 'test-routes/noop', organizationId: org, queue: 'untouched' });
    const res = await t.request(`/api/admin/jobs/${pending.id}/retry`, { method: 'POST', apiKey: adminKey });
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe('INVALID_TRANSITION');
    expect((await t.request('/api/admin/jobs/not-a-uuid/retry', { method: 'POST', apiKey: adminKey })).status).toBe(422);
  });

  it('needs jobs:admin', async () => {
    const id = await failedJob();
    expect((await t.request(`/api/admin/jobs/${id}/retry`, { method: 'POST' })).status).toBe(401);
    expect((await t.request(`/api/admin/jobs/${id}/retry`, { method: 'POST', apiKey: await t.apiKey('storefront') })).status).toBe(403);
    expect((await job(t, id)).status).toBe('failed');
  });
});

describe('GET /jobs/run in production', () => {
  let prod: TestApp;
  beforeAll(async () => {
    prod = await startTestApp({
      env: 'production',
      apiKeyScopes: {
        admin: { prefix: 'cs_admin_', permissions: { '*': ['*'] } },
        ops: { prefix: 'cs_ops_', description: 'jobs only', permissions: { jobs: ['admin'] } },
      },
    });
  });
  afterAll(() => prod?.close());

  it('needs an API key with *:*; a person with *:* or a key with only jobs:admin gets 403', async () => {
    expect((await prod.request('/api/jobs/run', { apiKey: await prod.apiKey('admin') })).status).toBe(200);
    const ops = await prod.apiKey('ops');
    const asOps = await prod.request('/api/jobs/run', { apiKey: ops });
    expect(asOps.status).toBe(403);
    expect(asOps.body.error.message).toMatch(/API key with \*:\*/);
    // jobs:admin is still enough for the admin routes
    expect((await prod.request('/api/admin/jobs/failed', { apiKey: ops })).status).toBe(200);
    const owner = await prod.signIn('owner');
    expect((await prod.request('/api/jobs/run', { bearer: owner.token })).status).toBe(403);
    expect((await prod.request('/api/jobs/run')).status).toBe(401);
  });
});
