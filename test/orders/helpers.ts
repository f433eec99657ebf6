// Shared by the cart, checkout, order and payment tests: a store with sellable products (price
// and stock through the pricing and inventory APIs), guest carts, checkout and the payment
// provider's webhook, all over HTTP as clients use them.
import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import type { TestApp } from '../support/app.js';
import { signStripePayload } from '../../src/modules/payments/signature.js';

/** The webhook secret the test apps are configured with (payments.webhookSecret). */
export const WEBHOOK_SECRET = 'whsec_test_orders_0123456789abcdef';

export const ORDER_TEST_CONFIG = { payments: { webhookSecret: WEBHOOK_SECRET } };

let counter = 0;
export function unique(prefix = 'p'): string {
  counter += 1;
  return `${prefix}-${process.pid}-${counter}-${Math.random().toString(36).slice(2, 7)}`;
}

export const ADDRESS = { firstName: 'Ada', lastName: 'Lovelace', line1: '1 Main St', city: 'Springfield', state: 'IL', postalCode: '62701', country: 'US' };

export interface Store {
  t: TestApp;
  admin: string;
  storefront: string;
  warehouseId: string;
}

export async function openStore(t: TestApp, options: { organizationId?: string } = {}): Promise<Store> {
  const admin = await t.apiKey('admin', options);
  const storefront = await t.apiKey('storefront', options);
  const res = await t.request('/api/inventory/warehouses', { apiKey: admin, body: { name: 'Main', code: unique('wh').slice(0, 30) } });
  expect(res.status, res.text).toBe(201);
  return { t, admin, storefront, warehouseId: res.body.data.id };
}

export interface ProductOptions {
  price?: number | null;
  stock?: number;
  currency?: string;
  status?: 'active' | 'draft';
  title?: string;
  type?: string;
  taxClassId?: string;
}

/** An active product with a price and stock; returns its entity id. */
export async function product(store: Store, options: ProductOptions = {}): Promise<string> {
  const { t, admin } = store;
  const slug = unique('product');
  const created = await t.request('/api/catalog/entities', {
    apiKey: admin,
    body: { type: options.type ?? 'product', slug, status: options.status ?? 'active', ...(options.taxClassId ? { taxClassId: options.taxClassId } : {}) },
  });
  expect(created.status, created.text).toBe(201);
  const id = created.body.data.id as string;
  if (options.title) {
    const attrs = await t.request(`/api/catalog/entities/${id}/attributes/en`, { method: 'PUT', apiKey: admin, body: { title: options.title } });
    expect(attrs.status, attrs.text).toBe(200);
  }
  if (options.price !== null) {
    const price = await t.request('/api/pricing/prices', { apiKey: admin, body: { entityId: id, currency: options.currency ?? 'USD', amount: options.price ?? 1000 } });
    expect(price.status, price.text).toBe(201);
  }
  if ((options.stock ?? 100) > 0) await restock(store, id, options.stock ?? 100);
  return id;
}

export async function restock(store: Store, entityId: string, quantity: number, variantId?: string): Promise<void> {
  const res = await store.t.request('/api/inventory/adjust', {
    apiKey: store.admin,
    body: { entityId, ...(variantId ? { variantId } : {}), warehouseId: store.warehouseId, type: 'restock', quantity },
  });
  expect(res.status, res.text).toBe(200);
}

/** Total availability of an entity (GET /inventory/check). */
export async function available(store: Store, entityId: string): Promise<{ onHand: number; reserved: number; available: number }> {
  const res = await store.t.request(`/api/inventory/check?entityIds=${entityId}`, { apiKey: store.admin });
  expect(res.status, res.text).toBe(200);
  const row = res.body.data[0];
  return { onHand: row.onHand, reserved: row.reserved, available: row.available };
}

export interface GuestCart {
  id: string;
  token: string;
  headers: Record<string, string>;
}

export async function guestCart(
  store: Store,
  items: Array<{ entityId: string; quantity?: number; variantId?: string }> = [],
  apiKey: string | undefined = store.storefront,
  currency = 'USD',
): Promise<GuestCart> {
  const res = await store.t.request('/api/carts', { apiKey, body: { currency } });
  expect(res.status, res.text).toBe(201);
  const cart: GuestCart = { id: res.body.data.id, token: res.body.data.cartToken, headers: { 'x-cart-token': res.body.data.cartToken } };
  for (const item of items) {
    const added = await store.t.request(`/api/carts/${cart.id}/items`, {
      apiKey,
      headers: cart.headers,
      body: { entityId: item.entityId, quantity: item.quantity ?? 1, unitPriceSnapshot: 1, ...(item.variantId ? { variantId: item.variantId } : {}) },
    });
    expect(added.status, added.text).toBe(201);
  }
  return cart;
}

