// plugins/marketplace end to end over HTTP: a vendor from application to payout (onboard,
// documents through the media service, approve, list products; a customer buys from two vendors;
// both ship and deliver; one return, one dispute; a payout run), after which every vendor's
// balance equals its ledger with zero difference. Then: another organization's vendor,
// sub-order, payout, dispute, return and review are 404 (and absent from its lists); the
// analytics models show a vendor only its own rows; marketplace events reach a webhook.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../support/app.js';
import { pay, type Store } from '../../orders/helpers.js';
import { runner } from '../../jobs/support.js';
import { startReceiver, type Receiver } from '../../webhooks/receiver.js';
import { M, buy, document, startMarketplace, vendor, vendorProduct, type Vendor } from './helpers.js';

let t: TestApp;
let store: Store;
let receiver: Receiver;
const ids: Record<string, string> = {};
let a: Vendor;
let b: Vendor;

const admin = () => ({ apiKey: store.admin });
const post = (path: string, auth: { apiKey?: string; bearer?: string }, body?: unknown) => t.request(`${M}${path}`, { method: 'POST', ...auth, ...(body ? { body } : {}) });

beforeAll(async () => {
  ({ t, store } = await startMarketplace({ holdingPeriodDays: 0 }));
  receiver = await startReceiver();
});
afterAll(async () => {
  await receiver?.close();
  await t?.close();
});

