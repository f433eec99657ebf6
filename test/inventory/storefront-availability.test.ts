// ProductVariant availability (issue 24, item 2): catalog readers without inventory:read (a
// customer, a storefront key with a shopper) see per variant whether and how many they can buy:
// on hand − reserved over every warehouse, capped at storefront.availabilityCeiling; warehouse
// figures stay behind inventory:read. One statement per page, whatever its size.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { inBatches, uniqueSlug } from '../catalog/helpers.js';
import { checkout, guestCart, openStore, product, restock, ORDER_TEST_CONFIG, type Store } from '../orders/helpers.js';

let t: TestApp;
let store: Store;
let customer: { token: string };
const type = `avail${Date.now().toString(36)}`;
/** The first entity's variants, in list order: S (stocked 80, over the ceiling), M (7, 3 of them reserved), L (none). */
let first: { id: string; variants: { S: string; M: string; L: string } };

const LIST = `query ($limit: Int) { catalogEntities(type: "${type}", limit: $limit) { data { id availability { inStock } variants { id availability { inStock availableQuantity backorderable } } } } }`;

/** A placed (unpaid) order of `quantity` of an entity without variant: its stock is reserved. */
async function placeOrderOf(entityId: string, quantity: number): Promise<void> {
  const cart = await guestCart(store, [{ entityId, quantity }]);
  const placed = await checkout(store, cart);
  expect(placed.status, placed.text).toBe(201);
}

beforeAll(async () => {
  t = await startTestApp(ORDER_TEST_CONFIG);
  store = await openStore(t);
  customer = await t.signIn('customer');
  // 105 entities with three variants each: pages of 10 and of 100 hold 30 and 300 variants.
  const ids: string[] = [];
  await inBatches(
    Array.from({ length: 105 }, (_, i) => i),
    10,
    async (i) => {
      const created = await t.request('/api/catalog/entities', { apiKey: store.admin, body: { type, slug: uniqueSlug(`a${i}`), status: 'active' } });
      expect(created.status, created.text).toBe(201);
      const bulk = await t.request(`/api/catalog/entities/${created.body.data.id}/variants/bulk`, { apiKey: store.admin, body: { axes: { size: ['S', 'M', 'L'] } } });
      expect(bulk.status, bulk.text).toBeLessThan(300);
      ids[i] = created.body.data.id;
    },
  );
  const listed = await t.request(`/api/catalog/entities?type=${type}&limit=1&include=variants`, { apiKey: store.admin });
  const entity = listed.body.data[0];
  first = { id: entity.id, variants: Object.fromEntries(entity.variants.map((v: any) => [v.optionValues[0].value, v.id])) as typeof first.variants };
  await restock(store, first.id, 80, first.variants.S);
  await restock(store, first.id, 7, first.variants.M);
  // A second warehouse holds 2 more of M: availability adds warehouses up.
  const second = await t.request('/api/inventory/warehouses', { apiKey: store.admin, body: { name: 'Second', code: uniqueSlug('wh2').slice(0, 30) } });
  expect(second.status, second.text).toBe(201);
  await restock({ ...store, warehouseId: second.body.data.id }, first.id, 2, first.variants.M);
  // A placed order reserves 3 of M (checkout reserves; payment is still pending).
  const price = await t.request('/api/pricing/prices', { apiKey: store.admin, body: { entityId: first.id, variantId: first.variants.M, currency: 'USD', amount: 1200 } });
  expect(price.status, price.text).toBe(201);
  const cart = await guestCart(store, [{ entityId: first.id, variantId: first.variants.M, quantity: 3 }]);
  const placed = await checkout(store, cart);
  expect(placed.status, placed.text).toBe(201);
}, 240_000);
afterAll(() => t?.close());

