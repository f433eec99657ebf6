import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { onVariantsCreated, type CreatedVariant } from '../../src/modules/catalog/index.js';
import { createEntity, eventsOf } from './helpers.js';

let t: TestApp;
let admin: string;
let storefront: string;
/** A tax class of this organization: bodies may only reference their own organization's rows. */
let taxClass: string;
const MISSING = '2b1f3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d';
// What the inventory module will do here: seed stock rows for new variants, in the same transaction.
const seeded: CreatedVariant[] = [];
onVariantsCreated(async (_tx, _ctx, variants) => {
  seeded.push(...variants);
});

beforeAll(async () => {
  t = await startTestApp();
  admin = await t.apiKey('admin');
  storefront = await t.apiKey('storefront');
  taxClass = (await t.request('/api/tax/classes', { apiKey: admin, body: { name: 'reduced', rateBps: 700 } })).body.data.id;
});
afterAll(() => t?.close());

const post = (path: string, body: unknown, apiKey = admin) => t.request(path, { apiKey, body });

describe('option types and values', () => {
  it('creates an option type with values (201), then more values', async () => {
    const entity = await createEntity(t, admin);
    const res = await post(`/api/catalog/entities/${entity.id}/options`, { name: 'size', label: 'Size', values: ['S', 'M'] });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ entityId: entity.id, name: 'size', label: 'Size', sortOrder: 0 });
    expect(res.body.data.values.map((v: any) => v.value)).toEqual(['S', 'M']);
    const value = await post(`/api/catalog/options/${res.body.data.id}/values`, { value: 'L' });
    expect(value.status).toBe(201);
    expect(value.body.data).toMatchObject({ optionTypeId: res.body.data.id, value: 'L', sortOrder: 2 });
    const second = await post(`/api/catalog/entities/${entity.id}/options`, { name: 'color' });
    expect(second.body.data.sortOrder).toBe(1);
  });

  it('409 for a duplicate name or value, 404 for unknown parents, 422 for bad input', async () => {
    const entity = await createEntity(t, admin);
    const type = (await post(`/api/catalog/entities/${entity.id}/options`, { name: 'size', values: ['S'] })).body.data;
    expect((await post(`/api/catalog/entities/${entity.id}/options`, { name: 'size' })).status).toBe(409);
    expect((await post(`/api/catalog/options/${type.id}/values`, { value: 'S' })).status).toBe(409);
    expect((await post(`/api/catalog/entities/${MISSING}/options`, { name: 'size' })).status).toBe(404);
    expect((await post(`/api/catalog/options/${MISSING}/values`, { value: 'S' })).status).toBe(404);
    expect((await post(`/api/catalog/entities/${entity.id}/options`, { name: '' })).status).toBe(422);
    expect((await post(`/api/catalog/entities/${entity.id}/options`, { name: 'x', values: ['a', 'a'] })).status).toBe(422);
    expect((await post(`/api/catalog/entities/${entity.id}/options`, { name: 'x' }, storefront)).status).toBe(403);
    expect((await t.request(`/api/catalog/entities/${entity.id}/options`, { body: { name: 'x' } })).status).toBe(401);
  });
});

