import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { auditOf, createWarehouse, expectGuarded, otherOrganization, unique } from '../inventory/helpers.js';

let t: TestApp;
let admin: string;

beforeAll(async () => {
  t = await startTestApp();
  admin = await t.apiKey('admin');
});
afterAll(() => t?.close());

const slug = () =>
  unique('m')
    .toLowerCase()
    .replace(/[^a-z0-9-]/g, '-');
const FLAT = { flat: { amounts: [{ currency: 'USD', amount: 500 }] } };

async function zone(body: Record<string, unknown> = {}, apiKey = admin): Promise<any> {
  const res = await t.request('/api/shipping/zones', { apiKey, body: { name: unique('zone'), countries: ['US'], ...body } });
  expect(res.status, res.text).toBe(201);
  return res.body.data;
}

async function method(body: Record<string, unknown>, apiKey = admin): Promise<any> {
  const res = await t.request('/api/shipping/methods', { apiKey, body: { name: 'Standard', code: slug(), calculator: FLAT, ...body } });
  expect(res.status, res.text).toBe(201);
  return res.body.data;
}

describe('shipping zones', () => {
  it('creates, reads, updates, lists and deletes; audited', async () => {
    const other = await otherOrganization(t);
    const eu = await zone({ name: 'EU', countries: ['DE', 'FR'], postalCodes: ['10*'] }, other.admin);
    expect(eu).toMatchObject({ name: 'EU', countries: ['DE', 'FR'], regions: [], postalCodes: ['10*'] });
    const west = await zone({ name: 'US West', countries: ['US'], regions: ['US-CA', 'US-OR'] }, other.admin);
    expect((await t.request('/api/shipping/zones', { apiKey: other.admin })).body.data.map((z: any) => z.name)).toEqual(['EU', 'US West']);
    expect((await t.request(`/api/shipping/zones/${west.id}`, { apiKey: other.admin })).body.data).toMatchObject({ regions: ['US-CA', 'US-OR'] });

    const patched = await t.request(`/api/shipping/zones/${eu.id}`, { method: 'PATCH', apiKey: other.admin, body: { countries: ['DE', 'FR', 'AT'], postalCodes: null } });
    expect(patched.status, patched.text).toBe(200);
    expect(patched.body.data).toMatchObject({ countries: ['DE', 'FR', 'AT'], postalCodes: [] });
    expect((await auditOf(t, other.admin, 'shipping_zone', eu.id))[0]).toMatchObject({ event: 'shipping.zoneUpdate', before: { countries: ['DE', 'FR'] } });

    expect((await t.request(`/api/shipping/zones/${eu.id}`, { method: 'DELETE', apiKey: other.admin })).status).toBe(200);
    expect((await t.request(`/api/shipping/zones/${eu.id}`, { apiKey: other.admin })).status).toBe(404);
  });

  it('validates codes (422 naming the field), refuses duplicates (409) and deleting a zone with methods (409)', async () => {
    for (const [body, field] of [
      [{ name: 'x', countries: ['XX'] }, 'countries.0'],
      [{ name: 'x', countries: ['UK'] }, 'countries.0'],
      [{ name: 'x', countries: ['us'] }, 'countries.0'],
      [{ name: 'x', countries: [] }, 'countries'],
      [{ name: 'x', countries: ['US'], regions: ['CA'] }, 'regions.0'],
      [{ name: 'x', countries: ['US'], regions: ['DE-BE'] }, 'regions.0'],
      [{ name: 'x', countries: ['US'], postalCodes: ['9$'] }, 'postalCodes.0'],
    ] as const) {
      const res = await t.request('/api/shipping/zones', { apiKey: admin, body });
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(
        res.body.error.details.map((d: any) => d.field),
        JSON.stringify(body),
      ).toContain(field);
    }
    const taken = await zone();
    expect((await t.request('/api/shipping/zones', { apiKey: admin, body: { name: taken.name, countries: ['US'] } })).status).toBe(409);
    await method({ zoneId: taken.id });
    const refused = await t.request(`/api/shipping/zones/${taken.id}`, { method: 'DELETE', apiKey: admin });
    expect(refused.status).toBe(409);
    expect(refused.body.error.details).toEqual({ methods: 1 });
  });

  it('keeps organizations apart and needs shipping:manage to write', async () => {
    const mine = await zone();
    const other = await otherOrganization(t);
    expect((await t.request('/api/shipping/zones', { apiKey: other.admin })).body.data.map((z: any) => z.id)).not.toContain(mine.id);
    expect((await t.request(`/api/shipping/zones/${mine.id}`, { method: 'PATCH', apiKey: other.admin, body: { name: 'theirs' } })).status).toBe(404);
    await expectGuarded(t, '/api/shipping/zones', { body: { name: 'x', countries: ['US'] } });
    await expectGuarded(t, `/api/shipping/zones/${mine.id}`, { method: 'DELETE' });
    const staff = await t.signIn('staff');
    expect((await t.request('/api/shipping/zones', { bearer: staff.token })).status).toBe(200);
    expect((await t.request('/api/shipping/zones', { bearer: staff.token, body: { name: 'x', countries: ['US'] } })).status).toBe(403);
  });
});

