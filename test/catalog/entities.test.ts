import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { createBrand, createCategory, createEntity, eventsOf, uniqueSlug } from './helpers.js';

let t: TestApp;
let admin: string;
let storefront: string;
/** A tax class of this organization: bodies may only reference their own organization's rows. */
let taxClass: string;

beforeAll(async () => {
  t = await startTestApp();
  admin = await t.apiKey('admin');
  storefront = await t.apiKey('storefront');
  taxClass = (await t.request('/api/tax/classes', { apiKey: admin, body: { name: 'reduced', rateBps: 700 } })).body.data.id;
});
afterAll(() => t?.close());

describe('create', () => {
  it('creates an entity (201) with defaults and records catalog.create', async () => {
    const slug = uniqueSlug('tee');
    const res = await t.request('/api/catalog/entities', { apiKey: admin, body: { type: 'product', slug, metadata: { origin: 'PT' } } });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ type: 'product', slug, status: 'draft', metadata: { origin: 'PT' }, taxClassId: null, publishedAt: null, customFields: [] });
    expect(res.body.data.id).toMatch(/^[0-9a-f-]{36}$/);
    const events = await eventsOf(t, res.body.data.id);
    expect(events.map((e) => e.type)).toEqual(['catalog.create']);
    expect(events[0]!.payload.entity).toMatchObject({ id: res.body.data.id, slug, status: 'draft' });
  });

  it('sets publishedAt when created active, and keeps a tax class reference', async () => {
    const taxClassId = taxClass;
    const entity = await createEntity(t, admin, { status: 'active', taxClassId });
    expect(entity.status).toBe('active');
    expect(entity.publishedAt).not.toBeNull();
    expect(entity.taxClassId).toBe(taxClassId);
  });

  it('refuses a duplicate slug with 409 CONFLICT and records no event for it', async () => {
    const first = await createEntity(t, admin);
    const before = await t.app.db.domainEvent.count();
    const res = await t.request('/api/catalog/entities', { apiKey: admin, body: { type: 'service', slug: first.slug } });
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe('CONFLICT');
    expect(await t.app.db.domainEvent.count()).toBe(before);
  });

  it.each([
    [{ type: 'product' }, 'slug'],
    [{ type: 'product', slug: 'Bad Slug' }, 'slug'],
    [{ type: 'product', slug: '0b6c2a56-1f7e-4e9a-9c1a-5b0d8f1e2a3b' }, 'slug'],
    [{ slug: 'no-type-here' }, 'type'],
    [{ type: '9lives', slug: 'x-1' }, 'type'],
    [{ type: 'product', slug: 'x-2', status: 'published' }, 'status'],
  ])('refuses %j with 422 naming %s', async (body, field) => {
    const res = await t.request('/api/catalog/entities', { apiKey: admin, body });
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe('VALIDATION_FAILED');
    expect(JSON.stringify(res.body.error.details)).toContain(field);
  });

  it.each([[{ type: 'product', slug: 'x-3', metadata: 'nope' }], [{ type: 'product', slug: 'x-4', taxClassId: 'not-a-uuid' }]])(
    'refuses a value its GraphQL scalar rejects (%j) with 422',
    async (body) => {
      const res = await t.request('/api/catalog/entities', { apiKey: admin, body });
      expect(res.status).toBe(422);
      expect(res.body.error.code).toBe('VALIDATION_FAILED');
    },
  );

  it('needs catalog:create: 401 anonymous, 403 for a customer, 401 before 422', async () => {
    expect((await t.request('/api/catalog/entities', { body: { type: 'product', slug: uniqueSlug() } })).status).toBe(401);
    expect((await t.request('/api/catalog/entities', { body: { nonsense: true } })).status).toBe(401);
    const customer = await t.signIn('customer');
    const res = await t.request('/api/catalog/entities', { bearer: customer.token, body: { type: 'product', slug: uniqueSlug() } });
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('FORBIDDEN');
    expect((await t.request('/api/catalog/entities', { bearer: customer.token, body: { slug: 42 } })).status).toBe(403);
  });

  it('needs catalog:sync to mark an entity store-sourced', async () => {
    const staff = await t.signIn('staff');
    const res = await t.request('/api/catalog/entities', { bearer: staff.token, body: { type: 'product', slug: uniqueSlug(), sourceStoreId: 'shop-1' } });
    expect(res.status).toBe(403);
    const ok = await createEntity(t, admin, { sourceStoreId: 'shop-1' });
    expect(ok.sourceStoreId).toBe('shop-1');
  });
});