export interface CheckoutOptions {
  apiKey?: string;
  bearer?: string;
  paymentMethodId?: string;
  body?: Record<string, unknown>;
}

export function checkoutBody(cart: { id: string }, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { cartId: cart.id, paymentMethodId: 'pm_card_visa', currency: 'USD', shippingAddress: ADDRESS, email: 'buyer@example.com', ...extra };
}

export async function checkout(store: Store, cart: GuestCart, options: CheckoutOptions = {}) {
  return store.t.request('/api/checkout', {
    apiKey: options.bearer ? undefined : (options.apiKey ?? store.storefront),
    bearer: options.bearer,
    headers: cart.headers,
    body: checkoutBody(cart, { ...(options.paymentMethodId ? { paymentMethodId: options.paymentMethodId } : {}), ...options.body }),
  });
}

/** Checks out a one-item guest cart and returns the order (pending, awaiting payment). */
export async function placeOrder(store: Store, items: Array<{ entityId: string; quantity?: number }>, options: CheckoutOptions = {}): Promise<any> {
  const cart = await guestCart(store, items);
  const res = await checkout(store, cart, options);
  expect(res.status, res.text).toBe(201);
  return res.body.data;
}

/** A Stripe event as the provider would send it, and its Stripe-Signature header. */
export function signedEvent(event: Record<string, unknown>, secret = WEBHOOK_SECRET, timestamp?: number): { body: string; signature: string } {
  const body = JSON.stringify(event);
  return { body, signature: signStripePayload(body, secret, timestamp) };
}

export function paymentSucceeded(order: { id: string; paymentIntentId: string | null; grandTotal: number }, eventId = `evt_${randomUUID().replace(/-/g, '')}`) {
  return {
    id: eventId,
    object: 'event',
    type: 'payment_intent.succeeded',
    data: { object: { id: order.paymentIntentId, object: 'payment_intent', amount: order.grandTotal, amount_received: order.grandTotal, metadata: { orderId: order.id } } },
  };
}

export async function sendWebhook(t: TestApp, event: Record<string, unknown>, signature?: string) {
  const signed = signedEvent(event);
  return t.request('/api/payments/webhook', {
    method: 'POST',
    rawBody: signed.body,
    headers: { 'content-type': 'application/json', 'stripe-signature': signature ?? signed.signature },
  });
}

/** Confirms an order the way the provider does: a signed payment_intent.succeeded event. */
export async function pay(store: Store, order: any): Promise<any> {
  const res = await sendWebhook(store.t, paymentSucceeded(order));
  expect(res.status, res.text).toBe(200);
  expect(res.body.data.outcome).toBe('confirmed');
  const got = await store.t.request(`/api/orders/${order.id}`, { apiKey: store.admin });
  return got.body.data;
}

/** An order placed, paid and moved to processing. */
export async function processingOrder(store: Store, items: Array<{ entityId: string; quantity?: number }>): Promise<any> {
  const order = await pay(store, await placeOrder(store, items));
  expect((await setStatus(store, order.id, 'processing')).status).toBe(200);
  return (await store.t.request(`/api/orders/${order.id}`, { apiKey: store.admin })).body.data;
}

/** Moves an order with PATCH /orders/:id/status. */
export async function setStatus(store: Store, orderId: string, status: string, reason?: string) {
  return store.t.request(`/api/orders/${orderId}/status`, { method: 'PATCH', apiKey: store.admin, body: { status, ...(reason ? { reason } : {}) } });
}

/** Events of a type in the outbox, oldest first. */
export async function events(t: TestApp, type: string): Promise<Array<{ type: string; payload: any; actorId: string | null }>> {
  const rows = await t.app.db.domainEvent.findMany({ where: { type }, orderBy: { createdAt: 'asc' } });
  return rows.map((row) => ({ type: row.type, payload: row.payload, actorId: row.actorId }));
}

export async function setSettings(store: Store, group: string, values: Record<string, unknown>): Promise<void> {
  const res = await store.t.request(`/api/settings/${group}`, { method: 'PATCH', apiKey: store.admin, body: values });
  expect(res.status, res.text).toBe(200);
}
