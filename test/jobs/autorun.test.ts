// jobs.autorun: the server runs the worker loop itself; NOTIFY wakes it long before its interval.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defineTask } from '../../src/jobs/tasks.js';
import { recordEvent } from '../../src/events/outbox.js';
import { onEvent } from '../../src/events/subscribers.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { defaultOrgId, eventually, job } from './support.js';

let t: TestApp;
let org: string;
const seenEvents: string[] = [];

defineTask({ slug: 'test-autorun/noop', handler: () => ({ ranIn: process.pid }) });
onEvent('catalog.update', (event) => {
  seenEvents.push(event.id);
});

beforeAll(async () => {
  t = await startTestApp({ jobs: { autorun: { intervalMs: 60_000 } } });
  org = await defaultOrgId(t);
});
afterAll(() => t?.close());

describe('jobs.autorun', () => {
  it('runs enqueued jobs inside the server without waiting for the interval', async () => {
    const created = await t.app.services.jobs.enqueue({ task: 'test-autorun/noop', organizationId: org });
    const done = await eventually(async () => {
      const row = await job(t, created.id);
      return row.status === 'succeeded' ? row : null;
    });
    expect(done.output).toEqual({ ranIn: process.pid });
  });

  it('dispatches committed events to subscribers', async () => {
    const id = await t.app.db.$transaction(async (tx) => {
      await recordEvent(tx, { organizationId: org }, 'catalog.update', { entityId: 'e-1' } as never);
      const row = await tx.domainEvent.findFirstOrThrow({ orderBy: { createdAt: 'desc' } });
      return row.id;
    });
    await eventually(async () => (await t.app.db.domainEvent.findUniqueOrThrow({ where: { id } })).dispatchedAt);
    expect(seenEvents.filter((seen) => seen === id)).toHaveLength(1);
  });

  it('stops with the app', async () => {
    await t.close();
    t = undefined as unknown as TestApp;
  });
});
