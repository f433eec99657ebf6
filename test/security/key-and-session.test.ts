// The actor rule for an API key and a session together (issue 24, item 1): a storefront app
// holds its key and signs a shopper in, and then sends both (the SDK does: x-api-key and
// Authorization: Bearer). The session's user is the actor, the key's scope bounds what it may
// do (effective permissions = the user's ∩ the key's), and a key and a session of different
// organizations are refused (401) rather than one of them picked silently.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { checkoutBody, openStore, product, ORDER_TEST_CONFIG, type Store } from '../orders/helpers.js';

let t: TestApp;
let store: Store;
let entityId: string;
let shopper: { token: string; cookie: string; userId: string };

beforeAll(async () => {
  t = await startTestApp({ ...ORDER_TEST_CONFIG, rateLimit: { enabled: false } });
  store = await openStore(t);
  entityId = await product(store, { price: 2500, stock: 10 });
  shopper = await t.signIn('customer');
}, 120_000);
afterAll(() => t?.close());

describe('key + session: the session user acts', () => {
  it("POST /api/carts with x-api-key and a bearer token makes the shopper's cart, and checkout links the order to the shopper (the SDK's double header)", async () => {
    const both = { apiKey: store.storefront, bearer: shopper.token };
    const cart = await t.request('/api/carts', { ...both, body: { currency: 'USD' } });
    expect(cart.status, cart.text).toBe(201);
    expect(cart.body.data.customerId).toBe(shopper.userId);
    // A customer's cart carries no guest token: the session owns it.
    expect(cart.body.data.cartToken ?? null).toBeNull();
    const added = await t.request(`/api/carts/${cart.body.data.id}/items`, { ...both, body: { entityId, quantity: 1, unitPriceSnapshot: 2500 } });
    expect(added.status, added.text).toBe(201);
    const placed = await t.request('/api/checkout', { ...both, body: checkoutBody(cart.body.data, { idempotencyKey: `kas-${Date.now()}` }) });
    expect(placed.status, placed.text).toBe(201);
    expect(placed.body.data.customerId).toBe(shopper.userId);
    const mine = await t.request('/api/me/orders', both);
    expect(mine.status, mine.text).toBe(200);
    expect(mine.body.data.map((o: any) => o.id)).toContain(placed.body.data.id);
  });

  it("idempotency keys are the shopper's: two shoppers of one storefront key with the same key each get their own order", async () => {
    const idempotencyKey = `shared-${Date.now()}`;
    const orders: string[] = [];
    for (const who of [shopper, await t.signIn('customer')]) {
      const both = { apiKey: store.storefront, bearer: who.token };
      const cart = await t.request('/api/carts', { ...both, body: { currency: 'USD' } });
      await t.request(`/api/carts/${cart.body.data.id}/items`, { ...both, body: { entityId, quantity: 1, unitPriceSnapshot: 2500 } });
      const placed = await t.request('/api/checkout', { ...both, body: checkoutBody(cart.body.data, { idempotencyKey }) });
      expect(placed.status, placed.text).toBe(201);
      expect(placed.body.data.customerId).toBe(who.userId);
      orders.push(placed.body.data.id);
    }
    expect(new Set(orders).size).toBe(2);
  });

  it('the same over GraphQL, and with the session cookie instead of the bearer token', async () => {
    const viaGraphql = await t.graphql('mutation { cartCreate(currency: "USD") { id customerId } }', {}, { apiKey: store.storefront, bearer: shopper.token });
    expect(viaGraphql.body.errors).toBeUndefined();
    expect(viaGraphql.body.data.cartCreate.customerId).toBe(shopper.userId);
    const orders = await t.graphql('{ meOrders { data { id } } }', {}, { apiKey: store.storefront, bearer: shopper.token });
    expect(orders.body.errors).toBeUndefined();
    expect(orders.body.data.meOrders.data.length).toBeGreaterThan(0);
    const withCookie = await t.request('/api/carts', { apiKey: store.storefront, headers: { cookie: shopper.cookie, origin: 'http://localhost:3000' }, body: { currency: 'USD' } });
    expect(withCookie.status, withCookie.text).toBe(201);
    expect(withCookie.body.data.customerId).toBe(shopper.userId);
  });

  it('the key alone is still a guest: carts without customer, /me refused', async () => {
    const cart = await t.request('/api/carts', { apiKey: store.storefront, body: { currency: 'USD' } });
    expect(cart.status).toBe(201);
    expect(cart.body.data.customerId).toBeNull();
    expect((await t.request('/api/me/orders', { apiKey: store.storefront })).status).toBe(403);
    // orders:read:own (now in the storefront scope for the shopper's sake) means nothing without a shopper.
    expect((await t.request('/api/orders', { apiKey: store.storefront })).status).toBe(403);
  });

  it('a session that is not valid beside a key leaves the key acting alone (as it leaves a caller anonymous without one)', async () => {
    const cart = await t.request('/api/carts', { apiKey: store.storefront, bearer: 'not-a-session-token', body: { currency: 'USD' } });
    expect(cart.status, cart.text).toBe(201);
    expect(cart.body.data.customerId).toBeNull();
  });
});

