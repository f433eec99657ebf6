// Checkout with shipping methods: the chosen method becomes the order's shipping line, totals
// include it (tax on top, at the method's class rate), the method is required where one serves
// the address, and the SQL cost stays constant in the number of lines.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { ADDRESS, checkout, guestCart, openStore, ORDER_TEST_CONFIG, pay, product, type Store } from '../orders/helpers.js';
import { flat, method, shippingStore, zone } from './helpers.js';

let t: TestApp;

beforeAll(async () => {
  t = await startTestApp(ORDER_TEST_CONFIG);
});
afterAll(() => t?.close());

/** A store (an organization of its own unless `defaultOrg`: payment webhooks reach the default one) with a 10 % default class and two methods. */
async function storeWithMethods(defaultOrg = false): Promise<{ store: Store; express: any; standard: any; taxClassId: string }> {
  const store = defaultOrg ? await openStore(t) : await shippingStore(t);
  const tax = await t.request('/api/tax/classes', { apiKey: store.admin, body: { name: 'standard', rateBps: 1000, isDefault: true } });
  expect(tax.status, tax.text).toBe(201);
  const us = await zone(store, { countries: ['US'] });
  const express = await method(store, us.id, { name: 'Express', minDays: 1, maxDays: 2, calculator: flat(1500) });
  const standard = await method(store, us.id, {
    name: 'Standard',
    minDays: 3,
    maxDays: 5,
    calculator: { freeOver: { thresholds: [{ currency: 'USD', amount: 10_000 }], otherwise: flat(500) } },
  });
  return { store, express, standard, taxClassId: tax.body.data.id };
}

