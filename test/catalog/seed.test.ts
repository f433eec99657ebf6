import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { seed } from '../../src/seed.js';

let t: TestApp;

beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t?.close());

describe('commerce seed', () => {
  it('gives a browsable demo catalog, and a second run changes nothing', async () => {
    await seed(t.app);
    const counts = async () => ({
      entities: await t.app.db.catalogEntity.count(),
      variants: await t.app.db.catalogVariant.count(),
      categories: await t.app.db.catalogCategory.count(),
      brands: await t.app.db.catalogBrand.count(),
      events: await t.app.db.domainEvent.count(),
    });
    const first = await counts();
    expect(first.entities).toBe(12);
    expect(first.categories).toBe(7);
    expect(first.brands).toBe(3);
    await seed(t.app);
    expect(await counts()).toEqual(first);

    const storefront = await t.apiKey('storefront');
    const list = await t.request('/api/catalog/entities?include=attributes,variants,categories,brands,customFields&sort=slug:asc', { apiKey: storefront });
    expect(list.status).toBe(200);
    expect(list.body.meta.pagination.total).toBe(12);
    for (const entity of list.body.data) {
      expect(entity.status).toBe('active');
      expect(entity.attributes[0].title).toBeTruthy();
      expect(entity.variants.length).toBeGreaterThan(0);
      expect(entity.categories).toHaveLength(1);
      expect(entity.brands).toHaveLength(1);
      expect(entity.customFields.map((f: any) => f.fieldName)).toContain('material');
    }
    const tee = await t.request('/api/catalog/entities/classic-crew-tee?include=variants', { apiKey: storefront });
    expect(tee.body.data.variants).toHaveLength(12);
    const tshirts = await t.request('/api/catalog/entities?category=t-shirts', { apiKey: storefront });
    expect(tshirts.body.meta.pagination.total).toBe(3);
  });
});