describe('get', () => {
  it('answers by UUID and by slug', async () => {
    const entity = await createEntity(t, admin, { status: 'active' });
    const byId = await t.request(`/api/catalog/entities/${entity.id}`, { apiKey: storefront });
    const bySlug = await t.request(`/api/catalog/entities/${entity.slug}`, { apiKey: storefront });
    expect(byId.status).toBe(200);
    expect(bySlug.status).toBe(200);
    expect(byId.body.data.id).toBe(entity.id);
    expect(bySlug.body.data.id).toBe(entity.id);
  });

  it('is 404 for an unknown id or slug', async () => {
    expect((await t.request('/api/catalog/entities/2b1f3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d', { apiKey: admin })).status).toBe(404);
    const res = await t.request('/api/catalog/entities/no-such-thing', { apiKey: admin });
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('NOT_FOUND');
  });

  it('hides drafts, archived and discontinued entities from callers without catalog:read:unpublished', async () => {
    const draft = await createEntity(t, admin);
    expect((await t.request(`/api/catalog/entities/${draft.slug}`, { apiKey: storefront })).status).toBe(404);
    const customer = await t.signIn('customer');
    expect((await t.request(`/api/catalog/entities/${draft.id}`, { bearer: customer.token })).status).toBe(404);
    const staff = await t.signIn('staff');
    expect((await t.request(`/api/catalog/entities/${draft.id}`, { bearer: staff.token })).status).toBe(200);
  });

  it('needs catalog:read: 401 anonymous', async () => {
    expect((await t.request('/api/catalog/entities')).status).toBe(401);
    expect((await t.request('/api/catalog/entities/anything')).status).toBe(401);
  });
});

