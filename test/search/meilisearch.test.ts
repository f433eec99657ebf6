// The Meilisearch engine (search.engine: 'meilisearch') against a local stub of its HTTP API
// (meili-stub.ts): the index settings and documents the adapter sends, jobs fed from the outbox
// keeping the index in step with catalog writes, organization scoping of every document and
// search, GET /api/search and /search/suggest answered from it in the same shape as PostgreSQL's,
// disjunctive facets, the search/reindex rebuild, and a failing server leaving the sync job to retry.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { createBrand, createCategory, createEntity, defineField, uniqueSlug } from '../catalog/helpers.js';
import { startMeiliStub, type MeiliStub } from './meili-stub.js';

const API_KEY = 'meili-master-key';
let stub: MeiliStub;
let t: TestApp;
let admin: string;
let storefront: string;
let organizationId: string;
let acme: any;
let shirts: any;
const e: Record<string, any> = {};

async function product(title: string, body: Record<string, unknown>, extra: { category?: any; brand?: any; type?: string; description?: string } = {}) {
  const entity = await createEntity(t, admin, { type: extra.type ?? 'product', status: 'active', ...body });
  const attrs = await t.request(`/api/catalog/entities/${entity.id}/attributes/en`, { method: 'PUT', apiKey: admin, body: { title, description: extra.description } });
  expect(attrs.status, attrs.text).toBe(200);
  if (extra.category) expect((await t.request(`/api/catalog/entities/${entity.id}/categories/${extra.category.id}`, { method: 'POST', apiKey: admin })).status).toBe(200);
  if (extra.brand) expect((await t.request(`/api/catalog/entities/${entity.id}/brands/${extra.brand.id}`, { method: 'POST', apiKey: admin })).status).toBe(200);
  return entity;
}

/** Dispatches pending events and runs the jobs they enqueued (the sync jobs). */
async function sync(apiKey = admin): Promise<void> {
  const run = await t.request('/api/jobs/run?limit=100', { apiKey });
  expect(run.status, run.text).toBe(200);
}

const docOf = (entityId: string, locale = 'en') => stub.documents().find((d) => d.id === `${entityId}_${locale}`);

async function titlesOf(query: string, apiKey = storefront): Promise<string[]> {
  const res = await t.request(`/api/search?${query}&include=attributes`, { apiKey });
  expect(res.status, res.text).toBe(200);
  return res.body.data.map((entity: any) => entity.attributes.find((a: any) => a.locale === 'en')?.title);
}

beforeAll(async () => {
  stub = await startMeiliStub({ apiKey: API_KEY });
  t = await startTestApp({ search: { engine: 'meilisearch', meilisearch: { host: stub.url, apiKey: API_KEY, indexUid: 'catalog' } } });
  admin = await t.apiKey('admin');
  storefront = await t.apiKey('storefront');
  await defineField(t, admin, { name: 'color', type: 'string', filterable: true });
  await defineField(t, admin, { name: 'size', type: 'string', filterable: true });
  await defineField(t, admin, { name: 'material', type: 'string' });
  shirts = await createCategory(t, admin, { name: 'Shirts', slug: 'shirts' });
  acme = await createBrand(t, admin, { name: 'Acme', slug: 'acme' });
  e.cotton = await product(
    'Blue Cotton Shirt',
    { customFields: { color: 'red', size: 'M', material: 'cotton' } },
    { category: shirts, brand: acme, description: 'Soft and light' },
  );
  e.linen = await product('Red Linen Shirt', { customFields: { color: 'blue', size: 'L' } }, { category: shirts });
  e.trousers = await product('Wool Trousers', { customFields: { color: 'red', size: 'L' } }, { brand: acme });
  e.draft = await product('Draft Shirt', { status: 'draft', customFields: { color: 'red' } });
  organizationId = (await t.app.db.catalogEntity.findUniqueOrThrow({ where: { id: e.cotton.id } })).organizationId;
  await sync();
}, 120_000);

afterAll(async () => {
  await t?.close();
  await stub?.close();
});

