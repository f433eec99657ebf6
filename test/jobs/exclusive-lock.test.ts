// Exclusivity is the database's guarantee, not a snapshot's: a claim whose snapshot saw the key
// free still cannot start a job while another transaction holds the key.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defineTask } from '../../src/jobs/tasks.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { defaultOrgId, job, runner, sleep } from './support.js';

let t: TestApp;
let org: string;

defineTask({ slug: 'test-lock/keyed', concurrency: { key: (input) => String(input.key) }, handler: () => 'ran' });

beforeAll(async () => {
  t = await startTestApp();
  org = await defaultOrgId(t);
});
afterAll(() => t?.close());

describe('exclusive keys', () => {
  it('a key taken by a transaction the claim could not see yet keeps the job pending, attempts untouched', async () => {
    const waiting = await t.app.services.jobs.enqueue({ task: 'test-lock/keyed', organizationId: org, queue: 'locks', input: { key: 'k1' } });

    // Another worker, mid-claim: it has taken key k1 for a job of its own but not committed yet.
    const other = new pg.Client({ connectionString: t.app.databaseUrl });
    await other.connect();
    try {
      await other.query('begin');
      const { rows } = await other.query<{ id: string }>(
        `insert into jobs (id, organization_id, queue, task_slug, status, attempts, concurrency_key, lock_token, heartbeat_at, updated_at)
         values (gen_random_uuid(), $1, 'elsewhere', 'test-lock/keyed', 'processing', 1, 'k1', gen_random_uuid(), now(), now()) returning id`,
        [org],
      );
      await other.query(
        `insert into job_key_locks (organization_id, concurrency_key, job_id, lock_token) select organization_id, concurrency_key, id, lock_token from jobs where id = $1`,
        [rows[0]!.id],
      );

      // Our claim's snapshot shows k1 free and `waiting` as the oldest of its key; the insert
      // into job_key_locks waits for the other transaction, then finds the key taken.
      const claiming = runner(t).runBatch({ queue: 'locks', limit: 10 });
      await sleep(300);
      await other.query('commit');
      const report = await claiming;
      expect(report).toMatchObject({ claimed: 0, released: 1 });
      expect(await job(t, waiting.id)).toMatchObject({ status: 'pending', attempts: 0, lockToken: null });

      // Once the holder finishes, the key is free again.
      await t.app.db.$executeRaw`with f as (delete from job_key_locks where job_id = ${rows[0]!.id}::uuid) update jobs set status = 'succeeded' where id = ${rows[0]!.id}::uuid`;
      const next = await runner(t).runBatch({ queue: 'locks', limit: 10 });
      expect(next.jobs).toEqual([expect.objectContaining({ id: waiting.id, status: 'succeeded' })]);
    } finally {
      await other.end();
    }
  });

  it('the key lock table refuses a second holder of a key outright', async () => {
    const a = await t.app.services.jobs.enqueue({ task: 'test-lock/keyed', organizationId: org, queue: 'locks-2', input: { key: 'k2' } });
    const b = await t.app.services.jobs.enqueue({ task: 'test-lock/keyed', organizationId: org, queue: 'locks-2', input: { key: 'k2' } });
    await t.app.db.jobKeyLock.create({ data: { organizationId: org, concurrencyKey: 'k2', jobId: a.id, lockToken: crypto.randomUUID() } });
    await expect(t.app.db.jobKeyLock.create({ data: { organizationId: org, concurrencyKey: 'k2', jobId: b.id, lockToken: crypto.randomUUID() } })).rejects.toThrow();
    await t.app.db.jobKeyLock.deleteMany({ where: { concurrencyKey: 'k2' } });
  });
});
