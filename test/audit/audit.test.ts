import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { defaultAuditEvent, operations } from '../../src/graphql/operation.js';
import { auditOf, createEntity, expectGuarded, otherOrganization, unique } from '../inventory/helpers.js';

let t: TestApp;
let admin: string;

beforeAll(async () => {
  t = await startTestApp();
  admin = await t.apiKey('admin');
});
afterAll(() => t?.close());

async function audit(query: string, apiKey = admin): Promise<any> {
  const res = await t.request(`/api/audit${query}`, { apiKey });
  expect(res.status, res.text).toBe(200);
  return res.body;
}

describe('what is audited', () => {
  it('settings changes, with before and after, the actor and the request id', async () => {
    const owner = await t.signIn('owner');
    await t.request('/api/settings/general', { method: 'PATCH', bearer: owner.token, body: { currency: 'EUR' } });
    const res = await t.request('/api/settings/general', { method: 'PATCH', bearer: owner.token, body: { currency: 'GBP', timezone: 'Europe/London' } });
    expect(res.status).toBe(200);
    const [entry] = await auditOf(t, admin, 'settings', 'general');
    expect(entry).toMatchObject({
      event: 'settings.update',
      entityType: 'settings',
      entityId: 'general',
      actorId: owner.userId,
      actorType: 'user',
      apiKeyId: null,
      before: { currency: 'EUR' },
      after: { currency: 'GBP', timezone: 'Europe/London' },
      requestId: res.headers.get('x-request-id'),
    });
    expect(Date.parse(entry.createdAt)).not.toBeNaN();
  });

  it('every privileged mutation of every module, through the route builder, with defaults', async () => {
    const entity = await createEntity(t, admin);
    const [created] = await auditOf(t, admin, 'catalog_entity', entity.id);
    expect(created).toMatchObject({ event: 'catalog.entityCreate', actorType: 'apiKey', apiKeyId: expect.any(String), after: { id: entity.id, slug: entity.slug } });
    await t.request(`/api/catalog/entities/${entity.id}/publish`, { method: 'POST', apiKey: admin });
    const [published] = await auditOf(t, admin, 'catalog_entity', entity.id);
    expect(published.event).toBe('catalog.entityPublish');

    // Every mutation that needs a permission is audited unless it opts out, and opting out is
    // rare enough to list here: jobsRun (the cron batch) commits each job on its own.
    // meOrderReorder fills a shopper's own new cart, like POST /carts (public): not a privileged change.
    // The point-of-sale plugin's posPinLogin and posOverrideCreate (when enabled) write their own
    // entries in transactions of their own: a wrong PIN must be counted, and a lock audited, although
    // the call fails (test/plugins/pos.test.ts checks their entries).
    const optedOut = new Set(['jobsRun', 'meOrderReorder', 'posPinLogin', 'posOverrideCreate']);
    const privileged = [...operations.values()].filter((op) => op.kind === 'mutation' && op.access !== 'public' && op.access !== 'authenticated');
    expect(privileged.length).toBeGreaterThan(20);
    for (const op of privileged) {
      if (optedOut.has(op.name)) expect(op.audit, op.name).toBeNull();
      else expect(op.audit, op.name).not.toBeNull();
    }
    // Reads are not.
    for (const op of operations.values()) if (op.kind === 'query') expect(op.audit, op.name).toBeNull();
  });

  it('names default events module.action', () => {
    expect(defaultAuditEvent('catalogEntityCreate', 'catalog')).toBe('catalog.entityCreate');
    expect(defaultAuditEvent('settingsUpdate', 'settings')).toBe('settings.update');
    expect(defaultAuditEvent('orderStatusUpdate', 'orders')).toBe('orders.statusUpdate');
    expect(defaultAuditEvent('refundCreate', 'orders')).toBe('orders.refundCreate');
  });

  it("writes nothing for a write that fails: the entry shares the write's transaction", async () => {
    const entity = await createEntity(t, admin);
    const before = (await audit('?entityType=catalog_entity&limit=100')).meta.pagination.total;
    const dup = await t.request('/api/catalog/entities', { apiKey: admin, body: { type: 'product', slug: entity.slug } });
    expect(dup.status).toBe(409);
    const bad = await t.request('/api/inventory/adjust', { apiKey: admin, body: { entityId: entity.id, type: 'sale', quantity: -5 } });
    expect(bad.status).toBe(409);
    expect((await audit('?entityType=catalog_entity&limit=100')).meta.pagination.total).toBe(before);
    expect(await auditOf(t, admin, 'inventory', entity.id)).toEqual([]);
  });

  it('never stores secrets: fields named like passwords, tokens or keys are redacted', async () => {
    const res = await t.request('/api/settings/integrations', {
      method: 'PATCH',
      apiKey: admin,
      body: { endpoint: 'https://example.com', password: 'hunter2', apiKey: 'sk_live_123', nested: { clientSecret: 's3cret' } },
    });
    expect(res.status).toBe(200);
    const [entry] = await auditOf(t, admin, 'settings', 'integrations');
    expect(entry.after).toEqual({ endpoint: 'https://example.com', password: '[redacted]', apiKey: '[redacted]', nested: { clientSecret: '[redacted]' } });
    expect(JSON.stringify(entry)).not.toContain('hunter2');
  });

  it('permission-relevant identity changes made outside operations: users created with a role, API keys minted', async () => {
    const staff = await t.signIn('staff');
    const [user] = await auditOf(t, admin, 'user', staff.userId);
    expect(user).toMatchObject({ event: 'users.create', actorType: 'system', after: { role: 'staff', email: staff.email } });
    await t.apiKey('storefront');
    const keys = await audit('?entityType=api_key&event=apiKeys.create');
    expect(keys.data[0]).toMatchObject({ event: 'apiKeys.create', after: { scope: 'storefront' } });
    expect(JSON.stringify(keys.data[0].after)).not.toMatch(/"key"/);
    await t.app.db.apikey.update({ where: { id: keys.data[0].entityId }, data: { enabled: false } });
    const [disabled] = await auditOf(t, admin, 'api_key', keys.data[0].entityId);
    expect(disabled).toMatchObject({ event: 'apiKeys.update', before: { enabled: true }, after: { enabled: false } });
  });
});