describe('key + session: the key bounds the session', () => {
  it('a storefront key never grants more than the shopper has: no warehouse figures for a customer, though the key alone reads them', async () => {
    const path = `/api/inventory/check?entityIds=${entityId}`;
    expect((await t.request(path, { apiKey: store.storefront })).status).toBe(200);
    expect((await t.request(path, { bearer: shopper.token })).status).toBe(403);
    const both = await t.request(path, { apiKey: store.storefront, bearer: shopper.token });
    expect(both.status).toBe(403);
    expect(both.body.error.message).toContain('inventory:read');
  });

  it('an admin key does not lift a customer to admin', async () => {
    expect((await t.request('/api/settings', { apiKey: store.admin })).status).toBe(200);
    const res = await t.request('/api/settings', { apiKey: store.admin, bearer: shopper.token });
    expect(res.status).toBe(403);
    const gql = await t.graphql('{ settings }', {}, { apiKey: store.admin, bearer: shopper.token });
    expect(gql.body.errors![0].extensions.code).toBe('FORBIDDEN');
  });

  it("a storefront key narrows staff to the key's scope", async () => {
    const staff = await t.signIn('staff');
    const path = `/api/catalog/entities/${entityId}`;
    const patch = { method: 'PATCH', body: { status: 'active' } } as const;
    expect((await t.request(path, { ...patch, bearer: staff.token })).status).toBe(200);
    const both = await t.request(path, { ...patch, apiKey: store.storefront, bearer: staff.token });
    expect(both.status).toBe(403);
    expect(both.body.error.message).toContain('catalog:update');
  });
});

describe('key + session of different organizations', () => {
  it('is 401 over REST and GraphQL, whichever credential belongs to the other store', async () => {
    const other = await t.app.services.organizations.create({ slug: `kas-other-${Date.now()}`, name: 'Other store' });
    const otherKey = await t.apiKey('storefront', { organizationId: other.id });
    const otherShopper = await t.signIn('customer', { organizationId: other.id });
    for (const credential of [
      { apiKey: otherKey, bearer: shopper.token },
      { apiKey: store.storefront, bearer: otherShopper.token },
    ]) {
      const rest = await t.request('/api/carts', { ...credential, body: { currency: 'USD' } });
      expect(rest.status, rest.text).toBe(401);
      expect(rest.body.error.code).toBe('UNAUTHORIZED');
      expect(rest.body.error.message).toContain('different organizations');
      const gql = await t.request('/graphql', { ...credential, method: 'POST', body: { query: '{ store { name } }' } });
      expect(gql.status).toBe(401);
      expect(gql.body.error.code).toBe('UNAUTHORIZED');
    }
    // Nothing was written: no cart for either shopper.
    const carts = await t.app.db.cart.count({ where: { customerId: { in: [shopper.userId, otherShopper.userId] }, organizationId: other.id } });
    expect(carts).toBe(0);
  });
});
