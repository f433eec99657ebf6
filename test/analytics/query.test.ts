// POST /analytics/query and GET /analytics/meta over HTTP: results, 422 naming the member,
// visibility inside the SQL (two organizations, customers), one statement per query.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { newOrganization, seedOrder } from './helpers.js';

let t: TestApp;
let admin: string;
let orgId: string;
let other: { id: string; admin: string };

const day = (iso: string) => new Date(iso);

beforeAll(async () => {
  t = await startTestApp();
  admin = await t.apiKey('admin');
  orgId = (await t.app.services.organizations.defaultOrganization()).id;
  other = await newOrganization(t);
  await seedOrder(t, orgId, { placedAt: day('2026-03-02T10:00:00Z'), grandTotal: 1000, taxTotal: 100, lines: [{ sku: 'A', quantity: 2, unitPrice: 450 }] });
  await seedOrder(t, orgId, { placedAt: day('2026-03-02T15:00:00Z'), grandTotal: 3000, taxTotal: 300, lines: [{ sku: 'B', quantity: 1, unitPrice: 2700 }] });
  await seedOrder(t, orgId, { placedAt: day('2026-03-05T12:00:00Z'), grandTotal: 500, status: 'cancelled' });
  // The other organization's orders must never show up in this one's numbers.
  await seedOrder(t, other.id, { placedAt: day('2026-03-02T11:00:00Z'), grandTotal: 99999 });
});
afterAll(async () => t?.close());

const query = (body: unknown, options: { apiKey?: string; bearer?: string } = { apiKey: admin }) => t.request('/api/analytics/query', { ...options, body });

