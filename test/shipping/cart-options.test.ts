import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { ADDRESS, guestCart, ORDER_TEST_CONFIG, product } from '../orders/helpers.js';
import { flat, heavyProduct, method, shippingStore, zone } from './helpers.js';

let t: TestApp;

beforeAll(async () => {
  t = await startTestApp(ORDER_TEST_CONFIG);
});
afterAll(() => t?.close());

const options = (store: { storefront: string }, cart: { id: string; headers: Record<string, string> }, qs = '') =>
  t.request(`/api/carts/${cart.id}/shipping-options${qs}`, { apiKey: store.storefront, headers: cart.headers });

describe('cart shipping options', () => {
  it('lists eligible methods for the address with price, tax and estimate, cheapest first', async () => {
    const store = await shippingStore(t);
    const tax = await t.request('/api/tax/classes', { apiKey: store.admin, body: { name: 'shipping-tax', rateBps: 1000 } });
    const us = await zone(store, { name: 'US', countries: ['US'] });
    const west = await zone(store, { name: 'West', countries: ['US'], regions: ['US-CA'] });
    const de = await zone(store, { name: 'DE', countries: ['DE'] });
    const express = await method(store, us.id, { name: 'Express', minDays: 1, maxDays: 2, taxClassId: tax.body.data.id, calculator: flat(1500) });
    const byWeight = await method(store, us.id, {
      name: 'Ground',
      minDays: 3,
      maxDays: 7,
      calculator: {
        weightTable: {
          currency: 'USD',
          bands: [
            { upTo: 1000, amount: 400 },
            { upTo: 5000, amount: 900 },
          ],
        },
      },
    });
    const perItem = await method(store, us.id, {
      name: 'Per item',
      calculator: { freeOver: { thresholds: [{ currency: 'USD', amount: 100_000 }], otherwise: { perItem: { amounts: [{ currency: 'USD', amount: 300 }] } } } },
    });
    await method(store, us.id, { name: 'Wholesale only', customerGroupIds: ['wholesale'], calculator: flat(1) });
    await method(store, us.id, { name: 'Big orders', minSubtotal: 50_000, calculator: flat(2) });
    await method(store, us.id, { name: 'Euro only', calculator: flat(3, 'EUR') });
    await method(store, us.id, { name: 'Inactive', isActive: false, calculator: flat(4) });
    await method(store, west.id, { name: 'California courier', calculator: flat(5) });
    await method(store, de.id, { name: 'DHL', calculator: flat(6) });

    const item = await heavyProduct(store, 1500, 2000); // 2 × 1500 g = 3 kg, subtotal 4000
    const cart = await guestCart(store, [{ ...item, quantity: 2 }]);
    const res = await options(store, cart, '?country=US&state=IL&postalCode=62701');
    expect(res.status, res.text).toBe(200);
    expect(res.body.data.map((o: any) => [o.name, o.amount, o.taxTotal])).toEqual([
      ['Per item', 600, 0],
      ['Ground', 900, 0],
      ['Express', 1500, 150],
    ]);
    expect(res.body.data[2]).toMatchObject({ methodId: express.id, kind: 'delivery', currency: 'USD', taxRateBps: 1000, minDays: 1, maxDays: 2, pickupLocation: null });

    // California adds the regional courier (cheapest).
    const ca = await options(store, cart, '?country=US&state=CA');
    expect(ca.body.data.map((o: any) => o.name)).toEqual(['California courier', 'Per item', 'Ground', 'Express']);

    // Too heavy for the weight table's last band: Ground drops out.
    const heavyCart = await guestCart(store, [{ ...item, quantity: 4 }]);
    expect((await options(store, heavyCart, '?country=US')).body.data.map((o: any) => o.methodId)).not.toContain(byWeight.id);

    // The cart's own address (PUT /shipping) is used when none is given; without one it is 422 naming country.
    const none = await options(store, cart);
    expect(none.status).toBe(422);
    expect(none.body.error.details[0].field).toBe('country');
    const set = await t.request(`/api/carts/${cart.id}/shipping`, {
      method: 'PUT',
      apiKey: store.storefront,
      headers: cart.headers,
      body: { address: ADDRESS, methodId: perItem.id },
    });
    expect(set.status, set.text).toBe(200);
    expect(set.body.data).toMatchObject({ cartId: cart.id, address: { country: 'US', postalCode: '62701' }, method: { methodId: perItem.id, amount: 600 } });
    expect((await options(store, cart)).body.data.map((o: any) => o.name)).toEqual(['Per item', 'Ground', 'Express']);

    // A method that is not an option for the address is 422 naming methodId.
    const wrong = await t.request(`/api/carts/${cart.id}/shipping`, {
      method: 'PUT',
      apiKey: store.storefront,
      headers: cart.headers,
      body: { address: { ...ADDRESS, country: 'DE' }, methodId: express.id },
    });
    expect(wrong.status).toBe(422);
    expect(wrong.body.error.details[0].field).toBe('methodId');
  });

  it('gives a digital-only cart no options, and keeps guest carts behind their token', async () => {
    const store = await shippingStore(t);
    const us = await zone(store);
    await method(store, us.id);
    const ebook = await product(store, { type: 'digitalDownload' });
    const cart = await guestCart(store, [{ entityId: ebook }]);
    const res = await options(store, cart, '?country=US');
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual([]);
    const stranger = await t.request(`/api/carts/${cart.id}/shipping-options?country=US`, { apiKey: store.storefront });
    expect(stranger.status).toBe(404);
    const put = await t.request(`/api/carts/${cart.id}/shipping`, { method: 'PUT', apiKey: store.storefront, body: { address: ADDRESS } });
    expect(put.status).toBe(404);
  });

  it('answers Cart.shippingOptions over GraphQL', async () => {
    const store = await shippingStore(t);
    const us = await zone(store);
    const std = await method(store, us.id, { name: 'Standard', calculator: flat(700) });
    const entityId = await product(store, { price: 1000 });
    const cart = await guestCart(store, [{ entityId }]);
    const query = `query($id: UUID!) { cart(id: $id) { id shippingOptions(country: "US") { methodId name amount taxTotal } } }`;
    const res = await t.graphql(query, { id: cart.id }, { apiKey: store.storefront, headers: cart.headers });
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data!.cart.shippingOptions).toEqual([{ methodId: std.id, name: 'Standard', amount: 700, taxTotal: 0 }]);
    const noAddress = await t.graphql(`query($id: UUID!) { cart(id: $id) { shippingOptions { name } } }`, { id: cart.id }, { apiKey: store.storefront, headers: cart.headers });
    expect(noAddress.body.data!.cart.shippingOptions).toBeNull();
  });
});
