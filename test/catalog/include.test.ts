import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { createBrand, createCategory, defineField, inBatches, uniqueSlug } from './helpers.js';

const ALL = 'attributes,variants,optionTypes,categories,brands,customFields';
const EMBEDS = ALL.split(',');

let t: TestApp;
let admin: string;
let storefront: string;
const type = `incl${Date.now().toString(36)}`;

beforeAll(async () => {
  t = await startTestApp();
  admin = await t.apiKey('admin');
  storefront = await t.apiKey('storefront');
  await defineField(t, admin, { entityType: type, name: 'material', type: 'string' });
  const category = await createCategory(t, admin);
  const brand = await createBrand(t, admin);
  // 110 active entities, each with something to embed under every include.
  await inBatches(
    Array.from({ length: 110 }, (_, i) => i),
    10,
    async (i) => {
      const created = await t.request('/api/catalog/entities', {
        apiKey: admin,
        body: { type, slug: uniqueSlug(`e${i}`), status: 'active', customFields: { material: `cotton ${i}` } },
      });
      const id = created.body.data.id;
      const steps = await Promise.all([
        t.request(`/api/catalog/entities/${id}/attributes/en`, { method: 'PUT', apiKey: admin, body: { title: `Item ${i}` } }),
        t.request(`/api/catalog/entities/${id}/variants/bulk`, { apiKey: admin, body: { axes: { size: ['S', 'M'], color: ['red', 'blue'] } } }),
      ]);
      const more = await Promise.all([
        t.request(`/api/catalog/entities/${id}/categories/${category.id}`, { method: 'POST', apiKey: admin }),
        t.request(`/api/catalog/entities/${id}/brands/${brand.id}`, { method: 'POST', apiKey: admin }),
      ]);
      for (const res of [created, ...steps, ...more]) expect(res.status, res.text).toBeLessThan(300);
    },
  );
}, 180_000);
afterAll(() => t?.close());

async function statementsFor(path: string): Promise<{ count: number; body: any }> {
  const before = t.statements();
  const res = await t.request(path, { apiKey: storefront });
  expect(res.status, res.text).toBe(200);
  return { count: t.statements() - before, body: res.body };
}

describe('include', () => {
  it('embeds only what was asked for', async () => {
    const res = await t.request(`/api/catalog/entities?type=${type}&limit=2&include=variants,attributes`, { apiKey: storefront });
    expect(res.status).toBe(200);
    const [entity] = res.body.data;
    expect(entity.variants).toHaveLength(4);
    expect(entity.variants[0].optionValues.map((o: any) => o.optionName)).toEqual(['size', 'color']);
    expect(entity.attributes).toEqual([expect.objectContaining({ locale: 'en', title: expect.stringMatching(/^Item \d+$/) })]);
    for (const name of ['optionTypes', 'categories', 'brands', 'customFields']) expect(entity[name]).toBeNull();
  });

  it('embeds every relation with all includes', async () => {
    const res = await t.request(`/api/catalog/entities/${(await t.request(`/api/catalog/entities?type=${type}&limit=1`, { apiKey: admin })).body.data[0].id}?include=${ALL}`, {
      apiKey: storefront,
    });
    const entity = res.body.data;
    expect(entity.optionTypes.map((o: any) => [o.name, o.values.map((v: any) => v.value)])).toEqual([
      ['size', ['S', 'M']],
      ['color', ['red', 'blue']],
    ]);
    expect(entity.categories).toHaveLength(1);
    expect(entity.brands).toHaveLength(1);
    expect(entity.customFields).toEqual([
      expect.objectContaining({ fieldName: 'material', locale: 'en', status: 'approved', source: 'platform', value: expect.stringMatching(/^cotton/) }),
    ]);
  });

  it('tolerates spaces and repeats, and refuses unknown or unavailable names with 422 listing the valid ones', async () => {
    const ok = await t.request(`/api/catalog/entities?type=${type}&limit=1&include=${encodeURIComponent(' brands , brands,')}`, { apiKey: storefront });
    expect(ok.status).toBe(200);
    expect(ok.body.data[0].brands).toHaveLength(1);
    for (const name of ['reviews', 'nonsense']) {
      const res = await t.request(`/api/catalog/entities?include=variants,${name}`, { apiKey: storefront });
      expect(res.status).toBe(422);
      expect(res.body.error.details[0].field).toBe('include');
      expect(res.body.error.details[0].message).toContain(name);
      expect(res.body.error.details[0].message).toContain('valid: attributes, availability, brands, categories, customFields, inventory, media, optionTypes, pricing, variants');
    }
    const one = await t.request(`/api/catalog/entities/anything?include=reviews`, { apiKey: storefront });
    expect(one.status).toBe(422);
  });

  it('costs the same number of SQL statements for 10 and for 100 entities with every include', async () => {
    await statementsFor(`/api/catalog/entities?type=${type}&limit=1`); // warm caches (organization, key scope)
    const ten = await statementsFor(`/api/catalog/entities?type=${type}&limit=10&include=${ALL}`);
    const hundred = await statementsFor(`/api/catalog/entities?type=${type}&limit=100&include=${ALL}`);
    expect(ten.body.data).toHaveLength(10);
    expect(hundred.body.data).toHaveLength(100);
    for (const entity of hundred.body.data) for (const name of EMBEDS) expect(entity[name].length, `${entity.slug} ${name}`).toBeGreaterThan(0);
    const bare = await statementsFor(`/api/catalog/entities?type=${type}&limit=100`);
    console.log(
      `catalog list statements: 10 entities + all includes = ${ten.count}, 100 entities + all includes = ${hundred.count}, 100 entities without includes = ${bare.count}`,
    );
    expect(hundred.count).toBe(ten.count);
  });

  it('works through GraphQL, where selecting a relation also embeds it', async () => {
    const res = await t.graphql(
      `query($type: String) { catalogEntities(type: $type, limit: 3) { data { slug variants { sku options } customFields { fieldName value } brands { id } } } }`,
      { type },
      { apiKey: storefront },
    );
    expect(res.body.errors).toBeUndefined();
    const [entity] = res.body.data!.catalogEntities.data;
    expect(entity.variants).toHaveLength(4);
    expect(entity.variants[0].options).toEqual({ size: 'S', color: 'red' });
    expect(entity.brands).toHaveLength(1); // GraphQL: the selection is the include
  });
});
