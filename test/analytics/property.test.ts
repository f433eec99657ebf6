// Property test: random analytics queries, valid and invalid, against the real app. Valid ones
// answer 200 with rows; invalid ones 422 VALIDATION_FAILED; none is a 5xx.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { seedOrder } from './helpers.js';

let t: TestApp;
let admin: string;

beforeAll(async () => {
  t = await startTestApp();
  admin = await t.apiKey('admin');
  const orgId = (await t.app.services.organizations.defaultOrganization()).id;
  for (let i = 0; i < 6; i++)
    await seedOrder(t, orgId, { placedAt: new Date(Date.UTC(2026, i, 3 + i, 12)), grandTotal: 1000 * (i + 1), lines: [{ sku: `S${i % 2}`, quantity: i + 1, unitPrice: 1000 }] });
});
afterAll(async () => t?.close());

const ORDER_MEASURES = ['Orders.count', 'Orders.revenue', 'Orders.averageOrderValue', 'Orders.taxCollected', 'Orders.uniqueCustomers', 'Orders.discountsGiven'];
const ORDER_DIMS = ['Orders.status', 'Orders.currency', 'Orders.paymentStatus', 'Orders.orderNumber'];
const LINE_MEASURES = ['OrderLineItems.count', 'OrderLineItems.itemsSold', 'OrderLineItems.lineItemRevenue', 'OrderLineItems.averageUnitPrice'];
const LINE_DIMS = ['OrderLineItems.sku', 'OrderLineItems.entityType', 'OrderLineItems.quantity', 'Orders.status'];

const date = fc.date({ min: new Date('2020-01-01T00:00:00Z'), max: new Date('2030-12-31T00:00:00Z'), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10));
const range = fc.oneof(
  fc.tuple(date, date).map(([a, b]) => (a <= b ? [a, b] : [b, a])),
  fc.constantFrom('today', 'yesterday', 'last 7 days', 'last 30 days', 'this month', 'last month', 'this year'),
);

const stringFilter = (dims: string[]) =>
  fc.record({
    member: fc.constantFrom(...dims.filter((d) => !d.endsWith('quantity'))),
    operator: fc.constantFrom('equals', 'notEquals', 'contains', 'in', 'notIn'),
    values: fc.array(fc.string({ maxLength: 12 }), { minLength: 1, maxLength: 3 }),
  });
const timeFilter = fc.oneof(
  fc.record({ member: fc.constant('Orders.placedAt'), operator: fc.constantFrom('beforeDate', 'afterDate'), values: date.map((d) => [d]) }),
  fc.record({ member: fc.constant('Orders.placedAt'), operator: fc.constant('inDateRange'), values: fc.tuple(date, date).map(([a, b]) => (a <= b ? [a, b] : [b, a])) }),
);
const numberFilter = fc.record({
  member: fc.constantFrom(...ORDER_MEASURES),
  operator: fc.constantFrom('gt', 'gte', 'lt', 'lte'),
  values: fc.integer({ min: -5000, max: 50000 }).map((n) => [String(n)]),
});

function validQuery(measures: string[], dims: string[]) {
  const leaf = fc.oneof(stringFilter(dims), timeFilter);
  const filter = fc.oneof(
    leaf,
    fc.array(leaf, { minLength: 1, maxLength: 3 }).map((and) => ({ and })),
    fc.array(leaf, { minLength: 1, maxLength: 3 }).map((or) => ({ or })),
  );
  return fc
    .record(
      {
        measures: fc.uniqueArray(fc.constantFrom(...measures), { minLength: 1, maxLength: 3 }),
        dimensions: fc.uniqueArray(fc.constantFrom(...dims), { maxLength: 2 }),
        timeDimensions: fc.array(
          fc.record({ dimension: fc.constant('Orders.placedAt'), granularity: fc.constantFrom('day', 'week', 'month', 'year'), dateRange: range }, { requiredKeys: ['dimension'] }),
          { maxLength: 1 },
        ),
        filters: fc.array(filter, { maxLength: 2 }),
        limit: fc.integer({ min: 1, max: 50_000 }),
      },
      { requiredKeys: ['measures'] },
    )
    .chain((q) =>
      fc.record({ dir: fc.constantFrom('asc', 'desc'), pick: fc.nat() }).map(({ dir, pick }) => {
        const selectable = [...q.measures, ...(q.dimensions ?? [])];
        return { ...q, order: { [selectable[pick % selectable.length]!]: dir } };
      }),
    );
}

