// GET /search and /search/suggest (and their GraphQL fields) on the built-in PostgreSQL engine.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { createBrand, createCategory, createEntity, defineField, uniqueSlug } from '../catalog/helpers.js';

let t: TestApp;
let admin: string;
let storefront: string;
let shirts: any;
let pants: any;
let acme: any;
let zeta: any;
const e: Record<string, any> = {};

async function product(title: string, body: Record<string, unknown>, extra: { description?: string; category?: any; brand?: any; type?: string } = {}) {
  const entity = await createEntity(t, admin, { type: extra.type ?? 'product', status: 'active', ...body });
  const attrs = await t.request(`/api/catalog/entities/${entity.id}/attributes/en`, { method: 'PUT', apiKey: admin, body: { title, description: extra.description } });
  expect(attrs.status, attrs.text).toBe(200);
  if (extra.category) expect((await t.request(`/api/catalog/entities/${entity.id}/categories/${extra.category.id}`, { method: 'POST', apiKey: admin })).status).toBe(200);
  if (extra.brand) expect((await t.request(`/api/catalog/entities/${entity.id}/brands/${extra.brand.id}`, { method: 'POST', apiKey: admin })).status).toBe(200);
  return entity;
}

async function find(query: string, apiKey = storefront) {
  const res = await t.request(`/api/search?${query}`, { apiKey });
  return res;
}

async function titlesOf(query: string, apiKey = storefront): Promise<string[]> {
  const res = await find(`${query}${query ? '&' : ''}include=attributes`, apiKey);
  expect(res.status, res.text).toBe(200);
  return res.body.data.map((entity: any) => entity.attributes.find((a: any) => a.locale === 'en')?.title);
}

beforeAll(async () => {
  t = await startTestApp();
  admin = await t.apiKey('admin');
  storefront = await t.apiKey('storefront');
  await defineField(t, admin, { name: 'color', type: 'string', filterable: true });
  await defineField(t, admin, { name: 'size', type: 'string', filterable: true });
  await defineField(t, admin, { name: 'material', type: 'string' });
  shirts = await createCategory(t, admin, { name: 'Shirts', slug: 'shirts' });
  pants = await createCategory(t, admin, { name: 'Pants', slug: 'pants' });
  acme = await createBrand(t, admin, { name: 'Acme', slug: 'acme' });
  zeta = await createBrand(t, admin, { name: 'Zeta', slug: 'zeta' });
  e.cotton = await product(
    'Blue Cotton Shirt',
    { customFields: { color: 'red', size: 'M', material: 'cotton' } },
    { description: 'Soft and light', category: shirts, brand: acme },
  );
  e.linen = await product('Red Linen Shirt', { customFields: { color: 'blue', size: 'L' } }, { description: 'Breathes in summer', category: shirts, brand: zeta });
  e.trousers = await product('Wool Trousers', { customFields: { color: 'red', size: 'L' } }, { description: 'Warm; goes with any shirt', category: pants, brand: acme });
  e.draft = await product('Draft Shirt', { status: 'draft', customFields: { color: 'red' } });
  e.gift = await product('Shirt Gift Card', {}, { type: 'giftCard' });
}, 120_000);
afterAll(() => t?.close());

describe('full-text query', () => {
  it('matches the last word as a prefix and ranks title matches above description matches', async () => {
    const titles = await titlesOf('q=shir');
    expect(titles.slice(0, 3).sort()).toEqual(['Blue Cotton Shirt', 'Red Linen Shirt', 'Shirt Gift Card']);
    expect(titles[3]).toBe('Wool Trousers'); // "shirt" only in its description
    expect(titles).not.toContain('Draft Shirt');
  });

  it('understands web-search syntax: -word, "phrases" and or', async () => {
    expect((await titlesOf('q=shirt%20-linen')).sort()).toEqual(['Blue Cotton Shirt', 'Shirt Gift Card', 'Wool Trousers']);
    expect(await titlesOf(`q=${encodeURIComponent('"cotton shirt"')}`)).toEqual(['Blue Cotton Shirt']);
    expect((await titlesOf('q=linen%20or%20wool')).sort()).toEqual(['Red Linen Shirt', 'Wool Trousers']);
  });

  it('answers meta with total, page, limit and clamps limit to 100', async () => {
    const res = await find('q=shirt&limit=1000');
    expect(res.status).toBe(200);
    expect(res.body.meta).toMatchObject({ total: 4, page: 1, limit: 100, facets: {} });
    const page2 = await find('q=shirt&limit=3&page=2');
    expect(page2.body.data).toHaveLength(1);
    expect(page2.body.meta).toMatchObject({ total: 4, page: 2, limit: 3 });
    const past = await find('q=shirt&limit=3&page=9');
    expect(past.body.data).toEqual([]);
    expect(past.body.meta.total).toBe(4);
  });

  it('without q lists everything matching the filters, newest first', async () => {
    expect(await titlesOf('type=product')).toEqual(['Wool Trousers', 'Red Linen Shirt', 'Blue Cotton Shirt']);
  });
});

