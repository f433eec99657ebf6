// The outbox dispatcher: committed events reach subscribers once, after commit; rolled-back ones
// never; several dispatchers at once never hand an event out twice.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createDb } from '../../src/db/client.js';
import { dispatchEvents, type DispatchDeps } from '../../src/events/dispatcher.js';
import { recordEvent } from '../../src/events/outbox.js';
import { eventSubscribers, type DispatchedEvent } from '../../src/events/subscribers.js';
import { enqueueJob } from '../../src/jobs/enqueue.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { defaultOrgId } from './support.js';

/** The payload these tests emit. The inventory module owns the event's real type; the dispatcher does not care. */
interface Adjust {
  sku: string;
  delta: number;
}
const deltaOf = (event: DispatchedEvent) => (event.payload as unknown as Adjust).delta;

let t: TestApp;
let org: string;
let deps: DispatchDeps;
const unsubscribe: Array<() => void> = [];

beforeAll(async () => {
  t = await startTestApp();
  org = await defaultOrgId(t);
  deps = { db: t.app.db, config: t.app.config, logger: t.app.logger, services: t.app.services };
});
afterEach(() => {
  while (unsubscribe.length) unsubscribe.pop()!();
});
afterAll(() => t?.close());

async function emit(n: number, organizationId = org): Promise<void> {
  await t.app.db.$transaction(async (tx) => {
    for (let i = 0; i < n; i++) await recordEvent(tx, { organizationId, actorId: 'user-1', requestId: 'req-1' }, 'inventory.afterAdjust', { sku: `sku-${i}`, delta: i } as never);
  });
}

async function undispatched(): Promise<number> {
  return t.app.db.domainEvent.count({ where: { dispatchedAt: null } });
}

async function drainAll(): Promise<void> {
  while ((await dispatchEvents(deps)).dispatched > 0) {
    /* next batch */
  }
}

describe('event dispatch', () => {
  it('hands a committed event to its subscribers and to * subscribers once, then marks it dispatched', async () => {
    const byName: DispatchedEvent[] = [];
    const all: string[] = [];
    unsubscribe.push(eventSubscribers.on('inventory.afterAdjust', (event) => void byName.push(event)));
    unsubscribe.push(eventSubscribers.on('*', (event) => void all.push(event.type)));
    unsubscribe.push(
      eventSubscribers.on('catalog.create', () => {
        throw new Error('not subscribed to this');
      }),
    );
    await emit(1);
    const report = await dispatchEvents(deps);
    expect(report).toEqual({ dispatched: 1, failed: 0 });
    expect(byName).toEqual([
      expect.objectContaining({ organizationId: org, type: 'inventory.afterAdjust', payload: { sku: 'sku-0', delta: 0 }, actorId: 'user-1', requestId: 'req-1' }),
    ]);
    expect(byName[0]!.createdAt).toBeInstanceOf(Date);
    expect(all).toEqual(['inventory.afterAdjust']);
    expect(await undispatched()).toBe(0);
    expect((await dispatchEvents(deps)).dispatched).toBe(0);
    expect(byName).toHaveLength(1);
  });

  it('never dispatches an event whose write rolled back', async () => {
    const seen: string[] = [];
    unsubscribe.push(eventSubscribers.on('*', (event) => void seen.push(event.id)));
    await t.app.db
      .$transaction(async (tx) => {
        await recordEvent(tx, { organizationId: org }, 'catalog.delete', { entityId: 'gone' } as never);
        throw new Error('the write failed');
      })
      .catch(() => undefined);
    await drainAll();
    expect(seen).toEqual([]);
  });

  it('several concurrent dispatchers hand each event out exactly once', async () => {
    const counts = new Map<string, number>();
    unsubscribe.push(eventSubscribers.on('inventory.afterAdjust', (event) => void counts.set(event.id, (counts.get(event.id) ?? 0) + 1)));
    for (let i = 0; i < 6; i++) await emit(50);
    const pools = Array.from({ length: 4 }, () => createDb(t.app.databaseUrl, { max: 3 }).db);
    try {
      await Promise.all(
        pools.map(async (db) => {
          while ((await dispatchEvents({ ...deps, db }, { limit: 20 })).dispatched > 0) {
            /* keep going */
          }
        }),
      );
    } finally {
      await Promise.all(pools.map((db) => db.$disconnect()));
    }
    expect(counts.size).toBe(300);
    expect([...counts.values()].every((n) => n === 1)).toBe(true);
    expect(await undispatched()).toBe(0);
  });

  it('a failing subscriber loses only its own writes; the others commit with the dispatch', async () => {
    unsubscribe.push(
      eventSubscribers.on('inventory.afterAdjust', async (event, ctx) => {
        await enqueueJob({ db: ctx.db, config: ctx.config }, { task: 'test-events/kept', organizationId: event.organizationId, queue: 'events-test' });
      }),
    );
    unsubscribe.push(
      eventSubscribers.on('inventory.afterAdjust', async (event, ctx) => {
        await enqueueJob({ db: ctx.db, config: ctx.config }, { task: 'test-events/lost', organizationId: event.organizationId, queue: 'events-test' });
        throw new Error('subscriber bug');
      }),
    );
    await emit(1);
    expect(await dispatchEvents(deps)).toEqual({ dispatched: 1, failed: 0 });
    const jobs = await t.app.db.job.findMany({ where: { queue: 'events-test' } });
    expect(jobs.map((j) => j.taskSlug)).toEqual(['test-events/kept']);
  });

  // At-least-once: the failed batch is retried event by event, so a required subscriber may see an
  // event again (its database writes from the failed try were rolled back).
  it('a failing required subscriber leaves its event undispatched for the next round, and only that event', async () => {
    let broken = true;
    const seen: number[] = [];
    unsubscribe.push(
      eventSubscribers.on(
        'inventory.afterAdjust',
        (event) => {
          if (broken && deltaOf(event) === 1) throw new Error('downstream not ready');
          seen.push(deltaOf(event));
        },
        { required: true },
      ),
    );
    await emit(3);
    expect(await dispatchEvents(deps)).toEqual({ dispatched: 2, failed: 1 });
    expect([...new Set(seen)].sort()).toEqual([0, 2]);
    expect(await undispatched()).toBe(1);
    broken = false;
    expect(await dispatchEvents(deps)).toEqual({ dispatched: 1, failed: 0 });
    expect([...new Set(seen)].sort()).toEqual([0, 1, 2]);
    expect(seen.filter((delta) => delta === 1)).toHaveLength(1);
  });

  it('can dispatch one organization’s events only', async () => {
    const other = await t.app.services.organizations.create({ slug: 'events-other', name: 'Other' });
    const seen: string[] = [];
    unsubscribe.push(eventSubscribers.on('*', (event) => void seen.push(event.organizationId)));
    await emit(2, other.id);
    await emit(1, org);
    expect((await dispatchEvents(deps, { organizationId: org })).dispatched).toBe(1);
    expect(seen).toEqual([org]);
    expect(await undispatched()).toBe(2);
    await drainAll();
  });
});
