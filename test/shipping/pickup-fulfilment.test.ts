// Click & collect fulfilment: a pickup order goes processing → ready_for_pickup → picked_up (REST
// and GraphQL), never shipped; a delivery order is shipped and never marked ready for pickup.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { available, checkout, events, guestCart, openStore, ORDER_TEST_CONFIG, pay, product, setStatus, unique, type Store } from '../orders/helpers.js';
import { flat, method, zone } from './helpers.js';

let t: TestApp;
let store: Store;
let shopId: string;
let pickupId: string;
let courierId: string;

beforeAll(async () => {
  t = await startTestApp(ORDER_TEST_CONFIG);
  // The default organization: the payment webhook that confirms orders is addressed to it.
  store = await openStore(t);
  const shop = await t.request('/api/inventory/warehouses', {
    apiKey: store.admin,
    body: { name: 'Corner shop', code: unique('shop').slice(0, 30), address: { line1: '5 Market St', city: 'Springfield', postalCode: '62701', country: 'US' } },
  });
  expect(shop.status, shop.text).toBe(201);
  shopId = shop.body.data.id;
  const us = await zone(store);
  courierId = (await method(store, us.id, { name: 'Courier', calculator: flat(900) })).id;
  pickupId = (await method(store, us.id, { name: 'Collect in store', kind: 'pickup', warehouseId: shopId, calculator: flat(0) })).id;
});
afterAll(() => t?.close());

/** A paid order in processing, collected at the shop (pickup) or sent by courier. */
async function processingOrder(kind: 'pickup' | 'delivery', quantity = 2): Promise<{ order: any; entityId: string }> {
  const entityId = await product(store, { price: 1500, stock: 10 });
  if (kind === 'pickup') {
    const stocked = await t.request('/api/inventory/adjust', { apiKey: store.admin, body: { entityId, warehouseId: shopId, type: 'restock', quantity: 5 } });
    expect(stocked.status, stocked.text).toBe(200);
  }
  const placed = await checkout(store, await guestCart(store, [{ entityId, quantity }]), { body: { shippingMethodId: kind === 'pickup' ? pickupId : courierId } });
  expect(placed.status, placed.text).toBe(201);
  await pay(store, placed.body.data);
  const moved = await setStatus(store, placed.body.data.id, 'processing');
  expect(moved.status, moved.text).toBe(200);
  return { order: moved.body.data, entityId };
}

async function levelAt(entityId: string, warehouseId: string): Promise<{ onHand: number; reserved: number }> {
  const res = await t.request(`/api/inventory/levels?entityId=${entityId}`, { apiKey: store.admin });
  expect(res.status, res.text).toBe(200);
  return res.body.data.find((l: any) => l.warehouseId === warehouseId);
}

const post = (orderId: string, step: 'ready-for-pickup' | 'picked-up', body: Record<string, unknown> = {}) =>
  t.request(`/api/orders/${orderId}/${step}`, { apiKey: store.admin, body });

