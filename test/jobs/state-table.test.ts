// Every row of the spec's job state table, through the real runner and database.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { defineTask, JobError } from '../../src/jobs/tasks.js';
import { defaultOrgId, job, latch, runner } from './support.js';

let t: TestApp;
let org: string;

const seen: Array<{ input: unknown; statusWhileRunning: string; attempts: number }> = [];
const gate = latch();

defineTask({
  slug: 'test-state/echo',
  async handler(input, ctx) {
    const row = await ctx.db.job.findUniqueOrThrow({ where: { id: ctx.job.id } });
    seen.push({ input, statusWhileRunning: row.status, attempts: row.attempts });
    return { echoed: input, attempt: ctx.job.attempts };
  },
});
defineTask({
  slug: 'test-state/fail',
  retries: { attempts: 2, backoff: { type: 'fixed', delay: 60_000 } },
  handler() {
    throw new Error('boom');
  },
});
defineTask({
  slug: 'test-state/fail-permanently',
  retries: { attempts: 5 },
  handler() {
    throw new JobError('bad input, retrying will not help', { retry: false });
  },
});
defineTask({
  slug: 'test-state/keyed',
  concurrency: { key: (input) => String(input.key) },
  async handler(input) {
    if (input.wait) await gate.promise;
    return { ran: input.n };
  },
});

beforeAll(async () => {
  t = await startTestApp();
  org = await defaultOrgId(t);
});
afterAll(() => t?.close());

async function enqueue(task: string, input: Record<string, unknown> = {}, options: Record<string, unknown> = {}) {
  return t.app.services.jobs.enqueue({ task, input, organizationId: org, ...options });
}

