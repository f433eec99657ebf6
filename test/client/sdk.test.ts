// The SDK (client/) with Node's own fetch against the real server: sign-up, sign-in, bearer
// and API-key calls, a typed list with include, cart → checkout, the error envelope, and one
// honoured Retry-After on 429.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { createClient } from '../../client/src/index.js';
import { ADDRESS, ORDER_TEST_CONFIG, openStore, product, type Store } from '../orders/helpers.js';

let t: TestApp;
let store: Store;
beforeAll(async () => {
  t = await startTestApp({ ...ORDER_TEST_CONFIG, rateLimit: { authenticated: { points: 1000, durationSeconds: 60 } } });
  store = await openStore(t);
});
afterAll(() => t?.close());

describe('createClient', () => {
  it('signs up, signs in and sends the bearer token on later calls', async () => {
    const client = createClient({ baseUrl: t.url });
    const email = `sdk-${Date.now()}@example.com`;
    const up = await client.signUp({ email, password: 'correct-horse-battery', name: 'SDK' });
    expect(up.error).toBeUndefined();
    expect(up.data?.user.email).toBe(email);
    client.setBearer(undefined);

    const wrong = await client.signIn(email, 'not-the-password');
    expect(wrong.data).toBeUndefined();
    expect(wrong.error?.error.code).toBe('UNAUTHORIZED');
    expect(client.bearer).toBeUndefined();

    const signedIn = await client.signIn(email, 'correct-horse-battery');
    expect(signedIn.error).toBeUndefined();
    expect(client.bearer).toBe(signedIn.data?.token);

    const cart = await client.POST('/api/carts', { body: { currency: 'USD' } });
    expect(cart.error).toBeUndefined();
    expect(cart.response.status).toBe(201);
    expect(cart.data?.data.currency).toBe('USD');
    const session = await client.GET('/api/auth/get-session');
    expect(session.data?.user.email).toBe(email);

    await client.signOut();
    expect(client.bearer).toBeUndefined();
    // The token was revoked on the server, not only forgotten here.
    const revoked = await fetch(`${t.url}/api/auth/get-session`, { headers: { authorization: `Bearer ${signedIn.data!.token}` } });
    expect(await revoked.json()).toBeNull();
  });

  it('calls with an API key: a typed list with include and query params', async () => {
    const entity = await product(store, { title: 'SDK Alpha', price: 1234, stock: 3 });
    const client = createClient({ baseUrl: t.url, apiKey: store.admin });
    const list = await client.GET('/api/catalog/entities', { params: { query: { include: 'attributes,pricing', limit: 1000, status: 'active' } } });
    expect(list.error).toBeUndefined();
    expect(list.data!.meta.pagination.limit).toBe(100);
    const found = list.data!.data.find((e) => e.id === entity);
    expect(found?.status).toBe('active');
    expect(found?.attributes?.[0]?.title).toBe('SDK Alpha');
  });

  it('answers errors as the envelope with exactly one of data or error', async () => {
    const client = createClient({ baseUrl: t.url, apiKey: store.admin });
    const missing = await client.GET('/api/catalog/entities/{id}', { params: { path: { id: '00000000-0000-4000-8000-000000000000' } } });
    expect(missing.data).toBeUndefined();
    expect(missing.response.status).toBe(404);
    expect(missing.error?.error.code).toBe('NOT_FOUND');
    const anonymous = await createClient({ baseUrl: t.url }).GET('/api/orders');
    expect(anonymous.response.status).toBe(401);
    expect(anonymous.error?.error.code).toBe('UNAUTHORIZED');
  });

  it('runs a cart to checkout with the storefront key and a replay-safe idempotency key', async () => {
    const entity = await product(store, { price: 2500, stock: 5 });
    const client = createClient({ baseUrl: t.url, apiKey: store.storefront });
    const cart = await client.POST('/api/carts', { body: { currency: 'USD' } });
    const cartId = cart.data!.data.id;
    const headers = { 'x-cart-token': cart.data!.data.cartToken! };
    const added = await client.POST('/api/carts/{id}/items', { params: { path: { id: cartId } }, headers, body: { entityId: entity, quantity: 2 } });
    expect(added.error, JSON.stringify(added.error)).toBeUndefined();
    const body = { cartId, currency: 'USD', paymentMethodId: 'pm_card_visa', shippingAddress: ADDRESS, email: 'sdk@example.com', idempotencyKey: `sdk-${Date.now()}` };
    const order = await client.POST('/api/checkout', { headers, body });
    expect(order.error, JSON.stringify(order.error)).toBeUndefined();
    expect(order.response.status).toBe(201);
    expect(order.data!.data.subtotal).toBe(5000);
    const replay = await client.POST('/api/checkout', { headers, body });
    expect(replay.data!.data.id).toBe(order.data!.data.id);
  });
});

describe('Retry-After', () => {
  let limited: TestApp;
  beforeAll(async () => {
    limited = await startTestApp({ rateLimit: { authenticated: { points: 1, durationSeconds: 2 } } });
  });
  afterAll(() => limited?.close());

  it('waits out one 429 and sends again; a second 429 surfaces', async () => {
    const key = await limited.apiKey('admin');
    const seen: number[] = [];
    const counting: typeof fetch = async (input, init) => {
      const res = await fetch(input, init);
      seen.push(res.status);
      return res;
    };
    const client = createClient({ baseUrl: limited.url, apiKey: key, fetch: counting });
    expect((await client.GET('/api/settings')).response.status).toBe(200);
    const second = await client.GET('/api/settings');
    expect(seen).toEqual([200, 429, 200]);
    expect(second.response.status).toBe(200);

    // Retry-After longer than the client accepts: surfaced at once as the envelope.
    const impatient = createClient({ baseUrl: limited.url, apiKey: key, fetch: counting, maxRetryAfterMs: 0 });
    seen.length = 0;
    const refused = await impatient.GET('/api/settings');
    expect(seen).toEqual([429]);
    expect(refused.error?.error.code).toBe('TOO_MANY_REQUESTS');
  });
});