describe('list', () => {
  it('filters by type, status, category and brand (id or slug)', async () => {
    const type = `kind${Date.now().toString(36)}`;
    const category = await createCategory(t, admin);
    const brand = await createBrand(t, admin);
    const a = await createEntity(t, admin, { type, status: 'active' });
    const b = await createEntity(t, admin, { type, status: 'draft' });
    await createEntity(t, admin, { type: 'other', status: 'active' });
    await t.request(`/api/catalog/entities/${a.id}/categories/${category.id}`, { method: 'POST', apiKey: admin });
    await t.request(`/api/catalog/entities/${b.id}/brands/${brand.id}`, { method: 'POST', apiKey: admin });

    const byType = await t.request(`/api/catalog/entities?type=${type}`, { apiKey: admin });
    expect(byType.body.data.map((e: any) => e.id).sort()).toEqual([a.id, b.id].sort());
    const drafts = await t.request(`/api/catalog/entities?type=${type}&status=draft`, { apiKey: admin });
    expect(drafts.body.data.map((e: any) => e.id)).toEqual([b.id]);
    const inCategory = await t.request(`/api/catalog/entities?category=${category.id}`, { apiKey: admin });
    expect(inCategory.body.data.map((e: any) => e.id)).toEqual([a.id]);
    const inCategoryBySlug = await t.request(`/api/catalog/entities?category=${category.slug}`, { apiKey: admin });
    expect(inCategoryBySlug.body.data.map((e: any) => e.id)).toEqual([a.id]);
    const ofBrand = await t.request(`/api/catalog/entities?brand=${brand.slug}`, { apiKey: admin });
    expect(ofBrand.body.data.map((e: any) => e.id)).toEqual([b.id]);
  });

  it('lists only active entities for callers without catalog:read:unpublished', async () => {
    const type = `vis${Date.now().toString(36)}`;
    const active = await createEntity(t, admin, { type, status: 'active' });
    await createEntity(t, admin, { type, status: 'draft' });
    await createEntity(t, admin, { type, status: 'archived' });
    const res = await t.request(`/api/catalog/entities?type=${type}`, { apiKey: storefront });
    expect(res.status).toBe(200);
    expect(res.body.data.map((e: any) => e.id)).toEqual([active.id]);
    expect(res.body.meta.pagination.total).toBe(1);
    const drafts = await t.request(`/api/catalog/entities?type=${type}&status=draft`, { apiKey: storefront });
    expect(drafts.body.data).toEqual([]);
  });

  it('paginates: default limit 20, page and limit, limit capped at 100', async () => {
    const type = `page${Date.now().toString(36)}`;
    for (let i = 0; i < 23; i += 1) await createEntity(t, admin, { type, slug: uniqueSlug(`p${String(i).padStart(2, '0')}`) });
    const first = await t.request(`/api/catalog/entities?type=${type}`, { apiKey: admin });
    expect(first.body.data).toHaveLength(20);
    expect(first.body.meta.pagination).toEqual({ page: 1, limit: 20, total: 23, totalPages: 2, hasNextPage: true, endCursor: expect.any(String) });
    const second = await t.request(`/api/catalog/entities?type=${type}&page=2&limit=20`, { apiKey: admin });
    expect(second.body.data).toHaveLength(3);
    const ids = new Set([...first.body.data, ...second.body.data].map((e: any) => e.id));
    expect(ids.size).toBe(23);
    // Capped, not refused: limit=1000 answers the whole 23 with the applied limit 100.
    const capped = await t.request(`/api/catalog/entities?type=${type}&limit=1000`, { apiKey: admin });
    expect(capped.status, capped.text).toBe(200);
    expect(capped.body.data).toHaveLength(23);
    expect(capped.body.meta.pagination).toEqual({ page: 1, limit: 100, total: 23, totalPages: 1, hasNextPage: false, endCursor: expect.any(String) });
    for (const bad of ['-1', '0', 'ten']) {
      const refused = await t.request(`/api/catalog/entities?limit=${bad}`, { apiKey: admin });
      expect(refused.status, bad).toBe(422);
      // A non-number fails the Int scalar, which names no field (a known quirk); the rest do.
      if (bad !== 'ten') expect(refused.body.error.details[0].field).toBe('limit');
    }
  });

  it('sorts by field:direction and refuses an unknown sort with 422', async () => {
    const type = `sort${Date.now().toString(36)}`;
    await createEntity(t, admin, { type, slug: uniqueSlug('b') });
    await createEntity(t, admin, { type, slug: uniqueSlug('a') });
    await createEntity(t, admin, { type, slug: uniqueSlug('c') });
    const asc = await t.request(`/api/catalog/entities?type=${type}&sort=slug:asc`, { apiKey: admin });
    const slugs = asc.body.data.map((e: any) => e.slug);
    expect(slugs).toEqual([...slugs].sort());
    const desc = await t.request(`/api/catalog/entities?type=${type}&sort=slug:desc`, { apiKey: admin });
    expect(desc.body.data.map((e: any) => e.slug)).toEqual([...slugs].reverse());
    for (const bad of ['price:asc', 'slug:sideways', 'slug:asc:extra']) {
      const res = await t.request(`/api/catalog/entities?sort=${bad}`, { apiKey: admin });
      expect(res.status).toBe(422);
      expect(res.body.error.details[0].field).toBe('sort');
    }
  });

  it('refuses an unknown status filter with 422', async () => {
    const res = await t.request('/api/catalog/entities?status=sold', { apiKey: admin });
    expect(res.status).toBe(422);
  });
});