describe('one variant', () => {
  it('creates by option value ids or by names, with a generated SKU and title', async () => {
    const entity = await createEntity(t, admin);
    const size = (await post(`/api/catalog/entities/${entity.id}/options`, { name: 'size', values: ['S', 'M'] })).body.data;
    await post(`/api/catalog/entities/${entity.id}/options`, { name: 'color', values: ['red'] });
    const byIds = await post(`/api/catalog/entities/${entity.id}/variants`, { optionValueIds: [size.values[0].id], sku: 'CUSTOM-S' });
    expect(byIds.status).toBe(201);
    expect(byIds.body.data).toMatchObject({ sku: 'CUSTOM-S', title: 'S', options: { size: 'S' } });
    const taxClassId = taxClass;
    const byNames = await post(`/api/catalog/entities/${entity.id}/variants`, { options: { color: 'red', size: 'M' }, taxClassId });
    expect(byNames.status).toBe(201);
    expect(byNames.body.data).toMatchObject({ sku: `${entity.slug.toUpperCase()}-M-RED`, title: 'M / red', options: { size: 'M', color: 'red' }, taxClassId });
    expect(byNames.body.data.optionValues.map((o: any) => o.optionName)).toEqual(['size', 'color']);
    expect(seeded.map((v) => v.id)).toEqual(expect.arrayContaining([byIds.body.data.id, byNames.body.data.id]));
    expect((await eventsOf(t, entity.id)).at(-1)).toMatchObject({ type: 'catalog.update', payload: { changes: ['variants'] } });
  });

  it("409 for an existing combination or SKU; 422 for values that are not the entity's", async () => {
    const entity = await createEntity(t, admin);
    const other = await createEntity(t, admin);
    const size = (await post(`/api/catalog/entities/${entity.id}/options`, { name: 'size', values: ['S', 'M'] })).body.data;
    const otherSize = (await post(`/api/catalog/entities/${other.id}/options`, { name: 'size', values: ['S'] })).body.data;
    const first = await post(`/api/catalog/entities/${entity.id}/variants`, { options: { size: 'S' } });
    expect((await post(`/api/catalog/entities/${entity.id}/variants`, { options: { size: 'S' } })).status).toBe(409);
    const dupSku = await post(`/api/catalog/entities/${entity.id}/variants`, { options: { size: 'M' }, sku: first.body.data.sku });
    expect(dupSku.status).toBe(409);
    expect(dupSku.body.error.message).toContain('SKU');
    const notMine = await post(`/api/catalog/entities/${entity.id}/variants`, { optionValueIds: [otherSize.values[0].id] });
    expect(notMine.status).toBe(422);
    expect(notMine.body.error.details[0].field).toBe('optionValueIds.0');
    const twoOfOne = await post(`/api/catalog/entities/${entity.id}/variants`, { optionValueIds: [size.values[0].id, size.values[1].id] });
    expect(twoOfOne.status).toBe(422);
    const unknown = await post(`/api/catalog/entities/${entity.id}/variants`, { options: { size: 'XXL' } });
    expect(unknown.status).toBe(422);
    expect(unknown.body.error.details[0].field).toBe('options.size');
    expect((await post(`/api/catalog/entities/${entity.id}/variants`, { options: { size: 'M' }, optionValueIds: [size.values[1].id] })).status).toBe(422);
    expect((await post(`/api/catalog/entities/${MISSING}/variants`, { options: {} })).status).toBe(404);
  });
});

describe('generate', () => {
  it('creates every combination of the option types, then skips those that exist', async () => {
    const entity = await createEntity(t, admin);
    await post(`/api/catalog/entities/${entity.id}/options`, { name: 'size', values: ['S', 'M', 'L'] });
    const color = (await post(`/api/catalog/entities/${entity.id}/options`, { name: 'color', values: ['red', 'blue'] })).body.data;
    await post(`/api/catalog/entities/${entity.id}/variants`, { options: { size: 'M', color: 'blue' } });
    const res = await post(`/api/catalog/entities/${entity.id}/variants/generate`, {});
    expect(res.status).toBe(201);
    expect(res.body.data.created).toHaveLength(5);
    expect(res.body.data.existing.map((v: any) => v.title)).toEqual(['M / blue']);
    expect(res.body.data.created.map((v: any) => v.title)).toEqual(['S / red', 'S / blue', 'M / red', 'L / red', 'L / blue']);
    const again = await post(`/api/catalog/entities/${entity.id}/variants/generate`, {});
    expect(again.status).toBe(200);
    expect(again.body.data.created).toEqual([]);
    expect(again.body.data.existing).toHaveLength(6);
    const subset = await post(`/api/catalog/entities/${entity.id}/variants/generate`, { optionTypeIds: [color.id], skuPrefix: 'only-color' });
    expect(subset.status).toBe(201);
    expect(subset.body.data.created.map((v: any) => v.sku)).toEqual(['ONLY-COLOR-RED', 'ONLY-COLOR-BLUE']);
  });

  it('422 without option types or with an unknown one, 404 for an unknown entity', async () => {
    const entity = await createEntity(t, admin);
    expect((await post(`/api/catalog/entities/${entity.id}/variants/generate`, {})).status).toBe(422);
    const res = await post(`/api/catalog/entities/${entity.id}/variants/generate`, { optionTypeIds: [MISSING] });
    expect(res.status).toBe(422);
    expect(res.body.error.details[0].field).toBe('optionTypeIds.0');
    expect((await post(`/api/catalog/entities/${MISSING}/variants/generate`, {})).status).toBe(404);
  });
});