describe('Meilisearch adapter: what it sends', () => {
  it('configures the index once: filterable and sortable attributes, ranking with recency after relevance, with the API key', async () => {
    const settings = stub.requests.filter((r) => r.method === 'PATCH' && r.path === '/indexes/catalog/settings');
    expect(settings).toHaveLength(1);
    expect(settings[0]!.authorization).toBe(`Bearer ${API_KEY}`);
    expect(settings[0]!.body.filterableAttributes).toEqual(expect.arrayContaining(['organizationId', 'locale', 'type', 'status', 'categoryIds', 'brandIds', 'attrs']));
    expect(settings[0]!.body.sortableAttributes).toContain('createdAt');
    expect(settings[0]!.body.searchableAttributes[0]).toBe('title');
    expect(settings[0]!.body.rankingRules.at(-1)).toBe('createdAt:desc');
    expect(stub.requests.every((r) => r.authorization === `Bearer ${API_KEY}`)).toBe(true);
  });

  it('pushes one document per entity and locale, carrying organizationId, the approved filterable values and memberships', async () => {
    const doc = docOf(e.cotton.id)!;
    expect(doc).toMatchObject({
      organizationId,
      entityId: e.cotton.id,
      locale: 'en',
      type: 'product',
      status: 'active',
      slug: e.cotton.slug,
      title: 'Blue Cotton Shirt',
      description: 'Soft and light',
      attrs: { color: ['red'], size: ['M'] }, // material is not filterable: not indexed
      categoryIds: [shirts.id],
      brandIds: [acme.id],
    });
    expect(typeof doc.createdAt).toBe('number');
    expect(stub.documents().every((d) => d.organizationId === organizationId)).toBe(true);
    const additions = stub.requests.filter((r) => r.method === 'POST' && r.path.startsWith('/indexes/catalog/documents?'));
    expect(additions.length).toBeGreaterThan(0);
    expect(additions.every((r) => r.body.every((d: any) => d.organizationId === organizationId))).toBe(true);
    // every deletion the adapter sends is confined to the organization
    const deletions = stub.requests.filter((r) => r.path === '/indexes/catalog/documents/delete');
    expect(deletions.length).toBeGreaterThan(0);
    expect(deletions.every((r) => r.body.filter[0] === `organizationId = "${organizationId}"`)).toBe(true);
  });

  it('keeps the index in step through outbox events: attribute, custom-field, status and membership changes, and deletes', async () => {
    const entity = await product('Green Canvas Bag', { customFields: { color: 'green' } });
    expect(docOf(entity.id)).toBeUndefined(); // nothing before the events are dispatched
    await sync();
    expect(docOf(entity.id)).toMatchObject({ title: 'Green Canvas Bag', attrs: { color: ['green'] } });

    await t.request(`/api/catalog/entities/${entity.id}/attributes/en`, { method: 'PUT', apiKey: admin, body: { title: 'Green Canvas Tote' } });
    const field = await t.request(`/api/catalog/entities/${entity.id}`, { method: 'PATCH', apiKey: admin, body: { customFields: { color: 'olive' } } });
    expect(field.status, field.text).toBe(200);
    await t.request(`/api/catalog/entities/${entity.id}/categories/${shirts.id}`, { method: 'POST', apiKey: admin });
    const archived = await t.request(`/api/catalog/entities/${entity.id}`, { method: 'PATCH', apiKey: admin, body: { status: 'archived' } });
    expect(archived.status, archived.text).toBe(200);
    await sync();
    expect(docOf(entity.id)).toMatchObject({ title: 'Green Canvas Tote', attrs: { color: ['olive'] }, categoryIds: [shirts.id], status: 'archived' });

    // a second locale becomes a second document; removing it removes that document
    await t.request(`/api/catalog/entities/${entity.id}/attributes/de`, { method: 'PUT', apiKey: admin, body: { title: 'Grüne Tasche' } });
    await sync();
    expect(docOf(entity.id, 'de')).toMatchObject({ title: 'Grüne Tasche', locale: 'de' });

    const deleted = await t.request(`/api/catalog/entities/${entity.id}`, { method: 'DELETE', apiKey: admin });
    expect(deleted.status, deleted.text).toBe(200);
    await sync();
    expect(docOf(entity.id)).toBeUndefined();
    expect(docOf(entity.id, 'de')).toBeUndefined();
  });
});