describe('pickup fulfilment', () => {
  it('moves a pickup order processing → ready_for_pickup → picked_up, fulfilling every unit from the pickup warehouse', async () => {
    const { order, entityId } = await processingOrder('pickup');
    expect(await levelAt(entityId, shopId)).toMatchObject({ onHand: 5, reserved: 2 });

    const early = await post(order.id, 'picked-up');
    expect(early.status).toBe(422);
    expect(early.body.error).toMatchObject({ code: 'INVALID_TRANSITION', details: { from: 'processing', to: 'picked_up', allowed: ['ready_for_pickup'] } });

    const ready = await post(order.id, 'ready-for-pickup', { reason: 'packed at the counter' });
    expect(ready.status, ready.text).toBe(200);
    expect(ready.body.data).toMatchObject({ id: order.id, status: 'ready_for_pickup' });
    const again = await post(order.id, 'ready-for-pickup');
    expect(again.status).toBe(422);
    expect(again.body.error).toMatchObject({ code: 'INVALID_TRANSITION', details: { from: 'ready_for_pickup', to: 'ready_for_pickup' } });

    const collected = await post(order.id, 'picked-up');
    expect(collected.status, collected.text).toBe(200);
    expect(collected.body.data.status).toBe('picked_up');
    expect(collected.body.data.lineItems).toEqual([expect.objectContaining({ quantity: 2, fulfilledQuantity: 2, fulfillmentStatus: 'fulfilled' })]);
    // The two units left the shop's shelf; nothing stays reserved.
    expect(await levelAt(entityId, shopId)).toMatchObject({ onHand: 3, reserved: 0 });
    expect(await available(store, entityId)).toMatchObject({ reserved: 0 });

    const changes = (await events(t, 'orders.statusChange')).filter((e) => e.payload.order.id === order.id).map((e) => e.payload);
    expect(changes.slice(-2)).toEqual([
      expect.objectContaining({ from: 'processing', to: 'ready_for_pickup', trigger: 'pickup', reason: 'packed at the counter' }),
      expect.objectContaining({ from: 'ready_for_pickup', to: 'picked_up', trigger: 'pickup' }),
    ]);
    const fulfilments = (await events(t, 'fulfillment.create')).filter((e) => e.payload.fulfillment.orderId === order.id);
    expect(fulfilments).toHaveLength(1);
    const listed = await t.request(`/api/orders/${order.id}/fulfillments`, { apiKey: store.admin });
    expect(listed.body.data).toHaveLength(1);

    // Collected orders can be refunded like fulfilled ones; they cannot be cancelled.
    expect((await setStatus(store, order.id, 'cancelled')).status).toBe(422);
    const refunded = await setStatus(store, order.id, 'refunded');
    expect(refunded.status, refunded.text).toBe(200);
    expect(refunded.body.data.status).toBe('refunded');
  });

  it('refuses to ship a pickup order (fulfillment or PATCH), and cancelling one ready for pickup releases its stock', async () => {
    const { order, entityId } = await processingOrder('pickup', 1);
    const shipped = await t.request(`/api/orders/${order.id}/fulfillments`, { apiKey: store.admin, body: { carrier: 'UPS' } });
    expect(shipped.status).toBe(422);
    expect(shipped.body.error).toMatchObject({ code: 'INVALID_TRANSITION', details: { from: 'processing', to: 'fulfilled' } });
    expect(shipped.body.error.details.allowed).toContain('ready_for_pickup');
    for (const to of ['fulfilled', 'partially_fulfilled']) {
      const patched = await setStatus(store, order.id, to);
      expect(patched.status).toBe(422);
      expect(patched.body.error).toMatchObject({ code: 'INVALID_TRANSITION', details: { from: 'processing', to } });
    }
    const after = await t.request(`/api/orders/${order.id}`, { apiKey: store.admin });
    expect(after.body.data).toMatchObject({ status: 'processing', lineItems: [expect.objectContaining({ fulfilledQuantity: 0 })] });
    expect((await t.request(`/api/orders/${order.id}/fulfillments`, { apiKey: store.admin })).body.data).toEqual([]);

    expect((await post(order.id, 'ready-for-pickup')).status).toBe(200);
    expect((await setStatus(store, order.id, 'picked_up')).status).toBe(422); // only the pickup route collects
    const cancelled = await setStatus(store, order.id, 'cancelled', 'never collected');
    expect(cancelled.status, cancelled.text).toBe(200);
    expect(cancelled.body.data.status).toBe('cancelled');
    expect(await levelAt(entityId, shopId)).toMatchObject({ onHand: 5, reserved: 0 });
  });

  it('refuses the pickup moves on a delivery order, which still ships', async () => {
    const { order } = await processingOrder('delivery');
    for (const step of ['ready-for-pickup', 'picked-up'] as const) {
      const res = await post(order.id, step);
      expect(res.status).toBe(422);
      expect(res.body.error.code).toBe('INVALID_TRANSITION');
      expect(res.body.error.details.from).toBe('processing');
    }
    const wrongKind = await post(order.id, 'ready-for-pickup');
    expect(wrongKind.body.error.details).toMatchObject({ to: 'ready_for_pickup', allowed: expect.arrayContaining(['fulfilled', 'cancelled']) });
    expect(wrongKind.body.error.details.allowed).not.toContain('ready_for_pickup');
    const shipped = await t.request(`/api/orders/${order.id}/fulfillments`, { apiKey: store.admin, body: { carrier: 'UPS' } });
    expect(shipped.status, shipped.text).toBe(201);
    expect((await t.request(`/api/orders/${order.id}`, { apiKey: store.admin })).body.data.status).toBe('fulfilled');
  });

  it('GraphQL: orderReadyForPickup and orderPickedUp, with the same refusals', async () => {
    const { order } = await processingOrder('pickup', 1);
    const ready = await t.graphql(`mutation($id: String!) { orderReadyForPickup(id: $id) { id status } }`, { id: order.id }, { apiKey: store.admin });
    expect(ready.body.errors, ready.text).toBeUndefined();
    expect(ready.body.data!.orderReadyForPickup).toEqual({ id: order.id, status: 'ready_for_pickup' });
    const picked = await t.graphql(
      `mutation($id: String!) { orderPickedUp(id: $id, reason: "collected") { status lineItems { fulfilledQuantity } } }`,
      { id: order.id },
      { apiKey: store.admin },
    );
    expect(picked.body.errors, picked.text).toBeUndefined();
    expect(picked.body.data!.orderPickedUp).toEqual({ status: 'picked_up', lineItems: [{ fulfilledQuantity: 1 }] });

    const delivery = (await processingOrder('delivery', 1)).order;
    const refused = await t.graphql(`mutation($id: String!) { orderReadyForPickup(id: $id) { status } }`, { id: delivery.id }, { apiKey: store.admin });
    expect(refused.body.errors?.[0]?.extensions).toMatchObject({ code: 'INVALID_TRANSITION' });

    // A key without orders:update (the fulfilment routes' permission) is refused.
    const forbidden = await t.request(`/api/orders/${order.id}/picked-up`, { apiKey: store.storefront, body: {} });
    expect(forbidden.status).toBe(403);
  });
});