describe('quick', () => {
  it('upserts the axes inline: 201 when it created the variant, 200 when it existed', async () => {
    const entity = await createEntity(t, admin);
    const before = seeded.length;
    const created = await post(`/api/catalog/entities/${entity.id}/variants/quick`, { options: { size: 'XL', color: 'green' }, sku: 'QUICK-XL-GREEN' });
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({ sku: 'QUICK-XL-GREEN', options: { size: 'XL', color: 'green' } });
    expect(seeded.length).toBe(before + 1);
    const existing = await post(`/api/catalog/entities/${entity.id}/variants/quick`, { options: { color: 'green', size: 'XL' } });
    expect(existing.status).toBe(200);
    expect(existing.body.data.id).toBe(created.body.data.id);
    expect(seeded.length).toBe(before + 1);
    const types = await t.request(`/api/catalog/entities/${entity.id}?include=optionTypes`, { apiKey: admin });
    expect(types.body.data.optionTypes.map((o: any) => o.name)).toEqual(['size', 'color']);
    const mismatch = await post(`/api/catalog/entities/${entity.id}/variants/quick`, { options: { size: 'XL', color: 'green' }, sku: 'OTHER' });
    expect(mismatch.status).toBe(409);
  });

  it('creates one variant when concurrent calls race for the same combination', async () => {
    const entity = await createEntity(t, admin);
    const results = await Promise.all(Array.from({ length: 8 }, () => post(`/api/catalog/entities/${entity.id}/variants/quick`, { options: { size: 'M', fabric: 'linen' } })));
    expect(results.map((r) => r.status).sort()).toEqual([200, 200, 200, 200, 200, 200, 200, 201]);
    expect(new Set(results.map((r) => r.body.data.id)).size).toBe(1);
    expect(await t.app.db.catalogVariant.count({ where: { entityId: entity.id } })).toBe(1);
    expect(await t.app.db.catalogOptionType.count({ where: { entityId: entity.id } })).toBe(2);
  });

  it('422 for bad axes, 404 unknown entity, 401/403', async () => {
    const entity = await createEntity(t, admin);
    expect((await post(`/api/catalog/entities/${entity.id}/variants/quick`, { options: { size: '' } })).status).toBe(422);
    expect((await post(`/api/catalog/entities/${entity.id}/variants/quick`, { options: 'size=L' })).status).toBe(422);
    expect((await post(`/api/catalog/entities/${entity.id}/variants/quick`, {})).status).toBe(422);
    expect((await post(`/api/catalog/entities/${MISSING}/variants/quick`, { options: { size: 'L' } })).status).toBe(404);
    expect((await post(`/api/catalog/entities/${entity.id}/variants/quick`, { options: { size: 'L' } }, storefront)).status).toBe(403);
    expect((await t.request(`/api/catalog/entities/${entity.id}/variants/quick`, { body: { options: { size: 'L' } } })).status).toBe(401);
  });

  it('is a GraphQL mutation too', async () => {
    const entity = await createEntity(t, admin);
    const res = await t.graphql(`mutation($id: UUID!) { catalogVariantQuickCreate(id: $id, options: { size: "S" }) { sku options } }`, { id: entity.id }, { apiKey: admin });
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data!.catalogVariantQuickCreate.options).toEqual({ size: 'S' });
  });
});

