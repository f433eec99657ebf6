// plugins/marketplace after the sale, over HTTP: disputes (open → responded → escalated →
// resolved, each resolution booking the ledger), returns (requested → shipped_back → received:
// restock through inventory, refund through the order, ledger debit), reviews (once per
// delivered sub-order, moderated, only published ones public), vendor performance — each with
// its illegal moves (422) and who may do what (another vendor's or customer's is 404/422).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../support/app.js';
import { available, type Store } from '../../orders/helpers.js';
import { M, sale as saleOf, startMarketplace, vendor, type Vendor } from './helpers.js';

let t: TestApp;
let store: Store;
let a: Vendor;
let b: Vendor;
let alice: { token: string; userId: string };
let bob: { token: string; userId: string };
let manager: string;

const admin = () => ({ apiKey: store.admin });
const post = (path: string, auth: { apiKey?: string; bearer?: string }, body?: unknown) => t.request(`${M}${path}`, { method: 'POST', ...auth, ...(body ? { body } : {}) });
const ledger = async (vendorId: string) => t.app.db.marketplaceLedgerEntry.findMany({ where: { vendorId }, orderBy: { createdAt: 'asc' } });

const sale = (v: Vendor, customer: { token: string }, price: number, quantity = 1, actions?: string[]) => saleOf(store, v, customer, price, quantity, actions);

beforeAll(async () => {
  ({ t, store } = await startMarketplace(
    {},
    {
      apiKeyScopes: { mkt_manager: { prefix: 'cs_mktm_', description: 'marketplace staff', permissions: { marketplace: ['read', 'manage'] } } },
    },
  ));
  manager = await t.apiKey('mkt_manager');
  a = await vendor(t, store.admin, { name: 'Alpha' });
  b = await vendor(t, store.admin, { name: 'Beta' });
  alice = await t.signIn('customer');
  bob = await t.signIn('customer');
  expect((await t.request(`${M}/commission-rules`, { apiKey: store.admin, body: { name: 'global', rateBps: 1000 } })).status).toBe(201);
});
afterAll(() => t?.close());