describe('update', () => {
  it('changes only the keys sent and records catalog.update with them', async () => {
    const entity = await createEntity(t, admin, { metadata: { a: 1 }, taxClassId: taxClass });
    const slug = uniqueSlug('renamed');
    const res = await t.request(`/api/catalog/entities/${entity.id}`, { method: 'PATCH', apiKey: admin, body: { slug } });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ id: entity.id, slug, metadata: { a: 1 }, status: 'draft', type: 'product' });
    const events = await eventsOf(t, entity.id);
    expect(events.at(-1)).toMatchObject({ type: 'catalog.update', payload: { changes: ['slug'] } });
    expect(res.body.data.taxClassId).toBe(taxClass);
    // An explicit null clears a clearable field; for one that cannot be cleared it means "leave it".
    const cleared = await t.request(`/api/catalog/entities/${entity.id}`, { method: 'PATCH', apiKey: admin, body: { taxClassId: null, slug: null, metadata: { b: 2 } } });
    expect(cleared.status).toBe(200);
    expect(cleared.body.data).toMatchObject({ taxClassId: null, metadata: { b: 2 }, slug });
  });

  it('404 unknown, 409 slug taken, 422 bad input, 403 without catalog:update', async () => {
    const a = await createEntity(t, admin);
    const b = await createEntity(t, admin);
    expect((await t.request('/api/catalog/entities/2b1f3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d', { method: 'PATCH', apiKey: admin, body: { slug: 'x-y' } })).status).toBe(404);
    expect((await t.request(`/api/catalog/entities/${a.id}`, { method: 'PATCH', apiKey: admin, body: { slug: b.slug } })).status).toBe(409);
    expect((await t.request(`/api/catalog/entities/${a.id}`, { method: 'PATCH', apiKey: admin, body: { slug: 'NOPE' } })).status).toBe(422);
    expect((await t.request(`/api/catalog/entities/not-a-uuid`, { method: 'PATCH', apiKey: admin, body: {} })).status).toBe(422);
    expect((await t.request(`/api/catalog/entities/${a.id}`, { method: 'PATCH', apiKey: storefront, body: { slug: 'x-z' } })).status).toBe(403);
    expect((await t.request(`/api/catalog/entities/${a.id}`, { method: 'PATCH', body: { slug: 'x-z' } })).status).toBe(401);
  });
});

describe('status moves', () => {
  it('publish, archive and discontinue from any state; catalog.update only on a real change', async () => {
    const entity = await createEntity(t, admin);
    const published = await t.request(`/api/catalog/entities/${entity.id}/publish`, { method: 'POST', apiKey: admin });
    expect(published.status).toBe(200);
    expect(published.body.data.status).toBe('active');
    const publishedAt = published.body.data.publishedAt;
    expect(publishedAt).not.toBeNull();
    await t.request(`/api/catalog/entities/${entity.id}/publish`, { method: 'POST', apiKey: admin });
    const archived = await t.request(`/api/catalog/entities/${entity.id}/archive`, { method: 'POST', apiKey: admin });
    expect(archived.body.data.status).toBe('archived');
    const discontinued = await t.request(`/api/catalog/entities/${entity.id}/discontinue`, { method: 'POST', apiKey: admin });
    expect(discontinued.body.data.status).toBe('discontinued');
    const again = await t.request(`/api/catalog/entities/${entity.id}/publish`, { method: 'POST', apiKey: admin });
    expect(again.body.data).toMatchObject({ status: 'active', publishedAt });
    const types = (await eventsOf(t, entity.id)).map((e) => `${e.type}:${(e.payload.changes ?? []).join(',')}:${e.payload.entity.status}`);
    expect(types).toEqual([
      'catalog.create::draft',
      'catalog.update:status:active',
      'catalog.update:status:archived',
      'catalog.update:status:discontinued',
      'catalog.update:status:active',
    ]);
  });

  it('404 for an unknown entity, 403 for the storefront key', async () => {
    expect((await t.request('/api/catalog/entities/2b1f3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d/archive', { method: 'POST', apiKey: admin })).status).toBe(404);
    const entity = await createEntity(t, admin);
    expect((await t.request(`/api/catalog/entities/${entity.id}/publish`, { method: 'POST', apiKey: storefront })).status).toBe(403);
  });
});

