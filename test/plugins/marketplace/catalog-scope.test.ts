// Issue 22, finding 4: what a vendor-role user may write in the catalog, with the marketplace
// enabled. A vendor writes only its own entities (metadata.vendorId names it, stamped by the
// server); a vendor-role user with no linked vendor (never linked, or re-linked away) writes
// none; organization-wide catalog settings (categories, brands, field definitions) and the
// proposal queue are staff only; metadata.vendorId is set by staff alone and must name a vendor.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../support/app.js';
import type { Store } from '../../orders/helpers.js';
import { M, startMarketplace, vendor, vendorProduct, type Vendor } from './helpers.js';

let t: TestApp;
let store: Store;
let v: Vendor;
let w: Vendor;
let shopEntity: string;
let vEntity: string;
let n = 0;
const slug = (what: string) => `${what}-${Date.now()}-${(n += 1)}`;

beforeAll(async () => {
  ({ t, store } = await startMarketplace());
  [v, w] = [await vendor(t, store.admin), await vendor(t, store.admin)];
  shopEntity = await vendorProduct(store, null, { price: null, stock: 0 });
  vEntity = await vendorProduct(store, v.id, { price: null, stock: 0 });
  const field = await t.request('/api/admin/entity-field-definitions', { apiKey: store.admin, body: { entityType: 'product', name: 'material', type: 'string' } });
  expect(field.status, field.text).toBe(201);
});
afterAll(() => t?.close());

/** Every entity write a catalog:update holder can send, against one entity. */
function entityWrites(id: string): Array<[string, string, unknown]> {
  return [
    ['PATCH', `/api/catalog/entities/${id}`, { slug: slug('taken') }],
    ['PATCH', `/api/catalog/entities/${id}`, { metadata: { vendorId: v.id } }],
    ['PUT', `/api/catalog/entities/${id}/attributes/en`, { title: 'Mine now' }],
    ['POST', `/api/catalog/entities/${id}/archive`, undefined],
    ['POST', `/api/catalog/entities/${id}/variants/quick`, { options: { size: 'XL' } }],
    ['POST', `/api/catalog/entities/${id}/custom-fields/material/proposals`, { value: 'lead' }],
  ];
}

const send = (token: string, [method, path, body]: [string, string, unknown]) => t.request(path, { method, bearer: token, ...(body === undefined ? {} : { body }) });

async function expectUntouched(id: string, vendorId: string | null) {
  const entity = await t.request(`/api/catalog/entities/${id}`, { apiKey: store.admin });
  expect(entity.body.data.status).toBe('active');
  expect(entity.body.data.metadata.vendorId ?? null).toBe(vendorId);
}

describe('a vendor-role user with no linked vendor', () => {
  it('writes no entity: every write is 404 or 403, creation is 403', async () => {
    const unlinked = await t.signIn('vendor');
    for (const id of [shopEntity, vEntity]) {
      for (const write of entityWrites(id)) {
        const res = await send(unlinked.token, write);
        expect([403, 404], `${write[0]} ${write[1]}: ${res.text}`).toContain(res.status);
      }
    }
    await expectUntouched(shopEntity, null);
    await expectUntouched(vEntity, v.id);
    const created = await t.request('/api/catalog/entities', { bearer: unlinked.token, body: { type: 'product', slug: slug('orphan'), metadata: { vendorId: v.id } } });
    expect(created.status, created.text).toBe(403);
  });

  it("a vendor re-linked to another user: the old user writes nothing, the new one the vendor's entities", async () => {
    const x = await vendor(t, store.admin);
    const entity = await vendorProduct(store, x.id, { price: null, stock: 0 });
    const successor = await t.signIn('vendor');
    const relinked = await t.request(`${M}/vendors/${x.id}`, { method: 'PATCH', apiKey: store.admin, body: { userId: successor.userId } });
    expect(relinked.status, relinked.text).toBe(200);
    for (const id of [entity, shopEntity]) {
      for (const write of entityWrites(id)) expect([403, 404], `${write[0]} ${write[1]}`).toContain((await send(x.token, write)).status);
    }
    await expectUntouched(entity, x.id);
    await expectUntouched(shopEntity, null);
    const own = await t.request(`/api/catalog/entities/${entity}/attributes/en`, { method: 'PUT', bearer: successor.token, body: { title: 'Handed over' } });
    expect(own.status, own.text).toBe(200);
  });
});

