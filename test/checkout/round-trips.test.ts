// The checkout's SQL cost: round trips (every query a connection sends, BEGIN and SAVEPOINTs
// included) and statements (Prisma's query log) must not grow with the number of lines, and one
// checkout must fit in CHECKOUT_ROUND_TRIPS round trips. The cart calls the checkout loop makes
// (create a cart, add an item) are bounded too.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { ORDER_TEST_CONFIG, checkout, guestCart, openStore, product, type Store } from '../orders/helpers.js';

/** The budget for one checkout, whatever its number of lines. */
const CHECKOUT_ROUND_TRIPS = 12;
/** Today's checkout (service.ts header: BEGIN, the cart lock with the lines and their price inputs, tax, stock, the write, COMMIT): it must not grow. */
const CHECKOUT_ROUND_TRIPS_NOW = 6;

let t: TestApp;
let store: Store;

beforeAll(async () => {
  t = await startTestApp(ORDER_TEST_CONFIG);
  store = await openStore(t);
});
afterAll(() => t?.close());

async function costOf(send: () => Promise<{ status: number; text: string }>, expected: number): Promise<{ roundTrips: number; statements: number }> {
  const trips = t.roundTrips();
  const statements = t.statements();
  const res = await send();
  expect(res.status, res.text).toBe(expected);
  return { roundTrips: t.roundTrips() - trips, statements: t.statements() - statements };
}

async function checkoutCost(lines: number): Promise<{ roundTrips: number; statements: number }> {
  const products = await Promise.all(Array.from({ length: lines }, () => product(store, { price: 1_000, stock: 10 })));
  const cart = await guestCart(
    store,
    products.map((entityId) => ({ entityId })),
  );
  return costOf(() => checkout(store, cart), 201);
}

describe('checkout SQL cost', () => {
  it(`is at most ${CHECKOUT_ROUND_TRIPS} round trips for 1 and 5 lines, the same for any number of lines`, async () => {
    await checkoutCost(1); // warm: API key, organization and settings caches
    const one = await checkoutCost(1);
    const three = await checkoutCost(3);
    const five = await checkoutCost(5);
    console.info(
      `checkout: 1 line ${one.roundTrips} round trips / ${one.statements} statements, 3 lines ${three.roundTrips} / ${three.statements}, 5 lines ${five.roundTrips} / ${five.statements}`,
    );
    expect(one.roundTrips).toBeLessThanOrEqual(CHECKOUT_ROUND_TRIPS);
    expect(five.roundTrips).toBeLessThanOrEqual(CHECKOUT_ROUND_TRIPS);
    expect(five.roundTrips).toBe(one.roundTrips);
    expect(five.roundTrips).toBeLessThanOrEqual(CHECKOUT_ROUND_TRIPS_NOW);
    expect(five.statements).toBeLessThanOrEqual(CHECKOUT_ROUND_TRIPS_NOW - 1);
    expect(five.statements).toBe(one.statements);
  });

  it('creates a cart and adds an item in a bounded number of round trips', async () => {
    const entityId = await product(store, { price: 1_000, stock: 10 });
    await guestCart(store, [{ entityId }]); // warm
    let cartId = '';
    let headers: Record<string, string> = {};
    const create = await costOf(async () => {
      const res = await t.request<any>('/api/carts', { body: { currency: 'USD' } });
      cartId = res.body?.data?.id;
      headers = { 'x-cart-token': res.body?.data?.cartToken };
      return res;
    }, 201);
    const add = await costOf(() => t.request(`/api/carts/${cartId}/items`, { headers, body: { entityId, quantity: 1 } }), 201);
    console.info(`cart create ${create.roundTrips} round trips / ${create.statements} statements; add item ${add.roundTrips} / ${add.statements}`);
    expect(create.roundTrips).toBeLessThanOrEqual(1);
    expect(add.roundTrips).toBeLessThanOrEqual(2);
  });
});
