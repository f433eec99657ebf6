// GET /orders and /orders/:idOrNumber: filters, pages, numbers, own orders, isolation.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { ORDER_TEST_CONFIG, checkoutBody, openStore, pay, placeOrder, product, type Store } from './helpers.js';

let t: TestApp;
let store: Store;
let productId: string;

beforeAll(async () => {
  t = await startTestApp(ORDER_TEST_CONFIG);
  store = await openStore(t);
  productId = await product(store, { price: 1500, stock: 100 });
});
afterAll(() => t?.close());

async function customerOrder(customer: { token: string }): Promise<any> {
  const cart = await t.request('/api/carts', { bearer: customer.token, body: { currency: 'USD' } });
  await t.request(`/api/carts/${cart.body.data.id}/items`, { bearer: customer.token, body: { entityId: productId, quantity: 1 } });
  const res = await t.request('/api/checkout', { bearer: customer.token, body: checkoutBody({ id: cart.body.data.id }) });
  expect(res.status, res.text).toBe(201);
  return res.body.data;
}

describe('orders', () => {
  it('gets an order by UUID and by number', async () => {
    const order = await placeOrder(store, [{ entityId: productId, quantity: 2 }]);
    const byId = await t.request(`/api/orders/${order.id}`, { apiKey: store.admin });
    expect(byId.status).toBe(200);
    expect(byId.body.data).toEqual(order);
    const byNumber = await t.request(`/api/orders/${order.number}`, { apiKey: store.admin });
    expect(byNumber.status).toBe(200);
    expect(byNumber.body.data.id).toBe(order.id);
    for (const missing of ['00000000-0000-4000-8000-000000000000', 'ORD-1999-000001', 'not-an-order']) {
      const res = await t.request(`/api/orders/${missing}`, { apiKey: store.admin });
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe('NOT_FOUND');
    }
  });

  it('lists newest first with status filter and pages', async () => {
    const a = await placeOrder(store, [{ entityId: productId }]);
    const b = await pay(store, await placeOrder(store, [{ entityId: productId }]));
    const all = await t.request('/api/orders?limit=2', { apiKey: store.admin });
    expect(all.status).toBe(200);
    expect(all.body.data.map((o: any) => o.id)).toEqual([b.id, a.id]);
    expect(all.body.meta.pagination).toMatchObject({ page: 1, limit: 2 });
    expect(all.body.meta.pagination.total).toBeGreaterThanOrEqual(2);

    const confirmed = await t.request('/api/orders?status=confirmed', { apiKey: store.admin });
    expect(confirmed.body.data.every((o: any) => o.status === 'confirmed')).toBe(true);
    expect(confirmed.body.data.map((o: any) => o.id)).toContain(b.id);
    expect(confirmed.body.data.map((o: any) => o.id)).not.toContain(a.id);

    const page2 = await t.request('/api/orders?limit=1&page=2', { apiKey: store.admin });
    expect(page2.body.data[0].id).toBe(a.id);
    const capped = await t.request('/api/orders?limit=101', { apiKey: store.admin });
    expect(capped.status).toBe(200);
    expect(capped.body.meta.pagination.limit).toBe(100);
    expect((await t.request('/api/orders?limit=-5', { apiKey: store.admin })).status).toBe(422);
    expect((await t.request('/api/orders?status=shipped', { apiKey: store.admin })).status).toBe(422);
  });

  it('a customer reads only their own orders (orders:read:own)', async () => {
    const alice = await t.signIn('customer');
    const bob = await t.signIn('customer');
    const mine = await customerOrder(alice);
    const theirs = await customerOrder(bob);
    const list = await t.request('/api/orders', { bearer: alice.token });
    expect(list.status).toBe(200);
    expect(list.body.data.map((o: any) => o.id)).toEqual([mine.id]);
    expect((await t.request(`/api/orders/${mine.number}`, { bearer: alice.token })).status).toBe(200);
    const other = await t.request(`/api/orders/${theirs.id}`, { bearer: alice.token });
    expect(other.status).toBe(404);
    expect(other.text).not.toContain(theirs.number);
    expect((await t.request(`/api/orders/${theirs.number}`, { bearer: alice.token })).status).toBe(404);
    // Guest orders belong to no customer.
    const guest = await placeOrder(store, [{ entityId: productId }]);
    expect((await t.request(`/api/orders/${guest.id}`, { bearer: alice.token })).status).toBe(404);
    // GraphQL gives the same answers.
    const gql = await t.graphql('query($id: String!) { order(idOrNumber: $id) { id } }', { id: theirs.id }, { bearer: alice.token });
    expect(gql.body.errors![0].extensions.code).toBe('NOT_FOUND');
    expect(gql.body.data).toEqual({ order: null });
  });

  it('needs orders:read or orders:read:own: 401 anonymous, 403 for a key without them', async () => {
    expect((await t.request('/api/orders')).status).toBe(401);
    expect((await t.request('/api/orders', { apiKey: store.storefront })).status).toBe(403);
  });

  it('keeps organizations apart', async () => {
    const order = await placeOrder(store, [{ entityId: productId }]);
    const org = await t.app.services.organizations.create({ slug: `orders-${Date.now()}`, name: 'Other' });
    const otherAdmin = await t.apiKey('admin', { organizationId: org.id });
    expect((await t.request(`/api/orders/${order.id}`, { apiKey: otherAdmin })).status).toBe(404);
    expect((await t.request(`/api/orders/${order.number}`, { apiKey: otherAdmin })).status).toBe(404);
    expect((await t.request('/api/orders', { apiKey: otherAdmin })).body.data).toEqual([]);
    expect((await t.request(`/api/orders/${order.id}/status`, { method: 'PATCH', apiKey: otherAdmin, body: { status: 'confirmed' } })).status).toBe(404);
    expect((await t.request(`/api/orders/${order.id}/notes`, { apiKey: otherAdmin, body: { body: 'x' } })).status).toBe(404);
    expect((await t.request(`/api/orders/${order.id}/timeline`, { apiKey: otherAdmin })).status).toBe(404);
    expect((await t.request(`/api/orders/${order.id}/invoice.pdf`, { apiKey: otherAdmin })).status).toBe(404);
    expect((await t.request(`/api/orders/${order.id}/refunds`, { apiKey: otherAdmin, body: { lines: [{ lineItemId: order.lineItems[0].lineItemId, quantity: 1 }] } })).status).toBe(
      404,
    );
  });

  it('reads orders over GraphQL', async () => {
    const order = await placeOrder(store, [{ entityId: productId }]);
    const res = await t.graphql(
      'query($id: String!) { order(idOrNumber: $id) { id number status grandTotal lineItems { lineItemId sku title quantity refundedQuantity unitPrice totalPrice fulfillmentStatus entityType } } orders(limit: 1) { data { id } meta { pagination { total } } } }',
      { id: order.number },
      { apiKey: store.admin },
    );
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.order).toMatchObject({ id: order.id, number: order.number, grandTotal: order.grandTotal });
    expect(res.body.data.orders.data[0].id).toBe(order.id);
  });
});
