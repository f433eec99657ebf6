// Execution slots (EXECUTION_SLOTS, src/graphql/execution-slots.ts): an operation costing at least
// EXECUTION_SLOTS_MIN_COST waits for one of EXECUTION_SLOTS slots, REST and /graphql sharing
// them; cheaper operations never wait; one still running after EXECUTION_SLOT_HOLD_MS gives its
// slot back, so a slow operation cannot block the queue. The slow operation here is a real one:
// a catalog list blocked by a table lock another PostgreSQL session holds.
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { createExecutionSlots } from '../../src/graphql/execution-slots.js';
import { configFromEnv } from '../../src/config/index.js';
import { startTestApp, type TestApp } from '../support/app.js';

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((res) => {
    resolve = res;
  });
  return { promise, resolve };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('createExecutionSlots', () => {
  it('lets at most `max` run at once and hands freed slots on in arrival order', async () => {
    const slots = createExecutionSlots(2, 60_000);
    const started: number[] = [];
    const gates = Array.from({ length: 5 }, () => deferred());
    const runs = gates.map(async (gate, i) => {
      const release = await slots.acquire();
      started.push(i);
      await gate.promise;
      release();
      return i;
    });
    await tick();
    expect(started).toEqual([0, 1]);
    expect([slots.running, slots.waiting]).toEqual([2, 3]);
    gates[1]!.resolve();
    await tick();
    expect(started).toEqual([0, 1, 2]);
    gates[0]!.resolve();
    await tick();
    expect(started).toEqual([0, 1, 2, 3]);
    for (const gate of gates) gate.resolve();
    expect(await Promise.all(runs)).toEqual([0, 1, 2, 3, 4]);
    expect([slots.running, slots.waiting]).toEqual([0, 0]);
  });

  it('gives a slot back once however often release is called', async () => {
    const slots = createExecutionSlots(1, 60_000);
    const release = await slots.acquire();
    release();
    release();
    expect(slots.running).toBe(0);
    const second = await slots.acquire();
    expect(slots.running).toBe(1);
    second();
  });

  it('hands the slot of an operation still running after holdMs to the next one, and not twice', async () => {
    const slots = createExecutionSlots(1, 50);
    const slowRelease = await slots.acquire();
    let nextStarted = false;
    const next = slots.acquire().then((release) => {
      nextStarted = true;
      return release;
    });
    await tick();
    expect(nextStarted).toBe(false);
    await expect.poll(() => nextStarted, { timeout: 5000 }).toBe(true);
    // The slow one ending now must not free the slot the next one holds.
    slowRelease();
    expect(slots.running).toBe(1);
    (await next)();
    expect([slots.running, slots.waiting]).toEqual([0, 0]);
  });
});

describe('EXECUTION_SLOTS, EXECUTION_SLOTS_MIN_COST and EXECUTION_SLOT_HOLD_MS', () => {
  it('are read from the environment', () => {
    expect(configFromEnv({ EXECUTION_SLOTS: '0', EXECUTION_SLOTS_MIN_COST: '50', EXECUTION_SLOT_HOLD_MS: '250' }).executionSlots).toEqual({
      max: 0,
      minCost: 50,
      holdMs: 250,
    });
  });
});

async function slotGauge(t: TestApp): Promise<{ running: number; waiting: number }> {
  const text = await (await fetch(`${t.url}/metrics`)).text();
  const value = (state: string) => Number(new RegExp(`commerce_graphql_execution_slots\\{state="${state}"\\} (\\d+)`).exec(text)?.[1]);
  return { running: value('running'), waiting: value('waiting') };
}

/** Another PostgreSQL session holding catalog_entities locked: every catalog read blocks until release(). */
async function lockCatalog(t: TestApp): Promise<{ release(): Promise<void> }> {
  const client = new pg.Client({ connectionString: t.app.directUrl });
  await client.connect();
  await client.query('begin');
  await client.query('lock table catalog_entities in access exclusive mode');
  return {
    async release() {
      await client.query('commit');
      await client.end();
    },
  };
}

