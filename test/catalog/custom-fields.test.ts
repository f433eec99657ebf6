import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { createEntity, defineField, eventsOf, uniqueSlug } from './helpers.js';

let t: TestApp;
let admin: string;
let storefront: string;
let syncOnly: string;
let staff: { token: string };
const MISSING = '2b1f3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d';
const type = `cf${Date.now().toString(36)}`;

beforeAll(async () => {
  // A channel connector's key: it may propose values but not approve them.
  t = await startTestApp({
    apiKeyScopes: {
      admin: { prefix: 'cs_admin_', permissions: { '*': ['*'] } },
      storefront: { prefix: 'cs_store_', permissions: { catalog: ['read'] } },
      sync: { prefix: 'cs_sync_', permissions: { catalog: ['sync'] } },
    },
  });
  admin = await t.apiKey('admin');
  storefront = await t.apiKey('storefront');
  syncOnly = await t.apiKey('sync');
  staff = await t.signIn('staff');
  await defineField(t, admin, { entityType: type, name: 'material', type: 'string', filterable: true });
  await defineField(t, admin, { entityType: type, name: 'weight', type: 'number' });
  await defineField(t, admin, { entityType: type, name: 'organic', type: 'boolean' });
  await defineField(t, admin, { entityType: type, name: 'launch', type: 'date' });
  await defineField(t, admin, { entityType: type, name: 'fit', type: 'enum', enumValues: ['slim', 'regular'] });
  await defineField(t, admin, { entityType: type, name: 'specs', type: 'json' });
  await defineField(t, admin, { entityType: type, name: 'sku-family', type: 'string', required: true });
});
afterAll(() => t?.close());

const rows = (entity: any) => Object.fromEntries((entity.customFields as any[]).map((f) => [f.fieldName, f.value]));

describe('field definitions', () => {
  it('lists by entity type, creates, updates and archives (never deletes)', async () => {
    const list = await t.request(`/api/admin/entity-field-definitions?entityType=${type}`, { apiKey: admin });
    expect(list.status).toBe(200);
    expect(list.body.data.map((d: any) => d.name)).toEqual(['fit', 'launch', 'material', 'organic', 'sku-family', 'specs', 'weight']);
    const own = `own${Date.now().toString(36)}`;
    const created = await defineField(t, admin, { entityType: own, name: 'color', type: 'enum', enumValues: ['red'], label: 'Colour' });
    expect(created).toMatchObject({ entityType: own, name: 'color', type: 'enum', enumValues: ['red'], required: false, filterable: false, archivedAt: null });
    const updated = await t.request(`/api/admin/entity-field-definitions/${created.id}`, {
      method: 'PATCH',
      apiKey: admin,
      body: { enumValues: ['red', 'blue'], filterable: true },
    });
    expect(updated.status).toBe(200);
    expect(updated.body.data).toMatchObject({ enumValues: ['red', 'blue'], filterable: true, label: 'Colour' });
    const archived = await t.request(`/api/admin/entity-field-definitions/${created.id}/archive`, { method: 'POST', apiKey: admin });
    expect(archived.status).toBe(200);
    expect(archived.body.data.archivedAt).not.toBeNull();
    expect((await t.request(`/api/admin/entity-field-definitions?entityType=${own}`, { apiKey: admin })).body.data).toEqual([]);
    expect((await t.request(`/api/admin/entity-field-definitions?entityType=${own}&includeArchived=true`, { apiKey: admin })).body.data).toHaveLength(1);
    // An archived field takes no new values.
    const res = await t.request('/api/catalog/entities', { apiKey: admin, body: { type: own, slug: uniqueSlug(), customFields: { color: 'red' } } });
    expect(res.status).toBe(422);
    expect(res.body.error.details[0]).toMatchObject({ field: 'customFields.color', message: expect.stringContaining('archived') });
    expect((await t.request(`/api/admin/entity-field-definitions/${created.id}`, { method: 'DELETE', apiKey: admin })).status).toBe(404);
  });

  it('409 duplicate name, 422 bad type or enum values, 404 unknown id, 403 without catalog:update', async () => {
    const body = { entityType: type, name: 'material', type: 'string' };
    expect((await t.request('/api/admin/entity-field-definitions', { apiKey: admin, body })).status).toBe(409);
    expect((await t.request('/api/admin/entity-field-definitions', { apiKey: admin, body: { ...body, name: 'x', type: 'money' } })).status).toBe(422);
    const noValues = await t.request('/api/admin/entity-field-definitions', { apiKey: admin, body: { ...body, name: 'y', type: 'enum' } });
    expect(noValues.status).toBe(422);
    expect(noValues.body.error.details[0].field).toBe('enumValues');
    expect((await t.request('/api/admin/entity-field-definitions', { apiKey: admin, body: { ...body, name: 'z', enumValues: ['a'] } })).status).toBe(422);
    expect((await t.request('/api/admin/entity-field-definitions', { apiKey: admin, body: { ...body, name: 'bad name' } })).status).toBe(422);
    expect((await t.request(`/api/admin/entity-field-definitions/${MISSING}`, { method: 'PATCH', apiKey: admin, body: { label: 'x' } })).status).toBe(404);
    expect((await t.request(`/api/admin/entity-field-definitions/${MISSING}/archive`, { method: 'POST', apiKey: admin })).status).toBe(404);
    expect((await t.request('/api/admin/entity-field-definitions', { apiKey: storefront })).status).toBe(403);
    expect((await t.request('/api/admin/entity-field-definitions')).status).toBe(401);
  });
});

