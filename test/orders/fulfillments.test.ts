// Fulfillments: recorded per line, statuses derived, stock committed, fulfillment.create.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { ORDER_TEST_CONFIG, available, events, openStore, pay, placeOrder, processingOrder, product, type Store } from './helpers.js';

let t: TestApp;
let store: Store;

beforeAll(async () => {
  t = await startTestApp(ORDER_TEST_CONFIG);
  store = await openStore(t);
});
afterAll(() => t?.close());

describe('fulfillments', () => {
  it('derives line and order status: partially_fulfilled, then fulfilled', async () => {
    const a = await product(store, { price: 100, stock: 10 });
    const b = await product(store, { price: 200, stock: 10 });
    const order = await processingOrder(store, [
      { entityId: a, quantity: 3 },
      { entityId: b, quantity: 1 },
    ]);
    const [lineA, lineB] = order.lineItems;

    const first = await t.request(`/api/orders/${order.id}/fulfillments`, {
      apiKey: store.admin,
      body: { lines: [{ lineItemId: lineA.lineItemId, quantity: 2 }], carrier: 'UPS', trackingNumber: '1Z999', trackingUrl: 'https://ups.example/1Z999' },
    });
    expect(first.status, first.text).toBe(201);
    expect(first.body.data).toMatchObject({ orderId: order.id, carrier: 'UPS', trackingNumber: '1Z999', lines: [{ lineItemId: lineA.lineItemId, quantity: 2 }] });
    let now = (await t.request(`/api/orders/${order.id}`, { apiKey: store.admin })).body.data;
    expect(now.status).toBe('partially_fulfilled');
    expect(now.lineItems.map((l: any) => [l.fulfilledQuantity, l.fulfillmentStatus])).toEqual([
      [2, 'partially_fulfilled'],
      [0, 'unfulfilled'],
    ]);
    expect(await available(store, a)).toMatchObject({ onHand: 8, reserved: 1 });

    const rest = await t.request(`/api/orders/${order.id}/fulfillments`, { apiKey: store.admin, body: {} });
    expect(rest.status).toBe(201);
    expect(rest.body.data.lines).toEqual(
      expect.arrayContaining([
        { lineItemId: lineA.lineItemId, quantity: 1 },
        { lineItemId: lineB.lineItemId, quantity: 1 },
      ]),
    );
    now = (await t.request(`/api/orders/${order.id}`, { apiKey: store.admin })).body.data;
    expect(now.status).toBe('fulfilled');
    expect(now.lineItems.every((l: any) => l.fulfillmentStatus === 'fulfilled')).toBe(true);
    expect(await available(store, a)).toMatchObject({ onHand: 7, reserved: 0 });
    expect(await available(store, b)).toMatchObject({ onHand: 9, reserved: 0 });

    const list = await t.request(`/api/orders/${order.id}/fulfillments`, { apiKey: store.admin });
    expect(list.status).toBe(200);
    expect(list.body.data.map((f: any) => f.id)).toEqual([first.body.data.id, rest.body.data.id]);
    const emitted = (await events(t, 'fulfillment.create')).filter((e) => e.payload.fulfillment.orderId === order.id);
    expect(emitted).toHaveLength(2);
    expect(emitted[0]!.payload.fulfillment).toMatchObject({ trackingNumber: '1Z999', orderNumber: order.number });
    const moves = (await events(t, 'orders.statusChange')).filter((e) => e.payload.order.id === order.id).map((e) => [e.payload.to, e.payload.trigger]);
    expect(moves).toEqual([
      ['confirmed', 'payment'],
      ['processing', 'patch'],
      ['partially_fulfilled', 'fulfillment'],
      ['fulfilled', 'fulfillment'],
    ]);
  });

  it('refuses more than is left to fulfill, a foreign line, and nothing left', async () => {
    const a = await product(store, { price: 100, stock: 10 });
    const order = await processingOrder(store, [{ entityId: a, quantity: 2 }]);
    const line = order.lineItems[0].lineItemId;
    const over = await t.request(`/api/orders/${order.id}/fulfillments`, { apiKey: store.admin, body: { lines: [{ lineItemId: line, quantity: 3 }] } });
    expect(over.status).toBe(422);
    expect(over.body.error.details[0].field).toBe('lines.0.quantity');
    const foreign = await t.request(`/api/orders/${order.id}/fulfillments`, {
      apiKey: store.admin,
      body: { lines: [{ lineItemId: '00000000-0000-4000-8000-000000000000', quantity: 1 }] },
    });
    expect(foreign.status).toBe(422);
    expect((await t.request(`/api/orders/${order.id}/fulfillments`, { apiKey: store.admin, body: { lines: [{ lineItemId: line, quantity: 0 }] } })).status).toBe(422);
    expect((await t.request(`/api/orders/${order.id}/fulfillments`, { apiKey: store.admin, body: {} })).status).toBe(201);
    expect((await t.request(`/api/orders/${order.id}/fulfillments`, { apiKey: store.admin, body: {} })).status).toBe(422);
  });

  it('only fulfills orders that are processing or partially fulfilled', async () => {
    const a = await product(store, { price: 100, stock: 10 });
    const pending = await placeOrder(store, [{ entityId: a }]);
    const res = await t.request(`/api/orders/${pending.id}/fulfillments`, { apiKey: store.admin, body: {} });
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe('INVALID_TRANSITION');
    const confirmed = await pay(store, await placeOrder(store, [{ entityId: a }]));
    expect((await t.request(`/api/orders/${confirmed.id}/fulfillments`, { apiKey: store.admin, body: {} })).status).toBe(422);
  });

  it('lets a customer see the fulfillments of their own order only', async () => {
    const a = await product(store, { price: 100, stock: 10 });
    const order = await processingOrder(store, [{ entityId: a }]);
    const customer = await t.signIn('customer');
    expect((await t.request(`/api/orders/${order.id}/fulfillments`, { bearer: customer.token })).status).toBe(404);
    expect((await t.request(`/api/orders/${order.id}/fulfillments`, { bearer: customer.token, body: {} })).status).toBe(403);
  });
});
