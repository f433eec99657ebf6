// Small helpers shared by the catalog tests: they call the API the way clients do.
import { expect } from 'vitest';
import type { TestApp } from '../support/app.js';

let counter = 0;
export function uniqueSlug(prefix = 'item'): string {
  counter += 1;
  return `${prefix}-${process.pid}-${counter}-${Math.random().toString(36).slice(2, 7)}`;
}

export async function createEntity(t: TestApp, apiKey: string, body: Record<string, unknown> = {}): Promise<any> {
  const res = await t.request('/api/catalog/entities', { apiKey, body: { type: 'product', slug: uniqueSlug(), ...body } });
  expect(res.status, res.text).toBe(201);
  return res.body.data;
}

export async function createCategory(t: TestApp, apiKey: string, body: Record<string, unknown> = {}): Promise<any> {
  const res = await t.request('/api/catalog/categories', { apiKey, body: { name: 'Category', slug: uniqueSlug('cat'), ...body } });
  expect(res.status, res.text).toBe(201);
  return res.body.data;
}

export async function createBrand(t: TestApp, apiKey: string, body: Record<string, unknown> = {}): Promise<any> {
  const res = await t.request('/api/catalog/brands', { apiKey, body: { name: 'Brand', slug: uniqueSlug('brand'), ...body } });
  expect(res.status, res.text).toBe(201);
  return res.body.data;
}

export async function defineField(t: TestApp, apiKey: string, body: Record<string, unknown>): Promise<any> {
  const res = await t.request('/api/admin/entity-field-definitions', { apiKey, body: { entityType: 'product', ...body } });
  expect(res.status, res.text).toBe(201);
  return res.body.data;
}

/** Catalog events recorded in the outbox for one entity, oldest first. */
export async function eventsOf(t: TestApp, entityId: string): Promise<Array<{ type: string; payload: any }>> {
  const rows = await t.app.db.domainEvent.findMany({ where: { type: { startsWith: 'catalog.' } }, orderBy: { createdAt: 'asc' } });
  return rows.filter((row) => (row.payload as any)?.entity?.id === entityId).map((row) => ({ type: row.type, payload: row.payload }));
}

/** Runs `fn` over `items` with at most `width` calls in flight. */
export async function inBatches<T, R>(items: T[], width: number, fn: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const out: R[] = [];
  for (let i = 0; i < items.length; i += width) {
    out.push(...(await Promise.all(items.slice(i, i + width).map((item, j) => fn(item, i + j)))));
  }
  return out;
}
