// plugins/marketplace payouts over HTTP: delivered sub-orders credit the ledger (net of
// commission); POST /payouts/run enqueues the payout job; runs requested twice at once — and two
// jobs run by two workers at once — pay each vendor's available balance exactly once; a failed
// payout keeps its debit and is retried with the same idempotency key (never paid twice); the
// vendor sees only its own payouts; balances reconcile with the ledger.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../support/app.js';
import { pay, type Store } from '../../orders/helpers.js';
import { runner, separateRunner } from '../../jobs/support.js';
import { race } from '../../support/race.js';
import type { PayoutAdapter, PayoutRequest } from '../../../plugins/marketplace/payout-adapters.js';
import { M, buy, startMarketplace, vendor, vendorProduct, type Vendor } from './helpers.js';

let t: TestApp;
let store: Store;
let a: Vendor;
let b: Vendor;
const calls: PayoutRequest[] = [];
let failNext = 0;
/** When set, the next provider call waits for it: a send held in flight. */
let holdNext: Promise<void> | null = null;
const adapter: PayoutAdapter = {
  name: 'test',
  async pay(request) {
    calls.push(request);
    const hold = holdNext;
    holdNext = null;
    if (hold !== null) await hold;
    if (failNext > 0) {
      failNext -= 1;
      return { ok: false, message: 'bank rejected the transfer' };
    }
    return { ok: true, externalId: `tr_${request.idempotencyKey}` };
  },
};

const admin = () => ({ apiKey: store.admin });
const balance = async (id: string) => (await t.request(`${M}/vendors/${id}/balance`, admin())).body.data[0];

/** A sub-order of `v` for `price`, paid, confirmed, shipped and delivered; returns its net amount. */
async function deliveredSale(v: Vendor, price: number): Promise<number> {
  const p = await vendorProduct(store, v.id, { price });
  const placed = await pay(store, await buy(store, [{ entityId: p }]));
  const [sub] = (await t.request(`${M}/sub-orders?orderId=${placed.id}`, admin())).body.data;
  for (const [action, body] of [['confirm'], ['ship', { trackingNumber: 'T', carrier: 'UPS' }], ['deliver']] as const) {
    const res = await t.request(`${M}/vendor/me/orders/${sub.id}/${action}`, { method: 'POST', bearer: v.token, ...(body ? { body } : {}) });
    expect(res.status, res.text).toBe(200);
  }
  return sub.netAmount;
}

/** The payout task enqueued beside whatever runs left waiting (no concurrency key: only the vendor lock can hold). */
async function enqueuePayouts(organizationId: string): Promise<void> {
  await t.app.services.jobs.enqueue({ task: 'marketplace/payouts' as never, input: {} as never, organizationId, concurrencyKey: null });
}

/** Two workers (separate connections) each claim `limit` jobs at once; then one finishes what is left. */
async function twoWorkersAtOnce(limit: number): Promise<void> {
  const second = separateRunner(t);
  try {
    await Promise.all([runner(t).runBatch({ queue: 'default', limit }), second.runner.runBatch({ queue: 'default', limit })]);
    await runner(t).runBatch({ queue: 'default', limit: 10 });
  } finally {
    await second.close();
  }
}

beforeAll(async () => {
  ({ t, store } = await startMarketplace({ holdingPeriodDays: 0, payoutAdapter: adapter }));
  a = await vendor(t, store.admin, { name: 'Alpha' });
  b = await vendor(t, store.admin, { name: 'Beta' });
  expect((await t.request(`${M}/commission-rules`, { apiKey: store.admin, body: { name: 'global', rateBps: 1250 } })).status).toBe(201);
});
afterAll(() => t?.close());

