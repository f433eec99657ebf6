// Shared set-up of the shipping tests: an organization of its own per test (zones and methods are
// per organization, and options list every method of it), zones and methods made over REST.
import { expect } from 'vitest';
import type { TestApp } from '../support/app.js';
import { openStore, unique, type Store } from '../orders/helpers.js';

export async function shippingStore(t: TestApp): Promise<Store> {
  const org = await t.app.services.organizations.create({
    slug: unique('ship')
      .toLowerCase()
      .replace(/[^a-z0-9-]/g, '-'),
    name: 'Shipping store',
  });
  return openStore(t, { organizationId: org.id });
}

export async function zone(store: Store, body: Record<string, unknown> = {}): Promise<any> {
  const res = await store.t.request('/api/shipping/zones', { apiKey: store.admin, body: { name: unique('zone'), countries: ['US'], ...body } });
  expect(res.status, res.text).toBe(201);
  return res.body.data;
}

export const flat = (amount: number, currency = 'USD') => ({ flat: { amounts: [{ currency, amount }] } });

export async function method(store: Store, zoneId: string, body: Record<string, unknown> = {}): Promise<any> {
  const code = unique('m')
    .toLowerCase()
    .replace(/[^a-z0-9-]/g, '-');
  const res = await store.t.request('/api/shipping/methods', { apiKey: store.admin, body: { zoneId, name: code, code, calculator: flat(500), ...body } });
  expect(res.status, res.text).toBe(201);
  return res.body.data;
}

/** A product with one variant of the given weight, priced and stocked; returns both ids. */
export async function heavyProduct(store: Store, weightGrams: number, price = 1000): Promise<{ entityId: string; variantId: string }> {
  const { t, admin } = store;
  const created = await t.request('/api/catalog/entities', { apiKey: admin, body: { type: 'product', slug: unique('heavy'), status: 'active' } });
  expect(created.status, created.text).toBe(201);
  const entityId = created.body.data.id;
  const variant = await t.request(`/api/catalog/entities/${entityId}/variants/quick`, { apiKey: admin, body: { options: { size: 'L' } } });
  expect(variant.status, variant.text).toBe(201);
  const variantId = variant.body.data.id;
  const patched = await t.request(`/api/catalog/variants/${variantId}`, { method: 'PATCH', apiKey: admin, body: { weightGrams, lengthMm: 300, widthMm: 200, heightMm: 100 } });
  expect(patched.status, patched.text).toBe(200);
  expect(patched.body.data).toMatchObject({ weightGrams, lengthMm: 300, widthMm: 200, heightMm: 100 });
  const priced = await t.request('/api/pricing/prices', { apiKey: admin, body: { entityId, variantId, currency: 'USD', amount: price } });
  expect(priced.status, priced.text).toBe(201);
  const stocked = await t.request('/api/inventory/adjust', { apiKey: admin, body: { entityId, variantId, warehouseId: store.warehouseId, type: 'restock', quantity: 100 } });
  expect(stocked.status, stocked.text).toBe(200);
  return { entityId, variantId };
}
