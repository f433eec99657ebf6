// The customer portal over HTTP: customer records on sign-up, /me confined to the caller,
// guest orders claimed after email verification, tracking and reorder.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEmailVerificationToken } from 'better-auth/api';
import { startTestApp, type TestApp } from '../support/app.js';
import { otherOrganization } from '../inventory/helpers.js';
import { ADDRESS, checkoutBody, events, openStore, ORDER_TEST_CONFIG, pay, placeOrder, product, setStatus, unique, type Store } from '../orders/helpers.js';

let t: TestApp;
let store: Store;
let productId: string;

const TEST_SECRET = 'test-secret-test-secret-test-secret-0123456789';

beforeAll(async () => {
  t = await startTestApp(ORDER_TEST_CONFIG);
  store = await openStore(t);
  productId = await product(store, { price: 1500, stock: 100 });
});
afterAll(async () => t?.close());

async function customerOrder(token: string, entityId = productId, quantity = 1) {
  const cart = await t.request('/api/carts', { bearer: token, body: { currency: 'USD' } });
  expect(cart.status, cart.text).toBe(201);
  const added = await t.request(`/api/carts/${cart.body.data.id}/items`, { bearer: token, body: { entityId, quantity } });
  expect(added.status, added.text).toBe(201);
  const order = await t.request('/api/checkout', { bearer: token, body: checkoutBody({ id: cart.body.data.id }) });
  expect(order.status, order.text).toBe(201);
  return order.body.data;
}

const address = { firstName: 'Ada', lastName: 'Lovelace', line1: '1 Main St', city: 'Springfield', postalCode: '62701', country: 'us' };

describe('customer records', () => {
  it('are created on sign-up with event customers.create, and staff see them with orders count and lifetime value', async () => {
    const alice = await t.signIn('customer');
    const created = (await events(t, 'customers.create')).filter((e) => e.payload.customer.id === alice.userId);
    expect(created).toHaveLength(1);
    expect(created[0]!.payload.customer.email).toBe(alice.email);

    const order = await customerOrder(alice.token, productId, 2);
    await pay(store, order);
    const staff = await t.signIn('staff');
    const one = await t.request(`/api/customers/${alice.userId}`, { bearer: staff.token });
    expect(one.status, one.text).toBe(200);
    expect(one.body.data).toMatchObject({ id: alice.userId, email: alice.email, ordersCount: 1, lifetimeValue: order.grandTotal });
    const list = await t.request(`/api/customers?search=${encodeURIComponent(alice.email)}`, { bearer: staff.token });
    expect(list.status).toBe(200);
    expect(list.body.data).toHaveLength(1);
    expect(list.body.meta.pagination.total).toBe(1);
    expect(list.body.data[0].ordersCount).toBe(1);

    // Staff never get customers of another organization, and customers cannot list customers.
    expect((await t.request(`/api/customers`, { bearer: alice.token })).status).toBe(403);
    const other = await t.app.db.organization.create({ data: { slug: unique('org'), name: 'Other' } });
    const otherKey = await t.apiKey('admin', { organizationId: other.id });
    expect((await t.request(`/api/customers/${alice.userId}`, { apiKey: otherKey })).status).toBe(404);
    expect((await t.request(`/api/customers`, { apiKey: otherKey })).body.data).toEqual([]);
  });

  it('staff users get no customer record', async () => {
    const staff = await t.signIn('staff');
    expect(await t.app.db.customer.findUnique({ where: { id: staff.userId } })).toBeNull();
    const me = await t.request('/api/me/profile', { bearer: staff.token });
    expect(me.status).toBe(403);
  });

  it('claim guest orders placed with their email only after the email is verified', async () => {
    const email = `${unique('guest')}@example.com`;
    const guestOrder = await placeOrder(store, [{ entityId: productId }], { body: { email } });
    const bob = await t.signIn('customer', { email });
    expect((await t.request('/api/me/orders', { bearer: bob.token })).body.data).toEqual([]);
    expect((await t.request(`/api/me/orders/${guestOrder.id}`, { bearer: bob.token })).status).toBe(404);

    const token = await createEmailVerificationToken(TEST_SECRET, email);
    const verified = await t.request(`/api/auth/verify-email?token=${encodeURIComponent(token)}`);
    expect(verified.status, verified.text).toBeLessThan(400);
    const mine = await t.request('/api/me/orders', { bearer: bob.token });
    expect(mine.body.data.map((o: any) => o.id)).toEqual([guestOrder.id]);
    expect((await t.request(`/api/me/orders/${guestOrder.number}`, { bearer: bob.token })).status).toBe(200);
  });
});

