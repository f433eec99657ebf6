import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { createBrand, createCategory, createEntity, eventsOf, uniqueSlug } from './helpers.js';

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

describe('categories', () => {
  it('creates, lists (by sortOrder, per parent), updates and deletes', async () => {
    const root = await createCategory(t, admin, { name: 'Apparel', description: 'Clothes', sortOrder: 1, metadata: { icon: 'shirt' } });
    expect(root).toMatchObject({ name: 'Apparel', description: 'Clothes', parentId: null, sortOrder: 1, metadata: { icon: 'shirt' } });
    const b = await createCategory(t, admin, { name: 'B tees', parentId: root.id, sortOrder: 2 });
    const a = await createCategory(t, admin, { name: 'A hoodies', parentId: root.id, sortOrder: 2 });
    const first = await createCategory(t, admin, { name: 'Z first', parentId: root.id, sortOrder: 0 });
    const children = await t.request(`/api/catalog/categories?parentId=${root.id}`, { apiKey: storefront });
    expect(children.status).toBe(200);
    expect(children.body.data.map((c: any) => c.id)).toEqual([first.id, a.id, b.id]);
    expect(children.body.meta.pagination).toEqual({ page: 1, limit: 20, total: 3, totalPages: 1, hasNextPage: false, endCursor: expect.any(String) });

    const updated = await t.request(`/api/catalog/categories/${b.id}`, { method: 'PATCH', apiKey: admin, body: { name: 'T-shirts', parentId: null } });
    expect(updated.status).toBe(200);
    expect(updated.body.data).toMatchObject({ name: 'T-shirts', parentId: null, slug: b.slug });

    const deleted = await t.request(`/api/catalog/categories/${root.id}`, { method: 'DELETE', apiKey: admin });
    expect(deleted.status).toBe(200);
    expect(deleted.body.data.id).toBe(root.id);
    // Its children become roots; they are not deleted.
    const orphan = await t.app.db.catalogCategory.findUnique({ where: { id: a.id } });
    expect(orphan?.parentId).toBeNull();
    expect((await t.request(`/api/catalog/categories/${root.id}`, { method: 'DELETE', apiKey: admin })).status).toBe(404);
  });

  it('409 duplicate slug, 422 unknown parent or a cycle, 404 unknown category', async () => {
    const parent = await createCategory(t, admin);
    const child = await createCategory(t, admin, { parentId: parent.id });
    const grandchild = await createCategory(t, admin, { parentId: child.id });
    expect((await t.request('/api/catalog/categories', { apiKey: admin, body: { name: 'Again', slug: parent.slug } })).status).toBe(409);
    expect((await t.request(`/api/catalog/categories/${child.id}`, { method: 'PATCH', apiKey: admin, body: { slug: parent.slug } })).status).toBe(409);
    const noParent = await t.request('/api/catalog/categories', { apiKey: admin, body: { name: 'x', slug: uniqueSlug(), parentId: MISSING } });
    expect(noParent.status).toBe(422);
    expect(noParent.body.error.details[0].field).toBe('parentId');
    const cycle = await t.request(`/api/catalog/categories/${parent.id}`, { method: 'PATCH', apiKey: admin, body: { parentId: grandchild.id } });
    expect(cycle.status).toBe(422);
    expect((await t.request(`/api/catalog/categories/${parent.id}`, { method: 'PATCH', apiKey: admin, body: { parentId: parent.id } })).status).toBe(422);
    expect((await t.request(`/api/catalog/categories/${MISSING}`, { method: 'PATCH', apiKey: admin, body: { name: 'x' } })).status).toBe(404);
    expect((await t.request('/api/catalog/categories', { apiKey: admin, body: { name: '', slug: uniqueSlug() } })).status).toBe(422);
  });

  it('needs catalog:read to list, catalog:create/update/delete to write', async () => {
    const category = await createCategory(t, admin);
    expect((await t.request('/api/catalog/categories')).status).toBe(401);
    expect((await t.request('/api/catalog/categories', { apiKey: storefront, body: { name: 'x', slug: uniqueSlug() } })).status).toBe(403);
    expect((await t.request(`/api/catalog/categories/${category.id}`, { method: 'PATCH', apiKey: storefront, body: { name: 'x' } })).status).toBe(403);
    const staff = await t.signIn('staff');
    expect((await t.request(`/api/catalog/categories/${category.id}`, { method: 'DELETE', bearer: staff.token })).status).toBe(403);
  });
});