describe('bulk', () => {
  it('creates the cartesian matrix and skips combinations that exist', async () => {
    const entity = await createEntity(t, admin);
    const first = await post(`/api/catalog/entities/${entity.id}/variants/bulk`, { axes: { size: ['S', 'M'], color: ['red', 'blue', 'black'] } });
    expect(first.status).toBe(201);
    expect(first.body.data.created).toHaveLength(6);
    expect(first.body.data.existing).toEqual([]);
    const grown = await post(`/api/catalog/entities/${entity.id}/variants/bulk`, { axes: { size: ['S', 'M', 'L'], color: ['red', 'blue', 'black'] } });
    expect(grown.status).toBe(201);
    expect(grown.body.data.created.map((v: any) => v.title)).toEqual(['L / red', 'L / blue', 'L / black']);
    expect(grown.body.data.existing).toHaveLength(6);
    const same = await post(`/api/catalog/entities/${entity.id}/variants/bulk`, { axes: { color: ['red'], size: ['S'] } });
    expect(same.status).toBe(200);
    expect(same.body.data.existing.map((v: any) => v.title)).toEqual(['S / red']);
    expect(await t.app.db.catalogVariant.count({ where: { entityId: entity.id } })).toBe(9);
  });

  it('422 for empty, repeated or oversized axes', async () => {
    const entity = await createEntity(t, admin);
    expect((await post(`/api/catalog/entities/${entity.id}/variants/bulk`, { axes: {} })).status).toBe(422);
    expect((await post(`/api/catalog/entities/${entity.id}/variants/bulk`, { axes: { size: [] } })).status).toBe(422);
    expect((await post(`/api/catalog/entities/${entity.id}/variants/bulk`, { axes: { size: ['S', 'S'] } })).status).toBe(422);
    const values = Array.from({ length: 40 }, (_, i) => `v${i}`);
    const big = await post(`/api/catalog/entities/${entity.id}/variants/bulk`, { axes: { a: values, b: values } });
    expect(big.status).toBe(422);
    expect(big.body.error.details[0].message).toContain('1600');
    expect(await t.app.db.catalogOptionType.count({ where: { entityId: entity.id } })).toBe(0);
  });
});

describe('update and delete one variant', () => {
  it('changes SKU, title, tax class and metadata; deletes; 404/409/422/403', async () => {
    const entity = await createEntity(t, admin);
    const a = (await post(`/api/catalog/entities/${entity.id}/variants/quick`, { options: { size: 'S' }, taxClassId: taxClass })).body.data;
    const b = (await post(`/api/catalog/entities/${entity.id}/variants/quick`, { options: { size: 'M' } })).body.data;
    expect(a.taxClassId).toBe(taxClass);
    const patch = (id: string, body: unknown, apiKey = admin) => t.request(`/api/catalog/variants/${id}`, { method: 'PATCH', apiKey, body });
    const updated = await patch(a.id, { sku: 'NEW-SKU-S', title: 'Small', taxClassId: null, metadata: { weightGrams: 180 } });
    expect(updated.status).toBe(200);
    expect(updated.body.data).toMatchObject({ id: a.id, sku: 'NEW-SKU-S', title: 'Small', taxClassId: null, metadata: { weightGrams: 180 }, options: { size: 'S' } });
    expect((await patch(b.id, { sku: 'NEW-SKU-S' })).status).toBe(409);
    expect((await patch(b.id, { sku: '' })).status).toBe(422);
    expect((await patch(MISSING, { sku: 'X' })).status).toBe(404);
    expect((await patch(b.id, { sku: 'X' }, storefront)).status).toBe(403);
    const removed = await t.request(`/api/catalog/variants/${b.id}`, { method: 'DELETE', apiKey: admin });
    expect(removed.status).toBe(200);
    expect(removed.body.data.id).toBe(b.id);
    expect((await t.request(`/api/catalog/variants/${b.id}`, { method: 'DELETE', apiKey: admin })).status).toBe(404);
    const left = await t.request(`/api/catalog/entities/${entity.id}?include=variants`, { apiKey: admin });
    expect(left.body.data.variants.map((v: any) => v.id)).toEqual([a.id]);
  });
});
