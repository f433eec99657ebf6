// The orders list's filters (issue 28): payment status, a createdAt window and search by order
// number or customer email, over REST and GraphQL, combined with AND, with the statement count
// independent of the page size.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { ORDER_TEST_CONFIG, openStore, pay, placeOrder, product, type Store } from './helpers.js';

let t: TestApp;
let store: Store;
let paid: any;
let pending: any[];

beforeAll(async () => {
  t = await startTestApp(ORDER_TEST_CONFIG);
  store = await openStore(t);
  const entityId = await product(store, { price: 1200, stock: 100 });
  paid = await pay(store, await placeOrder(store, [{ entityId }], { body: { email: 'Grace.Hopper@Example.com' } }));
  pending = [];
  for (let i = 0; i < 4; i += 1) pending.push(await placeOrder(store, [{ entityId }], { body: { email: `buyer${i}@shop.test` } }));
}, 240_000);
afterAll(() => t?.close());

const ids = (res: { body: any }) => (res.body.data as Array<{ id: string }>).map((o) => o.id).sort();
const list = (query: string) => t.request(`/api/orders?limit=100&${query}`, { apiKey: store.admin });

describe('orders list filters', () => {
  it('filters by payment status', async () => {
    const res = await list('paymentStatus=paid');
    expect(res.status).toBe(200);
    expect(ids(res)).toEqual([paid.id]);
    expect(ids(await list('paymentStatus=awaiting_payment'))).toEqual(pending.map((o) => o.id).sort());
  });

  it('searches the order number and the customer email, case-insensitively and literally', async () => {
    expect(ids(await list(`search=${encodeURIComponent(paid.orderNumber.slice(-6))}`))).toEqual([paid.id]);
    expect(ids(await list(`search=${encodeURIComponent(paid.orderNumber.toLowerCase())}`))).toEqual([paid.id]);
    expect(ids(await list('search=grace.hopper%40example'))).toEqual([paid.id]);
    expect(ids(await list('search=%40SHOP.TEST'))).toHaveLength(4);
    // % and _ are characters, not wildcards.
    expect(ids(await list('search=%25'))).toEqual([]);
    expect(ids(await list('search=buyer_'))).toEqual([]);
  });

  it('filters by a createdAt window, inclusive, and combines filters with AND', async () => {
    const created = (await t.app.db.order.findUniqueOrThrow({ where: { id: pending[2].id } })).createdAt.toISOString();
    const from = await list(`createdFrom=${created}`);
    expect(ids(from)).toEqual(expect.arrayContaining([pending[2].id, pending[3].id]));
    expect(ids(from)).not.toContain(paid.id);
    expect(ids(await list(`createdFrom=${created}&createdTo=${created}`))).toEqual([pending[2].id]);
    expect(ids(await list(`createdFrom=${created}&search=buyer3`))).toEqual([pending[3].id]);
    expect(ids(await list(`paymentStatus=paid&search=buyer`))).toEqual([]);
  });

  it('refuses bad filters with 422 naming the field', async () => {
    // A value the DateTime scalar refuses is 422 too (its message names no argument, so no field check).
    const date = await list('createdFrom=not-a-date');
    expect(date.status).toBe(422);
    expect(date.body.error.code).toBe('VALIDATION_FAILED');
    for (const [query, field] of [
      ['paymentStatus=settled', 'paymentStatus'],
      ['createdFrom=2026-02-01T00:00:00Z&createdTo=2026-01-01T00:00:00Z', 'createdTo'],
      [`search=${'x'.repeat(201)}`, 'search'],
    ] as const) {
      const res = await list(query);
      expect(res.status, query).toBe(422);
      expect(res.body.error.details.map((d: { field: string }) => d.field)).toContain(field);
    }
  });

  it('takes the same filters over GraphQL, with typed enums', async () => {
    const query = `query ($p: PaymentStatus, $s: String, $from: DateTime) {
      orders(paymentStatus: $p, search: $s, createdFrom: $from, first: 50) { totalCount data { id paymentStatus } }
    }`;
    const res = await t.graphql(query, { p: 'paid', s: 'hopper', from: '2000-01-01T00:00:00Z' }, { apiKey: store.admin });
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.orders).toEqual({ totalCount: 1, data: [{ id: paid.id, paymentStatus: 'paid' }] });
    const bad = await t.graphql(query, { p: 'settled' }, { apiKey: store.admin });
    expect(bad.body.errors?.length).toBeGreaterThan(0);
  });

  it('sends as many statements for a page of 1 as for a page of 5, filters on', async () => {
    const count = async (first: number) => {
      const runs: number[] = [];
      for (let i = 0; i < 2; i += 1) {
        const before = t.statements();
        const res = await t.graphql(
          `query ($first: Int) { orders(first: $first, search: "shop.test", paymentStatus: awaiting_payment) { totalCount data { id orderNumber customerEmail grandTotal lineItems { title quantity } } } }`,
          { first },
          { apiKey: store.admin },
        );
        expect(res.body.data.orders.data).toHaveLength(Math.min(first, 4));
        runs.push(t.statements() - before);
      }
      return Math.min(...runs);
    };
    const one = await count(1);
    const five = await count(5);
    console.info(`orders list with filters: ${one} statements for 1 row, ${five} for 4 rows`);
    expect(five).toBe(one);
  });
});
