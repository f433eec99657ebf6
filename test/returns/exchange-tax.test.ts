// Exchanges priced like any order (issue 27 item 2): the outbound lines go through checkout's
// pricing path (priceOrder) at creation — tax in the store's mode, at the original order's address
// (tax zones) — and exchangeTotal is tax included, the same footing as the credit (what was paid,
// tax included). The replacement order carries the lines' tax and totals as checkout writes them,
// ships free, and refunding it gives back exactly what it was paid. Every store here is its own
// organization: tax classes and settings do not leak between tests.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { ORDER_TEST_CONFIG, openStore, pay, product, setSettings, type Store } from '../orders/helpers.js';
import { otherOrganization, unique } from '../inventory/helpers.js';
import { customerOrder, moveReturn, openReturn, restockAll, ship } from './helpers.js';

let t: TestApp;

beforeAll(async () => {
  t = await startTestApp(ORDER_TEST_CONFIG);
});
afterAll(() => t?.close());

type Call = { kind: string; input: Record<string, any> };
const providerCalls = (kind: string, orderId: string) =>
  (t.app.services.payments.provider as unknown as { log: Call[] }).log.filter((c) => c.kind === kind && (c.input.orderId ?? c.input.metadata?.orderId) === orderId);

interface TaxedStore extends Store {
  orgId: string;
  /** The organization's default tax class. */
  taxClassId: string;
}

async function taxedStore(options: { rateBps: number; pricesIncludeTax: boolean }): Promise<TaxedStore> {
  const org = await otherOrganization(t);
  const store = await openStore(t, { organizationId: org.id });
  await setSettings(store, 'policies', { refundUndoWindowMinutes: 0 });
  const cls = await t.request('/api/tax/classes', {
    apiKey: store.admin,
    body: {
      name: unique('c')
        .toLowerCase()
        .replace(/[^a-z0-9-]/g, '-'),
      rateBps: options.rateBps,
      isDefault: true,
    },
  });
  expect(cls.status, cls.text).toBe(201);
  if (options.pricesIncludeTax) await setSettings(store, 'general', { pricesIncludeTax: true });
  return { ...store, orgId: org.id, taxClassId: cls.body.data.id };
}

const getOrder = async (store: Store, id: string) => (await t.request(`/api/orders/${id}`, { apiKey: store.admin })).body.data;

/** A signed-in customer's order of one unit of `entityId`, paid and shipped. */
async function shippedFor(store: TaxedStore, entityId: string): Promise<any> {
  const shopper = await t.signIn('customer', { organizationId: store.orgId });
  return ship(store, await customerOrder(t, shopper.token, [{ entityId }]));
}

/** Opens an exchange of the order's first unit for one `outbound`, approves and receives it. */
async function receivedExchange(store: Store, order: any, outbound: string): Promise<any> {
  const opened = await openReturn(store, order.id, [{ lineItemId: order.lineItems[0].lineItemId, quantity: 1 }], { exchangeLines: [{ entityId: outbound, quantity: 1 }] });
  expect(opened.status, opened.text).toBe(201);
  expect((await moveReturn(store, opened.body.data.id, 'approve')).status).toBe(200);
  const received = await moveReturn(store, opened.body.data.id, 'receive', restockAll(opened.body.data, store.warehouseId));
  expect(received.status, received.text).toBe(200);
  return received.body.data;
}

/** Refunds every unit of the replacement's first line; answers the refund. */
async function refundAll(store: Store, replacement: any): Promise<any> {
  const line = replacement.lineItems[0];
  const res = await t.request(`/api/orders/${replacement.id}/refunds`, { apiKey: store.admin, body: { lines: [{ lineItemId: line.lineItemId, quantity: line.quantity }] } });
  expect(res.status, res.text).toBe(201);
  return res.body.data;
}

/** The order's own totals add up: subtotal − discount (+ tax when it is not inside the prices) + shipping = grandTotal. */
function expectConsistent(order: any): void {
  const inclusive = order.pricing.pricesIncludeTax === true;
  expect(order.subtotal - order.discountTotal + (inclusive ? 0 : order.taxTotal) + order.shippingTotal).toBe(order.grandTotal);
  expect(order.lineItems.reduce((sum: number, l: any) => sum + l.taxTotal, 0)).toBe(order.taxTotal);
  expect(order.lineItems.reduce((sum: number, l: any) => sum + l.discountTotal, 0)).toBe(order.discountTotal);
  expect(order.lineItems.reduce((sum: number, l: any) => sum + l.totalPrice, 0)).toBe(order.subtotal);
}