describe('Meilisearch adapter: GET /api/search and suggest answer from it', () => {
  it("answers hits, meta and facets in the PostgreSQL engine's shape, every search filtered by organization", async () => {
    const before = stub.requests.length;
    const res = await t.request('/api/search?q=shirt&facets=type,category,brand,color&attr.color=red&attr.color=blue&include=attributes', { apiKey: storefront });
    expect(res.status, res.text).toBe(200);
    expect(res.body.data.map((x: any) => x.id).sort()).toEqual([e.cotton.id, e.linen.id].sort());
    expect(res.body.data[0]).toHaveProperty('attributes');
    expect(res.body.meta).toEqual({
      total: 2,
      page: 1,
      limit: 20,
      totalPages: 1,
      facets: {
        type: [{ value: 'product', label: null, count: 2 }],
        category: [{ value: 'shirts', label: 'Shirts', count: 2 }],
        brand: [{ value: 'acme', label: 'Acme', count: 1 }],
        color: [
          { value: 'blue', label: null, count: 1 },
          { value: 'red', label: null, count: 1 },
        ],
      },
    });
    const searches = stub.requests.slice(before).filter((r) => r.path === '/multi-search');
    expect(searches).toHaveLength(1); // hits and all facets in one round trip
    for (const query of searches[0]!.body.queries) {
      expect(query.filter).toContain(`organizationId = "${organizationId}"`);
      expect(query.filter).toContain('status IN ["active"]'); // a storefront key sees active entities only
    }
  });

  it('counts facets disjunctively: choosing color=red still shows how many are blue', async () => {
    const res = await t.request('/api/search?attr.color=red&facets=color,size', { apiKey: storefront });
    expect(res.status, res.text).toBe(200);
    expect(res.body.data.map((x: any) => x.id)).toEqual([e.trousers.id, e.cotton.id]); // newest first without q
    expect(res.body.meta.facets.color).toEqual([
      { value: 'red', label: null, count: 2 },
      { value: 'blue', label: null, count: 1 },
    ]);
    expect(res.body.meta.facets.size).toEqual([
      { value: 'L', label: null, count: 1 },
      { value: 'M', label: null, count: 1 },
    ]);
  });

  it('applies the same rules before asking the engine: 422 for unknown attributes, unpublished statuses need the permission, pages and clamping', async () => {
    const bad = await t.request('/api/search?attr.material=cotton', { apiKey: storefront });
    expect(bad.status).toBe(422);
    expect(bad.body.error.details[0].message).toContain('filterable: color, size');
    expect((await t.request('/api/search?status=draft', { apiKey: storefront })).status).toBe(403);
    expect(await titlesOf('status=draft', admin)).toEqual(['Draft Shirt']);
    const page = await t.request('/api/search?q=shirt&limit=1&page=2', { apiKey: storefront });
    expect(page.body.meta).toMatchObject({ total: 2, page: 2, limit: 1, totalPages: 2 });
    expect(page.body.data).toHaveLength(1);
    expect((await t.request('/api/search?q=shirt&limit=500', { apiKey: storefront })).body.meta.limit).toBe(100);
    expect(await titlesOf('category=no-such-category')).toEqual([]);
  });

  it('answers GraphQL search with typed facets and suggestions, titles and SKUs', async () => {
    const sku = uniqueSlug('TEE').toUpperCase();
    expect((await t.request(`/api/catalog/entities/${e.cotton.id}/variants`, { apiKey: admin, body: { sku } })).status).toBe(201);
    await sync();
    expect(docOf(e.cotton.id)!.skus).toEqual([sku]);

    const res = await t.graphql(
      `query ($sku: String!) { search(q: "shirt", attr: ["color=blue"], facets: "color") { data { id } meta { total } facets { name values { value count } } }
        searchSuggestions(prefix: "wool") { text kind entityId slug }
        bySku: searchSuggestions(prefix: $sku) { text kind } }`,
      { sku: sku.slice(0, 8) },
      { apiKey: storefront },
    );
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.search).toEqual({
      data: [{ id: e.linen.id }],
      meta: { total: 1 },
      facets: [
        {
          name: 'color',
          values: [
            { value: 'blue', count: 1 },
            { value: 'red', count: 1 },
          ],
        },
      ],
    });
    expect(res.body.data.searchSuggestions).toEqual([{ text: 'Wool Trousers', kind: 'title', entityId: e.trousers.id, slug: e.trousers.slug }]);
    expect(res.body.data.bySku).toEqual([
      { text: sku, kind: 'sku' },
      { text: 'Blue Cotton Shirt', kind: 'title' },
    ]);
    const suggest = stub.requests.filter((r) => r.path === '/indexes/catalog/search').at(-1)!;
    expect(suggest.body.filter).toEqual(expect.arrayContaining([`organizationId = "${organizationId}"`, 'status = "active"']));
  });

  it('costs the same SQL statements for a page of 1 and of 2 hits (the engine finds, one statement loads the page)', async () => {
    // The fewest of three calls: the API-key cache (5 s) and its last-used touch add a statement now and then.
    const count = async (limit: number) => {
      const seen: number[] = [];
      for (let i = 0; i < 3; i += 1) {
        const before = t.statements();
        const res = await t.request(`/api/search?q=shirt&facets=category,brand,color&limit=${limit}&include=attributes`, { apiKey: admin });
        expect(res.body.data).toHaveLength(limit);
        seen.push(t.statements() - before);
      }
      return Math.min(...seen);
    };
    expect(await count(2)).toBe(await count(1));
  });

  it('another organization finds none of these documents', async () => {
    const other = await t.app.services.organizations.create({ slug: uniqueSlug('org'), name: 'Other store' });
    const otherKey = await t.apiKey('admin', { organizationId: other.id });
    const res = await t.request('/api/search?q=shirt', { apiKey: otherKey });
    expect(res.status, res.text).toBe(200);
    expect(res.body.data).toEqual([]);
    expect(res.body.meta.total).toBe(0);
    expect((await t.request('/api/search/suggest?prefix=shi', { apiKey: otherKey })).body.data).toEqual([]);
    const last = stub.requests.filter((r) => r.path === '/multi-search').at(-1)!;
    expect(last.body.queries[0].filter[0]).toBe(`organizationId = "${other.id}"`);
  });
});

