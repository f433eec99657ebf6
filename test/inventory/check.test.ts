import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { adjust, createEntity, createEntityWithVariants, createWarehouse, expectGuarded, otherOrganization } from './helpers.js';

let t: TestApp;
let admin: string;
let storefront: string;

beforeAll(async () => {
  t = await startTestApp();
  admin = await t.apiKey('admin');
  storefront = await t.apiKey('storefront');
});
afterAll(() => t?.close());

async function statementsOf(path: string, apiKey: string): Promise<{ count: number; body: any; status: number }> {
  const before = t.statements();
  const res = await t.request(path, { apiKey });
  return { count: t.statements() - before, body: res.body, status: res.status };
}

describe('GET /inventory/check', () => {
  it('reports availability per entity, variant, warehouse and level, in the order asked', async () => {
    const { entity, variants } = await createEntityWithVariants(t, admin, ['S', 'M']);
    const second = await createWarehouse(t, admin);
    await adjust(t, admin, { entityId: entity.id, variantId: variants[0].id, quantity: 4 });
    await adjust(t, admin, { entityId: entity.id, variantId: variants[0].id, warehouseId: second.id, quantity: 6 });
    await adjust(t, admin, { entityId: entity.id, variantId: variants[1].id, quantity: 2 });
    const reserve = await t.request('/api/inventory/reserve', { apiKey: admin, body: { entityId: entity.id, variantId: variants[1].id, quantity: 2 } });
    expect(reserve.status).toBe(201);
    const plain = await createEntity(t, admin);
    await adjust(t, admin, { entityId: plain.id, quantity: 1 });
    const untracked = await createEntity(t, admin);

    const res = await t.request(`/api/inventory/check?entityIds=${untracked.id},${entity.id},${plain.id}`, { apiKey: storefront });
    expect(res.status, res.text).toBe(200);
    const [a, b, c] = res.body.data;
    expect(a).toMatchObject({ entityId: untracked.id, tracked: false, inStock: false, onHand: 0, available: 0, levels: [] });
    expect(b).toMatchObject({ entityId: entity.id, tracked: true, inStock: true, onHand: 12, reserved: 2, available: 10 });
    expect(b.variants).toEqual(
      expect.arrayContaining([
        { variantId: variants[0].id, onHand: 10, reserved: 0, available: 10 },
        { variantId: variants[1].id, onHand: 2, reserved: 2, available: 0 },
      ]),
    );
    expect(b.warehouses.find((w: any) => w.warehouseId === second.id)).toEqual({ warehouseId: second.id, onHand: 6, reserved: 0, available: 6 });
    expect(b.levels).toHaveLength(3);
    expect(c).toMatchObject({ entityId: plain.id, onHand: 1, available: 1, variants: [{ variantId: null, onHand: 1, reserved: 0, available: 1 }] });
  });

  it('costs one SQL statement for 50 entity ids', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 50; i += 1) ids.push((await createEntity(t, admin)).id);
    await adjust(t, admin, { entityId: ids[0], quantity: 5 });
    await statementsOf(`/api/inventory/check?entityIds=${ids[0]}`, storefront); // warm the key cache
    const one = await statementsOf(`/api/inventory/check?entityIds=${ids[0]}`, storefront);
    const fifty = await statementsOf(`/api/inventory/check?entityIds=${ids.join(',')}`, storefront);
    expect(fifty.status).toBe(200);
    expect(fifty.body.data).toHaveLength(50);
    console.log(`inventory check statements: 1 id = ${one.count}, 50 ids = ${fifty.count}`);
    expect(fifty.count).toBe(one.count);
    expect(fifty.count).toBe(1);
  });

  it('refuses ids that are not UUIDs, none, or more than 100 with 422', async () => {
    const many = Array.from({ length: 101 }, () => crypto.randomUUID()).join(',');
    for (const query of ['entityIds=nope', 'entityIds=', 'entityIds=,,', `entityIds=${many}`, '']) {
      const res = await t.request(`/api/inventory/check?${query}`, { apiKey: admin });
      expect(res.status, query).toBe(422);
      expect(res.body.error.code).toBe('VALIDATION_FAILED');
    }
  });

  it('tells another organization nothing: its check of our ids is untracked zeros', async () => {
    const entity = await createEntity(t, admin);
    await adjust(t, admin, { entityId: entity.id, quantity: 9 });
    const other = await otherOrganization(t);
    const res = await t.request(`/api/inventory/check?entityIds=${entity.id}`, { apiKey: other.admin });
    expect(res.body.data).toEqual([expect.objectContaining({ entityId: entity.id, tracked: false, onHand: 0 })]);
  });

  it('needs inventory:read (staff and the storefront scope have it)', async () => {
    const id = (await createEntity(t, admin)).id;
    await expectGuarded(t, `/api/inventory/check?entityIds=${id}`);
    expect((await t.request('/api/inventory/check?entityIds=nope')).status).toBe(401);
    const staff = await t.signIn('staff');
    expect((await t.request(`/api/inventory/check?entityIds=${id}`, { bearer: staff.token })).status).toBe(200);
  });

  it('works over GraphQL', async () => {
    const entity = await createEntity(t, admin);
    await adjust(t, admin, { entityId: entity.id, quantity: 2 });
    const res = await t.graphql(`query($ids: String!) { inventoryAvailability(entityIds: $ids) { entityId available inStock } }`, { ids: entity.id }, { apiKey: storefront });
    expect(res.body.data!.inventoryAvailability).toEqual([{ entityId: entity.id, available: 2, inStock: true }]);
  });
});

describe('include=inventory', () => {
  it('embeds availability in catalog reads for callers with inventory:read, in a fixed number of statements', async () => {
    const { entity } = await createEntityWithVariants(t, admin, ['S']);
    await adjust(t, admin, { entityId: entity.id, quantity: 3 });
    const res = await t.request(`/api/catalog/entities/${entity.id}?include=inventory,variants`, { apiKey: storefront });
    expect(res.status, res.text).toBe(200);
    expect(res.body.data.inventory).toMatchObject({ entityId: entity.id, tracked: true, onHand: 3, available: 3 });
    // The zero stock seeded for the variant shows as its own line.
    expect(res.body.data.inventory.variants).toEqual(expect.arrayContaining([expect.objectContaining({ variantId: res.body.data.variants[0].id, onHand: 0 })]));

    await statementsOf('/api/catalog/entities?limit=1&include=inventory', storefront);
    const ten = await statementsOf('/api/catalog/entities?limit=10&include=inventory', storefront);
    const fifty = await statementsOf('/api/catalog/entities?limit=50&include=inventory', storefront);
    expect(fifty.status).toBe(200);
    expect(fifty.count).toBe(ten.count);
    const without = await t.request(`/api/catalog/entities/${entity.id}`, { apiKey: storefront });
    expect(without.body.data.inventory).toBeNull();
  });

  it('is 403 for a caller who may read the catalog but not inventory', async () => {
    const customer = await t.signIn('customer');
    const entity = await createEntity(t, admin);
    const res = await t.request(`/api/catalog/entities/${entity.id}?include=inventory`, { bearer: customer.token });
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('FORBIDDEN');
  });
});