// Costs (graphql/cost.ts): the catalog list of 20 without includes 23, the customers list of 20
// over GraphQL selecting ids 21, the settings read 1. Every answer goes through t.request /
// t.graphql, so each is checked against /api/doc and the schema like the rest of the suite.
const CUSTOMERS = '{ customers(limit: 20) { data { id } } }';

describe('heavy operations with one execution slot (minimum cost 10)', () => {
  let t: TestApp | undefined;
  let lock: { release(): Promise<void> } | undefined;
  afterEach(async () => {
    await lock?.release().catch(() => undefined);
    lock = undefined;
    await t?.close();
    t = undefined;
  });

  async function start(slots: { max: number; minCost: number; holdMs?: number }): Promise<{ t: TestApp; apiKey: string }> {
    t = await startTestApp({ executionSlots: slots });
    return { t, apiKey: await t.apiKey('admin') };
  }

  it('queues a heavy GraphQL read behind a heavy REST read holding the slot, runs cheap reads at once, and runs the queued one when the slot frees', async () => {
    const { t, apiKey } = await start({ max: 1, minCost: 10, holdMs: 60_000 });
    lock = await lockCatalog(t);
    const blocked = t.request('/api/catalog/entities?limit=20', { apiKey });
    await expect.poll(async () => (await slotGauge(t)).running, { timeout: 5000 }).toBe(1);

    let queuedAnswered = false;
    const queued = t.graphql(CUSTOMERS, undefined, { apiKey }).then((response) => {
      queuedAnswered = true;
      return response;
    });
    await expect.poll(async () => (await slotGauge(t)).waiting, { timeout: 5000 }).toBe(1);
    // Cost 1: never waits, over REST or GraphQL.
    expect((await t.request('/api/settings/general', { apiKey })).status).toBe(200);
    expect((await t.graphql('{ settingsGroup(group: "general") }', undefined, { apiKey })).status).toBe(200);
    expect(queuedAnswered).toBe(false);

    await lock.release();
    lock = undefined;
    const [list, customers] = await Promise.all([blocked, queued]);
    expect(list.status).toBe(200);
    expect(list.body.data).toEqual([]);
    expect(customers.status).toBe(200);
    expect(customers.body.data?.customers.data).toEqual([]);
    expect(await slotGauge(t)).toEqual({ running: 0, waiting: 0 });
  });

  it('gives the slot back after the hold time, so an operation stuck on a lock does not block the one behind it', async () => {
    const { t, apiKey } = await start({ max: 1, minCost: 10, holdMs: 1000 });
    lock = await lockCatalog(t);
    let blockedAnswered = false;
    const blocked = t.request('/api/catalog/entities?limit=20', { apiKey }).then((response) => {
      blockedAnswered = true;
      return response;
    });
    await expect.poll(async () => (await slotGauge(t)).running, { timeout: 900, interval: 20 }).toBe(1);
    // Without the hold time this would wait for the lock, which is released only below.
    const customers = await t.graphql(CUSTOMERS, undefined, { apiKey });
    expect(customers.status).toBe(200);
    expect(blockedAnswered).toBe(false);
    await lock.release();
    lock = undefined;
    expect((await blocked).status).toBe(200);
    expect(await slotGauge(t)).toEqual({ running: 0, waiting: 0 });
  });

  it('lets every operation run at once with EXECUTION_SLOTS 0', async () => {
    const { t, apiKey } = await start({ max: 0, minCost: 10 });
    lock = await lockCatalog(t);
    const blocked = t.request('/api/catalog/entities?limit=20', { apiKey });
    const customers = await t.graphql(CUSTOMERS, undefined, { apiKey });
    expect(customers.status).toBe(200);
    expect((await fetch(`${t.url}/metrics`).then((r) => r.text())).includes('commerce_graphql_execution_slots{')).toBe(false);
    await lock.release();
    lock = undefined;
    expect((await blocked).status).toBe(200);
  });
});
