// Carts over REST and GraphQL: guest carts and their token, customers' own carts, items.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { ORDER_TEST_CONFIG, checkout, events, guestCart, openStore, product, unique, type Store } from '../orders/helpers.js';

let t: TestApp;
let store: Store;
let productId: string;

beforeAll(async () => {
  t = await startTestApp(ORDER_TEST_CONFIG);
  store = await openStore(t);
  productId = await product(store, { price: 1999, stock: 20 });
});
afterAll(() => t?.close());

describe('guest carts', () => {
  it('creates a guest cart with a secret token; reading it needs the x-cart-token header', async () => {
    const created = await t.request('/api/carts', { body: { currency: 'USD' } });
    expect(created.status).toBe(201);
    const cart = created.body.data;
    expect(cart).toMatchObject({ currency: 'USD', customerId: null, status: 'open', items: [], subtotalSnapshot: 0 });
    expect(cart.cartToken).toMatch(/^ct_/);

    const withToken = await t.request(`/api/carts/${cart.id}`, { headers: { 'x-cart-token': cart.cartToken } });
    expect(withToken.status).toBe(200);
    expect(withToken.body.data.id).toBe(cart.id);
    expect(withToken.body.data.cartToken).toBeNull();

    const without = await t.request(`/api/carts/${cart.id}`);
    expect(without.status).toBe(404);
    const wrong = await t.request(`/api/carts/${cart.id}`, { headers: { 'x-cart-token': 'ct_not-the-token' } });
    expect(wrong.status).toBe(404);
    // The storefront key does not open a guest cart without its token either.
    const storefront = await t.request(`/api/carts/${cart.id}`, { apiKey: store.storefront });
    expect(storefront.status).toBe(404);
    // Staff acting for customers do.
    expect((await t.request(`/api/carts/${cart.id}`, { apiKey: store.admin })).status).toBe(200);
  });

  it('adds items: the snapshot is the resolved price, not the one sent; the same item again adds up', async () => {
    const cart = await guestCart(store);
    const res = await t.request(`/api/carts/${cart.id}/items`, { headers: cart.headers, body: { entityId: productId, quantity: 2, unitPriceSnapshot: 1 } });
    expect(res.status).toBe(201);
    expect(res.body.data.items).toHaveLength(1);
    const item = res.body.data.items[0];
    expect(item).toMatchObject({ entityId: productId, variantId: null, quantity: 2, unitPriceSnapshot: 1999, lineTotalSnapshot: 3998 });
    expect(item.itemId).toMatch(/^[0-9a-f-]{36}$/);

    const again = await t.request(`/api/carts/${cart.id}/items`, { headers: cart.headers, body: { entityId: productId, quantity: 3 } });
    expect(again.status).toBe(201);
    expect(again.body.data.items).toHaveLength(1);
    expect(again.body.data.items[0].quantity).toBe(5);
    expect(again.body.data.subtotalSnapshot).toBe(5 * 1999);

    const added = (await events(t, 'cart.afterAddItem')).filter((e) => e.payload.cart.id === cart.id);
    expect(added.map((e) => e.payload.addedQuantity)).toEqual([2, 3]);
    expect(added[1]!.payload.item).toMatchObject({ itemId: item.itemId, quantity: 5, unitPriceSnapshot: 1999 });
  });

  it('parallel adds to one cart all count: each sees the one before (no lost update), one event each', async () => {
    const cart = await guestCart(store);
    const other = await product(store, { price: 500, stock: 20 });
    const sends = Array.from({ length: 8 }, (_, i) =>
      t.request(`/api/carts/${cart.id}/items`, { headers: cart.headers, body: { entityId: i % 2 ? other : productId, quantity: 1 } }),
    );
    const answers = await Promise.all(sends);
    for (const res of answers) expect(res.status, res.text).toBe(201);
    const read = await t.request(`/api/carts/${cart.id}`, { headers: cart.headers });
    expect(read.body.data.items.map((i: { entityId: string; quantity: number }) => [i.entityId, i.quantity]).sort()).toEqual(
      [
        [productId, 4],
        [other, 4],
      ].sort(),
    );
    const added = (await events(t, 'cart.afterAddItem')).filter((e) => e.payload.cart.id === cart.id);
    expect(added).toHaveLength(8);
    // Every add saw a different cart: the quantities its event reports are 1..4 for each item.
    for (const entityId of [productId, other])
      expect(
        added
          .filter((e) => e.payload.item.entityId === entityId)
          .map((e) => e.payload.item.quantity)
          .sort(),
      ).toEqual([1, 2, 3, 4]);
  });

  it('an add that races a change of the cart on another connection reads again; one that races checkout is refused', async () => {
    const cart = await guestCart(store, [{ entityId: productId, quantity: 1 }]);
    // Another connection locks the cart, and while the add waits on it, changes the cart (as a
    // quantity change, a removal or checkout would): the add must not write over what it read before.
    let pending: Promise<{ status: number; text: string; body: any }> | undefined;
    await t.app.db.$transaction(async (tx) => {
      await tx.$queryRaw`select 1 from carts where id = ${cart.id}::uuid for update`;
      pending = t.request(`/api/carts/${cart.id}/items`, { headers: cart.headers, body: { entityId: productId, quantity: 2 } });
      await new Promise((resolve) => setTimeout(resolve, 300));
      await tx.$executeRaw`update cart_items set quantity = 5 where cart_id = ${cart.id}::uuid`;
      await tx.$executeRaw`update carts set updated_at = now() where id = ${cart.id}::uuid`;
    });
    const res = await pending!;
    expect(res.status, res.text).toBe(201);
    expect(res.body.data.items[0].quantity).toBe(7);

    let late: Promise<{ status: number; text: string; body: any }> | undefined;
    await t.app.db.$transaction(async (tx) => {
      await tx.$queryRaw`select 1 from carts where id = ${cart.id}::uuid for update`;
      late = t.request(`/api/carts/${cart.id}/items`, { headers: cart.headers, body: { entityId: productId, quantity: 1 } });
      await new Promise((resolve) => setTimeout(resolve, 300));
      await tx.$executeRaw`update carts set status = 'converted' where id = ${cart.id}::uuid`;
    });
    expect((await late!).status).toBe(409);
    expect((await t.request(`/api/carts/${cart.id}`, { headers: cart.headers })).body.data.items[0].quantity).toBe(7);
  });

  it('keeps the sent snapshot when no price resolves, and refuses an item with neither', async () => {
    const unpriced = await product(store, { price: null, stock: 5 });
    const cart = await guestCart(store);
    const withSnapshot = await t.request(`/api/carts/${cart.id}/items`, { headers: cart.headers, body: { entityId: unpriced, quantity: 1, unitPriceSnapshot: 750 } });
    expect(withSnapshot.status).toBe(201);
    expect(withSnapshot.body.data.items[0].unitPriceSnapshot).toBe(750);
    const other = await guestCart(store);
    const none = await t.request(`/api/carts/${other.id}/items`, { headers: other.headers, body: { entityId: unpriced, quantity: 1 } });
    expect(none.status).toBe(422);
    expect(none.body.error.details[0].field).toBe('unitPriceSnapshot');
  });

  it('only adds sellable items: active entities, their own variants, a variant when the entity has them', async () => {
    const cart = await guestCart(store);
    const draft = await product(store, { status: 'draft', stock: 0 });
    const res = await t.request(`/api/carts/${cart.id}/items`, { headers: cart.headers, body: { entityId: draft, quantity: 1, unitPriceSnapshot: 100 } });
    expect(res.status).toBe(422);
    expect(res.body.error.details[0]).toMatchObject({ field: 'entityId' });
    expect(res.body.error.message).toMatch(/draft/);

    const missing = await t.request(`/api/carts/${cart.id}/items`, {
      headers: cart.headers,
      body: { entityId: '00000000-0000-4000-8000-000000000000', quantity: 1, unitPriceSnapshot: 100 },
    });
    expect(missing.status).toBe(422);

    const withVariants = await product(store, { price: 500, stock: 0 });
    const quick = await t.request(`/api/catalog/entities/${withVariants}/variants/quick`, { apiKey: store.admin, body: { sku: unique('SKU'), options: { size: 'M' } } });
    expect([200, 201]).toContain(quick.status);
    const noVariant = await t.request(`/api/carts/${cart.id}/items`, { headers: cart.headers, body: { entityId: withVariants, quantity: 1 } });
    expect(noVariant.status).toBe(422);
    expect(noVariant.body.error.message).toMatch(/variant/);
    const foreignVariant = await t.request(`/api/carts/${cart.id}/items`, { headers: cart.headers, body: { entityId: productId, variantId: quick.body.data.id, quantity: 1 } });
    expect(foreignVariant.status).toBe(422);
    expect(foreignVariant.body.error.details[0].field).toBe('variantId');
    const ok = await t.request(`/api/carts/${cart.id}/items`, { headers: cart.headers, body: { entityId: withVariants, variantId: quick.body.data.id, quantity: 1 } });
    expect(ok.status, ok.text).toBe(201);
    expect(ok.body.data.items[0].variantId).toBe(quick.body.data.id);
  });

  it.each([
    [{ quantity: 0 }, 'quantity'],
    [{ quantity: -1 }, 'quantity'],
    [{ quantity: 1.5 }, 'quantity'],
    [{ quantity: 'two' }, 'quantity'],
    [{ entityId: 'nope' }, 'entityId'],
    [{ unitPriceSnapshot: 9.99 }, 'unitPriceSnapshot'],
  ])('refuses bad item input %j with 422', async (patch, field) => {
    const cart = await guestCart(store);
    const res = await t.request(`/api/carts/${cart.id}/items`, { headers: cart.headers, body: { entityId: productId, quantity: 1, ...patch } });
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe('VALIDATION_FAILED');
    // Type errors (a fraction for an Int, a non-UUID) are refused by the GraphQL scalar, whose
    // message names the value; rule errors name the field.
    if (res.body.error.details) expect(JSON.stringify(res.body.error.details)).toContain(field);
  });

  it('changes an item quantity and removes an item', async () => {
    const cart = await guestCart(store, [{ entityId: productId, quantity: 1 }]);
    const got = await t.request(`/api/carts/${cart.id}`, { headers: cart.headers });
    const itemId = got.body.data.items[0].itemId;
    const patched = await t.request(`/api/carts/${cart.id}/items/${itemId}`, { method: 'PATCH', headers: cart.headers, body: { quantity: 4 } });
    expect(patched.status).toBe(200);
    expect(patched.body.data.items[0].quantity).toBe(4);
    expect((await t.request(`/api/carts/${cart.id}/items/${itemId}`, { method: 'PATCH', headers: cart.headers, body: { quantity: 0 } })).status).toBe(422);
    const removed = await t.request(`/api/carts/${cart.id}/items/${itemId}`, { method: 'DELETE', headers: cart.headers });
    expect(removed.status).toBe(200);
    expect(removed.body.data.items).toEqual([]);
    expect((await t.request(`/api/carts/${cart.id}/items/${itemId}`, { method: 'DELETE', headers: cart.headers })).status).toBe(404);
    // Without the token nothing changes.
    expect((await t.request(`/api/carts/${cart.id}/items`, { body: { entityId: productId, quantity: 1 } })).status).toBe(404);
  });

  it('refuses changes to a checked-out cart with 409', async () => {
    const cart = await guestCart(store, [{ entityId: productId, quantity: 1 }]);
    const done = await checkout(store, cart);
    expect(done.status, done.text).toBe(201);
    const res = await t.request(`/api/carts/${cart.id}/items`, { headers: cart.headers, body: { entityId: productId, quantity: 1 } });
    expect(res.status).toBe(409);
    expect((await t.request(`/api/carts/${cart.id}`, { headers: cart.headers })).body.data.status).toBe('converted');
  });

  it('refuses a currency that is not ISO 4217 with 422', async () => {
    const res = await t.request('/api/carts', { body: { currency: 'usd' } });
    expect(res.status).toBe(422);
    expect(res.body.error.details[0].field).toBe('currency');
  });
});