describe('filters', () => {
  it('ORs values of one attribute and ANDs different attributes', async () => {
    expect((await titlesOf('attr.color=red')).sort()).toEqual(['Blue Cotton Shirt', 'Wool Trousers']);
    expect((await titlesOf('attr.color=red&attr.color=blue')).sort()).toEqual(['Blue Cotton Shirt', 'Red Linen Shirt', 'Wool Trousers']);
    expect(await titlesOf('attr.color=red&attr.size=M')).toEqual(['Blue Cotton Shirt']);
    expect(await titlesOf('attr.color=green')).toEqual([]);
  });

  it('filters by type, category and brand (UUID or slug)', async () => {
    expect(await titlesOf('type=giftCard')).toEqual(['Shirt Gift Card']);
    expect((await titlesOf('category=shirts')).sort()).toEqual(['Blue Cotton Shirt', 'Red Linen Shirt']);
    expect((await titlesOf(`category=${shirts.id}`)).sort()).toEqual(['Blue Cotton Shirt', 'Red Linen Shirt']);
    expect(await titlesOf('q=shirt&brand=zeta')).toEqual(['Red Linen Shirt']);
    expect(await titlesOf('category=no-such-category')).toEqual([]);
  });

  it('refuses malformed attribute names with 422 naming the parameter', async () => {
    const res = await find(`attr.${encodeURIComponent('bad name!')}=x`);
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe('VALIDATION_FAILED');
    expect(res.body.error.details).toEqual([expect.objectContaining({ field: 'attr.bad name!' })]);
  });

  it('refuses well-formed names that are not filterable fields with 422 listing the filterable ones', async () => {
    for (const name of ['material', 'weight']) {
      const res = await find(`attr.${name}=cotton`);
      expect(res.status).toBe(422);
      expect(res.body.error.details[0].field).toBe(`attr.${name}`);
      expect(res.body.error.details[0].message).toContain('color, size');
    }
    const facet = await find('facets=material');
    expect(facet.status).toBe(422);
    expect(facet.body.error.details[0].field).toBe('facets');
  });

  it('indexes only filterable values: a non-filterable field is not searchable text either', async () => {
    expect(await titlesOf('q=cotton')).toEqual(['Blue Cotton Shirt']); // title, not the material value
    expect(await titlesOf('q=summer')).toEqual(['Red Linen Shirt']);
  });

  it('shows other statuses only with catalog:read:unpublished', async () => {
    const refused = await find('status=draft');
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('FORBIDDEN');
    expect(await titlesOf('status=draft', admin)).toEqual(['Draft Shirt']);
    expect(await titlesOf('q=draft')).toEqual([]);
  });
});

describe('facets', () => {
  it('counts over the whole filtered result, each facet without its own filter (disjunctive)', async () => {
    const res = await find('q=shirt&attr.color=red&limit=1&facets=color,size,category,brand,type');
    expect(res.status, res.text).toBe(200);
    expect(res.body.data).toHaveLength(1);
    const { facets, total } = res.body.meta;
    expect(total).toBe(2); // cotton (title) and trousers (description)
    // color ignores color=red: every shirt match by color
    expect(facets.color).toEqual([
      { value: 'red', label: null, count: 2 },
      { value: 'blue', label: null, count: 1 },
    ]);
    expect(facets.size).toEqual([
      { value: 'L', label: null, count: 1 },
      { value: 'M', label: null, count: 1 },
    ]);
    expect(facets.category).toEqual([
      { value: 'pants', label: 'Pants', count: 1 },
      { value: 'shirts', label: 'Shirts', count: 1 },
    ]);
    expect(facets.brand).toEqual([{ value: 'acme', label: 'Acme', count: 2 }]);
    expect(facets.type).toEqual([{ value: 'product', label: null, count: 2 }]);
  });

  it('answers a facets-only request with every visible entity counted', async () => {
    const res = await find('facets=type,status');
    expect(res.body.meta.facets.type).toEqual([
      { value: 'product', label: null, count: 3 },
      { value: 'giftCard', label: null, count: 1 },
    ]);
    expect(res.body.meta.facets.status).toEqual([{ value: 'active', label: null, count: 4 }]);
    const privileged = await find('facets=status', admin);
    expect(privileged.body.meta.facets.status).toEqual([
      { value: 'active', label: null, count: 4 },
      { value: 'draft', label: null, count: 1 },
    ]);
  });

  it('costs the same SQL statements for a page of 1 and of 4 hits', async () => {
    const count = async (limit: number) => {
      const before = t.statements();
      const res = await find(`q=shirt&attr.color=red&attr.color=blue&facets=color,size,category,brand&include=attributes,categories&limit=${limit}`);
      expect(res.status).toBe(200);
      expect(res.body.data).toHaveLength(limit);
      return t.statements() - before;
    };
    const one = await count(1);
    expect(await count(3)).toBe(one);
    expect(one).toBeLessThanOrEqual(7);
  });
});

