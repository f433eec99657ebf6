import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { auditOf, createEntity, createEntityWithVariants, ctxFor, expectGuarded, otherOrganization, unique } from '../inventory/helpers.js';

let t: TestApp;
let admin: string;

beforeAll(async () => {
  t = await startTestApp();
  admin = await t.apiKey('admin');
});
afterAll(() => t?.close());

async function post(path: string, body: Record<string, unknown>, apiKey = admin): Promise<any> {
  const res = await t.request(path, { apiKey, body });
  expect(res.status, res.text).toBe(201);
  return res.body.data;
}

async function resolve(query: string, apiKey = admin): Promise<{ status: number; body: any }> {
  const res = await t.request(`/api/pricing/resolve?${query}`, { apiKey });
  return { status: res.status, body: res.body };
}

describe('price modifiers', () => {
  it('creates, lists and updates modifiers, audited', async () => {
    const entity = await createEntity(t, admin);
    const percent = await post('/api/pricing/modifiers', {
      name: 'Spring sale',
      type: 'percentage',
      value: 12.5,
      entityId: entity.id,
      validFrom: '2020-01-01T00:00:00Z',
      validUntil: '2999-01-01T00:00:00Z',
    });
    expect(percent).toMatchObject({ type: 'percentage', value: 12.5, entityId: entity.id, minQuantity: 1, isActive: true, validFrom: '2020-01-01T00:00:00.000Z' });
    const fixed = await post('/api/pricing/modifiers', { name: 'Two off', type: 'fixed', value: 200, currency: 'USD', entityId: entity.id });
    expect(fixed).toMatchObject({ type: 'fixed', value: 200, currency: 'USD' });

    const list = await t.request(`/api/pricing/modifiers?entityId=${entity.id}`, { apiKey: admin });
    expect(list.body.data.map((m: any) => m.name)).toEqual(['Spring sale', 'Two off']);
    const updated = await t.request(`/api/pricing/modifiers/${fixed.id}`, { method: 'PATCH', apiKey: admin, body: { isActive: false, value: 250 } });
    expect(updated.status).toBe(200);
    expect(updated.body.data).toMatchObject({ isActive: false, value: 250 });
    const current = await t.request(`/api/pricing/modifiers?entityId=${entity.id}&current=true`, { apiKey: admin });
    expect(current.body.data.map((m: any) => m.id)).toEqual([percent.id]);
    const [entry] = await auditOf(t, admin, 'price_modifier', fixed.id);
    expect(entry).toMatchObject({ event: 'pricing.modifierUpdate', before: { isActive: true, value: 200 }, after: { isActive: false, value: 250 } });
  });

  it('refuses inconsistent modifiers with 422 and unknown scopes with 404', async () => {
    const cases: Array<Record<string, unknown>> = [
      { name: 'x', type: 'percentage', value: 0 },
      { name: 'x', type: 'percentage', value: 101 },
      { name: 'x', type: 'percentage', value: 10.125 },
      { name: 'x', type: 'fixed', value: 100 },
      { name: 'x', type: 'fixed', value: 1.5, currency: 'USD' },
      { name: 'x', type: 'discount', value: 10 },
      { name: 'x', type: 'percentage', value: 10, validFrom: '2030-01-01', validUntil: '2029-01-01' },
      { name: 'x', type: 'percentage', value: 10, minQuantity: 0 },
      { name: 'x', type: 'percentage', value: 10, validFrom: 'someday' },
    ];
    for (const body of cases) {
      const res = await t.request('/api/pricing/modifiers', { apiKey: admin, body });
      expect(res.status, JSON.stringify(body)).toBe(422);
    }
    const missing = '2b1f3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d';
    expect((await t.request('/api/pricing/modifiers', { apiKey: admin, body: { name: 'x', type: 'percentage', value: 5, entityId: missing } })).status).toBe(404);
    expect((await t.request('/api/pricing/modifiers', { apiKey: admin, body: { name: 'x', type: 'percentage', value: 5, categoryId: missing } })).status).toBe(404);
    expect((await t.request(`/api/pricing/modifiers/${missing}`, { method: 'PATCH', apiKey: admin, body: { isActive: false } })).status).toBe(404);
  });

  it('needs pricing:create / pricing:update, and keeps organizations apart', async () => {
    const modifier = await post('/api/pricing/modifiers', { name: 'All 5 %', type: 'percentage', value: 5, customerGroupId: unique('g') });
    await expectGuarded(t, '/api/pricing/modifiers', { body: { name: 'x', type: 'percentage', value: 5 } });
    await expectGuarded(t, `/api/pricing/modifiers/${modifier.id}`, { method: 'PATCH', body: { isActive: false } });
    await expectGuarded(t, '/api/pricing/modifiers');
    const other = await otherOrganization(t);
    expect((await t.request(`/api/pricing/modifiers/${modifier.id}`, { method: 'PATCH', apiKey: other.admin, body: { isActive: false } })).status).toBe(404);
    expect((await t.request('/api/pricing/modifiers', { apiKey: other.admin })).body.data).toEqual([]);
  });
});