describe('brands', () => {
  it('creates, lists, updates and deletes', async () => {
    const brand = await createBrand(t, admin, { name: 'Acme', logoUrl: 'https://example.com/logo.png', websiteUrl: 'https://example.com' });
    expect(brand).toMatchObject({ name: 'Acme', logoUrl: 'https://example.com/logo.png', websiteUrl: 'https://example.com', sortOrder: 0 });
    const list = await t.request('/api/catalog/brands?limit=100', { apiKey: storefront });
    expect(list.body.data.map((b: any) => b.id)).toContain(brand.id);
    const updated = await t.request(`/api/catalog/brands/${brand.id}`, { method: 'PATCH', apiKey: admin, body: { logoUrl: null, sortOrder: 5 } });
    expect(updated.body.data).toMatchObject({ logoUrl: null, sortOrder: 5, name: 'Acme' });
    expect((await t.request(`/api/catalog/brands/${brand.id}`, { method: 'DELETE', apiKey: admin })).status).toBe(200);
    expect((await t.request(`/api/catalog/brands/${brand.id}`, { method: 'PATCH', apiKey: admin, body: { name: 'x' } })).status).toBe(404);
  });

  it('409 duplicate slug, 422 bad URL, 403 and 401', async () => {
    const brand = await createBrand(t, admin);
    expect((await t.request('/api/catalog/brands', { apiKey: admin, body: { name: 'Dup', slug: brand.slug } })).status).toBe(409);
    expect((await t.request('/api/catalog/brands', { apiKey: admin, body: { name: 'Bad', slug: uniqueSlug(), websiteUrl: 'not a url' } })).status).toBe(422);
    expect((await t.request('/api/catalog/brands', { apiKey: storefront, body: { name: 'x', slug: uniqueSlug() } })).status).toBe(403);
    expect((await t.request('/api/catalog/brands', { body: { name: 'x', slug: uniqueSlug() } })).status).toBe(401);
  });
});

describe('membership', () => {
  it('adds and removes an entity from categories and brands', async () => {
    const entity = await createEntity(t, admin);
    const category = await createCategory(t, admin);
    const brand = await createBrand(t, admin);
    const added = await t.request(`/api/catalog/entities/${entity.id}/categories/${category.id}`, { method: 'POST', apiKey: admin });
    expect(added.status).toBe(200);
    expect(added.body.data.categories.map((c: any) => c.id)).toEqual([category.id]);
    const again = await t.request(`/api/catalog/entities/${entity.id}/categories/${category.id}`, { method: 'POST', apiKey: admin });
    expect(again.body.data.categories).toHaveLength(1);
    const withBrand = await t.request(`/api/catalog/entities/${entity.id}/brands/${brand.id}`, { method: 'POST', apiKey: admin });
    expect(withBrand.body.data.brands.map((b: any) => b.id)).toEqual([brand.id]);
    const changes = (await eventsOf(t, entity.id)).map((e) => e.payload.changes?.join(','));
    expect(changes).toEqual([undefined, 'categories', 'brands']);

    const removed = await t.request(`/api/catalog/entities/${entity.id}/categories/${category.id}`, { method: 'DELETE', apiKey: admin });
    expect(removed.status).toBe(200);
    expect(removed.body.data.categories).toEqual([]);
    expect((await t.request(`/api/catalog/entities/${entity.id}/categories/${category.id}`, { method: 'DELETE', apiKey: admin })).status).toBe(404);
    expect((await t.request(`/api/catalog/entities/${entity.id}/brands/${brand.id}`, { method: 'DELETE', apiKey: admin })).status).toBe(200);
  });

  it('404 for an unknown entity, category or brand; 403 for the storefront key', async () => {
    const entity = await createEntity(t, admin);
    const category = await createCategory(t, admin);
    expect((await t.request(`/api/catalog/entities/${entity.id}/categories/${MISSING}`, { method: 'POST', apiKey: admin })).status).toBe(404);
    expect((await t.request(`/api/catalog/entities/${entity.id}/brands/${MISSING}`, { method: 'POST', apiKey: admin })).status).toBe(404);
    expect((await t.request(`/api/catalog/entities/${MISSING}/categories/${category.id}`, { method: 'POST', apiKey: admin })).status).toBe(404);
    expect((await t.request(`/api/catalog/entities/${entity.id}/categories/${category.id}`, { method: 'POST', apiKey: storefront })).status).toBe(403);
  });

  it('keeps organizations apart', async () => {
    const other = await t.app.services.organizations.create({ slug: uniqueSlug('org'), name: 'Other' });
    const otherKey = await t.apiKey('admin', { organizationId: other.id });
    const category = await createCategory(t, admin);
    const theirEntity = await createEntity(t, otherKey);
    expect((await t.request(`/api/catalog/entities/${theirEntity.id}/categories/${category.id}`, { method: 'POST', apiKey: otherKey })).status).toBe(404);
    expect((await t.request(`/api/catalog/categories/${category.id}`, { method: 'PATCH', apiKey: otherKey, body: { name: 'x' } })).status).toBe(404);
    const theirs = await t.request('/api/catalog/categories?limit=100', { apiKey: otherKey });
    expect(theirs.body.data).toEqual([]);
    // Slugs are unique per organization, not globally.
    expect((await t.request('/api/catalog/categories', { apiKey: otherKey, body: { name: 'Same', slug: category.slug } })).status).toBe(201);
  });
});