describe('disputes', () => {
  it('open → responded → escalated → resolved (split), booking the vendor’s share; illegal moves 422; strangers 404/422', async () => {
    const { sub } = await sale(a, alice, 10_000);
    expect((await post('/disputes', { bearer: bob.token }, { subOrderId: sub.id, reason: 'not mine' })).status).toBe(422);
    expect((await post('/disputes', { bearer: a.token }, { subOrderId: sub.id, reason: 'vendor' })).status).toBe(403);
    const opened = await post('/disputes', { bearer: alice.token }, { subOrderId: sub.id, reason: 'arrived chipped' });
    expect(opened.status, opened.text).toBe(201);
    const d = opened.body.data;
    expect(d).toMatchObject({ status: 'open', vendorId: a.id, subOrderId: sub.id });
    expect((await post('/disputes', { bearer: alice.token }, { subOrderId: sub.id, reason: 'again' })).status).toBe(409);

    expect((await post(`/disputes/${d.id}/respond`, { bearer: b.token }, { response: 'not us' })).status).toBe(404);
    expect((await post(`/disputes/${d.id}/escalate`, { bearer: bob.token })).status).toBe(404);
    const responded = await post(`/disputes/${d.id}/respond`, { bearer: a.token }, { response: 'packed with care; photo please' });
    expect(responded.body.data).toMatchObject({ status: 'responded', response: 'packed with care; photo please' });
    expect((await post(`/disputes/${d.id}/respond`, { bearer: a.token }, { response: 'again' })).body.error.code).toBe('INVALID_TRANSITION');
    expect((await post(`/disputes/${d.id}/escalate`, { bearer: alice.token })).body.data.status).toBe('escalated');
    expect((await post(`/disputes/${d.id}/escalate`, { bearer: alice.token })).body.error.code).toBe('INVALID_TRANSITION');
    expect((await post(`/disputes/${d.id}/resolve`, { apiKey: manager }, { resolution: 'split', refundAmount: 2_000 })).status).toBe(403);
    expect((await post(`/disputes/${d.id}/resolve`, admin(), { resolution: 'split' })).status).toBe(422);
    expect((await post(`/disputes/${d.id}/resolve`, admin(), { resolution: 'split', refundAmount: 10_000 })).status).toBe(422);
    const resolved = await post(`/disputes/${d.id}/resolve`, admin(), { resolution: 'split', refundAmount: 2_000 });
    expect(resolved.body.data).toMatchObject({ status: 'resolved', resolution: 'split', refundAmount: 2_000 });
    expect((await post(`/disputes/${d.id}/resolve`, admin(), { resolution: 'release_to_vendor' })).body.error.code).toBe('INVALID_TRANSITION');
    const entry = (await ledger(a.id)).find((e) => e.reference === `dispute:${d.id}`);
    expect(Number(entry!.amount)).toBe(-1_800); // 2000 less its 10% commission
  });

  it('refund_customer refunds the sub-order through the order; release_to_vendor books nothing', async () => {
    const { sub, order } = await sale(b, alice, 3_000, 2);
    const d1 = (await post('/disputes', { bearer: alice.token }, { subOrderId: sub.id, reason: 'never arrived' })).body.data;
    const r1 = await post(`/disputes/${d1.id}/resolve`, admin(), { resolution: 'refund_customer' });
    expect(r1.status, r1.text).toBe(200);
    expect(r1.body.data).toMatchObject({ resolution: 'refund_customer', refundAmount: 6_000 });
    expect((await t.request(`/api/orders/${order.id}`, admin())).body.data.refundedAmount).toBe(6_000);
    expect(Number((await ledger(b.id)).find((e) => e.reference === `dispute:${d1.id}`)!.amount)).toBe(-5_400);

    const other = await sale(b, alice, 1_000);
    const d2 = (await post('/disputes', admin(), { subOrderId: other.sub.id, reason: 'opened by support' })).body.data;
    expect((await post(`/disputes/${d2.id}/resolve`, admin(), { resolution: 'release_to_vendor' })).body.data).toMatchObject({ status: 'resolved', refundAmount: 0 });
    expect((await ledger(b.id)).find((e) => e.reference === `dispute:${d2.id}`)).toBeUndefined();
  });

  it('open → escalated and responded → resolved are legal too; resolved is final', async () => {
    const { sub } = await sale(a, alice, 1_000);
    const d = (await post('/disputes', { bearer: alice.token }, { subOrderId: sub.id, reason: 'wrong size' })).body.data;
    expect((await post(`/disputes/${d.id}/escalate`, { bearer: a.token })).body.data.status).toBe('escalated');
    expect((await post(`/disputes/${d.id}/respond`, { bearer: a.token }, { response: 'late answer' })).body.error.code).toBe('INVALID_TRANSITION');
    expect((await post(`/disputes/${d.id}/resolve`, admin(), { resolution: 'release_to_vendor' })).body.data.status).toBe('resolved');
    const other = await sale(a, alice, 1_000);
    const e = (await post('/disputes', { bearer: alice.token }, { subOrderId: other.sub.id, reason: 'scratched' })).body.data;
    expect((await post(`/disputes/${e.id}/respond`, { bearer: a.token }, { response: 'sorry' })).body.data.status).toBe('responded');
    expect((await post(`/disputes/${e.id}/resolve`, admin(), { resolution: 'release_to_vendor' })).body.data.status).toBe('resolved');
    expect((await post(`/disputes/${e.id}/escalate`, { bearer: alice.token })).body.error.code).toBe('INVALID_TRANSITION');
    // a new dispute may follow a resolved one
    expect((await post('/disputes', { bearer: alice.token }, { subOrderId: other.sub.id, reason: 'again' })).status).toBe(201);
  });

  it('are listed for admins (all), vendors and customers (their own)', async () => {
    const all = (await t.request(`${M}/disputes?limit=100`, admin())).body.data;
    expect(new Set(all.map((d: any) => d.vendorId))).toEqual(new Set([a.id, b.id]));
    const forA = (await t.request(`${M}/disputes?limit=100`, { bearer: a.token })).body.data;
    expect(forA.length).toBeGreaterThan(0);
    expect(forA.every((d: any) => d.vendorId === a.id)).toBe(true);
    expect((await t.request(`${M}/disputes`, { bearer: bob.token })).body.data).toEqual([]);
    expect((await t.request(`${M}/disputes`, { bearer: alice.token })).body.meta.total).toBeGreaterThanOrEqual(2);
  });
});

