// Backoff arithmetic (spec, Limits → Job backoff) as a function and as the wait_until the runner
// writes after each failed attempt.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backoffDelayMs, MAX_BACKOFF_MS } from '../../src/jobs/backoff.js';
import { defineTask, JobError } from '../../src/jobs/tasks.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { defaultOrgId, job, runner } from './support.js';

describe('backoffDelayMs', () => {
  it('exponential waits delay·2^(n−1) after attempt n: delay 5000 gives 5 s, 10 s, 20 s', () => {
    const backoff = { type: 'exponential', delay: 5000 } as const;
    expect([1, 2, 3, 4].map((n) => backoffDelayMs(backoff, n))).toEqual([5000, 10_000, 20_000, 40_000]);
  });

  it('fixed waits delay every time', () => {
    expect([1, 2, 3].map((n) => backoffDelayMs({ type: 'fixed', delay: 750 }, n))).toEqual([750, 750, 750]);
  });

  it('no backoff means the next attempt may run at once; huge waits are capped', () => {
    expect(backoffDelayMs(undefined, 3)).toBe(0);
    expect(backoffDelayMs({ type: 'exponential', delay: 1000 }, 200)).toBe(MAX_BACKOFF_MS);
  });
});

let t: TestApp;
let org: string;

defineTask({
  slug: 'test-backoff/exponential',
  retries: { attempts: 3, backoff: { type: 'exponential', delay: 5000 } },
  handler() {
    throw new Error('still failing');
  },
});
defineTask({
  slug: 'test-backoff/fixed',
  retries: { attempts: 2, backoff: { type: 'fixed', delay: 1500 } },
  handler() {
    throw new Error('still failing');
  },
});
defineTask({
  slug: 'test-backoff/retry-after',
  retries: { attempts: 2, backoff: { type: 'fixed', delay: 1000 } },
  handler() {
    throw new JobError('rate limited', { retryAfterMs: 90_000 });
  },
});

beforeAll(async () => {
  t = await startTestApp();
  org = await defaultOrgId(t);
});
afterAll(() => t?.close());

/** Runs the job once more (making it due first) and returns wait_until − updated_at in ms. */
async function failOnce(id: string): Promise<{ status: string; waitMs: number | null }> {
  await t.app.db.$executeRaw`update jobs set wait_until = null where id = ${id}::uuid and status = 'pending'`;
  await runner(t).runBatch({ queue: 'default', limit: 10 });
  const row = await job(t, id);
  return { status: row.status, waitMs: row.status === 'pending' ? row.waitUntil!.getTime() - row.updatedAt.getTime() : null };
}

describe('wait_until after a failed attempt', () => {
  it('exponential: 5 s, 10 s, 20 s, then failed', async () => {
    const created = await t.app.services.jobs.enqueue({ task: 'test-backoff/exponential', organizationId: org });
    expect(created.maxAttempts).toBe(4);
    expect(await failOnce(created.id)).toEqual({ status: 'pending', waitMs: 5000 });
    expect(await failOnce(created.id)).toEqual({ status: 'pending', waitMs: 10_000 });
    expect(await failOnce(created.id)).toEqual({ status: 'pending', waitMs: 20_000 });
    expect(await failOnce(created.id)).toEqual({ status: 'failed', waitMs: null });
    expect(await job(t, created.id)).toMatchObject({ attempts: 4, error: 'still failing' });
  });

  it('fixed: the same wait each time', async () => {
    const created = await t.app.services.jobs.enqueue({ task: 'test-backoff/fixed', organizationId: org });
    expect(await failOnce(created.id)).toEqual({ status: 'pending', waitMs: 1500 });
    expect(await failOnce(created.id)).toEqual({ status: 'pending', waitMs: 1500 });
    expect(await failOnce(created.id)).toEqual({ status: 'failed', waitMs: null });
  });

  it('a handler may ask for a longer wait (Retry-After)', async () => {
    const created = await t.app.services.jobs.enqueue({ task: 'test-backoff/retry-after', organizationId: org });
    expect(await failOnce(created.id)).toEqual({ status: 'pending', waitMs: 90_000 });
  });

  it('the enqueue option maxAttempts overrides the task and counts the first run', async () => {
    const created = await t.app.services.jobs.enqueue({ task: 'test-backoff/exponential', organizationId: org, maxAttempts: 1 });
    expect(await failOnce(created.id)).toEqual({ status: 'failed', waitMs: null });
    expect((await job(t, created.id)).attempts).toBe(1);
  });
});