describe('values on create and PATCH', () => {
  it('stores valid values of every type as approved rows with provenance', async () => {
    const customFields = { material: 'linen', weight: 180.5, organic: true, launch: '2026-03-01', fit: 'slim', specs: { gsm: 180, tags: ['a'] }, 'sku-family': 'TEE' };
    const entity = await createEntity(t, admin, { type, customFields });
    expect(rows(entity)).toEqual(customFields);
    expect(entity.customFields[0]).toMatchObject({ status: 'approved', source: 'platform', locale: 'en', proposedBy: expect.any(String), reviewedAt: expect.any(String) });
  });

  it('refuses wrong types, unknown fields and missing required ones with 422 naming each field', async () => {
    const slug = uniqueSlug();
    const res = await t.request('/api/catalog/entities', {
      apiKey: admin,
      body: { type, slug, customFields: { material: 3, weight: 'heavy', organic: 'yes', launch: 'soon', fit: 'baggy', colour: 'red' } },
    });
    expect(res.status).toBe(422);
    const fields = res.body.error.details.map((d: any) => d.field).sort();
    expect(fields).toEqual([
      'customFields.colour',
      'customFields.fit',
      'customFields.launch',
      'customFields.material',
      'customFields.organic',
      'customFields.sku-family',
      'customFields.weight',
    ]);
    expect(await t.app.db.catalogEntity.count({ where: { slug } })).toBe(0);
  });

  it('PATCH customFields is a patch: a value sets, null clears, omitted keys stay', async () => {
    const entity = await createEntity(t, admin, { type, customFields: { material: 'wool', weight: 200, 'sku-family': 'KNIT' } });
    const res = await t.request(`/api/catalog/entities/${entity.id}`, { method: 'PATCH', apiKey: admin, body: { customFields: { material: 'merino', weight: null } } });
    expect(res.status).toBe(200);
    expect(rows(res.body.data)).toEqual({ material: 'merino', 'sku-family': 'KNIT' });
    expect((await eventsOf(t, entity.id)).at(-1)?.payload.changes).toEqual(['customFields.material', 'customFields.weight']);
    const history = await t.app.db.catalogCustomField.findMany({ where: { entityId: entity.id, fieldName: 'material' }, orderBy: { createdAt: 'asc' } });
    expect(history.map((h) => [h.value, h.status])).toEqual([
      ['wool', 'superseded'],
      ['merino', 'approved'],
    ]);
    const bad = await t.request(`/api/catalog/entities/${entity.id}`, { method: 'PATCH', apiKey: admin, body: { customFields: { weight: 'x', 'sku-family': null } } });
    expect(bad.status).toBe(422);
    expect(bad.body.error.details.map((d: any) => d.field).sort()).toEqual(['customFields.sku-family', 'customFields.weight']);
    const after = await t.request(`/api/catalog/entities/${entity.id}?include=customFields`, { apiKey: admin });
    expect(rows(after.body.data)).toEqual({ material: 'merino', 'sku-family': 'KNIT' });
  });

  it('keeps one live value per field when PATCHes race', async () => {
    const entity = await createEntity(t, admin, { type, customFields: { 'sku-family': 'RACE' } });
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) => t.request(`/api/catalog/entities/${entity.id}`, { method: 'PATCH', apiKey: admin, body: { customFields: { weight: i } } })),
    );
    expect(results.every((r) => r.status === 200)).toBe(true);
    expect(await t.app.db.catalogCustomField.count({ where: { entityId: entity.id, fieldName: 'weight', status: 'approved' } })).toBe(1);
  });
});