describe('customer carts', () => {
  it('a customer sees and changes only their own carts', async () => {
    const alice = await t.signIn('customer');
    const bob = await t.signIn('customer');
    const created = await t.request('/api/carts', { bearer: alice.token, body: { currency: 'USD' } });
    expect(created.status).toBe(201);
    expect(created.body.data.customerId).toBe(alice.userId);
    expect(created.body.data.cartToken).toBeNull();
    const id = created.body.data.id;

    expect((await t.request(`/api/carts/${id}`, { bearer: alice.token })).status).toBe(200);
    expect((await t.request(`/api/carts/${id}`, { bearer: bob.token })).status).toBe(404);
    expect((await t.request(`/api/carts/${id}/items`, { bearer: bob.token, body: { entityId: productId, quantity: 1 } })).status).toBe(404);
    expect((await t.request(`/api/carts/${id}`)).status).toBe(404);
    const added = await t.request(`/api/carts/${id}/items`, { bearer: alice.token, body: { entityId: productId, quantity: 1 } });
    expect(added.status).toBe(201);
  });

  it('a customer cannot create a cart for someone else; staff acting for customers can', async () => {
    const alice = await t.signIn('customer');
    const bob = await t.signIn('customer');
    expect((await t.request('/api/carts', { bearer: alice.token, body: { currency: 'USD', customerId: bob.userId } })).status).toBe(403);
    expect((await t.request('/api/carts', { apiKey: store.storefront, body: { currency: 'USD', customerId: bob.userId } })).status).toBe(403);
    const staff = await t.signIn('staff');
    const forBob = await t.request('/api/carts', { bearer: staff.token, body: { currency: 'USD', customerId: bob.userId } });
    expect(forBob.status).toBe(201);
    expect(forBob.body.data.customerId).toBe(bob.userId);
    expect((await t.request(`/api/carts/${forBob.body.data.id}`, { bearer: bob.token })).status).toBe(200);
    const nobody = await t.request('/api/carts', { bearer: staff.token, body: { currency: 'USD', customerId: '00000000-0000-4000-8000-000000000000' } });
    expect(nobody.status).toBe(422);
    expect(nobody.body.error.details).toEqual([expect.objectContaining({ field: 'customerId', message: expect.stringContaining('no such customer') })]);
    const malformed = await t.request('/api/carts', { bearer: staff.token, body: { currency: 'USD', customerId: 'no-such-user' } });
    expect(malformed.status).toBe(422);
    expect(malformed.body.error).toMatchObject({ code: 'VALIDATION_FAILED', details: [expect.objectContaining({ field: 'customerId' })] });
  });

  it('signed-in callers need the cart permission of the route', async () => {
    // Staff hold cart:create and cart:update but not cart:read (spec defaults).
    const staff = await t.signIn('staff');
    const cart = await t.request('/api/carts', { bearer: staff.token, body: { currency: 'USD' } });
    expect(cart.status).toBe(201);
    const read = await t.request(`/api/carts/${cart.body.data.id}`, { bearer: staff.token });
    expect(read.status).toBe(403);
  });
});