describe('delete', () => {
  it('deletes with its parts, records catalog.delete, then 404', async () => {
    const entity = await createEntity(t, admin);
    await t.request(`/api/catalog/entities/${entity.id}/variants/quick`, { apiKey: admin, body: { options: { size: 'M' } } });
    await t.request(`/api/catalog/entities/${entity.id}/attributes/en`, { method: 'PUT', apiKey: admin, body: { title: 'Gone soon' } });
    const res = await t.request(`/api/catalog/entities/${entity.id}`, { method: 'DELETE', apiKey: admin });
    expect(res.status).toBe(200);
    expect(res.body.data.id).toBe(entity.id);
    expect((await t.request(`/api/catalog/entities/${entity.id}`, { apiKey: admin })).status).toBe(404);
    expect((await t.request(`/api/catalog/entities/${entity.id}`, { method: 'DELETE', apiKey: admin })).status).toBe(404);
    expect(await t.app.db.catalogVariant.count({ where: { entityId: entity.id } })).toBe(0);
    expect((await eventsOf(t, entity.id)).at(-1)?.type).toBe('catalog.delete');
  });

  it('needs catalog:delete (staff lacks it)', async () => {
    const entity = await createEntity(t, admin);
    const staff = await t.signIn('staff');
    expect((await t.request(`/api/catalog/entities/${entity.id}`, { method: 'DELETE', bearer: staff.token })).status).toBe(403);
    expect((await t.request(`/api/catalog/entities/${entity.id}`, { method: 'DELETE' })).status).toBe(401);
  });
});

describe('tenancy', () => {
  it("never shows or touches another organization's entities", async () => {
    const other = await t.app.services.organizations.create({ slug: uniqueSlug('org'), name: 'Other store' });
    const otherKey = await t.apiKey('admin', { organizationId: other.id });
    const mine = await createEntity(t, admin, { status: 'active' });
    const theirs = await createEntity(t, otherKey, { status: 'active', slug: mine.slug });
    expect(theirs.slug).toBe(mine.slug);
    expect((await t.request(`/api/catalog/entities/${mine.id}`, { apiKey: otherKey })).status).toBe(404);
    expect((await t.request(`/api/catalog/entities/${mine.slug}`, { apiKey: otherKey })).body.data.id).toBe(theirs.id);
    expect((await t.request(`/api/catalog/entities/${mine.id}`, { method: 'PATCH', apiKey: otherKey, body: { slug: 'hijack' } })).status).toBe(404);
    expect((await t.request(`/api/catalog/entities/${mine.id}`, { method: 'DELETE', apiKey: otherKey })).status).toBe(404);
    const list = await t.request('/api/catalog/entities?limit=100', { apiKey: otherKey });
    expect(list.body.data.map((e: any) => e.id)).toEqual([theirs.id]);
  });
});

describe('GraphQL', () => {
  it('serves the same operations', async () => {
    const slug = uniqueSlug('gql');
    const created = await t.graphql(
      `mutation($slug: String!) { catalogEntityCreate(type: "product", slug: $slug, status: active, customFields: {}) { id slug status customFields { fieldName } } }`,
      { slug },
      { apiKey: admin },
    );
    expect(created.body.errors).toBeUndefined();
    const id = created.body.data!.catalogEntityCreate.id;
    const read = await t.graphql(`query($s: String!) { catalogEntity(idOrSlug: $s) { id variants { sku } attributes { locale } } }`, { s: slug }, { apiKey: storefront });
    // Over GraphQL the selection is the include (there is no include argument).
    expect(read.body.data).toEqual({ catalogEntity: { id, variants: [], attributes: [] } });
    const list = await t.graphql(`{ catalogEntities(limit: 5, sort: "createdAt:desc") { data { id } meta { pagination { limit total } } } }`, {}, { apiKey: admin });
    expect(list.body.data!.catalogEntities.meta.pagination.limit).toBe(5);
    const denied = await t.graphql(`mutation($id: UUID!) { catalogEntityDelete(id: $id) { id } }`, { id }, { apiKey: storefront });
    expect(denied.status).toBe(200);
    expect(denied.body.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
  });
});
