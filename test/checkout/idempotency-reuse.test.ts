// Issue 23 item 8: a checkout idempotency key reused with a different request is 422
// IDEMPOTENCY_KEY_REUSED (as Stripe answers), over REST and GraphQL, also when the two requests
// race; the same request still replays the first order.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { race } from '../support/race.js';
import { ADDRESS, ORDER_TEST_CONFIG, checkout, checkoutBody, guestCart, openStore, product, unique, type GuestCart, type Store } from '../orders/helpers.js';

let t: TestApp;
let store: Store;
let p: string;

beforeAll(async () => {
  t = await startTestApp(ORDER_TEST_CONFIG);
  store = await openStore(t);
  p = await product(store, { price: 700, stock: 100 });
});
afterAll(() => t?.close());

const ordersWithKey = (key: string) => t.app.db.order.count({ where: { idempotencyKey: key } });

describe('REST', () => {
  it('the same key and body replays; another address, payment method or cart is 422 and makes no order', async () => {
    const cart = await guestCart(store, [{ entityId: p }]);
    const key = `idem-${unique()}`;
    const first = await checkout(store, cart, { body: { idempotencyKey: key } });
    expect(first.status, first.text).toBe(201);
    // Same request, its keys in another order and an explicit null for an absent optional field.
    const { shippingAddress, ...rest } = checkoutBody(cart, { idempotencyKey: key });
    const reordered = { customerId: null, shippingAddress: Object.fromEntries(Object.entries(shippingAddress as object).reverse()), ...rest };
    const same = await t.request('/api/checkout', { apiKey: store.storefront, headers: cart.headers, body: reordered });
    expect(same.status, same.text).toBe(200);
    expect(same.body.data.id).toBe(first.body.data.id);

    for (const change of [{ shippingAddress: { ...ADDRESS, line1: '2 Other St' } }, { paymentMethodId: 'pm_card_mastercard' }, { email: 'other@example.com' }]) {
      const reused = await checkout(store, cart, { body: { idempotencyKey: key, ...change } });
      expect(reused.status, reused.text).toBe(422);
      expect(reused.body).toEqual({ error: { code: 'IDEMPOTENCY_KEY_REUSED', message: expect.any(String), details: { idempotencyKey: key, orderId: first.body.data.id } } });
    }
    expect(await ordersWithKey(key)).toBe(1);
  });

  it('takes the key from the Idempotency-Key header too, and refuses a header and a body key that differ', async () => {
    const cart = await guestCart(store, [{ entityId: p }]);
    const key = `idem-${unique()}`;
    const send = (body: Record<string, unknown>, headers: Record<string, string> = {}) =>
      t.request('/api/checkout', { apiKey: store.storefront, headers: { ...cart.headers, ...headers }, body: checkoutBody(cart, body) });
    expect((await send({}, { 'idempotency-key': key })).status).toBe(201);
    const replay = await send({ idempotencyKey: key });
    expect(replay.status, replay.text).toBe(200);
    const reused = await send({ email: 'other@example.com' }, { 'idempotency-key': key });
    expect(reused.status).toBe(422);
    expect(reused.body.error.code).toBe('IDEMPOTENCY_KEY_REUSED');
    const both = await send({ idempotencyKey: `${key}-b` }, { 'idempotency-key': key });
    expect(both.status).toBe(422);
    expect(both.body.error).toMatchObject({ code: 'VALIDATION_FAILED', details: [{ field: 'idempotencyKey' }] });
    expect(await ordersWithKey(key)).toBe(1);
  });
});

describe('GraphQL', () => {
  const mutation = (cart: GuestCart, key: string, line1: string) => `mutation {
    checkout(cartId: "${cart.id}", paymentMethodId: "pm_card_visa", currency: "USD", email: "buyer@example.com", idempotencyKey: "${key}",
      shippingAddress: { firstName: "Ada", lastName: "Lovelace", line1: "${line1}", city: "Springfield", state: "IL", postalCode: "62701", country: "US" }) {
      data { id } meta { replayed }
    }
  }`;

  it('replays the same request (also one first sent over REST) and refuses another with extensions.code IDEMPOTENCY_KEY_REUSED', async () => {
    const cart = await guestCart(store, [{ entityId: p }]);
    const key = `idem-${unique()}`;
    const rest = await checkout(store, cart, { body: { idempotencyKey: key } });
    expect(rest.status).toBe(201);
    const options = { apiKey: store.storefront, headers: cart.headers };
    const same = await t.graphql(mutation(cart, key, ADDRESS.line1), undefined, options);
    expect(same.body.errors, JSON.stringify(same.body.errors)).toBeUndefined();
    expect(same.body.data.checkout).toEqual({ data: { id: rest.body.data.id }, meta: { replayed: true } });
    const other = await t.graphql(mutation(cart, key, '2 Other St'), undefined, options);
    expect(other.body.errors?.[0]?.extensions).toMatchObject({ code: 'IDEMPOTENCY_KEY_REUSED', restStatus: 422, details: { idempotencyKey: key, orderId: rest.body.data.id } });
    expect(await ordersWithKey(key)).toBe(1);
  });
});

describe('races', () => {
  it('two parallel checkouts with one key and different bodies make one order; the other is 422', async () => {
    for (const sameCart of [true, false]) {
      const a = await guestCart(store, [{ entityId: p }]);
      const b = sameCart ? a : await guestCart(store, [{ entityId: p }]);
      const key = `idem-${unique()}`;
      const request = (cart: GuestCart, line1: string) => ({
        path: '/api/checkout',
        apiKey: store.storefront,
        headers: cart.headers,
        body: checkoutBody(cart, { idempotencyKey: key, shippingAddress: { ...ADDRESS, line1 } }),
      });
      const answers = await race(t.url, [request(a, '1 First St'), request(b, '2 Second St')]);
      const statuses = answers.map((r) => r.status).sort();
      expect(statuses, answers.map((r) => r.text).join('\n')).toEqual([201, 422]);
      expect(answers.find((r) => r.status === 422)!.body.error.code).toBe('IDEMPOTENCY_KEY_REUSED');
      expect(await ordersWithKey(key)).toBe(1);
    }
  });
});