describe('GET /audit', () => {
  it('filters by entityType, entityId, event, actorId and time, newest first', async () => {
    const other = await otherOrganization(t);
    const staff = await t.signIn('staff', { organizationId: other.id });
    const a = await createEntity(t, other.admin);
    const b = await createEntity(t, other.admin);
    const byStaff = await t.request('/api/catalog/entities', { bearer: staff.token, body: { type: 'product', slug: unique('by-staff') } });
    expect(byStaff.status).toBe(201);

    const all = await audit('?entityType=catalog_entity', other.admin);
    expect(all.data.map((e: any) => e.entityId)).toEqual([byStaff.body.data.id, b.id, a.id]);
    expect((await audit(`?entityId=${a.id}`, other.admin)).data.map((e: any) => e.event)).toEqual(['catalog.entityCreate']);
    expect((await audit(`?actorId=${staff.userId}&entityType=catalog_entity`, other.admin)).data.map((e: any) => e.entityId)).toEqual([byStaff.body.data.id]);
    expect((await audit('?event=catalog.entityCreate', other.admin)).meta.pagination.total).toBe(3);
    expect((await audit('?event=settings.update', other.admin)).data).toEqual([]);

    const future = new Date(Date.now() + 60_000).toISOString();
    const past = new Date(Date.now() - 60 * 60_000).toISOString();
    expect((await audit(`?entityType=catalog_entity&from=${future}`, other.admin)).data).toEqual([]);
    expect((await audit(`?entityType=catalog_entity&from=${past}&to=${future}`, other.admin)).data).toHaveLength(3);
    expect((await audit(`?entityType=catalog_entity&to=${past}`, other.admin)).data).toEqual([]);
  });

  it('pages with limit default 50, capped at 100 (clamped above, 422 below 1)', async () => {
    const other = await otherOrganization(t);
    for (let i = 0; i < 6; i += 1) {
      await Promise.all(Array.from({ length: 10 }, (_, j) => t.request(`/api/settings/group-${i}-${j}`, { method: 'PATCH', apiKey: other.admin, body: { n: j } })));
    }
    const first = await audit('?event=settings.update', other.admin);
    expect(first.data).toHaveLength(50);
    expect(first.meta.pagination).toEqual({ page: 1, limit: 50, total: 60, totalPages: 2, hasNextPage: true, endCursor: expect.any(String) });
    expect((await audit('?event=settings.update&page=2', other.admin)).data).toHaveLength(10);
    expect((await audit('?event=settings.update&limit=100', other.admin)).data).toHaveLength(60);
    const capped = await audit('?event=settings.update&limit=1000', other.admin);
    expect(capped.data).toHaveLength(60);
    expect(capped.meta.pagination).toEqual({ page: 1, limit: 100, total: 60, totalPages: 1, hasNextPage: false, endCursor: expect.any(String) });
    for (const query of ['?limit=-1', '?limit=ten', '?limit=0', '?from=yesterday', '?from=2026-01-02T00:00:00Z&to=2026-01-01T00:00:00Z', '?page=0']) {
      const res = await t.request(`/api/audit${query}`, { apiKey: other.admin });
      expect(res.status, query).toBe(422);
      expect(res.body.error.code).toBe('VALIDATION_FAILED');
    }
  });

  it("GET /audit/:entityType/:entityId gives one entity's history", async () => {
    const entity = await createEntity(t, admin);
    await t.request(`/api/catalog/entities/${entity.id}`, { method: 'PATCH', apiKey: admin, body: { metadata: { a: 1 } } });
    await t.request(`/api/catalog/entities/${entity.id}/archive`, { method: 'POST', apiKey: admin });
    const history = await auditOf(t, admin, 'catalog_entity', entity.id);
    expect(history.map((e) => e.event)).toEqual(['catalog.entityArchive', 'catalog.entityUpdate', 'catalog.entityCreate']);
    const limited = await t.request(`/api/audit/catalog_entity/${entity.id}?limit=1`, { apiKey: admin });
    expect(limited.body.data).toHaveLength(1);
    expect(limited.body.meta.pagination.total).toBe(3);
    const capped = await t.request(`/api/audit/catalog_entity/${entity.id}?limit=500`, { apiKey: admin });
    expect(capped.status).toBe(200);
    expect(capped.body.meta.pagination.limit).toBe(100);
    expect((await t.request(`/api/audit/catalog_entity/${entity.id}?limit=-3`, { apiKey: admin })).status).toBe(422);
  });

  it('keeps organizations apart', async () => {
    const entity = await createEntity(t, admin);
    const other = await otherOrganization(t);
    expect((await audit(`?entityId=${entity.id}`, other.admin)).data).toEqual([]);
    expect((await t.request(`/api/audit/catalog_entity/${entity.id}`, { apiKey: other.admin })).body.data).toEqual([]);
  });

  it('needs audit:read: 401 anonymous, 403 for customers, staff and storefront keys', async () => {
    await expectGuarded(t, '/api/audit');
    await expectGuarded(t, '/api/audit/settings/general');
    expect((await t.request('/api/audit?limit=1000')).status).toBe(401);
    const staff = await t.signIn('staff');
    expect((await t.request('/api/audit', { bearer: staff.token })).status).toBe(403);
    expect((await t.request('/api/audit', { apiKey: await t.apiKey('storefront') })).status).toBe(403);
  });

  it('works over GraphQL', async () => {
    await t.request('/api/settings/branding', { method: 'PATCH', apiKey: admin, body: { storeName: 'Audited' } });
    const res = await t.graphql(
      `{ auditEntries(entityType: "settings", entityId: "branding", limit: 5) { data { event after actorType } meta { pagination { limit } } } }`,
      {},
      { apiKey: admin },
    );
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data!.auditEntries.data[0]).toEqual({ event: 'settings.update', after: { storeName: 'Audited' }, actorType: 'apiKey' });
    expect(res.body.data!.auditEntries.meta.pagination.limit).toBe(5);
  });
});