describe('checkout with shipping methods', () => {
  it('writes the chosen method as a shipping line; totals include it and its tax', async () => {
    const { store, express } = await storeWithMethods();
    const entityId = await product(store, { price: 2000 });
    const cart = await guestCart(store, [{ entityId, quantity: 2 }]);
    const res = await checkout(store, cart, { body: { shippingMethodId: express.id } });
    expect(res.status, res.text).toBe(201);
    const order = res.body.data;
    // 4000 subtotal, 400 line tax, 1500 shipping + 150 shipping tax
    expect(order).toMatchObject({ subtotal: 4000, shippingTotal: 1500, taxTotal: 550, grandTotal: 6050 });
    expect(order.shippingLines).toEqual([
      expect.objectContaining({
        methodId: express.id,
        name: 'Express',
        code: express.code,
        amount: 1500,
        taxRateBps: 1000,
        taxTotal: 150,
        minDays: 1,
        maxDays: 2,
        pickupLocation: null,
        refundedAmount: 0,
      }),
    ]);
    const read = await t.request(`/api/orders/${order.id}`, { apiKey: store.admin });
    expect(read.status, read.text).toBe(200);
    expect(read.body.data.shippingLines).toEqual(order.shippingLines);
    const gql = await t.graphql(
      `query($id: String!) { order(idOrNumber: $id) { shippingTotal shippingLines { name amount taxTotal } } }`,
      { id: order.id },
      { apiKey: store.admin },
    );
    expect(gql.body.errors).toBeUndefined();
    expect(gql.body.data!.order).toEqual({ shippingTotal: 1500, shippingLines: [{ name: 'Express', amount: 1500, taxTotal: 150 }] });
    // The invoice names the method, and its tax summary includes the shipping tax (rows add up to taxTotal).
    const invoice = await t.request(`/api/orders/${order.id}/invoice.html`, { apiKey: store.admin });
    expect(invoice.status).toBe(200);
    expect(invoice.text).toContain('Shipping (Express)');
    expect(invoice.text).toMatch(/10(\.00)?\s?%/);
    expect(invoice.text).toContain('5.50');
  });

  it("uses the cart's chosen method, applies free_over, and requires a method where one serves the address (422 naming shippingMethodId)", async () => {
    const { store, standard, express } = await storeWithMethods();
    const entityId = await product(store, { price: 2000 });

    const missing = await checkout(store, await guestCart(store, [{ entityId }]));
    expect(missing.status).toBe(422);
    expect(missing.body.error.details).toEqual([expect.objectContaining({ field: 'shippingMethodId' })]);

    const foreign = await checkout(store, await guestCart(store, [{ entityId }]), { body: { shippingMethodId: express.id, shippingAddress: { ...ADDRESS, country: 'DE' } } });
    expect(foreign.status).toBe(422);
    expect(foreign.body.error.details[0].field).toBe('shippingMethodId');

    // No method serves Germany: nothing is required and the legacy rule applies (flat rate 0 here).
    const abroad = await checkout(store, await guestCart(store, [{ entityId }]), { body: { shippingAddress: { ...ADDRESS, country: 'DE' } } });
    expect(abroad.status, abroad.text).toBe(201);
    expect(abroad.body.data).toMatchObject({ shippingTotal: 0, shippingLines: [] });

    const cart = await guestCart(store, [{ entityId, quantity: 5 }]); // 10 000: Standard is free
    const chosen = await t.request(`/api/carts/${cart.id}/shipping`, {
      method: 'PUT',
      apiKey: store.storefront,
      headers: cart.headers,
      body: { address: ADDRESS, methodId: standard.id },
    });
    expect(chosen.status, chosen.text).toBe(200);
    const res = await checkout(store, cart);
    expect(res.status, res.text).toBe(201);
    expect(res.body.data).toMatchObject({ subtotal: 10_000, shippingTotal: 0, taxTotal: 1000, grandTotal: 11_000 });
    expect(res.body.data.shippingLines).toEqual([expect.objectContaining({ methodId: standard.id, amount: 0, taxTotal: 0 })]);
  });

  it('refunds shipping (tax included) with shipping: true, once; an undo gives it back', async () => {
    const { store, express } = await storeWithMethods(true);
    const entityId = await product(store, { price: 2000 });
    const placed = await checkout(store, await guestCart(store, [{ entityId }]), { body: { shippingMethodId: express.id } });
    expect(placed.status, placed.text).toBe(201);
    const order = await pay(store, placed.body.data);
    const refund = await t.request(`/api/orders/${order.id}/refunds`, { apiKey: store.admin, body: { lines: [], shipping: true, reason: 'late delivery' } });
    expect(refund.status, refund.text).toBe(201);
    expect(refund.body.data).toMatchObject({ amount: 1650, shippingAmount: 1650, lines: [] });
    const after = (await t.request(`/api/orders/${order.id}`, { apiKey: store.admin })).body.data;
    expect(after.refundedAmount).toBe(1650);
    expect(after.shippingLines[0].refundedAmount).toBe(1650);
    const again = await t.request(`/api/orders/${order.id}/refunds`, { apiKey: store.admin, body: { lines: [], shipping: true } });
    expect(again.status).toBe(422);
    expect(again.body.error.details[0].field).toBe('shipping');
    const neither = await t.request(`/api/orders/${order.id}/refunds`, { apiKey: store.admin, body: { lines: [] } });
    expect(neither.status).toBe(422);
    expect(neither.body.error.details[0].field).toBe('lines');
    const undo = await t.request(`/api/orders/${order.id}/refunds/${refund.body.data.id}/undo`, { method: 'POST', apiKey: store.admin });
    expect(undo.status, undo.text).toBe(200);
    const restored = (await t.request(`/api/orders/${order.id}`, { apiKey: store.admin })).body.data;
    expect(restored.refundedAmount).toBe(0);
    expect(restored.shippingLines[0].refundedAmount).toBe(0);
  });

  it('needs no method for a cart of digital goods only', async () => {
    const { store } = await storeWithMethods();
    const ebook = await product(store, { type: 'digitalDownload', price: 900 });
    const res = await checkout(store, await guestCart(store, [{ entityId: ebook }]));
    expect(res.status, res.text).toBe(201);
    expect(res.body.data).toMatchObject({ shippingTotal: 0, shippingLines: [] });
  });

  it('keeps the checkout SQL cost constant in the number of lines', async () => {
    const { store, express } = await storeWithMethods();
    const cost = async (lines: number) => {
      const products = await Promise.all(Array.from({ length: lines }, () => product(store, { price: 1000, stock: 10 })));
      const cart = await guestCart(
        store,
        products.map((entityId) => ({ entityId })),
      );
      const trips = t.roundTrips();
      const statements = t.statements();
      const res = await checkout(store, cart, { body: { shippingMethodId: express.id } });
      expect(res.status, res.text).toBe(201);
      return { roundTrips: t.roundTrips() - trips, statements: t.statements() - statements };
    };
    await cost(1); // warm
    const one = await cost(1);
    const five = await cost(5);
    console.info(`checkout with a shipping method: 1 line ${one.roundTrips} round trips / ${one.statements} statements, 5 lines ${five.roundTrips} / ${five.statements}`);
    expect(five).toEqual(one);
    expect(one.roundTrips).toBeLessThanOrEqual(12);
  });
});