describe('/me authentication', () => {
  it('is 401 without a session and 403 for an API key', async () => {
    for (const path of ['/api/me/profile', '/api/me/addresses', '/api/me/orders']) {
      const anonymous = await t.request(path);
      expect(anonymous.status).toBe(401);
      expect(anonymous.body.error.code).toBe('UNAUTHORIZED');
      const key = await t.request(path, { apiKey: store.admin });
      expect(key.status).toBe(403);
      expect(key.body.error.message).toMatch(/API key is not a customer session/);
    }
  });

  it('works with the session cookie as with the bearer token', async () => {
    const carol = await t.signIn('customer');
    const res = await t.request('/api/me/profile', { cookie: carol.cookie });
    expect(res.status, res.text).toBe(200);
    expect(res.body.data.email).toBe(carol.email);
  });
});

describe('/me/profile', () => {
  it('updates name, phone and consent with event customers.update; email is not a PATCH field', async () => {
    const dave = await t.signIn('customer');
    const patched = await t.request('/api/me/profile', { method: 'PATCH', bearer: dave.token, body: { name: 'Dave D', phone: '+1 555 0100', marketingConsent: true } });
    expect(patched.status, patched.text).toBe(200);
    expect(patched.body.data).toMatchObject({ name: 'Dave D', phone: '+1 555 0100', marketingConsent: true, email: dave.email });
    const again = await t.request('/api/me/profile', { bearer: dave.token });
    expect(again.body.data.name).toBe('Dave D');
    const updates = (await events(t, 'customers.update')).filter((e) => e.payload.customer.id === dave.userId);
    expect(updates).toHaveLength(1);
    expect(updates[0]!.payload.changed.sort()).toEqual(['marketingConsent', 'name', 'phone']);

    const bad = await t.request('/api/me/profile', { method: 'PATCH', bearer: dave.token, body: { phone: 'call me' } });
    expect(bad.status).toBe(422);
    expect(bad.body.error.details[0].field).toBe('phone');
    const cleared = await t.request('/api/me/profile', { method: 'PATCH', bearer: dave.token, body: { phone: null } });
    expect(cleared.body.data.phone).toBeNull();
  });
});

describe('/me/addresses', () => {
  it("adds, lists, moves defaults and deletes; another customer's address is 404", async () => {
    const erin = await t.signIn('customer');
    const frank = await t.signIn('customer');
    const first = await t.request('/api/me/addresses', { bearer: erin.token, body: address });
    expect(first.status, first.text).toBe(201);
    expect(first.body.data).toMatchObject({ country: 'US', isDefaultShipping: true, isDefaultBilling: true });
    const second = await t.request('/api/me/addresses', { bearer: erin.token, body: { ...address, line1: '2 Side St', isDefaultShipping: true } });
    expect(second.body.data).toMatchObject({ isDefaultShipping: true, isDefaultBilling: false });
    const list = await t.request('/api/me/addresses', { bearer: erin.token });
    expect(list.body.data.map((a: any) => [a.line1, a.isDefaultShipping, a.isDefaultBilling])).toEqual([
      ['1 Main St', false, true],
      ['2 Side St', true, false],
    ]);
    const profile = await t.request('/api/me/profile', { bearer: erin.token });
    expect(profile.body.data.defaultShippingAddress.id).toBe(second.body.data.id);
    expect(profile.body.data.defaultBillingAddress.id).toBe(first.body.data.id);

    const invalid = await t.request('/api/me/addresses', { bearer: erin.token, body: { ...address, country: 'USA', city: '' } });
    expect(invalid.status).toBe(422);
    expect(invalid.body.error.details.map((d: any) => d.field).sort()).toEqual(['city', 'country']);

    const stolen = await t.request(`/api/me/addresses/${first.body.data.id}`, { method: 'DELETE', bearer: frank.token });
    expect(stolen.status).toBe(404);
    expect((await t.request('/api/me/addresses', { bearer: frank.token })).body.data).toEqual([]);
    const deleted = await t.request(`/api/me/addresses/${first.body.data.id}`, { method: 'DELETE', bearer: erin.token });
    expect(deleted.status).toBe(200);
    expect((await t.request('/api/me/addresses', { bearer: erin.token })).body.data).toHaveLength(1);
  });
});