const valid = fc.oneof(
  validQuery(ORDER_MEASURES, ORDER_DIMS),
  validQuery(LINE_MEASURES, LINE_DIMS),
  fc.record({ measures: fc.constant(['Orders.revenue']), filters: fc.array(numberFilter, { minLength: 1, maxLength: 2 }) }),
);

// Invalid: a valid query with one thing broken.
const junk = fc.string({ minLength: 1, maxLength: 30 });
const invalid = fc.oneof(
  junk.map((m) => ({ measures: [`Nope${m}.x`] })),
  junk.map((m) => ({ measures: [`Orders.${m}x`] })),
  fc.constantFrom(...ORDER_DIMS).map((d) => ({ measures: [d] })),
  fc
    .record({ member: fc.constantFrom('Orders.status', 'Orders.currency'), operator: fc.constantFrom('gt', 'lt', 'beforeDate', 'inDateRange'), values: fc.constant(['1']) })
    .map((f) => ({ measures: ['Orders.count'], filters: [f] })),
  fc
    .record({ member: fc.constant('Orders.placedAt'), operator: fc.constantFrom('beforeDate', 'afterDate'), values: junk.map((v) => [`${v}x`]) })
    .map((f) => ({ measures: ['Orders.count'], filters: [f] })),
  fc
    .tuple(date, date)
    .filter(([a, b]) => a !== b)
    .map(([a, b]) => ({ measures: ['Orders.count'], timeDimensions: [{ dimension: 'Orders.placedAt', dateRange: a < b ? [b, a] : [a, b] }] })),
  junk.map((g) => ({ measures: ['Orders.count'], timeDimensions: [{ dimension: 'Orders.placedAt', granularity: `${g}!` }] })),
  fc.constantFrom(...ORDER_DIMS).map((d) => ({ measures: ['Orders.count'], order: { [d]: 'asc' } })),
  fc.integer({ min: -100, max: 0 }).map((limit) => ({ measures: ['Orders.count'], limit })),
  fc.constantFrom(...LINE_DIMS.slice(0, 2)).map((d) => ({ measures: ['Orders.count'], dimensions: [d] })),
  fc.constant({ measures: ['Orders.count'], filters: [{ member: 'Orders.status', operator: 'equals', values: [] }] }),
  fc.constant({ measures: ['Orders.count'], filters: [{ and: [] }] }),
);

describe('analytics queries (fast-check)', () => {
  it('valid queries answer 200 with rows', async () => {
    await fc.assert(
      fc.asyncProperty(valid, async (body) => {
        const res = await t.request('/api/analytics/query', { apiKey: admin, body });
        expect(res.status, `${JSON.stringify(body)} → ${res.text}`).toBe(200);
        expect(Array.isArray(res.body.data)).toBe(true);
        expect(res.body.data.length).toBeLessThanOrEqual(Math.min((body as { limit?: number }).limit ?? 100, 10_000));
      }),
      { numRuns: 60 },
    );
  });

  it('invalid queries answer 422, never a 5xx', async () => {
    await fc.assert(
      fc.asyncProperty(invalid, async (body) => {
        const res = await t.request('/api/analytics/query', { apiKey: admin, body });
        expect(res.status, `${JSON.stringify(body)} → ${res.text}`).toBe(422);
        expect(res.body.error.code).toBe('VALIDATION_FAILED');
      }),
      { numRuns: 60 },
    );
  });
});
