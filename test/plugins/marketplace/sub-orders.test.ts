// plugins/marketplace over HTTP: a mixed-vendor checkout creates one sub-order per vendor in the
// checkout's transaction (lines, totals, each line's commission with the rule copied); commission
// rules (most specific wins, validity window, edits and deletes never change past sub-orders);
// the vendor portal works only its own sub-orders (another vendor's is 404) through the state
// table, and the parent order follows (processing, partially_fulfilled, fulfilled, cancelled,
// refunds of a cancelled part, stock back); the admin sub-order routes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../support/app.js';
import { available, pay, type Store } from '../../orders/helpers.js';
import { M, buy, startMarketplace, vendor, vendorProduct, type Vendor } from './helpers.js';

let t: TestApp;
let store: Store;
let a: Vendor;
let b: Vendor;
let category: string;
const rules: Record<string, string> = {};

const inDays = (d: number) => new Date(Date.now() + d * 86_400_000).toISOString();
const admin = () => ({ apiKey: store.admin });
const subOrdersOf = async (orderId: string) => (await t.request(`${M}/sub-orders?orderId=${orderId}`, admin())).body.data as any[];
const order = async (id: string) => (await t.request(`/api/orders/${id}`, admin())).body.data;
const portal = (v: Vendor, id: string, action: string, body?: unknown) =>
  t.request(`${M}/vendor/me/orders/${id}/${action}`, { method: 'POST', bearer: v.token, ...(body ? { body } : {}) });

beforeAll(async () => {
  ({ t, store } = await startMarketplace());
  a = await vendor(t, store.admin, { name: 'Alpha' });
  b = await vendor(t, store.admin, { name: 'Beta' });
  const cat = await t.request('/api/catalog/categories', { apiKey: store.admin, body: { name: 'Ceramics', slug: `ceramics-${Date.now()}` } });
  expect(cat.status, cat.text).toBe(201);
  category = cat.body.data.id;
  const rule = async (key: string, body: Record<string, unknown>) => {
    const res = await t.request(`${M}/commission-rules`, { apiKey: store.admin, body: { name: key, ...body } });
    expect(res.status, res.text).toBe(201);
    rules[key] = res.body.data.id;
  };
  await rule('global', { rateBps: 1000 });
  await rule('alpha', { vendorId: a.id, rateBps: 500, fixedAmount: 50 });
  await rule('ceramics', { categoryId: category, rateBps: 2000 });
  await rule('beta-ceramics', { vendorId: b.id, categoryId: category, fixedAmount: 300 });
  await rule('beta-future', { vendorId: b.id, categoryId: category, rateBps: 9999, validFrom: inDays(10) });
});
afterAll(() => t?.close());

describe('commission rules', () => {
  it('need a rate or a fixed amount, a window in order, and references of the organization', async () => {
    const none = await t.request(`${M}/commission-rules`, { apiKey: store.admin, body: { name: 'zero' } });
    expect(none.status).toBe(422);
    const window = await t.request(`${M}/commission-rules`, { apiKey: store.admin, body: { name: 'w', rateBps: 1, validFrom: inDays(2), validUntil: inDays(1) } });
    expect(window.status).toBe(422);
    expect(window.body.error.details[0].field).toBe('validUntil');
    const ghost = await t.request(`${M}/commission-rules`, { apiKey: store.admin, body: { name: 'g', rateBps: 1, vendorId: '00000000-0000-4000-8000-000000000000' } });
    expect(ghost.status).toBe(422);
    expect((await t.request(`${M}/commission-rules`, { apiKey: store.admin, body: { name: 'big', rateBps: 10_001 } })).status).toBe(422);
    const list = await t.request(`${M}/commission-rules?vendorId=${b.id}`, admin());
    expect(list.body.data.map((r: { name: string }) => r.name).sort()).toEqual(['beta-ceramics', 'beta-future']);
    expect((await t.request(`${M}/commission-rules`, { apiKey: store.storefront })).status).toBe(403);
  });
});

