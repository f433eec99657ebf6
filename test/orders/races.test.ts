// The refund and stock locks under truly parallel requests (test/support/race.ts: one connection
// each, a barrier), 20 rounds each: two refunds that together exceed what is refundable → exactly
// one succeeds; more checkouts than units → exactly as many orders as units, never oversold.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { race } from '../support/race.js';
import { ORDER_TEST_CONFIG, available, checkoutBody, guestCart, openStore, pay, placeOrder, product, type Store } from './helpers.js';

const ROUNDS = 20;

let t: TestApp;
let store: Store;

beforeAll(async () => {
  t = await startTestApp(ORDER_TEST_CONFIG);
  store = await openStore(t);
});
afterAll(() => t?.close());

describe(`locks under parallel requests on separate connections, ${ROUNDS} rounds each`, () => {
  it('two refunds of 2 units of a 3-unit line: exactly one is taken, the other is 422, the order never over-refunded', async () => {
    const p = await product(store, { price: 100, stock: ROUNDS * 3 });
    const outcomes: string[] = [];
    for (let round = 0; round < ROUNDS; round += 1) {
      const order = await pay(store, await placeOrder(store, [{ entityId: p, quantity: 3 }]));
      const line = order.lineItems[0];
      const refund = { path: `/api/orders/${order.id}/refunds`, headers: { 'x-api-key': store.admin }, body: { lines: [{ lineItemId: line.lineItemId, quantity: 2 }] } };
      const answers = await race(t.url, [refund, refund]);
      const statuses = answers.map((a) => a.status).sort();
      outcomes.push(statuses.join('+'));
      expect(statuses, answers.map((a) => a.text).join('\n')).toEqual([201, 422]);
      const after = (await t.request(`/api/orders/${order.id}`, { apiKey: store.admin })).body.data;
      expect(after.lineItems[0].refundedQuantity).toBe(2);
      expect(after.refundedAmount).toBe(answers.find((a) => a.status === 201)!.body.data.amount);
    }
    console.info(`refund races: ${ROUNDS} rounds, outcomes ${JSON.stringify(countOf(outcomes))}`);
  }, 240_000);

  it('8 checkouts for the last 3 units: exactly 3 orders, 5 × 422, stock reserved to the unit', async () => {
    const outcomes: string[] = [];
    for (let round = 0; round < ROUNDS; round += 1) {
      const p = await product(store, { price: 500, stock: 3 });
      const carts = await Promise.all(Array.from({ length: 8 }, () => guestCart(store, [{ entityId: p }])));
      const answers = await race(
        t.url,
        carts.map((cart) => ({ path: '/api/checkout', headers: { 'x-api-key': store.storefront, ...cart.headers }, body: checkoutBody(cart) })),
      );
      const statuses = answers.map((a) => a.status);
      outcomes.push(`${statuses.filter((s) => s === 201).length}×201`);
      expect(
        statuses.filter((s) => s >= 500),
        answers.map((a) => a.text).join('\n'),
      ).toEqual([]);
      expect(statuses.filter((s) => s === 201)).toHaveLength(3);
      expect(statuses.filter((s) => s === 422)).toHaveLength(5);
      expect(await available(store, p)).toMatchObject({ onHand: 3, reserved: 3, available: 0 });
      expect(await t.app.db.order.count({ where: { lines: { some: { entityId: p } } } })).toBe(3);
    }
    console.info(`checkout races: ${ROUNDS} rounds, outcomes ${JSON.stringify(countOf(outcomes))}`);
  }, 240_000);
});

function countOf(values: string[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const value of values) counts[value] = (counts[value] ?? 0) + 1;
  return counts;
}
