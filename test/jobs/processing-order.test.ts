// Claim order: oldest created first unless processingOrder names a field and direction, or gives
// a deterministic comparator.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defineTask } from '../../src/jobs/tasks.js';
import type { RunnerOptions } from '../../src/jobs/runner.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { defaultOrgId, runner } from './support.js';

let t: TestApp;
let org: string;
const order: string[] = [];

for (const slug of ['test-order/a', 'test-order/b', 'test-order/c']) {
  defineTask({ slug, handler: (input) => void order.push(String(input.name)) });
}

beforeAll(async () => {
  t = await startTestApp();
  org = await defaultOrgId(t);
});
afterAll(() => t?.close());

/** Enqueues jobs one after the other (distinct created_at) on a fresh queue; returns the queue. */
async function enqueueAll(queue: string, jobs: Array<{ task: string; name: string; priority?: number }>): Promise<string> {
  for (const job of jobs) {
    await t.app.services.jobs.enqueue({ task: job.task, organizationId: org, queue, input: { name: job.name, priority: job.priority ?? 0 } });
    await new Promise((r) => setTimeout(r, 5));
  }
  return queue;
}

async function claimedNames(queue: string, processingOrder?: RunnerOptions['processingOrder'], limit = 2): Promise<string[]> {
  const { jobs } = await runner(t, { processingOrder }).claim({ queue, limit });
  return jobs.map((j) => String((j.input as { name: string }).name));
}

const three = [
  { task: 'test-order/c', name: 'first', priority: 1 },
  { task: 'test-order/a', name: 'second', priority: 3 },
  { task: 'test-order/b', name: 'third', priority: 2 },
];

describe('processing order', () => {
  it('claims the oldest jobs first by default', async () => {
    const queue = await enqueueAll('order-default', three);
    expect(await claimedNames(queue)).toEqual(['first', 'second']);
  });

  it('claims newest first with createdAt desc', async () => {
    const queue = await enqueueAll('order-desc', three);
    expect(await claimedNames(queue, { field: 'createdAt', direction: 'desc' })).toEqual(['third', 'second']);
  });

  it('claims by task slug', async () => {
    const queue = await enqueueAll('order-slug', three);
    expect(await claimedNames(queue, { field: 'taskSlug', direction: 'asc' })).toEqual(['second', 'third']);
  });

  it('claims by a deterministic comparator over the job (here: input priority, highest first)', async () => {
    const queue = await enqueueAll('order-comparator', three);
    const byPriority = (a: { input: unknown }, b: { input: unknown }) => (b.input as { priority: number }).priority - (a.input as { priority: number }).priority;
    expect(await claimedNames(queue, byPriority)).toEqual(['second', 'third']);
    expect(await claimedNames(queue, byPriority, 5)).toEqual(['first']);
  });

  it('takes the order from config (jobs.processingOrder) when the runner is not given one', async () => {
    const custom = await startTestApp({ jobs: { processingOrder: { field: 'createdAt', direction: 'desc' } } });
    try {
      const orgId = (await custom.app.services.organizations.defaultOrganization()).id;
      for (const job of three) {
        await custom.app.services.jobs.enqueue({ task: job.task, organizationId: orgId, queue: 'cfg', input: { name: job.name } });
        await new Promise((r) => setTimeout(r, 5));
      }
      const res = await custom.request('/api/jobs/run?queue=cfg&limit=1', { apiKey: await custom.apiKey('admin') });
      expect(res.body.data.jobs).toHaveLength(1);
      expect(order.at(-1)).toBe('third');
    } finally {
      await custom.close();
    }
  });
});