describe('marketplace payouts', () => {
  it('pay each vendor its available balance once, however many runs are requested at once', async () => {
    const netA = (await deliveredSale(a, 10_000)) + (await deliveredSale(a, 3_999));
    const netB = await deliveredSale(b, 2_000);
    expect(netA).toBe(10_000 - 1_250 + 3_999 - 500); // 12.5% of 3999 = 499.875 → 500 (half away from zero)
    expect(await balance(a.id)).toMatchObject({ totalCredits: netA, totalDebits: 0, balance: netA, available: netA, pending: 0 });

    const runs = await Promise.all([1, 2, 3].map(() => t.request(`${M}/payouts/run`, { method: 'POST', apiKey: store.admin })));
    for (const r of runs) {
      expect(r.status, r.text).toBe(202);
      expect(r.body.data.jobId).toBeTruthy();
    }
    // two workers at once
    await twoWorkersAtOnce(10);
    const payouts = (await t.request(`${M}/payouts?limit=100`, admin())).body.data;
    expect(payouts.map((p: any) => [p.vendorId, p.amount, p.status]).sort()).toEqual(
      [
        [a.id, netA, 'paid'],
        [b.id, netB, 'paid'],
      ].sort(),
    );
    expect(calls).toHaveLength(2);
    expect(await balance(a.id)).toMatchObject({ totalCredits: netA, totalDebits: netA, balance: 0, available: 0 });
    expect(await balance(b.id)).toMatchObject({ balance: 0 });
  });

  it('two payout jobs run by two workers at once still pay once (the vendor lock, not only the job key)', async () => {
    const net = await deliveredSale(a, 5_000);
    const org = (await t.app.services.organizations.defaultOrganization()).id;
    for (let i = 0; i < 2; i += 1) await enqueuePayouts(org);
    await twoWorkersAtOnce(1);
    const mine = (await t.request(`${M}/payouts?vendorId=${a.id}&limit=100`, admin())).body.data;
    expect(mine.filter((p: any) => p.amount === net)).toHaveLength(1);
    expect(await balance(a.id)).toMatchObject({ balance: 0 });
  });

  it('a payout held in its provider call is not sent again by a second job that lists it meanwhile', async () => {
    const net = await deliveredSale(a, 4_321);
    const org = (await t.app.services.organizations.defaultOrganization()).id;
    await enqueuePayouts(org);
    await enqueuePayouts(org);
    let release!: () => void;
    holdNext = new Promise<void>((resolve) => (release = resolve));
    const before = calls.length;
    const second = separateRunner(t);
    try {
      const first = runner(t).runBatch({ queue: 'default', limit: 1 });
      for (let i = 0; i < 200 && calls.length === before; i += 1) await new Promise((r) => setTimeout(r, 25));
      expect(calls.length).toBe(before + 1); // the first job is inside the provider call
      await second.runner.runBatch({ queue: 'default', limit: 1 }); // lists the payout as pending
      release();
      await first;
    } finally {
      release();
      await second.close();
    }
    expect(calls.slice(before).filter((c) => c.amount === net)).toHaveLength(1);
    expect(await balance(a.id)).toMatchObject({ balance: 0 });
  });

  it('20 rounds: two payout runs requested at once (separate connections, a barrier) and two jobs run by two workers at once pay each balance once', async () => {
    const org = (await t.app.services.organizations.defaultOrganization()).id;
    const outcomes = new Map<string, number>();
    for (let round = 0; round < 20; round += 1) {
      const net = await deliveredSale(a, 1_000 + round);
      const before = calls.length;
      const runs = await race(
        t.url,
        [0, 1].map(() => ({ path: `${M}/payouts/run`, apiKey: store.admin })),
      );
      expect(
        runs.map((r) => r.status),
        runs.map((r) => r.text).join('\n'),
      ).toEqual([202, 202]);
      // a second job beside the one the runs left (a later run replaces a waiting one): the vendor lock, not the job key, must hold
      await enqueuePayouts(org);
      await twoWorkersAtOnce(1);
      const paid = calls.slice(before).filter((c) => c.amount === net);
      outcomes.set(`${paid.length} payout(s) of the balance`, (outcomes.get(`${paid.length} payout(s) of the balance`) ?? 0) + 1);
      expect(paid).toHaveLength(1);
      expect(new Set(calls.map((c) => c.idempotencyKey)).size).toBe(calls.length);
      expect(await balance(a.id)).toMatchObject({ balance: 0, available: 0 });
    }
    console.info('payout races (20 rounds):', Object.fromEntries(outcomes));
  }, 240_000);

  it('a failed payout keeps its debit and is retried with the same idempotency key, once', async () => {
    const net = await deliveredSale(b, 4_000);
    failNext = 1;
    calls.length = 0;
    expect((await t.request(`${M}/payouts/run`, { method: 'POST', apiKey: store.admin })).status).toBe(202);
    await runner(t).runBatch({ queue: 'default', limit: 10 });
    const [failed] = (await t.request(`${M}/payouts?status=failed`, admin())).body.data;
    expect(failed).toMatchObject({ vendorId: b.id, amount: net, status: 'failed', failureReason: 'bank rejected the transfer', attempts: 1 });
    // the money is set aside for the retry: not paid again by the next run
    expect(await balance(b.id)).toMatchObject({ balance: 0 });
    await t.request(`${M}/payouts/run`, { method: 'POST', apiKey: store.admin });
    await runner(t).runBatch({ queue: 'default', limit: 10 });
    expect(calls).toHaveLength(1);

    const [r1, r2] = await Promise.all([
      t.request(`${M}/payouts/${failed.id}/retry`, { method: 'POST', apiKey: store.admin }),
      t.request(`${M}/payouts/${failed.id}/retry`, { method: 'POST', apiKey: store.admin }),
    ]);
    expect([r1.status, r2.status].sort()).toEqual([200, 422]);
    const ok = r1.status === 200 ? r1 : r2;
    expect(ok.body.data).toMatchObject({ status: 'paid', attempts: 2, idempotencyKey: failed.idempotencyKey });
    expect(calls.map((c) => c.idempotencyKey)).toEqual([failed.idempotencyKey, failed.idempotencyKey]);
    const again = await t.request(`${M}/payouts/${failed.id}/retry`, { method: 'POST', apiKey: store.admin });
    expect(again.status).toBe(422);
    expect(again.body.error.code).toBe('INVALID_TRANSITION');
    expect(calls).toHaveLength(2);
  });

  it('vendors see only their own payouts and balance; runs and retries need marketplace:admin', async () => {
    const mine = await t.request(`${M}/vendor/me/payouts?limit=100`, { bearer: a.token });
    expect(mine.status).toBe(200);
    expect(mine.body.data.length).toBeGreaterThan(0);
    expect(mine.body.data.every((p: any) => p.vendorId === a.id)).toBe(true);
    const bal = await t.request(`${M}/vendor/me/balance`, { bearer: a.token });
    expect(bal.body.data).toEqual([await balance(a.id)]);
    expect((await t.request(`${M}/payouts/run`, { method: 'POST', bearer: a.token })).status).toBe(403);
    expect((await t.request(`${M}/payouts`, { bearer: a.token })).status).toBe(403);
    expect((await t.request(`${M}/payouts/00000000-0000-4000-8000-000000000000/retry`, { method: 'POST', apiKey: store.admin })).status).toBe(404);
  });

  it('balances equal the sum of the ledger', async () => {
    for (const v of [a, b]) {
      const rows = await t.app.db.marketplaceLedgerEntry.findMany({ where: { vendorId: v.id } });
      const sum = rows.reduce((s, r) => s + Number(r.amount), 0);
      expect((await balance(v.id)).balance).toBe(sum);
      const payouts = await t.app.db.marketplacePayout.findMany({ where: { vendorId: v.id } });
      const sales = rows.filter((r) => r.kind === 'sale').reduce((s, r) => s + Number(r.amount), 0);
      expect(sales - payouts.reduce((s, p) => s + Number(p.amount), 0)).toBe(sum);
    }
  });
});