describe('marketplace end to end', () => {
  it('walks two vendors from application to payout; balances reconcile with the ledger', async () => {
    const hook = await t.request('/api/webhooks', {
      method: 'POST',
      apiKey: store.admin,
      body: { url: `${receiver.url}/mkt`, events: ['marketplace.subOrder.statusChange', 'marketplace.payout.create'] },
    });
    expect(hook.status, hook.text).toBe(201);
    expect((await t.request('/api/webhooks', { method: 'POST', apiKey: store.admin, body: { url: `${receiver.url}/x`, events: ['marketplace.nope'] } })).status).toBe(422);
    expect((await t.request(`${M}/commission-rules`, { apiKey: store.admin, body: { name: 'standard', rateBps: 1500, fixedAmount: 25 } })).status).toBe(201);

    // onboarding: application, documents, approval
    a = await vendor(t, store.admin, { approved: false, name: 'Atelier A' });
    for (const kind of ['business_registration', 'tax_form', 'bank_proof']) {
      const doc = await document(t, store.admin, a.id, kind);
      expect((await post(`/vendors/${a.id}/documents/${doc}/approve`, admin())).status).toBe(200);
    }
    expect((await post(`/vendors/${a.id}/approve`, admin())).body.data.status).toBe('approved');
    b = await vendor(t, store.admin, { name: 'Bazaar B' });

    // products, and a customer buying from both
    const pA = await vendorProduct(store, a.id, { price: 8_000, stock: 10 });
    const pB = await vendorProduct(store, b.id, { price: 3_000, stock: 10 });
    const customer = await t.signIn('customer');
    const placed = await pay(store, await buy(store, [{ entityId: pA, quantity: 2 }, { entityId: pB }], { bearer: customer.token }));
    const subs = (await t.request(`${M}/sub-orders?orderId=${placed.id}`, admin())).body.data;
    const sa = subs.find((s: any) => s.vendorId === a.id);
    const sb = subs.find((s: any) => s.vendorId === b.id);
    expect(sa).toMatchObject({ total: 16_000, commissionTotal: 2_400 + 25, netAmount: 16_000 - 2_425 });
    expect(sb).toMatchObject({ total: 3_000, commissionTotal: 450 + 25, netAmount: 3_000 - 475 });

    for (const [v, s] of [
      [a, sa],
      [b, sb],
    ] as const) {
      expect((await post(`/vendor/me/orders/${s.id}/confirm`, { bearer: v.token })).status).toBe(200);
      expect((await post(`/vendor/me/orders/${s.id}/ship`, { bearer: v.token }, { trackingNumber: `TRK-${v.id.slice(0, 4)}`, carrier: 'UPS' })).status).toBe(200);
      expect((await post(`/vendor/me/orders/${s.id}/deliver`, { bearer: v.token })).status).toBe(200);
    }
    expect((await t.request(`/api/orders/${placed.id}`, admin())).body.data.status).toBe('fulfilled');

    // one return (A, one of two units) and one dispute (B, split)
    const ret = await post('/returns', { bearer: customer.token }, { subOrderId: sa.id, reason: 'cracked', lines: [{ subOrderLineId: sa.lines[0].id, quantity: 1 }] });
    expect(ret.status, ret.text).toBe(201);
    expect((await post(`/returns/${ret.body.data.id}/ship-back`, { bearer: customer.token }, { trackingNumber: 'RET-1' })).status).toBe(200);
    expect((await post(`/returns/${ret.body.data.id}/receive`, { bearer: a.token })).status).toBe(200);
    const dispute = await post('/disputes', { bearer: customer.token }, { subOrderId: sb.id, reason: 'late' });
    expect(dispute.status).toBe(201);
    expect((await post(`/disputes/${dispute.body.data.id}/respond`, { bearer: b.token }, { response: 'carrier delay' })).status).toBe(200);
    expect((await post(`/disputes/${dispute.body.data.id}/resolve`, admin(), { resolution: 'split', refundAmount: 1_000 })).status).toBe(200);
    const review = await post(`/vendors/${a.id}/reviews`, { bearer: customer.token }, { subOrderId: sa.id, rating: 5, text: 'Beautiful' });
    expect(review.status).toBe(201);

    // payouts
    expect((await post('/payouts/run', admin())).status).toBe(202);
    await runner(t).runBatch({ queue: 'default', limit: 10 });
    const payouts = (await t.request(`${M}/payouts`, admin())).body.data;
    const refundShareA = 8_000 - Math.round((8_000 * 2_425) / 16_000);
    const disputeShareB = 1_000 - Math.round((1_000 * 475) / 3_000);
    const expected = { [a.id]: 16_000 - 2_425 - refundShareA, [b.id]: 3_000 - 475 - disputeShareB };
    expect(Object.fromEntries(payouts.map((p: any) => [p.vendorId, p.amount]))).toEqual(expected);
    expect(payouts.every((p: any) => p.status === 'paid')).toBe(true);

    for (const v of [a, b]) {
      const entries = await t.app.db.marketplaceLedgerEntry.findMany({ where: { vendorId: v.id } });
      const sum = entries.reduce((s, e) => s + Number(e.amount), 0);
      const [bal] = (await t.request(`${M}/vendors/${v.id}/balance`, admin())).body.data;
      expect(bal.balance - sum).toBe(0);
      expect(bal).toMatchObject({ balance: 0, available: 0 });
      expect(bal.totalCredits - bal.totalDebits).toBe(sum);
      expect(entries.map((e) => e.kind).sort()).toEqual(v === a ? ['payout', 'refund', 'sale'] : ['dispute', 'payout', 'sale']);
    }
    Object.assign(ids, {
      vendor: a.id,
      subOrder: sa.id,
      payout: payouts[0].id,
      dispute: dispute.body.data.id,
      return: ret.body.data.id,
      review: review.body.data.id,
      order: placed.id,
    });

    // the events reached the webhook
    const ran = await t.request('/api/jobs/run', { apiKey: store.admin });
    expect(ran.status).toBe(200);
    const types = receiver.received.filter((r) => r.path === '/mkt').map((r) => r.json.type);
    expect(types.filter((x) => x === 'marketplace.subOrder.statusChange').length).toBeGreaterThanOrEqual(6);
    expect(types).toContain('marketplace.payout.create');
  });

  it('another organization’s vendor, sub-order, payout, dispute, return and review are 404 and absent from its lists', async () => {
    const other = await t.app.services.organizations.create({ slug: `mkt-other-${Date.now()}`, name: 'Other market' });
    const otherAdmin = await t.apiKey('admin', { organizationId: other.id });
    const as = { apiKey: otherAdmin };
    const get = (path: string) => t.request(`${M}${path}`, as);
    for (const path of [
      `/vendors/${ids.vendor}`,
      `/vendors/${ids.vendor}/documents`,
      `/vendors/${ids.vendor}/balance`,
      `/vendors/${ids.vendor}/performance`,
      `/vendors/${ids.vendor}/reviews`,
      `/sub-orders/${ids.subOrder}`,
    ]) {
      expect((await get(path)).status, path).toBe(404);
    }
    const writes: Array<[string, string, unknown?]> = [
      ['PATCH', `/vendors/${ids.vendor}`, { description: 'x' }],
      ['POST', `/vendors/${ids.vendor}/suspend`],
      ['POST', `/vendors/${ids.vendor}/documents`, { kind: 'tax_form', mediaId: '00000000-0000-4000-8000-000000000000' }],
      ['PATCH', `/sub-orders/${ids.subOrder}/status`, { status: 'cancelled' }],
      ['POST', `/payouts/${ids.payout}/retry`],
      ['POST', `/disputes/${ids.dispute}/escalate`],
      ['POST', `/disputes/${ids.dispute}/resolve`, { resolution: 'release_to_vendor' }],
      ['POST', `/returns/${ids.return}/ship-back`, { trackingNumber: 'x' }],
      ['POST', `/returns/${ids.return}/receive`],
      ['PATCH', `/vendors/${ids.vendor}/reviews/${ids.review}`, { status: 'hidden' }],
    ];
    for (const [method, path, body] of writes) {
      const res = await t.request(`${M}${path}`, { method, ...as, ...(body ? { body } : {}) });
      expect(res.status, `${method} ${path} ${res.text}`).toBe(404);
    }
    // a body reference to another organization's sub-order is refused too
    expect((await t.request(`${M}/disputes`, { ...as, body: { subOrderId: ids.subOrder, reason: 'x' } })).status).toBe(422);
    for (const path of ['/vendors', '/sub-orders', '/payouts', '/disputes', '/commission-rules']) {
      const res = await get(`${path}?limit=100`);
      expect(res.status, path).toBe(200);
      expect(res.body.data, path).toEqual([]);
    }
    // and nothing changed at home
    expect((await t.request(`${M}/vendors/${ids.vendor}`, admin())).body.data.status).toBe('approved');
    expect((await t.request(`${M}/vendors/${ids.vendor}/reviews`)).body.data).toEqual([]);
    // a vendor user of the other organization acts for its own vendor only
    const ov = await vendor(t, otherAdmin, { organizationId: other.id });
    expect((await t.request(`${M}/vendor/me/orders/${ids.subOrder}/confirm`, { method: 'POST', bearer: ov.token })).status).toBe(404);
    expect((await t.request(`${M}/vendor/me/orders`, { bearer: ov.token })).body.data).toEqual([]);
  });

  it('the analytics models show a vendor only its own rows; staff the organization’s', async () => {
    const query = (body: unknown, auth: { apiKey?: string; bearer?: string }) => t.request('/api/analytics/query', { ...auth, body });
    const orders = { measures: ['VendorOrders.count', 'VendorOrders.revenue', 'VendorOrders.commissionPaid', 'VendorOrders.netPayout'], dimensions: ['VendorOrders.vendorId'] };
    const staff = await query(orders, admin());
    expect(staff.status, staff.text).toBe(200);
    expect(staff.body.data.map((r: any) => r['VendorOrders.vendorId']).sort()).toEqual([a.id, b.id].sort());
    const own = await query(orders, { bearer: a.token });
    expect(own.status, own.text).toBe(200);
    expect(own.body.data).toEqual([
      expect.objectContaining({
        'VendorOrders.vendorId': a.id,
        'VendorOrders.count': 1,
        'VendorOrders.revenue': 16_000,
        'VendorOrders.commissionPaid': 2_425,
        'VendorOrders.netPayout': 13_575,
      }),
    ]);
    const balance = await query({ measures: ['VendorBalance.totalCredits', 'VendorBalance.totalDebits', 'VendorBalance.netBalance'] }, { bearer: b.token });
    expect(balance.body.data).toEqual([{ 'VendorBalance.totalCredits': 2_525, 'VendorBalance.totalDebits': 2_525, 'VendorBalance.netBalance': 0 }]);
    const reviews = await query({ measures: ['VendorReviews.count', 'VendorReviews.averageRating'] }, { bearer: b.token });
    expect(reviews.body.data[0]['VendorReviews.count']).toBe(0);
    expect((await query({ measures: ['VendorReviews.count'] }, { bearer: a.token })).body.data[0]['VendorReviews.count']).toBe(1);
  });
});