describe('Meilisearch adapter: rebuild and failures', () => {
  it('search/reindex pushes every entity again and drops copies of entities that are gone', async () => {
    const index = stub.indexes.get('catalog')!;
    for (const doc of stub.documents()) if (doc.organizationId === organizationId) index.docs.delete(doc.id);
    // a copy whose entity no longer exists (its delete event was lost)
    index.docs.set('00000000-0000-4000-8000-000000000000_en', {
      ...docOf(e.cotton.id),
      id: '00000000-0000-4000-8000-000000000000_en',
      entityId: '00000000-0000-4000-8000-000000000000',
      organizationId,
      syncedAt: 1,
    });
    // another organization's copy is none of this rebuild's business
    index.docs.set('00000000-0000-4000-8000-000000000001_en', {
      id: '00000000-0000-4000-8000-000000000001_en',
      organizationId: '00000000-0000-4000-8000-0000000000ff',
      entityId: 'x',
      syncedAt: 1,
    });
    await t.app.services.jobs.enqueue({ task: 'search/reindex', organizationId, input: {} });
    await sync();
    const ids = stub
      .documents()
      .filter((d) => d.organizationId === organizationId)
      .map((d) => d.entityId);
    expect(ids).toEqual(expect.arrayContaining([e.cotton.id, e.linen.id, e.trousers.id, e.draft.id]));
    expect(ids).not.toContain('00000000-0000-4000-8000-000000000000');
    expect(index.docs.has('00000000-0000-4000-8000-000000000001_en')).toBe(true);
    expect(await titlesOf('q=cotton')).toEqual(['Blue Cotton Shirt']);
  });

  it('a sync job that cannot reach the server fails and is retried; the next run brings the index up to date', async () => {
    await t.request(`/api/catalog/entities/${e.linen.id}/attributes/en`, { method: 'PUT', apiKey: admin, body: { title: 'Red Linen Shirt II' } });
    stub.failing = true;
    try {
      await sync();
      // shoppers get a 503 with the envelope while the engine is down, not a 500
      for (const path of ['/api/search?q=shirt', '/api/search/suggest?prefix=shi']) {
        const down = await t.request(path, { apiKey: storefront });
        expect(down.status, down.text).toBe(503);
        expect(down.body.error.code).toBe('SERVICE_UNAVAILABLE');
      }
    } finally {
      stub.failing = false;
    }
    const job = await t.app.db.job.findFirstOrThrow({ where: { taskSlug: 'search/sync', organizationId }, orderBy: { createdAt: 'desc' } });
    expect(job).toMatchObject({ status: 'pending', attempts: 1 });
    expect(job.error).toContain('stub is failing');
    expect(docOf(e.linen.id)!.title).toBe('Red Linen Shirt');
    await t.app.db.job.update({ where: { id: job.id }, data: { waitUntil: new Date(Date.now() - 1000) } });
    await sync();
    expect((await t.app.db.job.findUniqueOrThrow({ where: { id: job.id } })).status).toBe('succeeded');
    expect(docOf(e.linen.id)!.title).toBe('Red Linen Shirt II');
  });
});

describe('Meilisearch adapter: field definitions', () => {
  it('a field becoming filterable rebuilds the index, so its values become filters and facets', async () => {
    const definition = (await t.request('/api/admin/entity-field-definitions?entityType=product', { apiKey: admin })).body.data.find((d: any) => d.name === 'material');
    const res = await t.request(`/api/admin/entity-field-definitions/${definition.id}`, { method: 'PATCH', apiKey: admin, body: { filterable: true } });
    expect(res.status, res.text).toBe(200);
    expect(await t.app.db.job.count({ where: { taskSlug: 'search/reindex', organizationId, status: 'pending' } })).toBe(1);
    await sync();
    expect(docOf(e.cotton.id)!.attrs).toEqual({ color: ['red'], size: ['M'], material: ['cotton'] });
    expect(await titlesOf('attr.material=cotton')).toEqual(['Blue Cotton Shirt']);
  });
});
