import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { createEntity } from './helpers.js';

let t: TestApp;
let admin: string;
let storefront: string;
let staff: { token: string };
const MISSING = '2b1f3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d';

beforeAll(async () => {
  t = await startTestApp();
  admin = await t.apiKey('admin');
  storefront = await t.apiKey('storefront');
  staff = await t.signIn('staff');
});
afterAll(() => t?.close());

const put = (entityId: string, body: unknown, auth: { apiKey?: string; bearer?: string } = { apiKey: admin }) =>
  t.request(`/api/catalog/entities/${entityId}/field-ownership`, { method: 'PUT', body, ...auth });

describe('field ownership', () => {
  it('sets one owner per field path, store and variant, and lists them (optionally per store)', async () => {
    const entity = await createEntity(t, admin, { status: 'active' });
    const variant = (await t.request(`/api/catalog/entities/${entity.id}/variants/quick`, { apiKey: admin, body: { options: { size: 'M' } } })).body.data;
    const first = await put(entity.id, { fieldPath: 'attributes.en.title', owner: 'platform' });
    expect(first.status).toBe(200);
    expect(first.body.data).toMatchObject({ entityId: entity.id, fieldPath: 'attributes.en.title', owner: 'platform', storeId: null, variantId: null });
    const changed = await put(entity.id, { fieldPath: 'attributes.en.title', owner: 'shared' });
    expect(changed.body.data).toMatchObject({ id: first.body.data.id, owner: 'shared' });
    await put(entity.id, { fieldPath: 'attributes.en.title', owner: 'store', storeId: 'shop-1' });
    await put(entity.id, { fieldPath: 'sku', owner: 'store', storeId: 'shop-1', variantId: variant.id });

    const all = await t.request(`/api/catalog/entities/${entity.id}/field-ownership`, { apiKey: storefront });
    expect(all.status).toBe(200);
    expect(all.body.data.map((r: any) => [r.fieldPath, r.owner, r.storeId, r.variantId])).toEqual([
      ['attributes.en.title', 'shared', null, null],
      ['attributes.en.title', 'store', 'shop-1', null],
      ['sku', 'store', 'shop-1', variant.id],
    ]);
    const shop = await t.request(`/api/catalog/entities/${entity.id}/field-ownership?storeId=shop-1`, { apiKey: storefront });
    expect(shop.body.data).toHaveLength(2);
  });

  it('422 for an owner outside platform|store|shared, a bad path or a variant of another entity', async () => {
    const entity = await createEntity(t, admin);
    const other = await createEntity(t, admin);
    const variant = (await t.request(`/api/catalog/entities/${other.id}/variants/quick`, { apiKey: admin, body: { options: { size: 'M' } } })).body.data;
    const owner = await put(entity.id, { fieldPath: 'title', owner: 'vendor' });
    expect(owner.status).toBe(422);
    expect(owner.body.error.details[0].field).toBe('owner');
    expect((await put(entity.id, { fieldPath: 'has space', owner: 'store' })).status).toBe(422);
    expect((await put(entity.id, { owner: 'store' })).status).toBe(422);
    const foreign = await put(entity.id, { fieldPath: 'sku', owner: 'store', variantId: variant.id });
    expect(foreign.status).toBe(422);
    expect(foreign.body.error.details[0].field).toBe('variantId');
  });

  it('404 unknown entity; drafts hidden from readers without catalog:read:unpublished', async () => {
    expect((await put(MISSING, { fieldPath: 'title', owner: 'store' })).status).toBe(404);
    expect((await t.request(`/api/catalog/entities/${MISSING}/field-ownership`, { apiKey: admin })).status).toBe(404);
    const draft = await createEntity(t, admin);
    expect((await t.request(`/api/catalog/entities/${draft.id}/field-ownership`, { apiKey: storefront })).status).toBe(404);
  });

  it('writes need catalog:update, plus catalog:sync for store-sourced entities; reads need catalog:read', async () => {
    const plain = await createEntity(t, admin);
    const sourced = await createEntity(t, admin, { sourceStoreId: 'shop-7' });
    expect((await put(plain.id, { fieldPath: 'title', owner: 'store' }, { bearer: staff.token })).status).toBe(200);
    const denied = await put(sourced.id, { fieldPath: 'title', owner: 'store' }, { bearer: staff.token });
    expect(denied.status).toBe(403);
    expect(denied.body.error.message).toContain('catalog:sync');
    expect((await put(sourced.id, { fieldPath: 'title', owner: 'store' })).status).toBe(200);
    expect((await put(plain.id, { fieldPath: 'title', owner: 'store' }, { apiKey: storefront })).status).toBe(403);
    expect((await t.request(`/api/catalog/entities/${plain.id}/field-ownership`, { method: 'PUT', body: { fieldPath: 'title', owner: 'x' } })).status).toBe(401);
    expect((await t.request(`/api/catalog/entities/${plain.id}/field-ownership`)).status).toBe(401);
  });
});
