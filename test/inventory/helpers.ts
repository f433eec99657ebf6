// Helpers shared by the inventory, pricing, promotions, tax and audit tests: they call the API the
// way clients do. `ctxFor` builds the ServiceContext a module (the checkout) passes to
// ctx.services, for the service-level tests of the resolvers.
import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import type { TestApp } from '../support/app.js';
import type { ServiceContext } from '../../src/db/transaction.js';

let counter = 0;
export function unique(prefix = 'x'): string {
  counter += 1;
  return `${prefix}-${process.pid}-${counter}-${Math.random().toString(36).slice(2, 7)}`;
}

export async function createEntity(t: TestApp, apiKey: string, body: Record<string, unknown> = {}): Promise<any> {
  const res = await t.request('/api/catalog/entities', { apiKey, body: { type: 'product', slug: unique('item'), status: 'active', ...body } });
  expect(res.status, res.text).toBe(201);
  return res.body.data;
}

/** An entity with a size axis (S, M, L): returns the entity and its variants. */
export async function createEntityWithVariants(t: TestApp, apiKey: string, sizes = ['S', 'M', 'L']): Promise<{ entity: any; variants: any[] }> {
  const entity = await createEntity(t, apiKey);
  const res = await t.request(`/api/catalog/entities/${entity.id}/variants/bulk`, { apiKey, body: { axes: { size: sizes } } });
  expect(res.status, res.text).toBe(201);
  return { entity, variants: res.body.data.created };
}

export async function createWarehouse(t: TestApp, apiKey: string, body: Record<string, unknown> = {}): Promise<any> {
  const res = await t.request('/api/inventory/warehouses', { apiKey, body: { name: 'Warehouse', code: unique('wh').slice(0, 32), ...body } });
  expect(res.status, res.text).toBe(201);
  return res.body.data;
}

export async function adjust(t: TestApp, apiKey: string, body: Record<string, unknown>): Promise<any> {
  const res = await t.request('/api/inventory/adjust', { apiKey, body: { type: 'restock', ...body } });
  expect(res.status, res.text).toBe(200);
  return res.body.data;
}

/** A second organization and an admin key for it (isolation tests). */
export async function otherOrganization(t: TestApp): Promise<{ id: string; admin: string }> {
  const org = await t.app.services.organizations.create({ slug: unique('org'), name: 'Other store' });
  return { id: org.id, admin: await t.apiKey('admin', { organizationId: org.id }) };
}

/** What a module passes to ctx.services: the organization, no HTTP request. */
export async function ctxFor(t: TestApp, organizationId?: string): Promise<ServiceContext> {
  const organization = organizationId ? (await t.app.services.organizations.byId(organizationId))! : await t.app.services.organizations.defaultOrganization();
  return { db: t.app.db, organization, actor: null, requestId: randomUUID() };
}

/** Audit entries of one entity, newest first, straight from the API. */
export async function auditOf(t: TestApp, apiKey: string, entityType: string, entityId: string): Promise<any[]> {
  const res = await t.request(`/api/audit/${entityType}/${entityId}`, { apiKey });
  expect(res.status, res.text).toBe(200);
  return res.body.data;
}

/** Outbox events of a type whose payload matches `pick`, oldest first. */
export async function eventsWhere(t: TestApp, type: string, pick: (payload: any) => boolean): Promise<any[]> {
  const rows = await t.app.db.domainEvent.findMany({ where: { type }, orderBy: { createdAt: 'asc' } });
  return rows.map((row) => row.payload as any).filter(pick);
}

/** 401 without credentials, 403 for a signed-in customer. */
export async function expectGuarded(t: TestApp, path: string, options: { method?: string; body?: unknown } = {}): Promise<void> {
  const anonymous = await t.request(path, options);
  expect(anonymous.status, `${path} anonymous: ${anonymous.text}`).toBe(401);
  const customer = await t.signIn('customer');
  const refused = await t.request(path, { ...options, bearer: customer.token });
  expect(refused.status, `${path} as customer: ${refused.text}`).toBe(403);
  expect(refused.body.error.code).toBe('FORBIDDEN');
}