describe('kept current in the writing transaction', () => {
  it('follows title, custom-field, membership, status and definition changes', async () => {
    const entity = await product('Canvas Tote', { customFields: { color: 'green' } }, { category: pants });
    expect(await titlesOf('q=tote')).toEqual(['Canvas Tote']);
    await t.request(`/api/catalog/entities/${entity.id}/attributes/en`, { method: 'PUT', apiKey: admin, body: { title: 'Canvas Bag' } });
    expect(await titlesOf('q=tote')).toEqual([]);
    expect(await titlesOf('q=bag')).toEqual(['Canvas Bag']);

    // a proposal changes nothing until approved
    const proposal = await t.request(`/api/catalog/entities/${entity.id}/custom-fields/color/proposals`, { apiKey: admin, body: { value: 'black' } });
    expect(proposal.status, proposal.text).toBe(201);
    expect(await titlesOf('attr.color=black')).toEqual([]);
    expect((await t.request(`/api/catalog/entities/${entity.id}/custom-fields/color/approve`, { method: 'POST', apiKey: admin })).status).toBe(200);
    expect(await titlesOf('attr.color=black')).toEqual(['Canvas Bag']);
    expect(await titlesOf('attr.color=green')).toEqual([]);

    expect(await titlesOf('q=bag&category=pants')).toEqual(['Canvas Bag']);
    await t.request(`/api/catalog/entities/${entity.id}/categories/${pants.id}`, { method: 'DELETE', apiKey: admin });
    expect(await titlesOf('q=bag&category=pants')).toEqual([]);

    await t.request(`/api/catalog/entities/${entity.id}/archive`, { method: 'POST', apiKey: admin });
    expect(await titlesOf('q=bag')).toEqual([]);
    await t.request(`/api/catalog/entities/${entity.id}/publish`, { method: 'POST', apiKey: admin });
    expect(await titlesOf('q=bag')).toEqual(['Canvas Bag']);

    await t.request(`/api/catalog/entities/${entity.id}`, { method: 'DELETE', apiKey: admin });
    expect(await titlesOf('q=bag')).toEqual([]);
    const rows = await t.app.db.$queryRaw<Array<{ n: bigint }>>`SELECT count(*) AS n FROM search_documents WHERE entity_id = ${entity.id}::uuid`;
    expect(Number(rows[0]!.n)).toBe(0);
  });

  it('follows a definition becoming filterable or not', async () => {
    const fabric = await defineField(t, admin, { name: 'fabric', type: 'string' });
    const entity = await product('Denim Jacket', { customFields: { fabric: 'selvedge' } });
    expect(await titlesOf('q=selvedge')).toEqual([]);
    expect((await find('attr.fabric=selvedge')).status).toBe(422);

    const on = await t.request(`/api/admin/entity-field-definitions/${fabric.id}`, { method: 'PATCH', apiKey: admin, body: { filterable: true } });
    expect(on.status, on.text).toBe(200);
    expect(await titlesOf('q=selvedge')).toEqual(['Denim Jacket']);
    expect(await titlesOf('attr.fabric=selvedge')).toEqual(['Denim Jacket']);

    await t.request(`/api/admin/entity-field-definitions/${fabric.id}`, { method: 'PATCH', apiKey: admin, body: { filterable: false } });
    expect(await titlesOf('q=selvedge')).toEqual([]);
    expect((await find('attr.fabric=selvedge')).status).toBe(422);
    expect(entity.id).toBeTruthy();
  });

  it('searches other locales with their own language rules', async () => {
    const entity = await product('Leather Boots', {});
    await t.request(`/api/catalog/entities/${entity.id}/attributes/de`, { method: 'PUT', apiKey: admin, body: { title: 'Lederstiefel', description: 'Wasserdichte Stiefel' } });
    const res = await find('q=stiefel&locale=de&include=attributes');
    expect(res.body.data.map((x: any) => x.id)).toEqual([entity.id]);
    expect(await titlesOf('q=stiefel')).toEqual([]);
  });
});

