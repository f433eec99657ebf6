// Click & collect: a pickup method tied to a warehouse; the order's stock is reserved there and
// the order shows where it is collected.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { checkout, guestCart, ORDER_TEST_CONFIG, product, unique } from '../orders/helpers.js';
import { flat, method, shippingStore, zone } from './helpers.js';

let t: TestApp;

beforeAll(async () => {
  t = await startTestApp(ORDER_TEST_CONFIG);
});
afterAll(() => t?.close());

describe('pickup methods', () => {
  it('reserve from the pickup warehouse and show the pickup location on the order', async () => {
    const store = await shippingStore(t);
    const shopAddress = { line1: '5 Market St', city: 'Springfield', postalCode: '62701', country: 'US' };
    const shop = await t.request('/api/inventory/warehouses', { apiKey: store.admin, body: { name: 'Downtown shop', code: unique('shop').slice(0, 30), address: shopAddress } });
    expect(shop.status, shop.text).toBe(201);
    const us = await zone(store);
    await method(store, us.id, { name: 'Courier', calculator: flat(900) });
    const pickup = await method(store, us.id, { name: 'Collect in store', kind: 'pickup', warehouseId: shop.body.data.id, calculator: flat(0) });

    const entityId = await product(store, { price: 1500, stock: 10 }); // stocked in the default warehouse
    const adjust = await t.request('/api/inventory/adjust', { apiKey: store.admin, body: { entityId, warehouseId: shop.body.data.id, type: 'restock', quantity: 2 } });
    expect(adjust.status, adjust.text).toBe(200);

    const options = await t.request(`/api/carts/${(await guestCart(store, [{ entityId }])).id}/shipping-options?country=US`, { apiKey: store.admin });
    expect(options.status, options.text).toBe(200);
    expect(options.body.data[0]).toMatchObject({
      methodId: pickup.id,
      kind: 'pickup',
      amount: 0,
      pickupLocation: { warehouseId: shop.body.data.id, name: 'Downtown shop', address: { line1: '5 Market St' } },
    });

    const cart = await guestCart(store, [{ entityId, quantity: 2 }]);
    const res = await checkout(store, cart, { body: { shippingMethodId: pickup.id } });
    expect(res.status, res.text).toBe(201);
    const order = res.body.data;
    const levels = await t.request(`/api/inventory/levels?entityId=${entityId}`, { apiKey: store.admin });
    expect(levels.status, levels.text).toBe(200);
    const reservedAt = Object.fromEntries(levels.body.data.map((l: any) => [l.warehouseId, l.reserved]));
    expect(reservedAt).toEqual({ [shop.body.data.id]: 2, [store.warehouseId]: 0 });
    expect(order.shippingLines).toEqual([
      expect.objectContaining({ methodId: pickup.id, amount: 0, pickupLocation: expect.objectContaining({ warehouseId: shop.body.data.id, name: 'Downtown shop' }) }),
    ]);

    // The shop has nothing left: a third unit cannot be collected there, even though the default warehouse has stock.
    const again = await checkout(store, await guestCart(store, [{ entityId }]), { body: { shippingMethodId: pickup.id } });
    expect(again.status).toBe(422);
    const courier = await checkout(store, await guestCart(store, [{ entityId }]), {
      body: { shippingMethodId: (await t.request('/api/shipping/methods', { apiKey: store.admin })).body.data.find((m: any) => m.name === 'Courier').id },
    });
    expect(courier.status, courier.text).toBe(201);
  });
});