describe('job state table', () => {
  it('pending → processing when waitUntil is unset, then → succeeded with output and completed time', async () => {
    const created = await enqueue('test-state/echo', { hello: 'world' });
    expect(created).toMatchObject({ status: 'pending', attempts: 0, maxAttempts: 1, queue: 'default', waitUntil: null, output: null, completedAt: null });

    const report = await runner(t).runBatch({ queue: 'default', limit: 10 });
    expect(report.jobs).toEqual([expect.objectContaining({ id: created.id, status: 'succeeded', attempts: 1 })]);
    expect(seen.at(-1)).toEqual({ input: { hello: 'world' }, statusWhileRunning: 'processing', attempts: 1 });

    const done = await job(t, created.id);
    expect(done.status).toBe('succeeded');
    expect(done.output).toEqual({ echoed: { hello: 'world' }, attempt: 1 });
    expect(done.completedAt).toBeInstanceOf(Date);
    expect(done.error).toBeNull();
  });

  it('pending stays pending while waitUntil is in the future, and is claimed once it has passed', async () => {
    const delayed = await enqueue('test-state/echo', { delayed: true }, { delayMs: 60_000 });
    expect(delayed.waitUntil!.getTime() - delayed.createdAt.getTime()).toBeGreaterThanOrEqual(59_000);
    const report = await runner(t).runBatch({ queue: 'default', limit: 10 });
    expect(report.claimed).toBe(0);
    expect((await job(t, delayed.id)).status).toBe('pending');

    await t.app.db.$executeRaw`update jobs set wait_until = now() - interval '1 second' where id = ${delayed.id}::uuid`;
    const later = await runner(t).runBatch({ queue: 'default', limit: 10 });
    expect(later.jobs.map((j) => j.id)).toEqual([delayed.id]);
    expect((await job(t, delayed.id)).status).toBe('succeeded');
  });

  it('processing → pending when the handler throws with attempts left, waitUntil from the backoff', async () => {
    const created = await enqueue('test-state/fail');
    expect(created.maxAttempts).toBe(3); // the task's 2 retries + the first run

    const report = await runner(t).runBatch({ queue: 'default', limit: 10 });
    expect(report).toMatchObject({ claimed: 1, retrying: 1, failed: 0 });
    const after = await job(t, created.id);
    expect(after).toMatchObject({ status: 'pending', attempts: 1, error: 'boom' });
    expect(after.waitUntil!.getTime() - after.updatedAt.getTime()).toBe(60_000);
  });

  it('processing → failed with the error text when attempts reach max attempts', async () => {
    const created = await enqueue('test-state/fail', {}, { maxAttempts: 2 });
    await runner(t).runBatch({ queue: 'default', limit: 10 });
    await t.app.db.$executeRaw`update jobs set wait_until = now() where id = ${created.id}::uuid`;
    const report = await runner(t).runBatch({ queue: 'default', limit: 10 });
    expect(report.jobs.find((j) => j.id === created.id)).toMatchObject({ status: 'failed', attempts: 2, error: 'boom' });
    expect(await job(t, created.id)).toMatchObject({ status: 'failed', attempts: 2, error: 'boom', completedAt: null });
  });

  it('a handler can end the job as failed at once, whatever attempts remain', async () => {
    const created = await enqueue('test-state/fail-permanently');
    expect(created.maxAttempts).toBe(6);
    await runner(t).runBatch({ queue: 'default', limit: 10 });
    expect(await job(t, created.id)).toMatchObject({ status: 'failed', attempts: 1, error: 'bad input, retrying will not help' });
  });

  it('a batch holding several exclusive jobs of one key runs the oldest; the others stay pending without consuming an attempt', async () => {
    const first = await enqueue('test-state/keyed', { key: 'store-1', n: 1 });
    const second = await enqueue('test-state/keyed', { key: 'store-1', n: 2 });
    const third = await enqueue('test-state/keyed', { key: 'store-1', n: 3 });
    const other = await enqueue('test-state/keyed', { key: 'store-2', n: 4 });
    expect(first.concurrencyKey).toBe('store-1');

    const report = await runner(t).runBatch({ queue: 'default', limit: 10 });
    expect(report.jobs.map((j) => j.id).sort()).toEqual([first.id, other.id].sort());
    for (const id of [second.id, third.id]) expect(await job(t, id)).toMatchObject({ status: 'pending', attempts: 0 });

    const next = await runner(t).runBatch({ queue: 'default', limit: 10 });
    expect(next.jobs.map((j) => j.id)).toEqual([second.id]);
    expect(await job(t, third.id)).toMatchObject({ status: 'pending', attempts: 0 });
    await runner(t).runBatch({ queue: 'default', limit: 10 });
    expect((await job(t, third.id)).output).toEqual({ ran: 3 });
  });

  it('an exclusive job whose key is running elsewhere is left pending, attempts untouched', async () => {
    const blocking = await enqueue('test-state/keyed', { key: 'store-9', n: 1, wait: true });
    const waiting = await enqueue('test-state/keyed', { key: 'store-9', n: 2 });
    const first = runner(t).runBatch({ queue: 'default', limit: 1 });
    // The first batch holds the key while its handler waits; a second runner gets nothing of it.
    await expect.poll(async () => (await job(t, blocking.id)).status).toBe('processing');
    const second = await runner(t).runBatch({ queue: 'default', limit: 10 });
    expect(second.jobs.map((j) => j.id)).not.toContain(waiting.id);
    expect(await job(t, waiting.id)).toMatchObject({ status: 'pending', attempts: 0 });
    gate.open();
    await first;
    const third = await runner(t).runBatch({ queue: 'default', limit: 10 });
    expect(third.jobs.map((j) => j.id)).toEqual([waiting.id]);
  });

  it('pending → failed when no task is registered under its slug', async () => {
    const orphan = await enqueue('test-state/nobody-registered-this');
    const report = await runner(t).runBatch({ queue: 'default', limit: 10 });
    expect(report.jobs).toEqual([expect.objectContaining({ id: orphan.id, status: 'failed' })]);
    const row = await job(t, orphan.id);
    expect(row.status).toBe('failed');
    expect(row.error).toMatch(/unknown task slug "test-state\/nobody-registered-this"/);
  });

  it('failed → pending through POST /admin/jobs/:id/retry, which returns the updated job', async () => {
    const created = await enqueue('test-state/fail-permanently');
    await runner(t).runBatch({ queue: 'default', limit: 10 });
    const adminKey = await t.apiKey('admin');
    const res = await t.request(`/api/admin/jobs/${created.id}/retry`, { method: 'POST', apiKey: adminKey });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ id: created.id, status: 'pending', attempts: 0, error: null, taskSlug: 'test-state/fail-permanently' });
    expect(await job(t, created.id)).toMatchObject({ status: 'pending', attempts: 0 });
  });

  it('only runs jobs of the queue it was asked for', async () => {
    const elsewhere = await enqueue('test-state/echo', { q: 'other' }, { queue: 'reports' });
    const report = await runner(t).runBatch({ queue: 'default', limit: 10 });
    expect(report.jobs.map((j) => j.id)).not.toContain(elsewhere.id);
    const reports = await runner(t).runBatch({ queue: 'reports', limit: 10 });
    expect(reports.jobs.map((j) => j.id)).toEqual([elsewhere.id]);
  });
});