describe('sub-orders at checkout', () => {
  it('one per vendor with lines, totals and the most specific valid rule, in the order’s transaction', async () => {
    const pA1 = await vendorProduct(store, a.id, { price: 10_000 });
    const pA2 = await vendorProduct(store, a.id, { price: 2_500 });
    const pB = await vendorProduct(store, b.id, { price: 4_000 });
    const pShop = await vendorProduct(store, null, { price: 1_000 });
    expect((await t.request(`/api/catalog/entities/${pB}/categories/${category}`, { method: 'POST', apiKey: store.admin })).status).toBeLessThan(300);
    const placed = await buy(store, [{ entityId: pA1 }, { entityId: pA2, quantity: 2 }, { entityId: pB }, { entityId: pShop }]);
    const subs = await subOrdersOf(placed.id);
    expect(subs).toHaveLength(2);
    const sa = subs.find((s) => s.vendorId === a.id);
    const sb = subs.find((s) => s.vendorId === b.id);
    // alpha: 5% + 50 per line
    expect(sa).toMatchObject({ status: 'pending', subtotal: 15_000, total: 15_000, commissionTotal: 550 + 300, netAmount: 15_000 - 850, currency: 'USD' });
    expect(sa.lines.map((l: any) => [l.entityId, l.quantity, l.total, l.commissionAmount, l.commissionRule.name])).toEqual(
      expect.arrayContaining([
        [pA1, 1, 10_000, 550, 'alpha'],
        [pA2, 2, 5_000, 300, 'alpha'],
      ]),
    );
    // beta in ceramics: the vendor+category rule beats the category rule; the future one is not in force yet
    expect(sb).toMatchObject({ subtotal: 4_000, commissionTotal: 300, netAmount: 3_700 });
    expect(sb.lines[0].commissionRule).toMatchObject({ id: rules['beta-ceramics'], fixedAmount: 300, rateBps: 0 });
    // the shop's own line has no sub-order; the order's lines point at the sub-order lines
    const o = await order(placed.id);
    expect(o.lineItems).toHaveLength(4);
    const vendorLines = new Set([...sa.lines, ...sb.lines].map((l: any) => l.orderLineId));
    expect(
      o.lineItems
        .filter((l: any) => vendorLines.has(l.lineItemId))
        .map((l: any) => l.entityId)
        .sort(),
    ).toEqual([pA1, pA2, pB].sort());

    // a category-only line of another vendor gets the category rule, a plain one the global rule
    const c = await vendor(t, store.admin, { name: 'Gamma' });
    const pC1 = await vendorProduct(store, c.id, { price: 1_000 });
    const pC2 = await vendorProduct(store, c.id, { price: 1_000 });
    await t.request(`/api/catalog/entities/${pC1}/categories/${category}`, { method: 'POST', apiKey: store.admin });
    const [sc] = await subOrdersOf((await buy(store, [{ entityId: pC1 }, { entityId: pC2 }])).id);
    expect(sc.lines.map((l: any) => [l.entityId, l.commissionAmount, l.commissionRule.name])).toEqual(
      expect.arrayContaining([
        [pC1, 200, 'ceramics'],
        [pC2, 100, 'global'],
      ]),
    );
  });

  it('keep their commission when a rule is edited or deleted later; new checkouts use the rule as it is now', async () => {
    const p = await vendorProduct(store, a.id, { price: 10_000 });
    const before = (await subOrdersOf((await buy(store, [{ entityId: p }])).id))[0];
    expect(before.commissionTotal).toBe(550);
    const edited = await t.request(`${M}/commission-rules/${rules.alpha}`, { method: 'PATCH', apiKey: store.admin, body: { rateBps: 2500, fixedAmount: 0 } });
    expect(edited.status, edited.text).toBe(200);
    const again = (await t.request(`${M}/sub-orders/${before.id}`, admin())).body.data;
    expect(again.commissionTotal).toBe(550);
    expect(again.lines[0].commissionRule).toMatchObject({ rateBps: 500, fixedAmount: 50 });
    const after = (await subOrdersOf((await buy(store, [{ entityId: p }])).id))[0];
    expect(after.commissionTotal).toBe(2_500);
    const deleted = await t.request(`${M}/commission-rules/${rules.alpha}`, { method: 'DELETE', apiKey: store.admin });
    expect(deleted.status).toBe(200);
    expect((await t.request(`${M}/commission-rules/${rules.alpha}`, { method: 'DELETE', apiKey: store.admin })).status).toBe(404);
    expect((await t.request(`${M}/sub-orders/${after.id}`, admin())).body.data.commissionTotal).toBe(2_500);
    const global = (await subOrdersOf((await buy(store, [{ entityId: p }])).id))[0];
    expect(global.commissionTotal).toBe(1_000);
  });

  it('cost a fixed number of statements whatever the number of vendors and lines', async () => {
    const { guestCart, checkout } = await import('../../orders/helpers.js');
    const items = async (n: number, v: Vendor) => Promise.all(Array.from({ length: n }, () => vendorProduct(store, v.id, { price: 1_000 })));
    const cost = async (entityIds: string[]) => {
      const cart = await guestCart(
        store,
        entityIds.map((entityId) => ({ entityId })),
      );
      const before = t.statements();
      const trips = t.roundTrips();
      const res = await checkout(store, cart);
      expect(res.status, res.text).toBe(201);
      roundTrips.push(t.roundTrips() - trips);
      return t.statements() - before;
    };
    const roundTrips: number[] = [];
    const shopOnly = await cost([await vendorProduct(store, null, { price: 1_000 })]);
    const shopFour = await cost(await Promise.all([1, 2, 3, 4].map(() => vendorProduct(store, null, { price: 1_000 }))));
    const twoByOne = await cost([...(await items(1, a)), ...(await items(1, b))]);
    const twoByFour = await cost([...(await items(4, a)), ...(await items(4, b))]);
    const threeByOne = await cost([...(await items(1, a)), ...(await items(1, b)), ...(await items(1, await vendor(t, store.admin)))]);
    const perLineCore = (shopFour - shopOnly) / 3;
    const perVendor = threeByOne - twoByOne - perLineCore;
    console.info(
      `checkout statements: shop only ${shopOnly} (+${perLineCore}/line), 2 vendors × 1 line ${twoByOne}, 2 vendors × 4 lines ${twoByFour}, 3 vendors × 1 line ${threeByOne}: +${perVendor} per vendor; round trips ${roundTrips.join(', ')}`,
    );
    // more lines per vendor cost only what the core spends per line; a vendor costs a fixed few
    expect(twoByFour - twoByOne).toBe(6 * perLineCore);
    // the hook is set-based: vendors cost nothing more, and checkout stays within 12 round trips
    expect(perVendor).toBe(0);
    expect(Math.max(...roundTrips)).toBeLessThanOrEqual(12);
  });

  it('refuse a checkout with goods of a vendor that is not approved, writing nothing', async () => {
    const s = await vendor(t, store.admin, { name: 'Suspended' });
    const p = await vendorProduct(store, s.id, { price: 1_000, stock: 5 });
    expect((await t.request(`${M}/vendors/${s.id}/suspend`, { method: 'POST', apiKey: store.admin })).status).toBe(200);
    const { guestCart, checkout } = await import('../../orders/helpers.js');
    const cart = await guestCart(store, [{ entityId: p }]);
    const res = await checkout(store, cart);
    expect(res.status, res.text).toBe(422);
    expect(res.body.error.code).toBe('CHECKOUT_FAILED');
    expect(await available(store, p)).toMatchObject({ reserved: 0, available: 5 });
    expect((await t.request(`${M}/sub-orders?vendorId=${s.id}`, admin())).body.meta.total).toBe(0);
  });
});