describe('/me/orders', () => {
  it("lists only my orders with status, page and limit; another customer's order is 404", async () => {
    const gina = await t.signIn('customer');
    const hank = await t.signIn('customer');
    const a = await customerOrder(gina.token);
    const b = await customerOrder(gina.token);
    const theirs = await customerOrder(hank.token);
    await pay(store, b);
    const all = await t.request('/api/me/orders?limit=1', { bearer: gina.token });
    expect(all.status).toBe(200);
    expect(all.body.data.map((o: any) => o.id)).toEqual([b.id]);
    expect(all.body.meta.pagination).toMatchObject({ page: 1, limit: 1, total: 2, totalPages: 2 });
    const pending = await t.request('/api/me/orders?status=pending', { bearer: gina.token });
    expect(pending.body.data.map((o: any) => o.id)).toEqual([a.id]);
    expect((await t.request(`/api/me/orders/${a.number}`, { bearer: gina.token })).body.data.id).toBe(a.id);
    for (const path of [`/api/me/orders/${theirs.id}`, `/api/me/orders/${theirs.number}`, `/api/me/orders/${theirs.id}/tracking`]) {
      expect((await t.request(path, { bearer: gina.token })).status).toBe(404);
    }
    expect((await t.request(`/api/me/orders/${theirs.id}/reorder`, { method: 'POST', bearer: gina.token })).status).toBe(404);
    // Even a signed-in admin's /me is their own: admins have no customer record.
    const admin = await t.signIn('admin');
    expect((await t.request('/api/me/orders', { bearer: admin.token })).status).toBe(403);
  });

  it('tracking gives carrier, tracking number and URL per line', async () => {
    const ivy = await t.signIn('customer');
    const order = await pay(store, await customerOrder(ivy.token, productId, 3));
    expect((await setStatus(store, order.id, 'processing')).status).toBe(200);
    const line = order.lineItems[0];
    const shipped = await t.request(`/api/orders/${order.id}/fulfillments`, {
      apiKey: store.admin,
      body: { lines: [{ lineItemId: line.lineItemId, quantity: 2 }], carrier: 'UPS', trackingNumber: '1Z999', trackingUrl: 'https://ups.example/1Z999' },
    });
    expect(shipped.status, shipped.text).toBe(201);
    const tracking = await t.request(`/api/me/orders/${order.number}/tracking`, { bearer: ivy.token });
    expect(tracking.status, tracking.text).toBe(200);
    expect(tracking.body.data.status).toBe('partially_fulfilled');
    expect(tracking.body.data.fulfillments).toHaveLength(1);
    expect(tracking.body.data.lines).toEqual([
      expect.objectContaining({
        lineItemId: line.lineItemId,
        quantity: 3,
        fulfilledQuantity: 2,
        shipments: [{ fulfillmentId: shipped.body.data.id, quantity: 2, carrier: 'UPS', trackingNumber: '1Z999', trackingUrl: 'https://ups.example/1Z999' }],
      }),
    ]);
  });

  it("reorder fills a new cart at today's prices and reports unsellable lines in meta.skipped", async () => {
    const jane = await t.signIn('customer');
    const kept = await product(store, { price: 1000 });
    const gone = await product(store, { price: 700 });
    const cart = await t.request('/api/carts', { bearer: jane.token, body: { currency: 'USD' } });
    await t.request(`/api/carts/${cart.body.data.id}/items`, { bearer: jane.token, body: { entityId: kept, quantity: 2 } });
    await t.request(`/api/carts/${cart.body.data.id}/items`, { bearer: jane.token, body: { entityId: gone, quantity: 1 } });
    const order = (await t.request('/api/checkout', { bearer: jane.token, body: { ...checkoutBody({ id: cart.body.data.id }), shippingAddress: ADDRESS } })).body.data;
    // Today: the kept product costs more, the other is archived.
    const prices = await t.request(`/api/pricing/prices?entityId=${kept}`, { apiKey: store.admin });
    const priceId = prices.body.data[0].id;
    expect((await t.request(`/api/pricing/prices/${priceId}`, { method: 'PATCH', apiKey: store.admin, body: { amount: 1200 } })).status).toBe(200);
    expect((await t.request(`/api/catalog/entities/${gone}/archive`, { method: 'POST', apiKey: store.admin })).status).toBe(200);

    const res = await t.request(`/api/me/orders/${order.id}/reorder`, { method: 'POST', bearer: jane.token });
    expect(res.status, res.text).toBe(201);
    expect(res.body.data.customerId).toBe(jane.userId);
    expect(res.body.data.id).not.toBe(cart.body.data.id);
    expect(res.body.data.items.map((i: any) => [i.entityId, i.quantity, i.unitPriceSnapshot])).toEqual([[kept, 2, 1200]]);
    expect(res.body.meta.skipped).toEqual([expect.objectContaining({ entityId: gone, quantity: 1, reason: expect.stringMatching(/archived/) })]);
    // The cart is the customer's own, reachable with their session.
    expect((await t.request(`/api/carts/${res.body.data.id}`, { bearer: jane.token })).status).toBe(200);
  });
});