describe('a store whose prices exclude tax (a zone rate at the order address, a flat shipping rate)', () => {
  let store: TaxedStore;
  let cheap: string;
  let dear: string;
  beforeAll(async () => {
    store = await taxedStore({ rateBps: 1000, pricesIncludeTax: false });
    // The order ships to Illinois (test ADDRESS): 8.25 % there, not the class's 10 %.
    const zone = await t.request('/api/tax/rates', {
      apiKey: store.admin,
      body: { taxClassId: store.taxClassId, countryCode: 'US', region: 'IL', rateBps: 825 },
    });
    expect(zone.status, zone.text).toBe(201);
    await setSettings(store, 'shipping', { flatRate: 500, freeOver: null });
    cheap = await product(store, { price: 1000, stock: 10 });
    dear = await product(store, { price: 2500, stock: 10 });
  });

  it('a pricier item: the outbound line is taxed at the address, the difference = (new net + new tax) − credit, the replacement totals as checkout writes them', async () => {
    const order = await shippedFor(store, cheap);
    // 1 000 + 8.25 % (82.5 → 83) + 500 shipping.
    expect(order).toMatchObject({ subtotal: 1000, taxTotal: 83, shippingTotal: 500, grandTotal: 1583 });

    const ret = await receivedExchange(store, order, dear);
    // 2 500 + 8.25 % (206.25 → 206): exchangeTotal is tax included.
    expect(ret).toMatchObject({
      exchangeTotal: 2706,
      exchangeTaxTotal: 206,
      exchangeLines: [{ entityId: dear, quantity: 1, unitPrice: 2500, totalPrice: 2500, discountTotal: 0, taxRateBps: 825, taxTotal: 206 }],
    });
    // The same figures through GraphQL.
    const gql = await t.graphql(
      'query($id: UUID!) { orderReturn(id: $id) { exchangeTotal exchangeTaxTotal exchangeLines { unitPrice discountTotal taxRateBps taxTotal } } }',
      { id: ret.id },
      { apiKey: store.admin },
    );
    expect(gql.body.errors, JSON.stringify(gql.body.errors)).toBeUndefined();
    expect(gql.body.data.orderReturn).toEqual({
      exchangeTotal: 2706,
      exchangeTaxTotal: 206,
      exchangeLines: [{ unitPrice: 2500, discountTotal: 0, taxRateBps: 825, taxTotal: 206 }],
    });

    const settled = await moveReturn(store, ret.id, 'exchange');
    expect(settled.status, settled.text).toBe(200);
    // The credit is what the unit was paid, tax included (shipping is not the line's): 1 083.
    expect(settled.body.data).toMatchObject({ status: 'exchanged', exchangeCredit: 1083, exchangeDifference: 2706 - 1083 });
    const authorized = providerCalls('authorize', ret.exchangeOrderId);
    expect(authorized.map((c) => c.input.amount)).toEqual([1623]);

    let replacement = await getOrder(store, ret.exchangeOrderId);
    // No shipping on the replacement although the store charges a flat rate: the exchange ships free.
    expect(replacement).toMatchObject({ subtotal: 2500, discountTotal: 0, taxTotal: 206, shippingTotal: 0, grandTotal: 2706, capturedAmount: 1083, status: 'pending' });
    expect(replacement.pricing).toMatchObject({ pricesIncludeTax: false, taxExempt: false, promotions: [] });
    expect(replacement.lineItems).toMatchObject([{ entityId: dear, unitPrice: 2500, totalPrice: 2500, discountTotal: 0, taxRateBps: 825, taxTotal: 206 }]);
    expectConsistent(replacement);

    replacement = await pay(store, { id: replacement.id, paymentIntentId: replacement.paymentIntentId, grandTotal: 1623 });
    expect(replacement).toMatchObject({ status: 'confirmed', paymentStatus: 'paid', capturedAmount: 2706 });
    expect((await getOrder(store, order.id)).refundedAmount).toBe(1083);

    // Refunding the replacement gives back exactly what it was paid: its tax included.
    const refund = await refundAll(store, replacement);
    expect(refund.amount).toBe(2706);
    expect(await getOrder(store, replacement.id)).toMatchObject({ refundedAmount: 2706, paymentStatus: 'refunded' });
  });

  it('a cheaper item: the credit above the tax-included replacement is refunded', async () => {
    const order = await shippedFor(store, dear);
    // 2 500 + 206 + 500 shipping; the unit was paid 2 706.
    expect(order).toMatchObject({ taxTotal: 206, grandTotal: 3206 });
    const ret = await receivedExchange(store, order, cheap);
    expect(ret).toMatchObject({ exchangeTotal: 1083, exchangeLines: [{ taxTotal: 83, taxRateBps: 825 }] });
    const settled = await moveReturn(store, ret.id, 'exchange');
    expect(settled.status, settled.text).toBe(200);
    // 2 706 paid for the returned unit − 1 083 for the replacement = 1 623 back to the card.
    expect(settled.body.data).toMatchObject({ exchangeCredit: 2706, exchangeDifference: -1623, refundAmount: 1623, refundMethod: 'original_payment' });
    expect(providerCalls('refund', order.id).reduce((sum, c) => sum + c.input.amount, 0)).toBe(1623);
    expect((await getOrder(store, order.id)).refundedAmount).toBe(2706);

    const replacement = await getOrder(store, ret.exchangeOrderId);
    expect(replacement).toMatchObject({ status: 'confirmed', paymentStatus: 'paid', subtotal: 1000, taxTotal: 83, grandTotal: 1083, capturedAmount: 1083 });
    expectConsistent(replacement);
    const refund = await refundAll(store, replacement);
    expect(refund.amount).toBe(1083);
    expect(await getOrder(store, replacement.id)).toMatchObject({ refundedAmount: 1083, paymentStatus: 'refunded' });
  });

  it('the tax mode the lines were priced in is the replacement’s, even when the setting changes before settlement', async () => {
    const mode = await taxedStore({ rateBps: 1000, pricesIncludeTax: false });
    const item = await product(mode, { price: 1000, stock: 5 });
    const other = await product(mode, { price: 2000, stock: 5 });
    const order = await shippedFor(mode, item);
    const ret = await receivedExchange(mode, order, other);
    expect(ret).toMatchObject({ exchangeTotal: 2200, exchangeTaxTotal: 200 });
    await setSettings(mode, 'general', { pricesIncludeTax: true });
    const settled = await moveReturn(mode, ret.id, 'exchange');
    expect(settled.status, settled.text).toBe(200);
    expect(settled.body.data).toMatchObject({ exchangeCredit: 1100, exchangeDifference: 1100 });
    let replacement = await getOrder(mode, ret.exchangeOrderId);
    // Priced with tax on top: the order says so, and its figures add up that way.
    expect(replacement).toMatchObject({ subtotal: 2000, taxTotal: 200, grandTotal: 2200, pricing: { pricesIncludeTax: false } });
    expectConsistent(replacement);
    replacement = await pay(mode, { id: replacement.id, paymentIntentId: replacement.paymentIntentId, grandTotal: 1100 });
    expect((await refundAll(mode, replacement)).amount).toBe(2200);
  });
});