describe('POST /analytics/query', () => {
  it('groups by day in the organization timezone and annotates members', async () => {
    const res = await query({
      measures: ['Orders.count', 'Orders.revenue'],
      timeDimensions: [{ dimension: 'Orders.placedAt', granularity: 'day', dateRange: ['2026-03-01', '2026-03-31'] }],
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body.data).toEqual([
      { 'Orders.placedAt.day': '2026-03-02', 'Orders.count': 2, 'Orders.revenue': 4000 },
      { 'Orders.placedAt.day': '2026-03-05', 'Orders.count': 1, 'Orders.revenue': 0 },
    ]);
    expect(res.body.meta.annotation.measures['Orders.revenue']).toMatchObject({ type: 'number', format: 'currency' });
    expect(res.body.meta.annotation.timeDimensions['Orders.placedAt.day'].type).toBe('time');
    expect(res.body.meta.query.limit).toBe(100);
  });

  it('applies dimensions, nested filters, order, segments and clamps the limit', async () => {
    const res = await query({
      measures: ['Orders.count'],
      dimensions: ['Orders.status'],
      filters: [
        {
          or: [
            { member: 'Orders.status', operator: 'equals', values: ['confirmed'] },
            { member: 'Orders.status', operator: 'contains', values: ['cancel'] },
          ],
        },
      ],
      order: { 'Orders.status': 'asc' },
      limit: 1_000_000,
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body.data).toEqual([
      { 'Orders.status': 'cancelled', 'Orders.count': 1 },
      { 'Orders.status': 'confirmed', 'Orders.count': 2 },
    ]);
    expect(res.body.meta.query.limit).toBe(10_000);
    const having = await query({ measures: ['Orders.revenue'], dimensions: ['Orders.status'], filters: [{ member: 'Orders.revenue', operator: 'gt', values: ['0'] }] });
    expect(having.body.data).toEqual([{ 'Orders.status': 'confirmed', 'Orders.revenue': 4000 }]);
  });

  it('mixes OrderLineItems with Orders along the declared join', async () => {
    const res = await query({
      measures: ['OrderLineItems.itemsSold'],
      dimensions: ['OrderLineItems.sku'],
      filters: [{ member: 'Orders.status', operator: 'notEquals', values: ['cancelled'] }],
      order: { 'OrderLineItems.sku': 'asc' },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body.data).toEqual([
      { 'OrderLineItems.sku': 'A', 'OrderLineItems.itemsSold': 2 },
      { 'OrderLineItems.sku': 'B', 'OrderLineItems.itemsSold': 1 },
    ]);
    const reverse = await query({ measures: ['Orders.count'], dimensions: ['OrderLineItems.sku'] });
    expect(reverse.status).toBe(422);
    expect(reverse.body.error.message).toContain('OrderLineItems.sku');
  });

  it('is one SQL statement', async () => {
    await query({ measures: ['Orders.count'] });
    const before = t.statements();
    const res = await query({
      measures: ['OrderLineItems.lineItemRevenue', 'OrderLineItems.count'],
      dimensions: ['Orders.status'],
      timeDimensions: [{ dimension: 'Orders.placedAt', granularity: 'month', dateRange: 'this year' }],
    });
    expect(res.status, res.text).toBe(200);
    // API-key requests are verified from a cache after the first one: the query is the only statement.
    expect(t.statements() - before).toBe(1);
  });

  it('answers every mistake with 422 naming the member', async () => {
    const cases: Array<[unknown, string]> = [
      [{ measures: ['Nope.count'] }, 'Nope.count'],
      [{ measures: ['Orders.nope'] }, 'Orders.nope'],
      [{ measures: ['Orders.status'] }, 'Orders.status'],
      [{ measures: ['Orders.count'], dimensions: ['Orders.revenue'] }, 'Orders.revenue'],
      [{ measures: ['Orders.count'], filters: [{ member: 'Orders.status', operator: 'gt', values: ['1'] }] }, 'Orders.status'],
      [{ measures: ['Orders.count'], filters: [{ member: 'Orders.placedAt', operator: 'contains', values: ['x'] }] }, 'Orders.placedAt'],
      [{ measures: ['Orders.count'], filters: [{ member: 'Orders.placedAt', operator: 'beforeDate', values: ['2026-13-01'] }] }, 'Orders.placedAt'],
      [{ measures: ['Orders.count'], timeDimensions: [{ dimension: 'Orders.placedAt', dateRange: ['2026-03-31', '2026-03-01'] }] }, 'Orders.placedAt'],
      [{ measures: ['Orders.count'], timeDimensions: [{ dimension: 'Orders.placedAt', dateRange: 'last decade' }] }, 'Orders.placedAt'],
      [{ measures: ['Orders.count'], timeDimensions: [{ dimension: 'Orders.status', granularity: 'day' }] }, 'Orders.status'],
      [{ measures: ['Orders.count'], order: { 'Orders.currency': 'asc' } }, 'Orders.currency'],
      [{ measures: ['Orders.count'], segments: ['Inventory.lowStock'] }, 'Inventory'],
      [{ measures: ['Orders.count', 'Inventory.totalOnHand'] }, 'Inventory.totalOnHand'],
      [{ measures: ['Orders.count'], filters: [{ and: [{ or: [{ member: 'Orders.status' }] }] }] }, 'Orders.status'],
      [{ measures: ['Orders.count'], filters: [{ or: [{ member: 'Orders.total', operator: 'gt', values: ['1'] }] }] }, 'Orders.total'],
      [{ measures: ["Orders.count'; drop table orders; --"] }, 'Orders.count'],
    ];
    for (const [body, member] of cases) {
      const res = await query(body);
      expect(res.status, JSON.stringify(body) + res.text).toBe(422);
      expect(res.body.error.code).toBe('VALIDATION_FAILED');
      expect(JSON.stringify(res.body.error), JSON.stringify(body)).toContain(member);
    }
    const noMeasures = await query({ measures: [] });
    expect(noMeasures.status).toBe(422);
    expect(noMeasures.body.error.details[0].field).toBe('measures');
  });
});

describe('visibility', () => {
  it('keeps each organization to its own rows (staff, admin and API keys alike)', async () => {
    const staff = await t.signIn('staff');
    const body = { measures: ['Orders.count', 'Orders.revenue'], filters: [{ member: 'Orders.placedAt', operator: 'inDateRange', values: ['2026-03-01', '2026-03-31'] }] };
    for (const options of [{ apiKey: admin }, { bearer: staff.token }]) {
      const res = await query(body, options);
      expect(res.status, res.text).toBe(200);
      expect(res.body.data).toEqual([{ 'Orders.count': 3, 'Orders.revenue': 4000 }]);
    }
    const theirs = await query(body, { apiKey: other.admin });
    expect(theirs.body.data).toEqual([{ 'Orders.count': 1, 'Orders.revenue': 99999 }]);
    const otherStaff = await t.signIn('staff', { organizationId: other.id });
    expect((await query(body, { bearer: otherStaff.token })).body.data).toEqual([{ 'Orders.count': 1, 'Orders.revenue': 99999 }]);
  });

  it('shows a customer only their own rows and only customer models', async () => {
    const alice = await t.signIn('customer');
    await seedOrder(t, orgId, { placedAt: day('2026-03-03T10:00:00Z'), grandTotal: 777, customerId: alice.userId, lines: [{ sku: 'MINE', quantity: 3, unitPrice: 259 }] });
    const orders = await query({ measures: ['Orders.count', 'Orders.revenue'] }, { bearer: alice.token });
    expect(orders.status, orders.text).toBe(200);
    expect(orders.body.data).toEqual([{ 'Orders.count': 1, 'Orders.revenue': 777 }]);
    const lines = await query({ measures: ['OrderLineItems.itemsSold'], dimensions: ['OrderLineItems.sku'] }, { bearer: alice.token });
    expect(lines.body.data).toEqual([{ 'OrderLineItems.sku': 'MINE', 'OrderLineItems.itemsSold': 3 }]);
    const me = await query({ measures: ['Customers.customerCount'] }, { bearer: alice.token });
    expect(me.body.data).toEqual([{ 'Customers.customerCount': 1 }]);
    const stock = await query({ measures: ['Inventory.totalOnHand'] }, { bearer: alice.token });
    expect(stock.status).toBe(422);
    expect(stock.body.error.details[0].message).toContain('Inventory');
    const meta = await t.request('/api/analytics/meta', { bearer: alice.token });
    expect(meta.body.data.map((m: any) => m.name).sort()).toEqual(['Customers', 'OrderLineItems', 'Orders']);
  });

  it('refuses anonymous callers', async () => {
    const res = await t.request('/api/analytics/query', { body: { measures: ['Orders.count'] } });
    expect(res.status).toBe(401);
    expect((await t.request('/api/analytics/meta')).status).toBe(401);
    const gql = await t.graphql('{ analyticsMeta { name } }');
    expect(gql.body.errors![0].extensions.code).toBe('UNAUTHORIZED');
  });
});

describe('GET /analytics/meta and GraphQL analyticsQuery', () => {
  it('lists every model to staff', async () => {
    const meta = await t.request('/api/analytics/meta', { apiKey: admin });
    expect(meta.status).toBe(200);
    const orders = meta.body.data.find((m: any) => m.name === 'Orders');
    expect(orders.measures.map((m: any) => m.name)).toContain('Orders.averageOrderValue');
    expect(orders.dimensions.find((d: any) => d.name === 'Orders.placedAt').type).toBe('time');
    expect(meta.body.data.find((m: any) => m.name === 'Inventory').segments[0].name).toBe('Inventory.lowStock');
  });

  it('takes typed input objects', async () => {
    const res = await t.graphql(
      `query Q($td: [AnalyticsTimeDimensionInput!], $f: [AnalyticsFilterInput!]) {
        analyticsQuery(measures: ["Orders.count"], timeDimensions: $td, filters: $f) { data meta { annotation } }
      }`,
      {
        td: [{ dimension: 'Orders.placedAt', granularity: 'month', dateRange: ['2026-03-01', '2026-03-31'] }],
        f: [{ and: [{ member: 'Orders.status', operator: 'in', values: ['confirmed', 'cancelled'] }] }],
      },
      { apiKey: admin },
    );
    expect(res.body.errors, JSON.stringify(res.body.errors)).toBeUndefined();
    expect(res.body.data.analyticsQuery.data).toEqual([{ 'Orders.placedAt.month': '2026-03-01', 'Orders.count': 4 }]); // three seeded + the customer's
    const preset = await t.graphql(
      `{ analyticsQuery(measures: ["Orders.count"], timeDimensions: [{ dimension: "Orders.placedAt", dateRange: "last 7 days" }]) { data } }`,
      {},
      { apiKey: admin },
    );
    expect(preset.body.errors, JSON.stringify(preset.body.errors)).toBeUndefined();
  });
});