describe('variant availability', () => {
  it('a customer (no inventory:read) reads availability over GraphQL: stock − reservations over every warehouse, capped at 50; stock stays forbidden', async () => {
    const res = await t.graphql(
      `query ($id: String!) { catalogEntity(idOrSlug: $id) { variants { id availability { inStock availableQuantity backorderable } stock { available } } } }`,
      { id: first.id },
      { bearer: customer.token },
    );
    const variants = Object.fromEntries(res.body.data.catalogEntity.variants.map((v: any) => [v.id, v]));
    expect(variants[first.variants.S].availability).toEqual({ inStock: true, availableQuantity: 50, backorderable: false });
    expect(variants[first.variants.M].availability).toEqual({ inStock: true, availableQuantity: 6, backorderable: false });
    expect(variants[first.variants.L].availability).toEqual({ inStock: false, availableQuantity: 0, backorderable: false });
    // Warehouse figures: still inventory:read only.
    for (const v of Object.values(variants) as any[]) expect(v.stock).toBeNull();
    expect(res.body.errors!.map((e: any) => e.extensions.code)).toEqual(['FORBIDDEN', 'FORBIDDEN', 'FORBIDDEN']);
    expect(res.body.errors![0].path.slice(-1)).toEqual(['stock']);
  });

  it('REST include=variants carries availability for a storefront key and for a customer', async () => {
    for (const credential of [{ apiKey: store.storefront }, { bearer: customer.token }]) {
      const res = await t.request(`/api/catalog/entities/${first.id}?include=variants`, credential);
      expect(res.status, res.text).toBe(200);
      const m = res.body.data.variants.find((v: any) => v.id === first.variants.M);
      expect(m.availability).toEqual({ inStock: true, availableQuantity: 6, backorderable: false });
      expect(m).not.toHaveProperty('stock');
    }
  });

  it('an entity bought without a variant: CatalogEntity.availability (REST include=availability) from its entity-level stock', async () => {
    const plain = await product(store, { price: 900, stock: 12, type: `${type}plain` });
    await placeOrderOf(plain, 4);
    const gql = await t.graphql(
      `query ($id: String!) { catalogEntity(idOrSlug: $id) { availability { inStock availableQuantity backorderable } } }`,
      { id: plain },
      { bearer: customer.token },
    );
    expect(gql.body.errors).toBeUndefined();
    expect(gql.body.data.catalogEntity.availability).toEqual({ inStock: true, availableQuantity: 8, backorderable: false });
    const rest = await t.request(`/api/catalog/entities/${plain}?include=availability`, { apiKey: store.storefront });
    expect(rest.body.data.availability).toEqual({ inStock: true, availableQuantity: 8, backorderable: false });
    // Not asked for over REST: null, and no statement spent on it.
    expect((await t.request(`/api/catalog/entities/${plain}`, { apiKey: store.storefront })).body.data.availability).toBeNull();
    // An entity whose stock is all in variants has none of its own.
    const withVariants = await t.request(`/api/catalog/entities/${first.id}?include=availability`, { apiKey: store.storefront });
    expect(withVariants.body.data.availability).toEqual({ inStock: false, availableQuantity: 0, backorderable: false });
  });

  it('anonymous callers get no availability (they cannot read the catalog at all)', async () => {
    const res = await t.graphql(`query ($id: String!) { catalogEntity(idOrSlug: $id) { id } }`, { id: first.id });
    expect(res.body.errors![0].extensions.code).toBe('UNAUTHORIZED');
  });

  it('costs the same number of SQL statements for a page of 10 entities (30 variants) and of 100 (300)', async () => {
    const counts: Record<number, number> = {};
    for (const limit of [10, 100]) {
      const before = t.statements();
      const res = await t.graphql(LIST, { limit }, { bearer: customer.token });
      counts[limit] = t.statements() - before;
      expect(res.body.errors, JSON.stringify(res.body.errors)).toBeUndefined();
      const variants = res.body.data.catalogEntities.data.flatMap((e: any) => e.variants);
      expect(variants).toHaveLength(limit * 3);
      expect(variants.every((v: any) => typeof v.availability.inStock === 'boolean')).toBe(true);
    }
    console.info(`availability statements: page 10 → ${counts[10]}, page 100 → ${counts[100]}`);
    expect(counts[100]).toBe(counts[10]);
    // REST include=variants likewise.
    const rest: Record<number, number> = {};
    for (const limit of [10, 100]) {
      const before = t.statements();
      const res = await t.request(`/api/catalog/entities?type=${type}&limit=${limit}&include=variants,availability`, { bearer: customer.token });
      expect(res.status, res.text).toBe(200);
      rest[limit] = t.statements() - before;
      expect(res.body.data.flatMap((e: any) => e.variants.map((v: any) => v.availability))).toHaveLength(limit * 3);
    }
    console.info(`availability statements over REST: page 10 → ${rest[10]}, page 100 → ${rest[100]}`);
    expect(rest[100]).toBe(rest[10]);
  });
});

describe('availability ceiling', () => {
  it('storefront.availabilityCeiling changes the cap', async () => {
    const small = await startTestApp({ ...ORDER_TEST_CONFIG, storefront: { availabilityCeiling: 5 } });
    try {
      const s = await openStore(small);
      const created = await small.request('/api/catalog/entities', { apiKey: s.admin, body: { type, slug: uniqueSlug('cap'), status: 'active' } });
      const bulk = await small.request(`/api/catalog/entities/${created.body.data.id}/variants/bulk`, { apiKey: s.admin, body: { axes: { size: ['S'] } } });
      expect(bulk.status, bulk.text).toBeLessThan(300);
      const variantId = (await small.request(`/api/catalog/entities/${created.body.data.id}?include=variants`, { apiKey: s.admin })).body.data.variants[0].id;
      await restock(s, created.body.data.id, 9, variantId);
      const res = await small.request(`/api/catalog/entities/${created.body.data.id}?include=variants`, { apiKey: s.storefront });
      expect(res.body.data.variants[0].availability).toEqual({ inStock: true, availableQuantity: 5, backorderable: false });
    } finally {
      await small.close();
    }
  }, 120_000);
});
