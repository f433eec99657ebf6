import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { auditOf, eventsWhere, expectGuarded, otherOrganization, unique } from '../inventory/helpers.js';

let t: TestApp;
let admin: string;

beforeAll(async () => {
  t = await startTestApp();
  admin = await t.apiKey('admin');
});
afterAll(() => t?.close());

const code = () =>
  unique('P')
    .replace(/[^A-Za-z0-9_-]/g, '')
    .slice(0, 40);

async function create(body: Record<string, unknown>, apiKey = admin): Promise<any> {
  const res = await t.request('/api/promotions', { apiKey, body: { code: code(), name: 'Promotion', type: 'percentage_off_order', value: 10, ...body } });
  expect(res.status, res.text).toBe(201);
  return res.body.data;
}

describe('create, list, update, deactivate', () => {
  it('creates (201) with the code upper-cased, emits promotions.create and audits it', async () => {
    const raw = `Summer-${Date.now()}`;
    const promotion = await create({
      code: raw,
      name: 'Summer',
      value: 15,
      validFrom: '2020-01-01T00:00:00Z',
      validUntil: '2999-12-31T00:00:00Z',
      usageLimit: 100,
      minSubtotal: 5000,
      currency: 'USD',
    });
    expect(promotion).toMatchObject({
      code: raw.toUpperCase(),
      type: 'percentage_off_order',
      value: 15,
      timesUsed: 0,
      usageLimit: 100,
      minSubtotal: 5000,
      isActive: true,
      validFrom: '2020-01-01T00:00:00.000Z',
    });
    const [event] = await eventsWhere(t, 'promotions.create', (p) => p.promotion.id === promotion.id);
    expect(event.promotion).toMatchObject({ code: raw.toUpperCase(), value: 15 });
    const [entry] = await auditOf(t, admin, 'promotion', promotion.id);
    expect(entry).toMatchObject({ event: 'promotions.create', after: { code: raw.toUpperCase() } });

    const dup = await t.request('/api/promotions', { apiKey: admin, body: { code: raw.toLowerCase(), name: 'Again', type: 'free_shipping', value: 0 } });
    expect(dup.status).toBe(409);
    expect(dup.body.error.code).toBe('CONFLICT');
  });

  it("refuses definitions that break their type's rules with 422", async () => {
    const cases: Array<Record<string, unknown>> = [
      { type: 'percentage_off_order', value: 0 },
      { type: 'percentage_off_order', value: 150 },
      { type: 'percentage_off_item', value: 10.001 },
      { type: 'fixed_amount_off_order', value: 500 },
      { type: 'fixed_amount_off_order', value: 5.5, currency: 'USD' },
      { type: 'free_shipping', value: 5 },
      { type: 'buy_x_get_y', value: 100 },
      { type: 'buy_x_get_y', value: 100, buyQuantity: 2 },
      { type: 'percentage_off_order', value: 10, buyQuantity: 2 },
      { type: 'percentage_off_order', value: 10, minSubtotal: 100 },
      { type: 'percentage_off_order', value: 10, validFrom: '2030-01-01', validUntil: '2029-01-01' },
      { type: 'percentage_off_order', value: 10, validFrom: 'tomorrow' },
      { type: 'bogus', value: 10 },
      { type: 'percentage_off_order', value: 10, code: 'has space' },
      { type: 'percentage_off_order', value: 10, usageLimit: 0 },
      { type: 'percentage_off_order', value: 10, name: '' },
    ];
    for (const body of cases) {
      const res = await t.request('/api/promotions', { apiKey: admin, body: { code: code(), name: 'x', ...body } });
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body.error.code).toBe('VALIDATION_FAILED');
    }
  });

  it('lists active promotions by default, and others by status', async () => {
    const other = await otherOrganization(t);
    const active = await create({ name: 'active' }, other.admin);
    const scheduled = await create({ name: 'scheduled', validFrom: '2999-01-01T00:00:00Z' }, other.admin);
    const expired = await create({ name: 'expired', validFrom: '2000-01-01T00:00:00Z', validUntil: '2001-01-01T00:00:00Z' }, other.admin);
    const inactive = await create({ name: 'inactive', isActive: false }, other.admin);
    const ids = async (query: string) => (await t.request(`/api/promotions${query}`, { apiKey: other.admin })).body.data.map((p: any) => p.id);
    expect(await ids('')).toEqual([active.id]);
    expect(await ids('?status=scheduled')).toEqual([scheduled.id]);
    expect(await ids('?status=expired')).toEqual([expired.id]);
    expect(await ids('?status=inactive')).toEqual([inactive.id]);
    expect((await ids('?status=all')).sort()).toEqual([active.id, scheduled.id, expired.id, inactive.id].sort());
    expect((await t.request('/api/promotions?status=sometimes', { apiKey: other.admin })).status).toBe(422);
    expect((await t.request(`/api/promotions/${active.id}`, { apiKey: other.admin })).body.data.id).toBe(active.id);
    // Another organization sees none of them.
    expect((await t.request('/api/promotions?status=all', { apiKey: admin })).body.data.map((p: any) => p.id)).not.toContain(active.id);
    expect((await t.request(`/api/promotions/${active.id}`, { apiKey: admin })).status).toBe(404);
  });

  it('updates (PATCH) with the rules re-checked, emits promotions.update naming the changes, audits before/after', async () => {
    const promotion = await create({ value: 10, usageLimit: 5 });
    const res = await t.request(`/api/promotions/${promotion.id}`, { method: 'PATCH', apiKey: admin, body: { value: 20, name: 'Bigger' } });
    expect(res.status, res.text).toBe(200);
    expect(res.body.data).toMatchObject({ value: 20, name: 'Bigger', usageLimit: 5, code: promotion.code });
    const [event] = await eventsWhere(t, 'promotions.update', (p) => p.promotion.id === promotion.id);
    expect(event.changes.sort()).toEqual(['name', 'value']);
    const [entry] = await auditOf(t, admin, 'promotion', promotion.id);
    expect(entry).toMatchObject({ event: 'promotions.update', before: { value: 10, name: 'Promotion' }, after: { value: 20, name: 'Bigger' } });

    expect((await t.request(`/api/promotions/${promotion.id}`, { method: 'PATCH', apiKey: admin, body: { type: 'fixed_amount_off_order' } })).status).toBe(422);
    expect(
      (await t.request(`/api/promotions/${promotion.id}`, { method: 'PATCH', apiKey: admin, body: { type: 'fixed_amount_off_order', value: 500, currency: 'USD' } })).status,
    ).toBe(200);
    const taken = await create({});
    expect((await t.request(`/api/promotions/${promotion.id}`, { method: 'PATCH', apiKey: admin, body: { code: taken.code.toLowerCase() } })).status).toBe(409);
    expect((await t.request('/api/promotions/2b1f3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d', { method: 'PATCH', apiKey: admin, body: { value: 5 } })).status).toBe(404);
    const other = await otherOrganization(t);
    expect((await t.request(`/api/promotions/${promotion.id}`, { method: 'PATCH', apiKey: other.admin, body: { value: 5 } })).status).toBe(404);
  });

  it('deactivates: the code stops applying; idempotent', async () => {
    const promotion = await create({});
    const res = await t.request(`/api/promotions/${promotion.id}/deactivate`, { method: 'POST', apiKey: admin });
    expect(res.status).toBe(200);
    expect(res.body.data.isActive).toBe(false);
    expect((await t.request(`/api/promotions/${promotion.id}/deactivate`, { method: 'POST', apiKey: admin })).status).toBe(200);
    const events = await eventsWhere(t, 'promotions.update', (p) => p.promotion.id === promotion.id);
    expect(events.map((e) => e.changes)).toEqual([['isActive']]);
    // Both calls are audited (newest first); the first is the one that changed something.
    const entries = await auditOf(t, admin, 'promotion', promotion.id);
    expect(entries.slice(0, 2).map((e) => [e.event, e.before.isActive, e.after.isActive])).toEqual([
      ['promotions.deactivate', false, false],
      ['promotions.deactivate', true, false],
    ]);
    const validation = await t.request('/api/promotions/validate', { apiKey: admin, body: { code: promotion.code, currency: 'USD', subtotal: 1000, lineItems: [] } });
    expect(validation.body.data).toMatchObject({ valid: false, reason: 'INACTIVE' });
    const other = await otherOrganization(t);
    expect((await t.request(`/api/promotions/${promotion.id}/deactivate`, { method: 'POST', apiKey: other.admin })).status).toBe(404);
  });

  it('needs promotions:create / promotions:update / a promotions read permission', async () => {
    const promotion = await create({});
    await expectGuarded(t, '/api/promotions', { body: { code: code(), name: 'x', type: 'free_shipping', value: 0 } });
    await expectGuarded(t, `/api/promotions/${promotion.id}`, { method: 'PATCH', body: { value: 5 } });
    await expectGuarded(t, `/api/promotions/${promotion.id}/deactivate`, { method: 'POST' });
    await expectGuarded(t, '/api/promotions');
    expect((await t.request('/api/promotions', { body: { code: 42 } })).status).toBe(401);
    const storefront = await t.apiKey('storefront');
    expect((await t.request('/api/promotions', { apiKey: storefront })).status).toBe(200);
    expect((await t.request('/api/promotions', { apiKey: storefront, body: { code: code(), name: 'x', type: 'free_shipping', value: 0 } })).status).toBe(403);
  });

  it('works over GraphQL', async () => {
    const c = code();
    const res = await t.graphql(`mutation($c: String!) { promotionCreate(code: $c, name: "GQL", type: free_shipping, value: 0) { code type value } }`, { c }, { apiKey: admin });
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data!.promotionCreate).toEqual({ code: c.toUpperCase(), type: 'free_shipping', value: 0 });
    const list = await t.graphql(`{ promotions(status: all, limit: 100) { data { code } } }`, {}, { apiKey: admin });
    expect(list.body.data!.promotions.data.map((p: any) => p.code)).toContain(c.toUpperCase());
  });
});
