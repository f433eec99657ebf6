// Editing option axes after they exist (issue 28): rename an option type or value, reorder
// values; 409 on duplicates, 422 on incomplete orders, permission and audit like every write.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { createEntity, eventsOf } from './helpers.js';

let t: TestApp;
let admin: string;
let storefront: string;
const MISSING = '2b1f3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d';

beforeAll(async () => {
  t = await startTestApp();
  admin = await t.apiKey('admin');
  storefront = await t.apiKey('storefront');
});
afterAll(() => t?.close());

const send = (method: string, path: string, body: unknown, apiKey: string | undefined = admin) => t.request(path, { method, apiKey, body });

async function sized(): Promise<{ entity: any; type: any; variant: any }> {
  const entity = await createEntity(t, admin);
  const type = (await send('POST', `/api/catalog/entities/${entity.id}/options`, { name: 'size', values: ['S', 'M', 'L'] })).body.data;
  const variant = (await send('POST', `/api/catalog/entities/${entity.id}/variants`, { options: { size: 'M' } })).body.data;
  return { entity, type, variant };
}

describe('option edits', () => {
  it('renames a value and a type: variants show the new names, their SKU stays; audited', async () => {
    const { entity, type, variant } = await sized();
    const m = type.values[1];
    const renamed = await send('PATCH', `/api/catalog/option-values/${m.id}`, { value: 'Medium', label: 'Medium (M)' });
    expect(renamed.status, renamed.text).toBe(200);
    expect(renamed.body.data).toMatchObject({ id: m.id, value: 'Medium', label: 'Medium (M)', sortOrder: 1 });
    const axis = await send('PATCH', `/api/catalog/options/${type.id}`, { name: 'Size', label: null });
    expect(axis.status, axis.text).toBe(200);
    expect(axis.body.data).toMatchObject({ name: 'Size', label: null });
    const read = await t.request(`/api/catalog/entities/${entity.id}?include=variants`, { apiKey: admin });
    expect(read.body.data.variants[0]).toMatchObject({ id: variant.id, sku: variant.sku, options: { Size: 'Medium' } });
    expect((await eventsOf(t, entity.id)).at(-1)).toMatchObject({ type: 'catalog.update', payload: { changes: ['optionTypes', 'variants'] } });
    const audit = await t.app.db.auditEntry.findMany({ where: { entityId: { in: [m.id, type.id] } }, orderBy: { createdAt: 'asc' } });
    expect(audit.map((a) => a.event)).toEqual(['catalog.optionTypeCreate', 'catalog.optionValueUpdate', 'catalog.optionTypeUpdate']);
  });

  it('409 for a duplicate value or type name; 404 for unknown ids; 403 and 401 without the permission', async () => {
    const { entity, type } = await sized();
    await send('POST', `/api/catalog/entities/${entity.id}/options`, { name: 'color', values: ['red'] });
    const dupValue = await send('PATCH', `/api/catalog/option-values/${type.values[0].id}`, { value: 'L' });
    expect(dupValue.status).toBe(409);
    expect(dupValue.body.error.code).toBe('CONFLICT');
    expect((await send('PATCH', `/api/catalog/options/${type.id}`, { name: 'color' })).status).toBe(409);
    expect((await send('PATCH', `/api/catalog/option-values/${MISSING}`, { value: 'x' })).status).toBe(404);
    expect((await send('PATCH', `/api/catalog/options/${MISSING}`, { name: 'x' })).status).toBe(404);
    expect((await send('PATCH', `/api/catalog/option-values/${type.values[0].id}`, { value: 'x' }, storefront)).status).toBe(403);
    expect((await t.request(`/api/catalog/options/${type.id}`, { method: 'PATCH', body: { name: 'x' } })).status).toBe(401);
    const after = await t.app.db.catalogOptionValue.findMany({ where: { optionTypeId: type.id }, orderBy: { sortOrder: 'asc' } });
    expect(after.map((v) => v.value)).toEqual(['S', 'M', 'L']);
  });

  it('reorders values (variants follow); a partial, foreign or repeated list is 422 and changes nothing', async () => {
    const { entity, type } = await sized();
    await send('POST', `/api/catalog/entities/${entity.id}/variants`, { options: { size: 'S' } });
    const [s, m, l] = type.values.map((v: any) => v.id);
    const other = await sized();
    expect((await send('PUT', `/api/catalog/options/${type.id}/values/order`, { valueIds: [l, s] })).status).toBe(422);
    expect((await send('PUT', `/api/catalog/options/${type.id}/values/order`, { valueIds: [l, s, s] })).status).toBe(422);
    expect((await send('PUT', `/api/catalog/options/${type.id}/values/order`, { valueIds: [l, s, other.type.values[0].id] })).status).toBe(422);
    expect((await send('PUT', `/api/catalog/options/${type.id}/values/order`, { valueIds: [l, m, s] }, storefront)).status).toBe(403);
    const unchanged = await t.app.db.catalogOptionValue.findMany({ where: { optionTypeId: type.id }, orderBy: { sortOrder: 'asc' } });
    expect(unchanged.map((v) => v.value)).toEqual(['S', 'M', 'L']);

    const res = await send('PUT', `/api/catalog/options/${type.id}/values/order`, { valueIds: [l, m, s] });
    expect(res.status, res.text).toBe(200);
    expect(res.body.data.values.map((v: any) => [v.value, v.sortOrder])).toEqual([
      ['L', 0],
      ['M', 1],
      ['S', 2],
    ]);
    const read = await t.request(`/api/catalog/entities/${entity.id}?include=variants`, { apiKey: admin });
    expect(read.body.data.variants.map((v: any) => v.options.size)).toEqual(['M', 'S']);
    const gql = await t.graphql(
      'mutation($id: UUID!, $ids: [UUID!]!) { catalogOptionValuesReorder(optionTypeId: $id, valueIds: $ids) { values { value } } }',
      { id: type.id, ids: [s, m, l] },
      { apiKey: admin },
    );
    expect(gql.body.errors).toBeUndefined();
    expect(gql.body.data.catalogOptionValuesReorder.values.map((v: any) => v.value)).toEqual(['S', 'M', 'L']);
  });
});
