import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { seed } from '../../src/seed.js';
import { DEMO_PRICES, demoAmount } from '../../src/modules/pricing/seed.js';

let t: TestApp;
let admin: string;

beforeAll(async () => {
  t = await startTestApp();
  admin = await t.apiKey('admin');
});
afterAll(() => t?.close());

describe('commerce seed', () => {
  it('gives the demo catalog a default warehouse, stock, USD prices and a default tax class, once', async () => {
    const first = await seed(t.app);
    expect(first.taxClasses).toBe(1);
    expect(first.prices).toBeGreaterThan(12);
    expect(first.stockLevels).toBeGreaterThan(12);

    const warehouses = await t.request('/api/inventory/warehouses', { apiKey: admin });
    expect(warehouses.body.data).toEqual([expect.objectContaining({ code: 'default', isDefault: true })]);
    const tee = (await t.request('/api/catalog/entities/classic-crew-tee?include=variants,pricing,inventory', { apiKey: admin })).body.data;
    expect(tee.pricing.find((p: any) => p.variantId === null)).toMatchObject({ currency: 'USD', amount: 2800 });
    const xl = tee.variants.find((v: any) => v.options.size === 'XL');
    expect(tee.pricing.find((p: any) => p.variantId === xl.id)).toMatchObject({ amount: 3100 });
    expect(tee.inventory).toMatchObject({ tracked: true, inStock: true, onHand: 20 * tee.variants.length });
    const resolved = await t.request(`/api/pricing/resolve?entityId=${tee.id}&variantId=${xl.id}&currency=USD&quantity=2`, { apiKey: admin });
    expect(resolved.body.data).toMatchObject({ unitAmount: 3100, totalAmount: 6200 });
    const classes = await t.request('/api/tax/classes', { apiKey: admin });
    expect(classes.body.data).toEqual([expect.objectContaining({ name: 'standard', rateBps: 800, isDefault: true })]);

    const second = await seed(t.app);
    expect(second).toMatchObject({ prices: 0, stockLevels: 0, taxClasses: 0 });
    const again = (await t.request(`/api/inventory/check?entityIds=${tee.id}`, { apiKey: admin })).body.data[0];
    expect(again.onHand).toBe(20 * tee.variants.length);
  });

  it('prices the demo in the store currency: switched to EUR, seeding again gives every demo product an EUR price', async () => {
    const patched = await t.request('/api/settings/general', { method: 'PATCH', apiKey: admin, body: { currency: 'EUR' } });
    expect(patched.status, patched.text).toBe(200);
    const third = await seed(t.app);
    expect(third.prices).toBeGreaterThan(12);
    const list = await t.request('/api/catalog/entities?include=pricing&limit=100', { apiKey: admin });
    const demo = list.body.data.filter((e: any) => e.slug in DEMO_PRICES);
    expect(demo).toHaveLength(Object.keys(DEMO_PRICES).length);
    for (const entity of demo) {
      expect(
        entity.pricing.find((p: any) => p.currency === 'EUR' && p.variantId === null),
        entity.slug,
      ).toMatchObject({ amount: DEMO_PRICES[entity.slug] });
    }
    expect((await seed(t.app)).prices).toBe(0);
  });

  it('keeps the face value in currencies without cents', () => {
    expect(demoAmount(2800, 'USD')).toBe(2800);
    expect(demoAmount(2800, 'JPY')).toBe(28);
    expect(demoAmount(2800, 'BHD')).toBe(28000);
  });
});