describe('returns', () => {
  it('requested → shipped_back → received: restock, refund, ledger debit; illegal moves 422', async () => {
    const { sub, order, entityId } = await sale(a, alice, 2_500, 2);
    const line = sub.lines[0];
    const undelivered = await sale(a, alice, 1_000, 1, ['confirm']);
    expect(
      (await post('/returns', { bearer: alice.token }, { subOrderId: undelivered.sub.id, reason: 'x', lines: [{ subOrderLineId: undelivered.sub.lines[0].id, quantity: 1 }] }))
        .status,
    ).toBe(422);
    expect((await post('/returns', { bearer: alice.token }, { subOrderId: sub.id, reason: 'too many', lines: [{ subOrderLineId: line.id, quantity: 3 }] })).status).toBe(422);
    expect((await post('/returns', { bearer: bob.token }, { subOrderId: sub.id, reason: 'not mine', lines: [{ subOrderLineId: line.id, quantity: 1 }] })).status).toBe(422);
    const requested = await post('/returns', { bearer: alice.token }, { subOrderId: sub.id, reason: 'wrong colour', lines: [{ subOrderLineId: line.id, quantity: 1 }] });
    expect(requested.status, requested.text).toBe(201);
    const r = requested.body.data;
    expect(r).toMatchObject({ status: 'requested', refundAmount: 2_500, vendorId: a.id });
    expect((await post('/returns', { bearer: alice.token }, { subOrderId: sub.id, reason: 'both', lines: [{ subOrderLineId: line.id, quantity: 2 }] })).status).toBe(422);

    expect((await post(`/returns/${r.id}/receive`, { bearer: a.token })).body.error.code).toBe('INVALID_TRANSITION');
    expect((await post(`/returns/${r.id}/ship-back`, { bearer: alice.token }, {})).status).toBe(422);
    expect((await post(`/returns/${r.id}/ship-back`, { bearer: bob.token }, { trackingNumber: 'RT1' })).status).toBe(404);
    const back = await post(`/returns/${r.id}/ship-back`, { bearer: alice.token }, { trackingNumber: 'RT-1', carrier: 'USPS' });
    expect(back.body.data).toMatchObject({ status: 'shipped_back', trackingNumber: 'RT-1' });
    expect((await post(`/returns/${r.id}/ship-back`, { bearer: alice.token }, { trackingNumber: 'RT-2' })).body.error.code).toBe('INVALID_TRANSITION');

    const stockBefore = await available(store, entityId);
    expect((await post(`/returns/${r.id}/receive`, { bearer: b.token })).status).toBe(404);
    expect((await post(`/returns/${r.id}/receive`, { bearer: alice.token })).status).toBe(403);
    const received = await post(`/returns/${r.id}/receive`, { bearer: a.token });
    expect(received.status, received.text).toBe(200);
    expect(received.body.data).toMatchObject({ status: 'received', refundAmount: 2_500 });
    expect((await available(store, entityId)).onHand).toBe(stockBefore.onHand + 1);
    expect((await t.request(`/api/orders/${order.id}`, admin())).body.data.refundedAmount).toBe(2_500);
    expect(Number((await ledger(a.id)).find((e) => e.reference === `return:${r.id}`)!.amount)).toBe(-2_250);
    expect((await post(`/returns/${r.id}/receive`, { bearer: a.token })).body.error.code).toBe('INVALID_TRANSITION');
    expect((await available(store, entityId)).onHand).toBe(stockBefore.onHand + 1);
  });
});

