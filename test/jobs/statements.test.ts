// SQL statements per queue operation: constant per batch, not per job.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dispatchEvents } from '../../src/events/dispatcher.js';
import { recordEvent } from '../../src/events/outbox.js';
import { defineTask } from '../../src/jobs/tasks.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { defaultOrgId, runner } from './support.js';

let t: TestApp;
let org: string;

defineTask({ slug: 'test-statements/noop', handler: () => null });
defineTask({ slug: 'test-statements/keyed', concurrency: { key: (input) => String(input.key), supersedes: true }, handler: () => null });

beforeAll(async () => {
  t = await startTestApp();
  org = await defaultOrgId(t);
});
afterAll(() => t?.close());

async function count(fn: () => Promise<unknown>): Promise<number> {
  const before = t.statements();
  await fn();
  return t.statements() - before;
}

describe('statements per operation', () => {
  it('enqueue: 1; enqueue with supersedes: a transaction of lock, delete, insert', async () => {
    expect(await count(() => t.app.services.jobs.enqueue({ task: 'test-statements/noop', organizationId: org, queue: 'stmt' }))).toBe(1);
    const superseding = await count(() => t.app.services.jobs.enqueue({ task: 'test-statements/keyed', organizationId: org, queue: 'stmt-keyed', input: { key: 'k' } }));
    expect(superseding).toBeLessThanOrEqual(5);
    console.info(`supersede enqueue statements: ${superseding}`);
  });

  it('a batch of 20 no-op jobs: one claim and one grouped completion', async () => {
    for (let i = 0; i < 20; i++) await t.app.services.jobs.enqueue({ task: 'test-statements/noop', organizationId: org, queue: 'stmt-batch' });
    const r = runner(t);
    let report: Awaited<ReturnType<typeof r.runBatch>> | undefined;
    const statements = await count(async () => {
      report = await r.runBatch({ queue: 'stmt-batch', limit: 20 });
    });
    expect(report!).toMatchObject({ claimed: 20, succeeded: 20 });
    expect(statements).toBe(2);
  });

  it('dispatching 50 events to 2 endpoints costs the same as dispatching 5', async () => {
    const adminKey = await t.apiKey('admin');
    for (const path of ['/a', '/b']) {
      await t.request('/api/webhooks', { method: 'POST', apiKey: adminKey, body: { url: `http://127.0.0.1:9${path}`, events: ['*'] } });
    }
    const deps = { db: t.app.db, config: t.app.config, logger: t.app.logger, services: t.app.services };
    const emit = (n: number) =>
      t.app.db.$transaction(async (tx) => {
        for (let i = 0; i < n; i++) await recordEvent(tx, { organizationId: org }, 'catalog.update', { i } as never);
      });
    await emit(5);
    const five = await count(() => dispatchEvents(deps));
    await emit(50);
    const fifty = await count(() => dispatchEvents(deps));
    expect(fifty).toBe(five);
    expect(await t.app.db.webhookDelivery.count()).toBe(110);
    expect(await t.app.db.job.count({ where: { taskSlug: 'webhooks/deliver' } })).toBe(110);
    console.info(`dispatch batch statements: ${five}`);
  });
});
