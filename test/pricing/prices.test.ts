import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { auditOf, createEntity, createEntityWithVariants, eventsWhere, expectGuarded, otherOrganization } from '../inventory/helpers.js';

let t: TestApp;
let admin: string;

beforeAll(async () => {
  t = await startTestApp();
  admin = await t.apiKey('admin');
});
afterAll(() => t?.close());

async function createPrice(body: Record<string, unknown>, apiKey = admin): Promise<any> {
  const res = await t.request('/api/pricing/prices', { apiKey, body });
  expect(res.status, res.text).toBe(201);
  return res.body.data;
}

describe('prices', () => {
  it('creates (201) entity, variant and customer-group prices, emits pricing.create and audits it', async () => {
    const { entity, variants } = await createEntityWithVariants(t, admin, ['S']);
    const base = await createPrice({ entityId: entity.id, currency: 'USD', amount: 2500 });
    expect(base).toMatchObject({ entityId: entity.id, variantId: null, currency: 'USD', amount: 2500, customerGroupId: null });
    const variant = await createPrice({ entityId: entity.id, variantId: variants[0].id, currency: 'USD', amount: 2700 });
    const wholesale = await createPrice({ entityId: entity.id, currency: 'USD', amount: 1800, customerGroupId: 'wholesale' });
    const euro = await createPrice({ entityId: entity.id, currency: 'EUR', amount: 2300 });
    expect(new Set([base.id, variant.id, wholesale.id, euro.id]).size).toBe(4);

    const events = await eventsWhere(t, 'pricing.create', (p) => p.price.entityId === entity.id);
    expect(events.map((e) => e.price.amount)).toEqual([2500, 2700, 1800, 2300]);
    const [entry] = await auditOf(t, admin, 'price', base.id);
    expect(entry).toMatchObject({ event: 'pricing.create', entityType: 'price', entityId: base.id, actorType: 'apiKey', after: { amount: 2500, currency: 'USD' } });
  });

  it('answers a second create of the same price with 409 naming it, also when creates race', async () => {
    const entity = await createEntity(t, admin);
    const first = await createPrice({ entityId: entity.id, currency: 'USD', amount: 100 });
    const again = await t.request('/api/pricing/prices', { apiKey: admin, body: { entityId: entity.id, currency: 'USD', amount: 200 } });
    expect(again.status).toBe(409);
    expect(again.body.error).toMatchObject({ code: 'CONFLICT', details: { priceId: first.id } });

    const other = await createEntity(t, admin);
    const raced = await Promise.all(
      Array.from({ length: 6 }, (_, i) => t.request('/api/pricing/prices', { apiKey: admin, body: { entityId: other.id, currency: 'GBP', amount: 100 + i } })),
    );
    expect(raced.filter((r) => r.status === 201)).toHaveLength(1);
    expect(raced.filter((r) => r.status === 409)).toHaveLength(5);
  });

  it('updates an amount (pricing.update with the previous one, audited before/after) and deletes', async () => {
    const entity = await createEntity(t, admin);
    const price = await createPrice({ entityId: entity.id, currency: 'USD', amount: 1000 });
    const res = await t.request(`/api/pricing/prices/${price.id}`, { method: 'PATCH', apiKey: admin, body: { amount: 1200 } });
    expect(res.status, res.text).toBe(200);
    expect(res.body.data.amount).toBe(1200);
    const [event] = await eventsWhere(t, 'pricing.update', (p) => p.price.id === price.id);
    expect(event).toMatchObject({ price: { amount: 1200 }, previous: { amount: 1000 } });
    const [entry] = await auditOf(t, admin, 'price', price.id);
    expect(entry).toMatchObject({ event: 'pricing.update', before: { amount: 1000 }, after: { amount: 1200 } });

    const deleted = await t.request(`/api/pricing/prices/${price.id}`, { method: 'DELETE', apiKey: admin });
    expect(deleted.status).toBe(200);
    expect((await t.request(`/api/pricing/prices/${price.id}`, { method: 'PATCH', apiKey: admin, body: { amount: 1 } })).status).toBe(404);
    expect((await t.request(`/api/pricing/prices/${price.id}`, { method: 'DELETE', apiKey: admin })).status).toBe(404);
    const events = await eventsWhere(t, 'pricing.update', (p) => p.price.id === price.id);
    expect(events.at(-1)).toMatchObject({ deleted: true });
    expect((await auditOf(t, admin, 'price', price.id))[0]).toMatchObject({ event: 'pricing.delete', before: { amount: 1200 }, after: null });
  });

  it('lists with filters', async () => {
    const { entity, variants } = await createEntityWithVariants(t, admin, ['S', 'M']);
    await createPrice({ entityId: entity.id, currency: 'USD', amount: 500 });
    await createPrice({ entityId: entity.id, variantId: variants[1].id, currency: 'USD', amount: 550 });
    await createPrice({ entityId: entity.id, currency: 'JPY', amount: 700 });
    await createPrice({ entityId: entity.id, currency: 'USD', amount: 450, customerGroupId: 'vip' });
    const all = await t.request(`/api/pricing/prices?entityId=${entity.id}`, { apiKey: admin });
    expect(all.status).toBe(200);
    expect(all.body.meta.pagination.total).toBe(4);
    const usd = await t.request(`/api/pricing/prices?entityId=${entity.id}&currency=USD`, { apiKey: admin });
    expect(usd.body.data.map((p: any) => p.amount)).toEqual([500, 550, 450]);
    const variant = await t.request(`/api/pricing/prices?variantId=${variants[1].id}`, { apiKey: admin });
    expect(variant.body.data.map((p: any) => p.amount)).toEqual([550]);
    const vip = await t.request(`/api/pricing/prices?entityId=${entity.id}&customerGroupId=vip`, { apiKey: admin });
    expect(vip.body.data.map((p: any) => p.amount)).toEqual([450]);
    const page = await t.request(`/api/pricing/prices?entityId=${entity.id}&limit=2&page=2`, { apiKey: admin });
    expect(page.body.data).toHaveLength(2);
    expect(page.body.meta.pagination).toEqual({ page: 2, limit: 2, total: 4, totalPages: 2, hasNextPage: false, endCursor: expect.any(String) });
  });

  it('refuses bad input with 422: fractions, negatives, unknown currencies', async () => {
    const entity = await createEntity(t, admin);
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ entityId: entity.id, currency: 'USD', amount: 10.5 }, 'amount'],
      [{ entityId: entity.id, currency: 'USD', amount: -1 }, 'amount'],
      [{ entityId: entity.id, currency: 'USD', amount: '12.5' }, 'amount'],
      [{ entityId: entity.id, currency: 'usd', amount: 1 }, 'currency'],
      [{ entityId: entity.id, currency: 'ABC', amount: 1 }, 'currency'],
      [{ entityId: entity.id, currency: 'USD', amount: 1, customerGroupId: 'has spaces' }, 'customerGroupId'],
      [{ entityId: 'nope', currency: 'USD', amount: 1 }, 'entityId'],
      [{ currency: 'USD', amount: 1 }, 'entityId'],
    ];
    for (const [body] of cases) {
      const res = await t.request('/api/pricing/prices', { apiKey: admin, body });
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body.error.code).toBe('VALIDATION_FAILED');
    }
    const price = await createPrice({ entityId: entity.id, currency: 'USD', amount: 1 });
    expect((await t.request(`/api/pricing/prices/${price.id}`, { method: 'PATCH', apiKey: admin, body: { amount: 0.5 } })).status).toBe(422);
    expect((await t.request('/api/pricing/prices?currency=dollars', { apiKey: admin })).status).toBe(422);
  });

  it('is 404 for an unknown entity or a variant of another entity', async () => {
    const entity = await createEntity(t, admin);
    const { variants } = await createEntityWithVariants(t, admin, ['S']);
    expect((await t.request('/api/pricing/prices', { apiKey: admin, body: { entityId: '2b1f3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d', currency: 'USD', amount: 1 } })).status).toBe(404);
    expect((await t.request('/api/pricing/prices', { apiKey: admin, body: { entityId: entity.id, variantId: variants[0].id, currency: 'USD', amount: 1 } })).status).toBe(404);
  });

  it('keeps organizations apart', async () => {
    const entity = await createEntity(t, admin);
    const price = await createPrice({ entityId: entity.id, currency: 'USD', amount: 900 });
    const other = await otherOrganization(t);
    expect((await t.request('/api/pricing/prices', { apiKey: other.admin, body: { entityId: entity.id, currency: 'USD', amount: 1 } })).status).toBe(404);
    expect((await t.request(`/api/pricing/prices/${price.id}`, { method: 'PATCH', apiKey: other.admin, body: { amount: 1 } })).status).toBe(404);
    expect((await t.request(`/api/pricing/prices/${price.id}`, { method: 'DELETE', apiKey: other.admin })).status).toBe(404);
    expect((await t.request(`/api/pricing/prices?entityId=${entity.id}`, { apiKey: other.admin })).body.data).toEqual([]);
    expect((await t.request(`/api/audit/price/${price.id}`, { apiKey: other.admin })).body.data).toEqual([]);
  });

  it('needs pricing:create to create, pricing:update to change and to list', async () => {
    const entity = await createEntity(t, admin);
    const price = await createPrice({ entityId: entity.id, currency: 'USD', amount: 1 });
    await expectGuarded(t, '/api/pricing/prices', { body: { entityId: entity.id, currency: 'CAD', amount: 1 } });
    await expectGuarded(t, `/api/pricing/prices/${price.id}`, { method: 'PATCH', body: { amount: 2 } });
    await expectGuarded(t, `/api/pricing/prices/${price.id}`, { method: 'DELETE' });
    await expectGuarded(t, '/api/pricing/prices');
    expect((await t.request('/api/pricing/prices', { body: { amount: 0.5 } })).status).toBe(401);
    const staff = await t.signIn('staff');
    expect((await t.request('/api/pricing/prices', { bearer: staff.token, body: { entityId: entity.id, currency: 'CAD', amount: 1 } })).status).toBe(403);
    // The raw lists hold customer-group (negotiated) prices: the spec's pricing:update, which a
    // storefront key (pricing:read) does not hold.
    const storefront = await t.apiKey('storefront');
    const listed = await t.request(`/api/pricing/prices?entityId=${entity.id}`, { apiKey: storefront });
    expect(listed.status).toBe(403);
    expect(listed.body.error.message).toContain('pricing:update');
    expect((await t.request('/api/pricing/modifiers', { apiKey: storefront })).status).toBe(403);
    expect((await t.request('/api/pricing/prices', { apiKey: storefront, body: { entityId: entity.id, currency: 'CAD', amount: 1 } })).status).toBe(403);
    expect((await t.request(`/api/pricing/prices?entityId=${entity.id}`, { apiKey: admin })).status).toBe(200);
  });

  it('works over GraphQL, and include=pricing embeds prices (group prices only for pricing:update holders)', async () => {
    const entity = await createEntity(t, admin);
    const res = await t.graphql(`mutation($id: UUID!) { priceCreate(entityId: $id, currency: "USD", amount: 4200) { id amount currency } }`, { id: entity.id }, { apiKey: admin });
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data!.priceCreate).toMatchObject({ amount: 4200, currency: 'USD' });
    await createPrice({ entityId: entity.id, currency: 'USD', amount: 3000, customerGroupId: 'trade' });

    const embedded = await t.request(`/api/catalog/entities/${entity.id}?include=pricing`, { apiKey: admin });
    expect(embedded.body.data.pricing.map((p: any) => [p.amount, p.customerGroupId])).toEqual([
      [4200, null],
      [3000, 'trade'],
    ]);
    const storefront = await t.apiKey('storefront');
    const asStorefront = await t.request(`/api/catalog/entities/${entity.id}?include=pricing`, { apiKey: storefront });
    expect(asStorefront.body.data.pricing.map((p: any) => [p.amount, p.customerGroupId])).toEqual([[4200, null]]);
    const customer = await t.signIn('customer');
    const asCustomer = await t.request(`/api/catalog/entities/${entity.id}?include=pricing`, { bearer: customer.token });
    expect(asCustomer.body.data.pricing.map((p: any) => p.amount)).toEqual([4200]);
    const gql = await t.graphql(`query($id: String!) { catalogEntity(idOrSlug: $id) { pricing { amount } } }`, { id: entity.id }, { apiKey: admin });
    expect(gql.body.data!.catalogEntity.pricing).toHaveLength(2);
  });
});