describe('reviews', () => {
  it('once per delivered sub-order by its customer; moderated; only published ones public', async () => {
    const { sub } = await sale(b, bob, 1_500);
    const pending = await sale(b, bob, 1_500, 1, ['confirm']);
    const write = (who: { token: string }, body: Record<string, unknown>) => post(`/vendors/${b.id}/reviews`, { bearer: who.token }, body);
    expect((await write(bob, { subOrderId: pending.sub.id, rating: 5 })).status).toBe(422);
    expect((await write(alice, { subOrderId: sub.id, rating: 5 })).status).toBe(422);
    expect((await write(bob, { subOrderId: sub.id, rating: 6 })).status).toBe(422);
    expect((await write(bob, { subOrderId: sub.id, rating: 4, text: 'x'.repeat(2001) })).status).toBe(422);
    expect((await post(`/vendors/${a.id}/reviews`, { bearer: bob.token }, { subOrderId: sub.id, rating: 4 })).status).toBe(422);
    expect((await post(`/vendors/${b.id}/reviews`, admin(), { subOrderId: sub.id, rating: 4 })).status).toBe(403);
    const created = await write(bob, { subOrderId: sub.id, rating: 4, text: 'Lovely bowls' });
    expect(created.status, created.text).toBe(201);
    expect(created.body.data).toMatchObject({ status: 'pending', rating: 4 });
    expect((await write(bob, { subOrderId: sub.id, rating: 1 })).status).toBe(409);

    const publicList = () => t.request(`${M}/vendors/${b.id}/reviews`);
    expect((await publicList()).body.data).toEqual([]);
    expect((await t.request(`${M}/vendor/me/reviews`, { bearer: b.token })).body.data.map((r: any) => r.id)).toEqual([created.body.data.id]);
    const moderate = (status: string, apiKey = store.admin) => t.request(`${M}/vendors/${b.id}/reviews/${created.body.data.id}`, { method: 'PATCH', apiKey, body: { status } });
    expect((await moderate('published', await t.apiKey('storefront'))).status).toBe(403);
    expect((await t.request(`${M}/vendors/${a.id}/reviews/${created.body.data.id}`, { method: 'PATCH', apiKey: store.admin, body: { status: 'published' } })).status).toBe(404);
    expect((await moderate('published', manager)).body.data.status).toBe('published');
    expect((await publicList()).body.data.map((r: any) => r.text)).toEqual(['Lovely bowls']);
    expect((await moderate('published')).body.error.code).toBe('INVALID_TRANSITION');
    expect((await moderate('hidden')).body.data.status).toBe('hidden');
    expect((await publicList()).body.data).toEqual([]);
    expect((await moderate('pending')).status).toBe(422);
    expect((await moderate('published')).status).toBe(200);
    // pending → hidden
    const next = await sale(b, alice, 1_500);
    const spam = (await write(alice, { subOrderId: next.sub.id, rating: 1, text: 'buy cheap watches' })).body.data;
    const hidden = await t.request(`${M}/vendors/${b.id}/reviews/${spam.id}`, { method: 'PATCH', apiKey: store.admin, body: { status: 'hidden' } });
    expect(hidden.body.data.status).toBe('hidden');
    expect((await publicList()).body.data.map((r: any) => r.id)).not.toContain(spam.id);
    const moderated = await t.request(`${M}/vendors/${b.id}/reviews?status=hidden`, { apiKey: manager });
    expect(moderated.body.data.map((r: any) => r.id)).toEqual([spam.id]);
  });
});

describe('performance', () => {
  it('counts orders, on-time shipping, cancellations, disputes and the average published rating', async () => {
    const perf = await t.request(`${M}/vendors/${b.id}/performance?days=30`, admin());
    expect(perf.status, perf.text).toBe(200);
    const rows = (await t.request(`${M}/sub-orders?vendorId=${b.id}&limit=100`, admin())).body.data;
    const disputed = new Set((await t.request(`${M}/disputes?limit=100`, admin())).body.data.filter((d: any) => d.vendorId === b.id).map((d: any) => d.subOrderId));
    expect(perf.body.data).toMatchObject({
      orderCount: rows.length,
      cancellationRate: rows.filter((s: any) => s.status === 'cancelled').length / rows.length,
      disputeRate: Math.round((disputed.size / rows.length) * 10_000) / 10_000,
      onTimeShipRate: 1,
      averageRating: 4,
      reviewCount: 1,
      windowDays: 30,
    });
    expect((await t.request(`${M}/vendors/${b.id}/performance`, { bearer: b.token })).status).toBe(403);
  });
});