describe('isolation and GraphQL', () => {
  it('a cart of another organization is not found', async () => {
    const org = await t.app.services.organizations.create({ slug: `carts-${Date.now()}`, name: 'Other' });
    const otherAdmin = await t.apiKey('admin', { organizationId: org.id });
    const cart = await guestCart(store);
    expect((await t.request(`/api/carts/${cart.id}`, { apiKey: otherAdmin, headers: cart.headers })).status).toBe(404);
    // and its products cannot be added to a cart of this one
    const theirs = await t.request('/api/carts', { apiKey: otherAdmin, body: { currency: 'USD' } });
    const res = await t.request(`/api/carts/${theirs.body.data.id}/items`, { apiKey: otherAdmin, body: { entityId: productId, quantity: 1, unitPriceSnapshot: 10 } });
    expect(res.status).toBe(422);
  });

  it('works over GraphQL with the same rules', async () => {
    const created = await t.graphql('mutation { cartCreate(currency: "USD") { id cartToken status } }');
    expect(created.body.errors).toBeUndefined();
    const { id, cartToken } = created.body.data.cartCreate;
    const headers = { 'x-cart-token': cartToken };
    const added = await t.graphql(
      'mutation($id: UUID!, $e: UUID!) { cartItemAdd(id: $id, entityId: $e, quantity: 2) { items { itemId quantity unitPriceSnapshot } } }',
      { id, e: productId },
      { headers },
    );
    expect(added.body.errors).toBeUndefined();
    expect(added.body.data.cartItemAdd.items[0]).toMatchObject({ quantity: 2, unitPriceSnapshot: 1999 });
    const hidden = await t.graphql('query($id: UUID!) { cart(id: $id) { id } }', { id });
    expect(hidden.body.errors![0].extensions.code).toBe('NOT_FOUND');
    const seen = await t.graphql('query($id: UUID!) { cart(id: $id) { id items { quantity } } }', { id }, { headers });
    expect(seen.body.data.cart.items[0].quantity).toBe(2);
  });
});
