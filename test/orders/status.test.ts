// PATCH /orders/:id/status follows the state table exactly.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { ORDER_TEST_CONFIG, available, events, openStore, pay, placeOrder, processingOrder, product, setStatus, type Store } from './helpers.js';
import { ORDER_STATUSES, ORDER_TRANSITIONS } from '../../src/modules/orders/status.js';

let t: TestApp;
let store: Store;
let productId: string;

beforeAll(async () => {
  t = await startTestApp(ORDER_TEST_CONFIG);
  store = await openStore(t);
  productId = await product(store, { price: 1000, stock: 1000 });
});
afterAll(() => t?.close());

/** An order brought to `status` through allowed moves only. */
async function orderIn(status: string): Promise<any> {
  const placed = await placeOrder(store, [{ entityId: productId, quantity: 2 }]);
  if (status === 'pending') return placed;
  if (status === 'cancelled') return (await setStatus(store, placed.id, 'cancelled')).body.data;
  const confirmed = await pay(store, placed);
  if (status === 'confirmed') return confirmed;
  const processing = (await setStatus(store, placed.id, 'processing')).body.data;
  if (status === 'processing') return processing;
  if (status === 'partially_fulfilled') return (await setStatus(store, placed.id, 'partially_fulfilled')).body.data;
  const fulfilled = (await setStatus(store, placed.id, 'fulfilled')).body.data;
  if (status === 'fulfilled') return fulfilled;
  return (await setStatus(store, placed.id, 'refunded')).body.data;
}

// The pickup states (ready_for_pickup, picked_up) are reached only by pickup orders: their PATCH
// moves are covered in test/shipping/pickup-fulfilment.test.ts.
const DELIVERY_STATUSES = ORDER_STATUSES.filter((s) => s !== 'ready_for_pickup' && s !== 'picked_up');

const allowedByPatch = new Set(ORDER_TRANSITIONS.filter((r) => r.trigger === 'patch').flatMap((r) => r.from.map((f) => `${f}->${r.to}`)));

describe('order status', () => {
  it.each(DELIVERY_STATUSES.flatMap((from) => ORDER_STATUSES.filter((to) => to !== from).map((to) => [from, to] as const)))(
    'PATCH %s → %s follows the state table',
    async (from, to) => {
      const order = await orderIn(from);
      expect(order.status).toBe(from);
      const res = await setStatus(store, order.id, to, 'test move');
      if (allowedByPatch.has(`${from}->${to}`)) {
        expect(res.status, res.text).toBe(200);
        expect(res.body.data.status).toBe(to);
        const change = (await events(t, 'orders.statusChange')).filter((e) => e.payload.order.id === order.id).at(-1)!;
        expect(change.payload).toMatchObject({ from, to, trigger: 'patch', reason: 'test move' });
      } else {
        expect(res.status).toBe(422);
        expect(res.body.error.code).toBe('INVALID_TRANSITION');
        expect((await t.request(`/api/orders/${order.id}`, { apiKey: store.admin })).body.data.status).toBe(from);
      }
    },
  );

  it('refuses an unknown status with 422 VALIDATION_FAILED', async () => {
    const order = await orderIn('pending');
    const res = await setStatus(store, order.id, 'shipped');
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe('VALIDATION_FAILED');
  });

  it('cancellation releases the reserved stock and voids the uncollected payment', async () => {
    const p = await product(store, { price: 500, stock: 4 });
    const order = await placeOrder(store, [{ entityId: p, quantity: 3 }]);
    expect(await available(store, p)).toMatchObject({ reserved: 3, available: 1 });
    const res = await setStatus(store, order.id, 'cancelled', 'customer changed their mind');
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ status: 'cancelled', paymentStatus: 'voided' });
    expect(await available(store, p)).toMatchObject({ onHand: 4, reserved: 0, available: 4 });
    const log = (t.app.services.payments.provider as unknown as { log: Array<{ kind: string; input: { providerReference?: string } }> }).log;
    await expect.poll(() => log.some((c) => c.kind === 'void' && c.input.providerReference === order.paymentIntentId)).toBe(true);
  });

  it('cancelling a partially fulfilled order releases only what has not shipped', async () => {
    const p = await product(store, { price: 500, stock: 10 });
    const order = await processingOrder(store, [{ entityId: p, quantity: 4 }]);
    const shipped = await t.request(`/api/orders/${order.id}/fulfillments`, { apiKey: store.admin, body: { lines: [{ lineItemId: order.lineItems[0].lineItemId, quantity: 1 }] } });
    expect(shipped.status).toBe(201);
    expect(await available(store, p)).toMatchObject({ onHand: 9, reserved: 3 });
    expect((await setStatus(store, order.id, 'cancelled')).status).toBe(200);
    expect(await available(store, p)).toMatchObject({ onHand: 9, reserved: 0, available: 9 });
  });

  it('PATCH to fulfilled ships every unit left', async () => {
    const order = await orderIn('fulfilled');
    expect(order.lineItems.every((l: any) => l.fulfillmentStatus === 'fulfilled' && l.fulfilledQuantity === l.quantity)).toBe(true);
    const list = await t.request(`/api/orders/${order.id}/fulfillments`, { apiKey: store.admin });
    expect(list.body.data).toHaveLength(1);
  });

  it('needs orders:update', async () => {
    const order = await orderIn('pending');
    const customer = await t.signIn('customer');
    expect((await t.request(`/api/orders/${order.id}/status`, { method: 'PATCH', bearer: customer.token, body: { status: 'confirmed' } })).status).toBe(403);
    expect((await t.request(`/api/orders/${order.id}/status`, { method: 'PATCH', body: { status: 'confirmed' } })).status).toBe(401);
  });

  it('moves status over GraphQL with the same table', async () => {
    const order = await orderIn('confirmed');
    const ok = await t.graphql('mutation($id: String!) { orderStatusUpdate(id: $id, status: processing) { status } }', { id: order.id }, { apiKey: store.admin });
    expect(ok.body.data.orderStatusUpdate.status).toBe('processing');
    const bad = await t.graphql('mutation($id: String!) { orderStatusUpdate(id: $id, status: pending) { status } }', { id: order.id }, { apiKey: store.admin });
    expect(bad.body.errors![0].extensions.code).toBe('INVALID_TRANSITION');
  });
});
