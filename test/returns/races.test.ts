// The returnable-quantity lock under truly parallel requests (test/support/race.ts: one
// connection each, a barrier): two returns racing for the last returnable unit — staff and
// staff, customer and staff — exactly one is opened, the other is 409; two refunds of one
// received return — exactly one refund.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { race } from '../support/race.js';
import { ORDER_TEST_CONFIG, openStore, product, type Store } from '../orders/helpers.js';
import { customerOrder, moveReturn, openReturn, restockAll, ship, shippedOrder } from './helpers.js';

const ROUNDS = 5;

let t: TestApp;
let store: Store;

beforeAll(async () => {
  t = await startTestApp(ORDER_TEST_CONFIG);
  store = await openStore(t);
});
afterAll(() => t?.close());

function countOf(values: string[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const v of values) counts[v] = (counts[v] ?? 0) + 1;
  return counts;
}

async function standingUnits(orderId: string): Promise<number> {
  const rows = await t.app.db.orderReturnLine.findMany({ where: { orderReturn: { orderId, status: { notIn: ['rejected', 'cancelled'] } } } });
  return rows.reduce((sum, r) => sum + r.quantity, 0);
}

describe(`returns under parallel requests on separate connections, ${ROUNDS} rounds each`, () => {
  it('two staff returns for the last returnable unit: one 201, one 409', async () => {
    const p = await product(store, { price: 100, stock: ROUNDS * 2 });
    const outcomes: string[] = [];
    for (let round = 0; round < ROUNDS; round += 1) {
      const order = await shippedOrder(store, [{ entityId: p, quantity: 2 }]);
      const line = order.lineItems[0].lineItemId;
      // One unit already in a return: one is left.
      expect((await openReturn(store, order.id, [{ lineItemId: line, quantity: 1 }])).status).toBe(201);
      const request = { path: `/api/orders/${order.id}/returns`, apiKey: store.admin, body: { lines: [{ lineItemId: line, quantity: 1 }], reasonCode: 'other' } };
      const answers = await race(t.url, [request, request]);
      const statuses = answers.map((a) => a.status).sort();
      outcomes.push(statuses.join('+'));
      expect(statuses, answers.map((a) => a.text).join('\n')).toEqual([201, 409]);
      expect(answers.find((a) => a.status === 409)!.body.error.details.reason).toBe('quantity_not_returnable');
      expect(await standingUnits(order.id)).toBe(2);
    }
    console.info(`return races (staff/staff): ${ROUNDS} rounds, outcomes ${JSON.stringify(countOf(outcomes))}`);
  }, 240_000);

  it('the customer and staff racing for the only unit: one 201, one 409', async () => {
    const p = await product(store, { price: 100, stock: ROUNDS });
    const outcomes: string[] = [];
    for (let round = 0; round < ROUNDS; round += 1) {
      const shopper = await t.signIn('customer');
      const order = await ship(store, await customerOrder(t, shopper.token, [{ entityId: p, quantity: 1 }]));
      const body = { lines: [{ lineItemId: order.lineItems[0].lineItemId, quantity: 1 }], reasonCode: 'damaged' };
      const answers = await race(t.url, [
        { path: `/api/me/orders/${order.id}/returns`, bearer: shopper.token, body },
        { path: `/api/orders/${order.id}/returns`, apiKey: store.admin, body },
      ]);
      const statuses = answers.map((a) => a.status).sort();
      outcomes.push(answers.map((a) => a.status).join('+'));
      expect(statuses, answers.map((a) => a.text).join('\n')).toEqual([201, 409]);
      expect(await standingUnits(order.id)).toBe(1);
    }
    console.info(`return races (customer/staff): ${ROUNDS} rounds, outcomes ${JSON.stringify(countOf(outcomes))}`);
  }, 240_000);

  it('two refunds of one received return: one 200, one 422 INVALID_TRANSITION, one order refund', async () => {
    const p = await product(store, { price: 700, stock: ROUNDS });
    for (let round = 0; round < ROUNDS; round += 1) {
      const order = await shippedOrder(store, [{ entityId: p, quantity: 1 }]);
      const opened = await openReturn(store, order.id, [{ lineItemId: order.lineItems[0].lineItemId, quantity: 1 }]);
      const id = opened.body.data.id;
      expect((await moveReturn(store, id, 'approve')).status).toBe(200);
      expect((await moveReturn(store, id, 'receive', restockAll(opened.body.data, store.warehouseId))).status).toBe(200);
      const request = { path: `/api/returns/${id}/refund`, apiKey: store.admin, body: {} };
      const answers = await race(t.url, [request, request]);
      expect(answers.map((a) => a.status).sort(), answers.map((a) => a.text).join('\n')).toEqual([200, 422]);
      const refunds = (await t.request(`/api/orders/${order.id}/refunds`, { apiKey: store.admin })).body.data;
      expect(refunds).toHaveLength(1);
      expect(refunds[0].amount).toBe(700);
    }
  }, 240_000);
});
