// A variant's own status (issue 28): set on create and update, hidden from storefront readers
// (keys without catalog:read:unpublished; anonymous reads need a key in this service) unless active, and refused by carts (422 VARIANT_NOT_ACTIVE) and checkout.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { ORDER_TEST_CONFIG, checkout, guestCart, openStore, product, restock, unique, type Store } from '../orders/helpers.js';

let t: TestApp;
let store: Store;

beforeAll(async () => {
  t = await startTestApp(ORDER_TEST_CONFIG);
  store = await openStore(t);
});
afterAll(() => t?.close());

/** An active product with sizes S (active) and M (created as given), priced and stocked. */
async function productWithSizes(mStatus: string): Promise<{ id: string; s: any; m: any }> {
  const id = await product(store, { price: 700, stock: 0 });
  const s = await t.request(`/api/catalog/entities/${id}/variants/quick`, { apiKey: store.admin, body: { options: { size: 'S' } } });
  expect(s.status, s.text).toBe(201);
  const m = await t.request(`/api/catalog/entities/${id}/variants/quick`, { apiKey: store.admin, body: { options: { size: 'M' }, status: mStatus } });
  expect(m.status, m.text).toBe(201);
  await restock(store, id, 10, s.body.data.id);
  await restock(store, id, 10, m.body.data.id);
  return { id, s: s.body.data, m: m.body.data };
}

const variantsOf = async (id: string, apiKey: string) => {
  const res = await t.request(`/api/catalog/entities/${id}?include=variants`, { apiKey });
  expect(res.status, res.text).toBe(200);
  return (res.body.data.variants as any[]).map((v) => `${v.sku}:${v.status}`);
};

describe('variant status', () => {
  it('defaults to active, is set on create and update, and is validated', async () => {
    const { id, s, m } = await productWithSizes('draft');
    expect(s.status).toBe('active');
    expect(m.status).toBe('draft');
    const created = await t.request(`/api/catalog/entities/${id}/variants`, { apiKey: store.admin, body: { options: {}, status: 'archived', sku: unique('ARCH') } });
    expect(created.status, created.text).toBe(201);
    expect(created.body.data.status).toBe('archived');
    const bad = await t.request(`/api/catalog/variants/${s.id}`, { method: 'PATCH', apiKey: store.admin, body: { status: 'sold-out' } });
    expect(bad.status).toBe(422);
    const updated = await t.request(`/api/catalog/variants/${m.id}`, { method: 'PATCH', apiKey: store.admin, body: { status: 'active' } });
    expect(updated.status, updated.text).toBe(200);
    expect(updated.body.data.status).toBe('active');
    const gql = await t.graphql('mutation($id: UUID!) { catalogVariantUpdate(variantId: $id, status: archived) { status } }', { id: m.id }, { apiKey: store.admin });
    expect(gql.body.errors).toBeUndefined();
    expect(gql.body.data.catalogVariantUpdate.status).toBe('archived');
    const row = await t.app.db.catalogVariant.findUniqueOrThrow({ where: { id: m.id } });
    expect(row.status).toBe('archived');
  });

  it('storefront keys see active variants only; staff see all', async () => {
    const { id, s, m } = await productWithSizes('draft');
    expect(await variantsOf(id, store.admin)).toEqual([`${s.sku}:active`, `${m.sku}:draft`]);
    expect(await variantsOf(id, store.storefront)).toEqual([`${s.sku}:active`]);
    const gql = await t.graphql('query($id: String!) { catalogEntity(idOrSlug: $id) { variants { sku status } } }', { id }, { apiKey: store.storefront });
    expect(gql.body.errors).toBeUndefined();
    expect(gql.body.data.catalogEntity.variants).toEqual([{ sku: s.sku, status: 'active' }]);
    const list = await t.request(`/api/catalog/entities?include=variants&limit=100`, { apiKey: store.storefront });
    const listed = (list.body.data as any[]).find((e) => e.id === id);
    expect(listed.variants.map((v: any) => v.sku)).toEqual([s.sku]);
  });

  it('a cart refuses a draft or archived variant with 422 VARIANT_NOT_ACTIVE, and checkout refuses one drafted after it was added', async () => {
    const { id, s, m } = await productWithSizes('draft');
    const cart = await guestCart(store);
    const add = (variantId: string) =>
      t.request(`/api/carts/${cart.id}/items`, { apiKey: store.storefront, headers: cart.headers, body: { entityId: id, variantId, quantity: 1 } });
    const refused = await add(m.id);
    expect(refused.status).toBe(422);
    expect(refused.body.error.code).toBe('VALIDATION_FAILED');
    expect(refused.body.error.details).toEqual([expect.objectContaining({ field: 'variantId', reason: 'VARIANT_NOT_ACTIVE' })]);
    expect(await t.app.db.cartItem.count({ where: { cartId: cart.id } })).toBe(0);

    expect((await add(s.id)).status).toBe(201);
    const drafted = await t.request(`/api/catalog/variants/${s.id}`, { method: 'PATCH', apiKey: store.admin, body: { status: 'archived' } });
    expect(drafted.status).toBe(200);
    const refusedCheckout = await checkout(store, cart);
    expect(refusedCheckout.status).toBe(422);
    expect(refusedCheckout.text).toMatch(/variant is archived/);
    expect(await t.app.db.order.count({ where: { cartId: cart.id } })).toBe(0);
  });
});