describe('price resolver', () => {
  it("takes the variant's own price, else the entity's; the lowest open to the customer's groups", async () => {
    const { entity, variants } = await createEntityWithVariants(t, admin, ['S', 'M']);
    const [small, medium] = variants;
    await post('/api/pricing/prices', { entityId: entity.id, currency: 'USD', amount: 2000 });
    await post('/api/pricing/prices', { entityId: entity.id, variantId: small.id, currency: 'USD', amount: 2200 });
    await post('/api/pricing/prices', { entityId: entity.id, currency: 'USD', amount: 1500, customerGroupId: 'trade' });
    await post('/api/pricing/prices', { entityId: entity.id, currency: 'USD', amount: 2500, customerGroupId: 'gold' });

    expect((await resolve(`entityId=${entity.id}&currency=USD`)).body.data).toMatchObject({
      baseAmount: 2000,
      unitAmount: 2000,
      totalAmount: 2000,
      customerGroupId: null,
      modifierId: null,
    });
    expect((await resolve(`entityId=${entity.id}&variantId=${small.id}&currency=USD&quantity=3`)).body.data).toMatchObject({
      baseAmount: 2200,
      unitAmount: 2200,
      totalAmount: 6600,
      quantity: 3,
    });
    expect((await resolve(`entityId=${entity.id}&variantId=${medium.id}&currency=USD`)).body.data).toMatchObject({ baseAmount: 2000 });
    expect((await resolve(`entityId=${entity.id}&currency=USD&customerGroupIds=trade,gold`)).body.data).toMatchObject({ baseAmount: 1500, customerGroupId: 'trade' });
    expect((await resolve(`entityId=${entity.id}&currency=USD&customerGroupIds=gold`)).body.data).toMatchObject({ baseAmount: 2000, customerGroupId: null });
    const none = await resolve(`entityId=${entity.id}&currency=EUR`);
    expect(none.status).toBe(404);
    expect(none.body.error.code).toBe('NOT_FOUND');
  });

  it('applies the single best modifier in scope and window, rounding the discount half up', async () => {
    const entity = await createEntity(t, admin);
    const category = (await t.request('/api/catalog/categories', { apiKey: admin, body: { name: 'Sale', slug: unique('sale') } })).body.data;
    await t.request(`/api/catalog/entities/${entity.id}/categories/${category.id}`, { method: 'POST', apiKey: admin });
    await post('/api/pricing/prices', { entityId: entity.id, currency: 'USD', amount: 999 });

    // 12.5 % of 999 = 124.875 → 125 off → 874.
    const percent = await post('/api/pricing/modifiers', { name: '12.5 % off', type: 'percentage', value: 12.5, entityId: entity.id });
    expect((await resolve(`entityId=${entity.id}&currency=USD`)).body.data).toMatchObject({ unitAmount: 874, discountAmount: 125, modifierId: percent.id });
    // A bigger fixed discount for the category, from 3 units, in USD only.
    const bulk = await post('/api/pricing/modifiers', { name: '3 off from 3', type: 'fixed', value: 300, currency: 'USD', categoryId: category.id, minQuantity: 3 });
    expect((await resolve(`entityId=${entity.id}&currency=USD&quantity=2`)).body.data.modifierId).toBe(percent.id);
    expect((await resolve(`entityId=${entity.id}&currency=USD&quantity=3`)).body.data).toMatchObject({ unitAmount: 699, totalAmount: 2097, modifierId: bulk.id });
    // A group-only 50 % applies to that group only; an expired or future one never.
    await post('/api/pricing/modifiers', { name: 'staff', type: 'percentage', value: 50, customerGroupId: 'staff' });
    await post('/api/pricing/modifiers', { name: 'expired', type: 'percentage', value: 90, entityId: entity.id, validUntil: '2020-01-01T00:00:00Z' });
    await post('/api/pricing/modifiers', { name: 'future', type: 'percentage', value: 90, entityId: entity.id, validFrom: '2999-01-01T00:00:00Z' });
    expect((await resolve(`entityId=${entity.id}&currency=USD&customerGroupIds=staff`)).body.data.unitAmount).toBe(499);
    expect((await resolve(`entityId=${entity.id}&currency=USD`)).body.data.unitAmount).toBe(874);
    // A fixed discount larger than the price floors at 0.
    await post('/api/pricing/modifiers', { name: 'free', type: 'fixed', value: 5000, currency: 'USD', entityId: entity.id, minQuantity: 100 });
    expect((await resolve(`entityId=${entity.id}&currency=USD&quantity=100`)).body.data).toMatchObject({ unitAmount: 0, totalAmount: 0 });
  });

  it("resolves a batch for the checkout in a fixed number of statements, inside the caller's transaction", async () => {
    const entities = await Promise.all(Array.from({ length: 8 }, () => createEntity(t, admin)));
    for (const [i, entity] of entities.entries()) await post('/api/pricing/prices', { entityId: entity.id, currency: 'USD', amount: 100 * (i + 1) });
    const ctx = await ctxFor(t);
    const before = t.statements();
    const resolved = await t.app.db.$transaction((tx) =>
      t.app.services.pricing.resolvePrices(
        { ...ctx, db: tx },
        { currency: 'USD' },
        entities.map((e) => ({ entityId: e.id, quantity: 2 })),
      ),
    );
    const statements = t.statements() - before;
    expect(resolved.map((r) => Number(r!.totalAmount))).toEqual(entities.map((_, i) => 200 * (i + 1)));
    expect(statements).toBeLessThanOrEqual(2); // prices + modifiers + (memberships) in one, commit
  });

  it('validates input (422), needs a read permission, and keeps organizations apart', async () => {
    const entity = await createEntity(t, admin);
    await post('/api/pricing/prices', { entityId: entity.id, currency: 'USD', amount: 10 });
    for (const query of [
      `entityId=${entity.id}`,
      `entityId=${entity.id}&currency=XYZ`,
      `entityId=${entity.id}&currency=USD&quantity=0`,
      `entityId=${entity.id}&currency=USD&customerGroupIds=bad group`,
      'currency=USD',
    ]) {
      expect((await resolve(query)).status, query).toBe(422);
    }
    expect((await t.request(`/api/pricing/resolve?entityId=${entity.id}&currency=USD`)).status).toBe(401);
    const customer = await t.signIn('customer');
    expect((await t.request(`/api/pricing/resolve?entityId=${entity.id}&currency=USD`, { bearer: customer.token })).status).toBe(200);
    const other = await otherOrganization(t);
    expect((await resolve(`entityId=${entity.id}&currency=USD`, other.admin)).status).toBe(404);
  });
});
