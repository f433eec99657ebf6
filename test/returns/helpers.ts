// Shared by the returns tests: orders that have shipped (placed, paid, processing, fulfilled), for
// a guest or a signed-in customer, and the return calls over REST.
import { expect } from 'vitest';
import type { TestApp } from '../support/app.js';
import { checkoutBody, pay, placeOrder, setStatus, type Store } from '../orders/helpers.js';

/** A customer's order: their own cart, checked out with their session. */
export async function customerOrder(t: TestApp, token: string, items: Array<{ entityId: string; quantity?: number }>, extra: Record<string, unknown> = {}) {
  const cart = await t.request('/api/carts', { bearer: token, body: { currency: 'USD' } });
  expect(cart.status, cart.text).toBe(201);
  for (const item of items) {
    const added = await t.request(`/api/carts/${cart.body.data.id}/items`, { bearer: token, body: { entityId: item.entityId, quantity: item.quantity ?? 1 } });
    expect(added.status, added.text).toBe(201);
  }
  const order = await t.request('/api/checkout', { bearer: token, body: checkoutBody({ id: cart.body.data.id }, extra) });
  expect(order.status, order.text).toBe(201);
  return order.body.data;
}

/** Pays, moves to processing and fulfills `fulfill` (default every unit) of an order; answers the order after. */
export async function ship(store: Store, placed: any, fulfill?: Array<{ lineItemId: string; quantity: number }>): Promise<any> {
  const order = await pay(store, placed);
  expect((await setStatus(store, order.id, 'processing')).status).toBe(200);
  const res = await store.t.request(`/api/orders/${order.id}/fulfillments`, { apiKey: store.admin, body: fulfill ? { lines: fulfill } : {} });
  expect(res.status, res.text).toBe(201);
  return (await store.t.request(`/api/orders/${order.id}`, { apiKey: store.admin })).body.data;
}

/** A guest order, placed, paid and fulfilled in full. */
export async function shippedOrder(store: Store, items: Array<{ entityId: string; quantity?: number }>): Promise<any> {
  return ship(store, await placeOrder(store, items));
}

export function openReturn(store: Store, orderId: string, lines: Array<{ lineItemId: string; quantity: number }>, extra: Record<string, unknown> = {}) {
  return store.t.request(`/api/orders/${orderId}/returns`, { apiKey: store.admin, body: { lines, reasonCode: 'defective', ...extra } });
}

export function moveReturn(store: Store, id: string, action: string, body: Record<string, unknown> = {}) {
  return store.t.request(`/api/returns/${id}/${action}`, { apiKey: store.admin, body });
}

/** Every line of a return restocked into `warehouseId`. */
export function restockAll(ret: any, warehouseId: string) {
  return { lines: ret.lines.map((l: any) => ({ lineItemId: l.lineItemId, disposition: 'restock', warehouseId })) };
}