describe('the vendor portal and the parent order', () => {
  it('lists only the vendor’s own sub-orders; another vendor’s is 404 for every move', async () => {
    const p = await vendorProduct(store, a.id, { price: 1_000 });
    const placed = await buy(store, [{ entityId: p }]);
    const [sub] = await subOrdersOf(placed.id);
    const mine = await t.request(`${M}/vendor/me/orders?limit=100`, { bearer: a.token });
    expect(mine.status).toBe(200);
    expect(mine.body.data.every((s: any) => s.vendorId === a.id)).toBe(true);
    expect(mine.body.data.map((s: any) => s.id)).toContain(sub.id);
    const theirs = await t.request(`${M}/vendor/me/orders?limit=100`, { bearer: b.token });
    expect(theirs.body.data.map((s: any) => s.id)).not.toContain(sub.id);
    for (const action of ['confirm', 'ship', 'deliver', 'cancel']) {
      const res = await portal(b, sub.id, action, action === 'ship' ? { trackingNumber: 'T1', carrier: 'UPS' } : undefined);
      expect(res.status, action).toBe(404);
    }
    expect((await t.request(`${M}/sub-orders/${sub.id}`, admin())).body.data.status).toBe('pending');
    // the admin list is not the vendor's
    expect((await t.request(`${M}/sub-orders`, { bearer: a.token })).status).toBe(403);
  });

  it('pending → confirmed → shipped → delivered, the order following to fulfilled; illegal moves are 422', async () => {
    const pA = await vendorProduct(store, a.id, { price: 3_000, stock: 10 });
    const pB = await vendorProduct(store, b.id, { price: 2_000, stock: 10 });
    const placed = await buy(store, [{ entityId: pA }, { entityId: pB }]);
    const subs = await subOrdersOf(placed.id);
    const sa = subs.find((s) => s.vendorId === a.id);
    const sb = subs.find((s) => s.vendorId === b.id);
    // unpaid: nothing to confirm yet
    const unpaid = await portal(a, sa.id, 'confirm');
    expect(unpaid.status).toBe(422);
    expect(unpaid.body.error.code).toBe('INVALID_TRANSITION');
    expect((await portal(a, sa.id, 'ship', { trackingNumber: 'T', carrier: 'UPS' })).body.error.code).toBe('INVALID_TRANSITION');
    await pay(store, placed);
    const confirmed = await portal(a, sa.id, 'confirm');
    expect(confirmed.status, confirmed.text).toBe(200);
    expect(confirmed.body.data).toMatchObject({ status: 'confirmed' });
    expect((await order(placed.id)).status).toBe('processing');
    expect((await portal(a, sa.id, 'confirm')).body.error.code).toBe('INVALID_TRANSITION');
    expect((await portal(a, sa.id, 'deliver')).body.error.code).toBe('INVALID_TRANSITION');
    const noTracking = await portal(a, sa.id, 'ship', { carrier: 'UPS' });
    expect(noTracking.status).toBe(422);
    expect(noTracking.body.error.details.map((d: any) => d.field)).toContain('trackingNumber');
    const shipped = await portal(a, sa.id, 'ship', { trackingNumber: '1Z999', carrier: 'UPS' });
    expect(shipped.status, shipped.text).toBe(200);
    expect(shipped.body.data).toMatchObject({ status: 'shipped', trackingNumber: '1Z999', carrier: 'UPS' });
    const half = await order(placed.id);
    expect(half.status).toBe('partially_fulfilled');
    // the stock of the shipped line is consumed, the other still reserved
    expect(await available(store, pA)).toMatchObject({ onHand: 9, reserved: 0 });
    expect(await available(store, pB)).toMatchObject({ onHand: 10, reserved: 1 });
    expect((await portal(a, sa.id, 'cancel')).body.error.code).toBe('INVALID_TRANSITION');
    // the admin moves B through the same table
    const patch = (status: string, body: Record<string, unknown> = {}) =>
      t.request(`${M}/sub-orders/${sb.id}/status`, { method: 'PATCH', apiKey: store.admin, body: { status, ...body } });
    expect((await patch('shipped', { trackingNumber: 'X', carrier: 'DHL' })).body.error.code).toBe('INVALID_TRANSITION');
    expect((await patch('confirmed')).status).toBe(200);
    expect((await patch('shipped')).status).toBe(422);
    expect((await patch('shipped', { trackingNumber: 'DHL-1', carrier: 'DHL' })).status).toBe(200);
    expect((await order(placed.id)).status).toBe('fulfilled');
    const delivered = await portal(a, sa.id, 'deliver');
    expect(delivered.body.data).toMatchObject({ status: 'delivered' });
    expect(delivered.body.data.deliveredAt).toBeTruthy();
    expect((await patch('delivered')).status).toBe(200);
    expect((await portal(a, sa.id, 'cancel')).body.error.code).toBe('INVALID_TRANSITION');
    // delivery credits the vendor's ledger, held for the holding period (7 days by default)
    const [balance] = (await t.request(`${M}/vendor/me/balance`, { bearer: a.token })).body.data;
    expect(balance).toMatchObject({ currency: 'USD', totalCredits: sa.netAmount, balance: sa.netAmount, available: 0, pending: sa.netAmount });
    // so a payout run now pays nothing
    expect((await t.request(`${M}/payouts/run`, { method: 'POST', apiKey: store.admin })).status).toBe(202);
    const { runner } = await import('../../jobs/support.js');
    await runner(t).runBatch({ queue: 'default', limit: 10 });
    expect((await t.request(`${M}/payouts`, admin())).body.data).toEqual([]);
    // GraphQL answers with the same sub-order
    const gql = await t.graphql(`{ marketplaceSubOrder(id: "${sa.id}") { id status lines { sku quantity commissionAmount } } }`, {}, { apiKey: store.admin });
    expect(gql.body.data?.marketplaceSubOrder).toMatchObject({ id: sa.id, status: 'delivered' });
  });

  it('under concurrency: one of two identical moves wins; two vendors shipping at once leave the order fulfilled', async () => {
    const pA = await vendorProduct(store, a.id, { price: 1_000, stock: 10 });
    const pB = await vendorProduct(store, b.id, { price: 1_000, stock: 10 });
    const placed = await pay(store, await buy(store, [{ entityId: pA }, { entityId: pB }]));
    const subs = await subOrdersOf(placed.id);
    const sa = subs.find((s) => s.vendorId === a.id);
    const sb = subs.find((s) => s.vendorId === b.id);
    const twice = await Promise.all([portal(a, sa.id, 'confirm'), portal(a, sa.id, 'confirm')]);
    expect(twice.map((r) => r.status).sort()).toEqual([200, 422]);
    expect((await portal(b, sb.id, 'confirm')).status).toBe(200);
    const ships = await Promise.all([portal(a, sa.id, 'ship', { trackingNumber: 'A1', carrier: 'UPS' }), portal(b, sb.id, 'ship', { trackingNumber: 'B1', carrier: 'DHL' })]);
    expect(ships.map((r) => r.status)).toEqual([200, 200]);
    expect((await order(placed.id)).status).toBe('fulfilled');
    const fulfillments = await t.request(`/api/orders/${placed.id}/fulfillments`, admin());
    expect(fulfillments.body.data.map((f: any) => f.trackingNumber).sort()).toEqual(['A1', 'B1']);
  });

  it('cancelling a part refunds it and gives its stock back; the last live part cancels the order', async () => {
    const pA = await vendorProduct(store, a.id, { price: 3_000, stock: 10 });
    const pB = await vendorProduct(store, b.id, { price: 2_000, stock: 10 });
    const placed = await pay(store, await buy(store, [{ entityId: pA, quantity: 2 }, { entityId: pB }]));
    const subs = await subOrdersOf(placed.id);
    const sa = subs.find((s) => s.vendorId === a.id);
    const sb = subs.find((s) => s.vendorId === b.id);
    const cancelled = await portal(a, sa.id, 'cancel', { reason: 'out of glaze' });
    expect(cancelled.status, cancelled.text).toBe(200);
    expect(cancelled.body.data).toMatchObject({ status: 'cancelled', cancelReason: 'out of glaze' });
    expect(await available(store, pA)).toMatchObject({ reserved: 0, available: 10 });
    const afterA = await order(placed.id);
    expect(afterA.status).toBe('confirmed');
    expect(afterA.refundedAmount).toBe(6_000);
    expect((await portal(a, sa.id, 'confirm')).body.error.code).toBe('INVALID_TRANSITION');
    expect((await portal(b, sb.id, 'cancel')).status).toBe(200);
    const afterB = await order(placed.id);
    expect(afterB.status).toBe('cancelled');
    expect(afterB.refundedAmount).toBe(8_000);
    expect(await available(store, pB)).toMatchObject({ reserved: 0, available: 10 });
  });

  it('admin list filters by vendor and status; statement count does not grow with the page', async () => {
    const list = await t.request(`${M}/sub-orders?vendorId=${b.id}&status=delivered`, admin());
    expect(list.body.data.length).toBeGreaterThan(0);
    expect(list.body.data.every((s: any) => s.vendorId === b.id && s.status === 'delivered')).toBe(true);
    const count = async (limit: number) => {
      const before = t.statements();
      const res = await t.request(`${M}/sub-orders?limit=${limit}`, admin());
      expect(res.status).toBe(200);
      return t.statements() - before;
    };
    await count(1);
    // The app's counter also sees background statements (job heartbeats, the outbox listener):
    // the fewest of three measurements is the request's own cost.
    const fewest = async (measure: () => Promise<number>) => Math.min(await measure(), await measure(), await measure());
    const one = await fewest(() => count(1));
    const many = await fewest(() => count(100));
    expect(many).toBe(one);
    // every list route of the plugin, first page of 1 vs 100
    for (const [path, auth] of [
      ['/vendors', admin()],
      ['/commission-rules', admin()],
      ['/payouts', admin()],
      ['/disputes', admin()],
      [`/vendors/${a.id}/reviews`, admin()],
      ['/vendor/me/orders', { bearer: a.token }],
      ['/vendor/me/payouts', { bearer: a.token }],
      ['/vendor/me/reviews', { bearer: a.token }],
    ] as const) {
      const statements = async (limit: number) => {
        const before = t.statements();
        const res = await t.request(`${M}${path}?limit=${limit}`, auth);
        expect(res.status, path).toBe(200);
        return t.statements() - before;
      };
      await statements(1);
      expect(await fewest(() => statements(100)), path).toBe(await fewest(() => statements(1)));
    }
  });
});
