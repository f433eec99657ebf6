// The core task jobs/reap-stale and the cron route's reaping: only jobs whose heartbeat stopped,
// only within the organization.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defineTask } from '../../src/jobs/tasks.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { defaultOrgId, job, runner } from './support.js';

let t: TestApp;
let org: string;

defineTask({ slug: 'test-reaper/noop', handler: () => 'ok' });

beforeAll(async () => {
  t = await startTestApp();
  org = await defaultOrgId(t);
});
afterAll(() => t?.close());

/** A job left processing by a worker that stopped heartbeating `secondsAgo` seconds ago. */
async function abandoned(organizationId: string, secondsAgo: number, maxAttempts = 2): Promise<string> {
  const created = await t.app.services.jobs.enqueue({ task: 'test-reaper/noop', organizationId, queue: 'reap', maxAttempts });
  await t.app.db.$executeRaw`
    update jobs set status = 'processing', attempts = 1, lock_token = gen_random_uuid(), locked_by = 'gone:1:x',
      processing_started_at = now() - ${secondsAgo} * interval '1 second', heartbeat_at = now() - ${secondsAgo} * interval '1 second'
    where id = ${created.id}::uuid`;
  return created.id;
}

describe('jobs/reap-stale', () => {
  it('returns only its organization’s jobs whose heartbeat stopped longer ago than staleAfterMs', async () => {
    const other = await t.app.services.organizations.create({ slug: 'reaper-other', name: 'Other' });
    const stale = await abandoned(org, 600);
    const lastAttempt = await abandoned(org, 600, 1);
    const recent = await abandoned(org, 5);
    const foreign = await abandoned(other.id, 600);

    const reaper = await t.app.services.jobs.enqueue({ task: 'jobs/reap-stale', organizationId: org, input: { staleAfterMs: 60_000 } });
    const report = await runner(t).runBatch({ queue: 'default', limit: 5 });
    expect(report.jobs).toEqual([expect.objectContaining({ id: reaper.id, status: 'succeeded' })]);
    const output = (await job(t, reaper.id)).output as { reaped: Array<{ id: string; status: string }> };
    expect(output.reaped.map((r) => r.id).sort()).toEqual([stale, lastAttempt].sort());

    expect(await job(t, stale)).toMatchObject({ status: 'pending', attempts: 1, lockToken: null });
    expect(await job(t, lastAttempt)).toMatchObject({ status: 'failed', attempts: 1 });
    expect((await job(t, recent)).status).toBe('processing');
    expect((await job(t, foreign)).status).toBe('processing');
  });

  it('GET /jobs/run reaps the organization’s stale jobs before running, then runs them', async () => {
    const stale = await abandoned(org, 3600);
    const res = await t.request('/api/jobs/run?queue=reap', { apiKey: await t.apiKey('admin') });
    expect(res.body.data.reaped).toBeGreaterThanOrEqual(1);
    expect(res.body.data.jobs.map((j: { id: string }) => j.id)).toContain(stale);
    expect(await job(t, stale)).toMatchObject({ status: 'succeeded', attempts: 2 });
  });
});