describe('shipping methods', () => {
  it('stores each calculator kind and the eligibility rules', async () => {
    const z = await zone();
    const table = await method({
      zoneId: z.id,
      minDays: 2,
      maxDays: 5,
      maxWeightGrams: 30_000,
      minSubtotal: 100,
      customerGroupIds: ['wholesale'],
      calculator: { weightTable: { currency: 'USD', bands: [{ upTo: 1000, amount: 400 }, { upTo: 5000, amount: 900 }, { amount: 2000 }] } },
    });
    expect(table).toMatchObject({
      kind: 'delivery',
      isActive: true,
      minDays: 2,
      maxDays: 5,
      maxWeightGrams: 30_000,
      minSubtotal: 100,
      maxSubtotal: null,
      customerGroupIds: ['wholesale'],
      calculator: {
        kind: 'weight_table',
        currency: 'USD',
        bands: [
          { upTo: 1000, amount: 400 },
          { upTo: 5000, amount: 900 },
          { upTo: null, amount: 2000 },
        ],
        amounts: null,
      },
    });
    const free = await method({
      zoneId: z.id,
      calculator: { freeOver: { thresholds: [{ currency: 'USD', amount: 10_000 }], otherwise: { perItem: { amounts: [{ currency: 'USD', amount: 150 }] } } } },
    });
    expect(free.calculator).toMatchObject({
      kind: 'free_over',
      thresholds: [{ currency: 'USD', amount: 10_000 }],
      otherwise: { kind: 'per_item', amounts: [{ currency: 'USD', amount: 150 }] },
    });
    const priced = await method({ zoneId: z.id, calculator: { priceTable: { currency: 'EUR', bands: [{ upTo: 5000, amount: 700 }, { amount: 0 }] } } });
    expect(priced.calculator.kind).toBe('price_table');

    const patched = await t.request(`/api/shipping/methods/${table.id}`, { method: 'PATCH', apiKey: admin, body: { isActive: false, calculator: FLAT } });
    expect(patched.status, patched.text).toBe(200);
    expect(patched.body.data).toMatchObject({ isActive: false, minDays: 2, calculator: { kind: 'flat', amounts: [{ currency: 'USD', amount: 500 }] } });
    const list = await t.request(`/api/shipping/methods?zoneId=${z.id}`, { apiKey: admin });
    expect(list.body.data.map((m: any) => m.id).sort()).toEqual([table.id, free.id, priced.id].sort());
    expect((await t.request(`/api/shipping/methods/${free.id}`, { method: 'DELETE', apiKey: admin })).status).toBe(200);
    expect((await t.request(`/api/shipping/methods/${free.id}`, { apiKey: admin })).status).toBe(404);
  });

  it('answers 422 naming the field for a bad calculator or reference', async () => {
    const z = await zone();
    const other = await otherOrganization(t);
    const theirZone = await zone({}, other.admin);
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ zoneId: z.id, calculator: {} }, 'calculator'],
      [{ zoneId: z.id, calculator: { flat: { amounts: [{ currency: 'USD', amount: 1 }] }, perItem: { amounts: [{ currency: 'USD', amount: 1 }] } } }, 'calculator'],
      [{ zoneId: z.id, calculator: { flat: { amounts: [{ currency: 'usd', amount: 1 }] } } }, 'calculator.flat.amounts.0.currency'],
      [{ zoneId: z.id, calculator: { flat: { amounts: [{ currency: 'USD', amount: -1 }] } } }, 'calculator.flat.amounts.0.amount'],
      [
        {
          zoneId: z.id,
          calculator: {
            weightTable: {
              currency: 'USD',
              bands: [
                { upTo: 500, amount: 1 },
                { upTo: 100, amount: 2 },
              ],
            },
          },
        },
        'calculator.weightTable.bands.1.upTo',
      ],
      [{ zoneId: z.id, calculator: { freeOver: { thresholds: [{ currency: 'USD', amount: 1 }], otherwise: {} } } }, 'calculator.freeOver.otherwise'],
      [{ zoneId: theirZone.id }, 'zoneId'],
      [{ zoneId: z.id, kind: 'pickup' }, 'warehouseId'],
      [{ zoneId: z.id, minDays: 5, maxDays: 2 }, 'maxDays'],
      [{ zoneId: z.id, taxClassId: '2b1f3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d' }, 'taxClassId'],
    ];
    for (const [body, field] of cases) {
      const res = await t.request('/api/shipping/methods', { apiKey: admin, body: { name: 'x', code: slug(), calculator: FLAT, ...body } });
      expect(res.status, `${JSON.stringify(body)} ${res.text}`).toBe(422);
      expect(
        res.body.error.details.map((d: any) => d.field),
        JSON.stringify(res.body.error.details),
      ).toContain(field);
    }
    const taken = await method({ zoneId: z.id });
    expect((await t.request('/api/shipping/methods', { apiKey: admin, body: { zoneId: z.id, name: 'x', code: taken.code, calculator: FLAT } })).status).toBe(409);
  });

  it('a pickup method names a warehouse of the organization', async () => {
    const z = await zone();
    const warehouse = await createWarehouse(t, admin);
    const pickup = await method({ zoneId: z.id, kind: 'pickup', warehouseId: warehouse.id, calculator: { flat: { amounts: [{ currency: 'USD', amount: 0 }] } } });
    expect(pickup).toMatchObject({ kind: 'pickup', warehouseId: warehouse.id });
  });

  it('works over GraphQL with the typed calculator input', async () => {
    const z = await zone();
    const code = slug();
    const res = await t.graphql(
      `mutation($z: UUID!, $c: String!) { shippingMethodCreate(zoneId: $z, name: "Express", code: $c, calculator: { flat: { amounts: [{ currency: "USD", amount: 1500 }] } }) { code calculator { kind amounts { currency amount } } } }`,
      { z: z.id, c: code },
      { apiKey: admin },
    );
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data!.shippingMethodCreate).toEqual({ code, calculator: { kind: 'flat', amounts: [{ currency: 'USD', amount: 1500 }] } });
    const list = await t.graphql(`{ shippingZones { id name } shippingMethods { code } }`, {}, { apiKey: admin });
    expect(list.body.data!.shippingMethods.map((m: any) => m.code)).toContain(code);
  });
});