describe('GraphQL', () => {
  it('serves the same fields', async () => {
    const kim = await t.signIn('customer');
    await customerOrder(kim.token);
    const res = await t.graphql('{ meProfile { id email } meOrders(limit: 5) { data { id number } meta { pagination { total } } } }', {}, { bearer: kim.token });
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.meProfile.id).toBe(kim.userId);
    expect(res.body.data.meOrders.meta.pagination.total).toBe(1);
  });
});

describe('staff edits of a customer (PATCH /customers/:id)', () => {
  it('sets name, phone and customer groups for customers:update, refuses everyone else, and announces the change', async () => {
    const bob = await t.signIn('customer');
    const patch = (credential: { apiKey?: string; bearer?: string }, body: unknown, id = bob.userId) => t.request(`/api/customers/${id}`, { method: 'PATCH', ...credential, body });

    const res = await patch({ apiKey: store.admin }, { name: 'Bob Builder', phone: '+44 20 7946 0000', customerGroupIds: ['b2b-eu', 'wholesale', 'b2b-eu'] });
    expect(res.status, res.text).toBe(200);
    expect(res.body.data).toMatchObject({ id: bob.userId, name: 'Bob Builder', phone: '+44 20 7946 0000', customerGroupIds: ['b2b-eu', 'wholesale'] });
    const read = await t.request(`/api/customers/${bob.userId}`, { apiKey: store.admin });
    expect(read.body.data.customerGroupIds).toEqual(['b2b-eu', 'wholesale']);
    const changed = (await events(t, 'customers.update')).filter((e) => e.payload.customer.id === bob.userId);
    expect(changed.at(-1)!.payload.changed).toEqual(['name', 'phone', 'customerGroupIds']);

    // The same body again changes nothing and announces nothing.
    expect((await patch({ apiKey: store.admin }, { customerGroupIds: ['b2b-eu', 'wholesale'] })).status).toBe(200);
    expect((await events(t, 'customers.update')).filter((e) => e.payload.customer.id === bob.userId)).toHaveLength(changed.length);

    // Staff read customers but do not edit them; a shopper cannot give itself a group; a storefront key neither.
    const staff = await t.signIn('staff');
    expect((await patch({ bearer: staff.token }, { customerGroupIds: [] })).status).toBe(403);
    expect((await patch({ bearer: bob.token }, { customerGroupIds: ['vip'] })).status).toBe(403);
    expect((await patch({ apiKey: store.storefront }, { customerGroupIds: ['vip'] })).status).toBe(403);

    const bad = await patch({ apiKey: store.admin }, { customerGroupIds: ['no spaces'] });
    expect(bad.status).toBe(422);
    expect(bad.body.error.details).toEqual([expect.objectContaining({ field: 'customerGroupIds.0' })]);
    expect((await patch({ apiKey: store.admin }, { name: 'x' }, '00000000-0000-4000-8000-000000000000')).status).toBe(404);
    // Another organization's admin does not find this customer.
    const other = await openStore(t, { organizationId: (await otherOrganization(t)).id });
    expect((await patch({ apiKey: other.admin }, { customerGroupIds: ['vip'] })).status).toBe(404);
    expect((await t.request(`/api/customers/${bob.userId}`, { apiKey: store.admin })).body.data.customerGroupIds).toEqual(['b2b-eu', 'wholesale']);

    // Over GraphQL, the same field.
    const gql = await t.request('/graphql', {
      apiKey: store.admin,
      body: { query: 'mutation($id: UUID!) { customerUpdate(id: $id, customerGroupIds: []) { id customerGroupIds } }', variables: { id: bob.userId } },
    });
    expect(gql.body.errors, gql.text).toBeUndefined();
    expect(gql.body.data.customerUpdate).toEqual({ id: bob.userId, customerGroupIds: [] });
  });
});