describe('proposals', () => {
  async function propose(entityId: string, fieldName: string, body: Record<string, unknown>, apiKey = admin) {
    return t.request(`/api/catalog/entities/${entityId}/custom-fields/${fieldName}/proposals`, { apiKey, body });
  }

  it('queue, approve (displacing the live value) and reject', async () => {
    const entity = await createEntity(t, admin, { type, customFields: { material: 'cotton', 'sku-family': 'P' } });
    const p1 = await propose(entity.id, 'material', { value: 'hemp', source: 'store' });
    expect(p1.status).toBe(201);
    expect(p1.body.data).toMatchObject({ fieldName: 'material', value: 'hemp', status: 'proposed', source: 'store', locale: 'en' });
    const p2 = await propose(entity.id, 'material', { value: 'bamboo', source: 'ai', note: 'from photos' }, syncOnly);
    expect(p2.status).toBe(201);
    await propose(entity.id, 'material', { value: 'coton', locale: 'fr' });

    const queue = await t.request(`/api/admin/custom-field-proposals?entityType=${type}`, { apiKey: admin });
    expect(queue.status).toBe(200);
    const mine = queue.body.data.filter((p: any) => p.entityId === entity.id);
    expect(mine.map((p: any) => p.value)).toEqual(['hemp', 'bamboo', 'coton']);
    expect(mine[0]).toMatchObject({ entitySlug: entity.slug, entityType: type, status: 'proposed', id: p1.body.data.id });
    expect(queue.body.meta.pagination).toMatchObject({ page: 1, limit: 20 });

    // The live value is untouched until approval.
    expect(rows((await t.request(`/api/catalog/entities/${entity.id}?include=customFields`, { apiKey: admin })).body.data).material).toBe('cotton');

    const approved = await t.request(`/api/catalog/entities/${entity.id}/custom-fields/material/approve`, { method: 'POST', apiKey: admin });
    expect(approved.status).toBe(200);
    expect(approved.body.data).toMatchObject({ id: p2.body.data.id, value: 'bamboo', status: 'approved', source: 'ai', note: 'from photos', reviewedBy: expect.any(String) });
    const live = (await t.request(`/api/catalog/entities/${entity.id}?include=customFields`, { apiKey: admin })).body.data.customFields;
    expect(live.filter((f: any) => f.fieldName === 'material').map((f: any) => [f.locale, f.value])).toEqual([['en', 'bamboo']]);
    const statuses = await t.app.db.catalogCustomField.findMany({ where: { entityId: entity.id, fieldName: 'material', locale: 'en' }, orderBy: { createdAt: 'asc' } });
    expect(statuses.map((s) => `${s.value}:${s.status}`)).toEqual(['cotton:superseded', 'hemp:superseded', 'bamboo:approved']);
    expect((await eventsOf(t, entity.id)).at(-1)?.payload.changes).toEqual(['customFields.material']);

    // Nothing pending in en any more; fr still is.
    expect((await t.request(`/api/catalog/entities/${entity.id}/custom-fields/material/approve`, { method: 'POST', apiKey: admin })).status).toBe(404);
    const rejected = await t.request(`/api/catalog/entities/${entity.id}/custom-fields/material/reject?locale=fr`, { method: 'POST', apiKey: admin });
    expect(rejected.status).toBe(200);
    expect(rejected.body.data).toMatchObject({ value: 'coton', locale: 'fr', status: 'rejected' });
    const left = await t.request(`/api/admin/custom-field-proposals?entityType=${type}&limit=100`, { apiKey: admin });
    expect(left.body.data.filter((p: any) => p.entityId === entity.id)).toEqual([]);
  });

  it('validates proposals against the definition: 422 naming value, unknown field, 404 unknown entity', async () => {
    const entity = await createEntity(t, admin, { type, customFields: { 'sku-family': 'V' } });
    const bad = await propose(entity.id, 'weight', { value: 'heavy' });
    expect(bad.status).toBe(422);
    expect(bad.body.error.details[0].field).toBe('value');
    expect((await propose(entity.id, 'weight', { value: null })).status).toBe(422);
    expect((await propose(entity.id, 'weight', {})).status).toBe(422);
    expect((await propose(entity.id, 'nope', { value: 'x' })).status).toBe(422);
    expect((await propose(MISSING, 'weight', { value: 1 })).status).toBe(404);
    expect((await propose(entity.id, 'weight', { value: 1 }, storefront)).status).toBe(403);
    expect((await t.request(`/api/catalog/entities/${entity.id}/custom-fields/weight/proposals`, { body: { value: 1 } })).status).toBe(401);
  });

  it('approve and reject need catalog:update, plus catalog:sync on store-sourced entities', async () => {
    const plain = await createEntity(t, admin, { type, customFields: { 'sku-family': 'S' } });
    const sourced = await createEntity(t, admin, { type, customFields: { 'sku-family': 'S' }, sourceStoreId: 'shop-9' });
    for (const entity of [plain, sourced]) await propose(entity.id, 'material', { value: 'silk' }, syncOnly);
    expect((await t.request(`/api/catalog/entities/${plain.id}/custom-fields/material/approve`, { method: 'POST', apiKey: syncOnly })).status).toBe(403);
    expect((await t.request(`/api/catalog/entities/${plain.id}/custom-fields/material/approve`, { method: 'POST', bearer: staff.token })).status).toBe(200);
    expect((await t.request(`/api/catalog/entities/${sourced.id}/custom-fields/material/approve`, { method: 'POST', bearer: staff.token })).status).toBe(403);
    expect((await t.request(`/api/catalog/entities/${sourced.id}/custom-fields/material/reject`, { method: 'POST', bearer: staff.token })).status).toBe(403);
    expect((await t.request(`/api/catalog/entities/${sourced.id}/custom-fields/material/approve`, { method: 'POST', apiKey: admin })).status).toBe(200);
    expect((await t.request(`/api/catalog/entities/${MISSING}/custom-fields/material/approve`, { method: 'POST', apiKey: admin })).status).toBe(404);
    expect((await t.request(`/api/catalog/entities/${plain.id}/custom-fields/material/approve?locale=!!`, { method: 'POST', apiKey: admin })).status).toBe(422);
    expect((await t.request(`/api/catalog/entities/${plain.id}/custom-fields/material/approve`, { method: 'POST' })).status).toBe(401);
  });

  it('approving concurrently leaves exactly one live value', async () => {
    const entity = await createEntity(t, admin, { type, customFields: { 'sku-family': 'C' } });
    for (let i = 0; i < 4; i += 1) await propose(entity.id, 'weight', { value: i });
    const results = await Promise.all(
      Array.from({ length: 4 }, () => t.request(`/api/catalog/entities/${entity.id}/custom-fields/weight/approve`, { method: 'POST', apiKey: admin })),
    );
    expect(results.map((r) => r.status).sort()).toEqual([200, 404, 404, 404]);
    const live = await t.app.db.catalogCustomField.findMany({ where: { entityId: entity.id, fieldName: 'weight', status: 'approved' } });
    expect(live.map((l) => l.value)).toEqual([3]);
  });

  it('is reachable through GraphQL', async () => {
    const entity = await createEntity(t, admin, { type, customFields: { 'sku-family': 'G' } });
    const res = await t.graphql(
      `mutation($id: UUID!) { catalogCustomFieldPropose(id: $id, fieldName: "specs", value: { gsm: 200 }) { status value } }`,
      { id: entity.id },
      { apiKey: admin },
    );
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data!.catalogCustomFieldPropose).toEqual({ status: 'proposed', value: { gsm: 200 } });
    const queue = await t.graphql(`{ catalogCustomFieldProposals(limit: 100) { data { entitySlug fieldName } meta { pagination { total } } } }`, {}, { apiKey: admin });
    expect(queue.body.data!.catalogCustomFieldProposals.data).toContainEqual({ entitySlug: entity.slug, fieldName: 'specs' });
  });
});