describe('a linked vendor', () => {
  it("writes its own entity and not another vendor's or the shop's (proposals included)", async () => {
    for (const id of [shopEntity, vEntity]) {
      for (const write of entityWrites(id)) expect([403, 404], `${write[0]} ${write[1]}`).toContain((await send(w.token, write)).status);
    }
    await expectUntouched(vEntity, v.id);
    const proposal = await send(v.token, ['POST', `/api/catalog/entities/${vEntity}/custom-fields/material/proposals`, { value: 'stoneware' }]);
    expect(proposal.status, proposal.text).toBe(201);
    const own = await send(v.token, ['PATCH', `/api/catalog/entities/${vEntity}`, { metadata: { vendorId: w.id, kiln: 'wood' } }]);
    expect(own.status, own.text).toBe(200);
    expect(own.body.data.metadata).toEqual({ vendorId: v.id, kiln: 'wood' });
  });

  it('cannot change categories, brands or field definitions, nor read the proposal queue', async () => {
    const category = (await t.request('/api/catalog/categories', { apiKey: store.admin, body: { name: 'Bowls', slug: slug('bowls') } })).body.data;
    const brand = (await t.request('/api/catalog/brands', { apiKey: store.admin, body: { name: 'Kiln', slug: slug('kiln') } })).body.data;
    const definition = (await t.request('/api/admin/entity-field-definitions?entityType=product', { apiKey: store.admin })).body.data.find(
      (d: { name: string }) => d.name === 'material',
    );
    const writes: Array<[string, string, unknown]> = [
      ['POST', '/api/catalog/categories', { name: 'Mine', slug: slug('mine') }],
      ['PATCH', `/api/catalog/categories/${category.id}`, { name: 'Renamed' }],
      ['POST', '/api/catalog/brands', { name: 'Mine', slug: slug('mine') }],
      ['PATCH', `/api/catalog/brands/${brand.id}`, { name: 'Renamed' }],
      ['POST', '/api/admin/entity-field-definitions', { entityType: 'product', name: slug('f').replace(/-/g, '_'), type: 'string', required: true }],
      ['PATCH', `/api/admin/entity-field-definitions/${definition.id}`, { required: true }],
      ['POST', `/api/admin/entity-field-definitions/${definition.id}/archive`, undefined],
      ['GET', '/api/admin/custom-field-proposals', undefined],
    ];
    for (const write of writes) {
      const res = await send(v.token, write);
      expect(res.status, `${write[0]} ${write[1]}: ${res.text}`).toBe(403);
    }
    const categories = (await t.request('/api/catalog/categories?limit=100', { apiKey: store.admin })).body.data;
    expect(categories.find((c: { id: string }) => c.id === category.id).name).toBe('Bowls');
    const after = (await t.request('/api/admin/entity-field-definitions?entityType=product', { apiKey: store.admin })).body.data.find(
      (d: { name: string }) => d.name === 'material',
    );
    expect(after).toMatchObject({ required: false, archivedAt: null });
    // GraphQL answers the same
    const gql = await t.graphql('mutation { catalogCategoryCreate(name: "G", slug: "g-vendor") { id } }', {}, { bearer: v.token });
    expect(gql.body.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    // the vendor still reads the catalog and may use categories on its own entity
    expect((await t.request('/api/catalog/categories', { bearer: v.token })).status).toBe(200);
    expect((await t.request(`/api/catalog/entities/${vEntity}/categories/${category.id}`, { method: 'POST', bearer: v.token })).status).toBe(200);
  });
});

describe('metadata.vendorId', () => {
  it('staff set it only to a vendor of the organization', async () => {
    const entity = await vendorProduct(store, null, { price: null, stock: 0 });
    const patch = (vendorId: unknown) => t.request(`/api/catalog/entities/${entity}`, { method: 'PATCH', apiKey: store.admin, body: { metadata: { vendorId } } });
    for (const bad of ['00000000-0000-4000-8000-000000000000', 'not-a-uuid', 42]) {
      const res = await patch(bad);
      expect(res.status, res.text).toBe(422);
      expect(res.body.error.details[0].field).toBe('metadata.vendorId');
    }
    const created = await t.request('/api/catalog/entities', {
      apiKey: store.admin,
      body: { type: 'product', slug: slug('ghost'), metadata: { vendorId: '00000000-0000-4000-8000-000000000000' } },
    });
    expect(created.status, created.text).toBe(422);
    expect((await patch(w.id)).status).toBe(200);
    await expectUntouched(entity, w.id);
    // no vendor at all is fine (the shop's own product)
    expect((await t.request(`/api/catalog/entities/${entity}`, { method: 'PATCH', apiKey: store.admin, body: { metadata: {} } })).status).toBe(200);
  });
});