describe('tenancy and rebuild', () => {
  it("never finds another organization's entities", async () => {
    const other = await t.app.services.organizations.create({ slug: uniqueSlug('org'), name: 'Other store' });
    const otherKey = await t.apiKey('admin', { organizationId: other.id });
    expect((await find('q=shirt', otherKey)).body.meta.total).toBe(0);
    expect((await t.request('/api/search/suggest?prefix=shi', { apiKey: otherKey })).body.data).toEqual([]);
    // their filterable fields are theirs: ours are not filterable there
    expect((await find('attr.color=red', otherKey)).status).toBe(422);
  });

  it("rebuilds an organization's documents with the search/reindex job", async () => {
    const { organizationId } = (await t.app.db.catalogEntity.findUnique({ where: { id: e.cotton.id } }))!;
    await t.app.db.$executeRaw`DELETE FROM search_documents WHERE organization_id = ${organizationId}::uuid`;
    expect(await titlesOf('q=cotton')).toEqual([]);
    await t.app.services.jobs.enqueue({ task: 'search/reindex', organizationId, input: {} });
    const run = await t.request('/api/jobs/run?limit=50', { apiKey: admin });
    expect(run.status, run.text).toBe(200);
    expect(await titlesOf('q=cotton')).toEqual(['Blue Cotton Shirt']);
  });
});

describe('suggest', () => {
  it('suggests titles by prefix, word prefix and close spelling, and SKUs, distinct and best first', async () => {
    const sku = uniqueSlug('TEE').toUpperCase();
    const variant = await t.request(`/api/catalog/entities/${e.cotton.id}/variants`, { apiKey: admin, body: { sku } });
    expect(variant.status, variant.text).toBe(201);

    const res = await t.request('/api/search/suggest?prefix=shi', { apiKey: storefront });
    expect(res.status).toBe(200);
    expect(res.body.data[0]).toMatchObject({ text: 'Shirt Gift Card', kind: 'title', entityId: e.gift.id, slug: e.gift.slug });
    expect(res.body.data.map((s: any) => s.text)).toEqual(expect.arrayContaining(['Blue Cotton Shirt', 'Red Linen Shirt']));
    expect(res.body.data.map((s: any) => s.text)).not.toContain('Draft Shirt');

    const word = await t.request('/api/search/suggest?prefix=cott', { apiKey: storefront });
    expect(word.body.data.map((s: any) => s.text)).toEqual(['Blue Cotton Shirt']);
    const typo = await t.request('/api/search/suggest?prefix=trousrs', { apiKey: storefront });
    expect(typo.body.data.map((s: any) => s.text)).toEqual(['Wool Trousers']);
    const bySku = await t.request(`/api/search/suggest?prefix=${sku.slice(0, 8).toLowerCase()}`, { apiKey: storefront });
    expect(bySku.body.data).toEqual([expect.objectContaining({ text: sku, kind: 'sku', entityId: e.cotton.id })]);

    expect((await t.request('/api/search/suggest?prefix=shirt&type=giftCard', { apiKey: storefront })).body.data.map((s: any) => s.text)).toEqual(['Shirt Gift Card']);
    expect((await t.request('/api/search/suggest?prefix=s&limit=1', { apiKey: storefront })).body.data).toHaveLength(1);
    expect((await t.request('/api/search/suggest?prefix=%25', { apiKey: storefront })).body.data).toEqual([]);
  });
});

describe('GraphQL', () => {
  it('search returns CatalogEntity hits with typed facets, and searchSuggestions', async () => {
    const res = await t.graphql(
      `query ($attr: [String!]) { search(q: "shirt", attr: $attr, facets: "color,brand") { data { id slug } meta { total limit } facets { name values { value label count } } }
        searchSuggestions(prefix: "red") { text kind } }`,
      { attr: ['color=blue'] },
      { apiKey: storefront },
    );
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.search.data).toEqual([{ id: e.linen.id, slug: e.linen.slug }]);
    expect(res.body.data.search.meta).toEqual({ total: 1, limit: 20 });
    expect(res.body.data.search.facets).toEqual([
      {
        name: 'color',
        values: [
          { value: 'red', label: null, count: 2 },
          { value: 'blue', label: null, count: 1 },
        ],
      },
      { name: 'brand', values: [{ value: 'zeta', label: 'Zeta', count: 1 }] },
    ]);
    expect(res.body.data.searchSuggestions).toEqual([{ text: 'Red Linen Shirt', kind: 'title' }]);
  });

  it('needs a credential with catalog:read like the catalog', async () => {
    for (const path of ['/api/search?q=shirt', '/api/search/suggest?prefix=shi']) {
      const res = await t.request(path);
      expect(res.status).toBe(401);
      expect(res.body.error.code).toBe('UNAUTHORIZED');
    }
  });
});