describe('a store whose prices include tax', () => {
  it('the outbound line holds its tax inside the price: nothing is added, the replacement is refunded what it was paid', async () => {
    const store = await taxedStore({ rateBps: 2000, pricesIncludeTax: true });
    const shirt = await product(store, { price: 1200, stock: 5 });
    const jacket = await product(store, { price: 3000, stock: 5 });
    const order = await shippedFor(store, shirt);
    expect(order).toMatchObject({ grandTotal: 1200, taxTotal: 200 });
    const ret = await receivedExchange(store, order, jacket);
    // 3 000 gross at 20 %: 500 of tax inside it.
    expect(ret).toMatchObject({ exchangeTotal: 3000, exchangeTaxTotal: 500, exchangeLines: [{ unitPrice: 3000, totalPrice: 3000, taxRateBps: 2000, taxTotal: 500 }] });
    const settled = await moveReturn(store, ret.id, 'exchange');
    expect(settled.status, settled.text).toBe(200);
    expect(settled.body.data).toMatchObject({ exchangeCredit: 1200, exchangeDifference: 1800 });
    let replacement = await getOrder(store, ret.exchangeOrderId);
    expect(replacement).toMatchObject({ subtotal: 3000, discountTotal: 0, taxTotal: 500, shippingTotal: 0, grandTotal: 3000, pricing: { pricesIncludeTax: true } });
    expect(replacement.lineItems).toMatchObject([{ taxRateBps: 2000, taxTotal: 500 }]);
    expectConsistent(replacement);
    replacement = await pay(store, { id: replacement.id, paymentIntentId: replacement.paymentIntentId, grandTotal: 1800 });
    expect(replacement).toMatchObject({ paymentStatus: 'paid', capturedAmount: 3000 });
    const refund = await refundAll(store, replacement);
    expect(refund.amount).toBe(3000);
    expect(await getOrder(store, replacement.id)).toMatchObject({ refundedAmount: 3000, paymentStatus: 'refunded' });
  });
});
