// Order notes (pinned first, deletable) and the timeline (newest first, merging status changes,
// notes, refunds and undos).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { ORDER_TEST_CONFIG, openStore, pay, placeOrder, product, setStatus, type Store } from './helpers.js';

let t: TestApp;
let store: Store;
let productId: string;

beforeAll(async () => {
  t = await startTestApp(ORDER_TEST_CONFIG);
  store = await openStore(t);
  productId = await product(store, { price: 100, stock: 100 });
});
afterAll(() => t?.close());

function note(orderId: string, body: unknown, pinned?: boolean, apiKey = store.admin) {
  return t.request(`/api/orders/${orderId}/notes`, { apiKey, body: { body, ...(pinned === undefined ? {} : { pinned }) } });
}

describe('notes', () => {
  it('adds notes and lists them pinned first, then newest first', async () => {
    const order = await placeOrder(store, [{ entityId: productId }]);
    const a = await note(order.id, 'first');
    expect(a.status).toBe(201);
    expect(a.body.data).toMatchObject({ orderId: order.id, body: 'first', pinned: false });
    const b = await note(order.id, 'pinned one', true);
    const c = await note(order.id, 'third');
    const list = await t.request(`/api/orders/${order.id}/notes`, { apiKey: store.admin });
    expect(list.status).toBe(200);
    expect(list.body.data.map((n: any) => n.id)).toEqual([b.body.data.id, c.body.data.id, a.body.data.id]);
  });

  it.each([[''], ['x'.repeat(2001)], [null]])('refuses body %j with 422', async (body) => {
    const order = await placeOrder(store, [{ entityId: productId }]);
    const res = await note(order.id, body);
    expect(res.status).toBe(422);
    expect(res.body.error.details[0].field).toBe('body');
  });

  it('accepts 1 and 2000 characters', async () => {
    const order = await placeOrder(store, [{ entityId: productId }]);
    expect((await note(order.id, 'x')).status).toBe(201);
    expect((await note(order.id, 'y'.repeat(2000))).status).toBe(201);
  });

  it('deletes a note; a note of another order or a second delete is 404', async () => {
    const order = await placeOrder(store, [{ entityId: productId }]);
    const other = await placeOrder(store, [{ entityId: productId }]);
    const created = await note(order.id, 'to delete');
    expect((await t.request(`/api/orders/${other.id}/notes/${created.body.data.id}`, { method: 'DELETE', apiKey: store.admin })).status).toBe(404);
    const deleted = await t.request(`/api/orders/${order.id}/notes/${created.body.data.id}`, { method: 'DELETE', apiKey: store.admin });
    expect(deleted.status).toBe(200);
    expect(deleted.body.data.id).toBe(created.body.data.id);
    expect((await t.request(`/api/orders/${order.id}/notes/${created.body.data.id}`, { method: 'DELETE', apiKey: store.admin })).status).toBe(404);
    expect((await t.request(`/api/orders/${order.id}/notes`, { apiKey: store.admin })).body.data).toEqual([]);
  });

  it('needs orders:update to write and orders:read to read', async () => {
    const order = await placeOrder(store, [{ entityId: productId }]);
    const customer = await t.signIn('customer');
    expect((await t.request(`/api/orders/${order.id}/notes`, { bearer: customer.token, body: { body: 'hi' } })).status).toBe(403);
    expect((await t.request(`/api/orders/${order.id}/notes`, { bearer: customer.token })).status).toBe(403);
    expect((await t.request(`/api/orders/${order.id}/timeline`, { bearer: customer.token })).status).toBe(403);
  });
});

describe('timeline', () => {
  it('merges status changes, notes, refunds and undos, newest first', async () => {
    const order = await pay(store, await placeOrder(store, [{ entityId: productId, quantity: 2 }]));
    const staff = await t.signIn('staff');
    await t.request(`/api/orders/${order.id}/notes`, { bearer: staff.token, body: { body: 'Customer called', pinned: true } });
    const refund = await t.request(`/api/orders/${order.id}/refunds`, {
      apiKey: store.admin,
      body: { lines: [{ lineItemId: order.lineItems[0].lineItemId, quantity: 1 }], reason: 'scratched' },
    });
    expect(refund.status).toBe(201);
    await t.request(`/api/orders/${order.id}/refunds/${refund.body.data.id}/undo`, { method: 'POST', apiKey: store.admin });
    expect((await setStatus(store, order.id, 'processing', 'packing')).status).toBe(200);

    const res = await t.request(`/api/orders/${order.id}/timeline`, { apiKey: store.admin });
    expect(res.status).toBe(200);
    const entries = res.body.data;
    expect(entries.map((e: any) => [e.type, e.data.action ?? e.data.to ?? null])).toEqual([
      ['status', 'processing'],
      ['refund', 'undone'],
      ['refund', 'created'],
      ['note', null],
      ['status', 'confirmed'],
      ['status', 'pending'],
    ]);
    for (const entry of entries) {
      expect(Object.keys(entry).sort()).toEqual(['actor', 'at', 'data', 'summary', 'type']);
      expect(typeof entry.summary).toBe('string');
      expect(new Date(entry.at).toISOString()).toBe(entry.at);
    }
    const times = entries.map((e: any) => new Date(e.at).getTime());
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    expect(entries[0]).toMatchObject({
      summary: 'Status changed from confirmed to processing',
      data: { from: 'confirmed', to: 'processing', trigger: 'patch', reason: 'packing' },
    });
    expect(entries[3]).toMatchObject({ actor: { id: staff.userId, kind: 'user' }, data: { body: 'Customer called', pinned: true } });
    expect(entries[2].data).toMatchObject({ refundId: refund.body.data.id, amount: 100, reason: 'scratched' });
    expect(entries[4]).toMatchObject({ actor: { id: null, kind: 'system' }, data: { trigger: 'payment' } });
  });

  it('is readable over GraphQL', async () => {
    const order = await placeOrder(store, [{ entityId: productId }]);
    const res = await t.graphql('query($id: String!) { orderTimeline(id: $id) { type at summary actor { kind } data } }', { id: order.id }, { apiKey: store.admin });
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.orderTimeline).toHaveLength(1);
    expect(res.body.data.orderTimeline[0]).toMatchObject({ type: 'status', summary: 'Order placed (pending)' });
  });
});
