// Findings 2–10 of the security review, each reproduced as it was found (these failed before the
// fixes) and asserted as users see it now.
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { startTestApp, type TestApp } from '../support/app.js';
import { ORDER_TEST_CONFIG, openStore, paymentSucceeded, placeOrder, product, sendWebhook, type Store } from '../orders/helpers.js';
import { isNonPublicAddress } from '../../src/modules/webhooks/targets.js';

let t: TestApp;
let store: Store;

beforeAll(async () => {
  // One rate point per 10 units of GraphQL cost, so the cost test needs no giant document.
  t = await startTestApp({ ...ORDER_TEST_CONFIG, rateLimit: { signIn: { points: 5, durationSeconds: 300 }, graphqlCostPerPoint: 10 } });
  store = await openStore(t);
});
afterAll(() => t?.close());

const form = (fields: Record<string, string>) => ({ rawBody: new URLSearchParams(fields).toString(), headers: { 'content-type': 'application/x-www-form-urlencoded' } });

describe('2. the per-email sign-in budget holds for every content type', () => {
  it('form-urlencoded sign-ins spend the same budget as JSON ones', async () => {
    const email = `victim-${Date.now()}@example.com`;
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await t.request('/api/auth/sign-in/email', { method: 'POST', ...form({ email, password: `guess-${i}` }) })).status);
    for (let i = 0; i < 2; i++) statuses.push((await t.request('/api/auth/sign-in/email', { body: { email: email.toUpperCase(), password: `guess-json-${i}` } })).status);
    expect(statuses.slice(0, 5).every((s) => s === 401)).toBe(true);
    expect(statuses[5]).toBe(429);
  });

  it('other content types are refused with 415 before any password is checked', async () => {
    const res = await t.request('/api/auth/sign-in/email', {
      method: 'POST',
      rawBody: JSON.stringify({ email: 'a@example.com', password: 'x' }),
      headers: { 'content-type': 'text/plain' },
    });
    expect(res.status).toBe(415);
    expect(res.body.error.code).toBe('UNSUPPORTED_MEDIA_TYPE');
  });
});

describe('3. a payment event confirms an order only for its own intent and its whole total', () => {
  let entityId: string;
  beforeAll(async () => {
    entityId = await product(store, { price: 1580, stock: 20 });
  });
  const orderOf = async (id: string) => (await t.request(`/api/orders/${id}`, { apiKey: store.admin })).body.data;

  it('an event without data.object.id changes nothing', async () => {
    const order = await placeOrder(store, [{ entityId }]);
    const event = paymentSucceeded(order);
    delete (event.data.object as { id?: unknown }).id;
    const res = await sendWebhook(t, event);
    expect(res.status).toBe(200);
    expect(res.body.data.outcome).toBe('ignored: event has no payment intent id');
    expect(await orderOf(order.id)).toMatchObject({ status: 'pending', paymentStatus: 'awaiting_payment' });
  });

  it("another intent's event changes nothing", async () => {
    const order = await placeOrder(store, [{ entityId }]);
    const res = await sendWebhook(t, paymentSucceeded({ ...order, paymentIntentId: 'pi_someone_else' }));
    expect(res.body.data.outcome).toBe('ignored: payment intent does not match the order');
    expect((await orderOf(order.id)).status).toBe('pending');
  });

  it('amount 1 for an order of 1580 records partially_paid; the rest confirms it', async () => {
    const order = await placeOrder(store, [{ entityId }]);
    expect(order.grandTotal).toBeGreaterThan(1);
    const short = paymentSucceeded(order);
    Object.assign(short.data.object, { amount: 1, amount_received: 1 });
    const first = await sendWebhook(t, short);
    expect(first.body.data.outcome).toBe('partially_paid');
    expect(await orderOf(order.id)).toMatchObject({ status: 'pending', paymentStatus: 'partially_paid', capturedAmount: 1 });

    const rest = paymentSucceeded(order);
    Object.assign(rest.data.object, { amount: order.grandTotal - 1, amount_received: order.grandTotal - 1 });
    const second = await sendWebhook(t, rest);
    expect(second.body.data.outcome).toBe('confirmed');
    expect(await orderOf(order.id)).toMatchObject({ status: 'confirmed', paymentStatus: 'paid', capturedAmount: order.grandTotal });
  });

  it('a payment in another currency does not count', async () => {
    const order = await placeOrder(store, [{ entityId }]);
    const event = paymentSucceeded(order);
    Object.assign(event.data.object, { currency: 'eur' });
    expect((await sendWebhook(t, event)).body.data.outcome).toMatch(/^ignored: payment currency eur/);
    expect((await orderOf(order.id)).paymentStatus).toBe('awaiting_payment');
  });
});

describe('4. raw price lists need pricing:update', () => {
  it('a storefront key (pricing:read) cannot list prices or modifiers; an admin can', async () => {
    expect((await t.request('/api/pricing/prices', { apiKey: store.storefront })).status).toBe(403);
    expect((await t.request('/api/pricing/modifiers', { apiKey: store.storefront })).status).toBe(403);
    const gql = await t.graphql('{ prices { data { id } } }', {}, { apiKey: store.storefront });
    expect(gql.body.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    expect((await t.request('/api/pricing/prices', { apiKey: store.admin })).status).toBe(200);
  });
});

describe('5. GraphQL aliases do not multiply work under one rate-limit unit', () => {
  const validation = (i: number) => `v${i}: promotionValidation(code: "GUESS${i}", currency: "USD", subtotal: 100, lineItems: []) { valid reason }`;

  it('thirty promotionValidation aliases in one request check one code, not thirty', async () => {
    const customer = await t.signIn('customer');
    const res = await t.graphql(`{ ${Array.from({ length: 30 }, (_, i) => validation(i)).join(' ')} }`, {}, { bearer: customer.token });
    // The field is non-null, so the refused aliases null the whole answer: nothing is learnt.
    const answered = Object.values(res.body.data ?? {}).filter(Boolean);
    expect(answered.length, res.text).toBeLessThanOrEqual(1);
    expect(res.body.errors!.length).toBeGreaterThan(0);
    expect(res.body.errors!.every((e: any) => e.extensions.code === 'TOO_MANY_REQUESTS')).toBe(true);
    // One code per request over GraphQL still works.
    const one = await t.graphql(`{ ${validation(0)} }`, {}, { bearer: customer.token });
    expect(one.body.data).toEqual({ v0: { valid: false, reason: 'NOT_FOUND' } });
  });

  it('a session spends its guess budget one code at a time', async () => {
    const limited = await startTestApp({ rateLimit: { guess: { points: 3, durationSeconds: 60 } } });
    try {
      const customer = await limited.signIn('customer');
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++) {
        statuses.push(
          (await limited.request('/api/promotions/validate', { bearer: customer.token, body: { code: `G${i}`, currency: 'USD', subtotal: 100, lineItems: [] } })).status,
        );
      }
      expect(statuses).toEqual([200, 200, 200, 429]);
    } finally {
      await limited.close();
    }
  });

  it('an operation is charged by its cost: a wide selection takes more than one point', async () => {
    const small = await t.graphql('{ settings }', {}, { apiKey: store.admin });
    const before = Number(small.headers.get('x-ratelimit-remaining'));
    const fields = Array.from({ length: 25 }, (_, i) => `s${i}: settings`).join(' ');
    const wide = await t.graphql(`{ ${fields} a: catalogEntities(limit: 5) { data { id slug status type createdAt updatedAt } } }`, {}, { apiKey: store.admin });
    const after = Number(wide.headers.get('x-ratelimit-remaining'));
    expect(wide.body.errors).toBeUndefined();
    expect(before - after).toBeGreaterThan(1);
  });
});

describe("6. foreign keys in bodies must name rows of the caller's organization", () => {
  it('a tax class of another organization, or of nothing, is 422 naming taxClassId', async () => {
    const other = await t.app.db.organization.create({ data: { slug: `fk-${Date.now()}`, name: 'Other' } });
    const otherAdmin = await t.apiKey('admin', { organizationId: other.id });
    const created = await t.request('/api/tax/classes', { apiKey: otherAdmin, body: { name: 'theirs', rateBps: 1000 } });
    expect(created.status, created.text).toBe(201);
    const foreign = created.body.data.id;
    for (const taxClassId of [foreign, '0d9c8b7a-6f5e-4d3c-8b2a-1f0e9d8c7b6a']) {
      const res = await t.request('/api/catalog/entities', { apiKey: store.admin, body: { type: 'product', slug: `fk-${Math.random().toString(36).slice(2)}`, taxClassId } });
      expect(res.status).toBe(422);
      expect(res.body.error.details).toEqual([{ field: 'taxClassId', message: 'no such tax class in this organization' }]);
    }
    const mine = (await t.request('/api/tax/classes', { apiKey: store.admin, body: { name: `mine-${Date.now()}`, rateBps: 500 } })).body.data.id;
    const ok = await t.request('/api/catalog/entities', { apiKey: store.admin, body: { type: 'product', slug: `fk-ok-${Date.now()}`, taxClassId: mine } });
    expect(ok.status).toBe(201);
    const patched = await t.request(`/api/catalog/entities/${ok.body.data.id}`, { method: 'PATCH', apiKey: store.admin, body: { taxClassId: foreign } });
    expect(patched.status).toBe(422);
    expect((await t.request(`/api/catalog/entities/${ok.body.data.id}`, { apiKey: store.admin })).body.data.taxClassId).toBe(mine);
  });
});

describe('7. every spelling of an address is normalised before the private-range test', () => {
  it.each(['::127.0.0.1', '::7f00:1', '::ffff:127.0.0.1', '::ffff:7f00:1', '0:0:0:0:0:ffff:a00:1', '64:ff9b::10.0.0.1', '2002:a9fe:a9fe::1', '2001::1', '::'])(
    '%s is not public',
    (address) => {
      expect(isNonPublicAddress(address)).toBe(true);
    },
  );
  it.each(['8.8.8.8', '2606:4700:4700::1111', '64:ff9b::8.8.8.8', '2002:808:808::1'])('%s is public', (address) => {
    expect(isNonPublicAddress(address)).toBe(false);
  });

  it('a production server refuses http://[::127.0.0.1]/ as a webhook target', async () => {
    const prod = await startTestApp({ webhooks: { allowPrivateTargets: false } });
    try {
      const admin = await prod.apiKey('admin');
      for (const url of ['http://[::127.0.0.1]/hook', 'http://[::ffff:7f00:1]/hook', 'http://[0:0:0:0:0:0:7f00:1]/hook']) {
        const res = await prod.request('/api/webhooks', { apiKey: admin, body: { url, events: ['orders.create'] } });
        expect(res.status, url).toBe(422);
      }
    } finally {
      await prod.close();
    }
  });
});

describe('8. a NUL character is 422 wherever it comes in', () => {
  it('in a path parameter, a query value, a JSON string, a settings value and a GraphQL literal', async () => {
    const cases = [
      await t.request('/api/catalog/entities/abc%00def', { apiKey: store.admin }),
      await t.request('/api/catalog/entities?type=pro%00duct', { apiKey: store.admin }),
      await t.request('/api/catalog/entities', { apiKey: store.admin, body: { type: 'product', slug: 'nul\u0000slug' } }),
      await t.request('/api/settings/general', { method: 'PATCH', apiKey: store.admin, body: { storeName: 'Shop\u0000' } }),
      await t.request('/api/settings/general', { method: 'PATCH', apiKey: store.admin, body: { 'key\u0000': 'x' } }),
      await t.request('/graphql', { apiKey: store.admin, body: { query: '{ catalogEntity(idOrSlug: "a\\u0000b") { id } }' } }),
      await t.request('/graphql', { apiKey: store.admin, body: { query: 'query($s: String!) { catalogEntity(idOrSlug: $s) { id } }', variables: { s: 'a\u0000b' } } }),
      await t.request('/api/auth/sign-in/email', { method: 'POST', ...form({ email: 'x\u0000@example.com', password: 'p' }) }),
    ];
    for (const res of cases) {
      expect(res.status, res.text).toBe(422);
      expect(res.body.error.code).toBe('VALIDATION_FAILED');
      expect(res.body.error.details[0].message).toContain('NUL');
    }
    expect(cases[2]!.body.error.details[0].field).toBe('slug');
  });

  it('text that merely shows the escape is accepted', async () => {
    const res = await t.request('/api/catalog/entities', {
      apiKey: store.admin,
      body: { type: 'product', slug: `escape-${Date.now()}`, metadata: { note: 'the sequence \\u0000 in docs' } },
    });
    expect(res.status, res.text).toBe(201);
  });
});

describe('9. production does not hand out the schema, and 409s do not name constraints', () => {
  it('anonymous introspection, suggestions and GraphiQL are off in production; staff keys may introspect', async () => {
    const prod = await startTestApp({ env: 'production', auth: { secret: 'prod-secret-prod-secret-prod-secret-0123456789' }, payments: { webhookSecret: 'whsec_x' } });
    try {
      const anonymous = await prod.graphql('{ __schema { queryType { name } } }');
      expect(anonymous.body.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
      const typeQuery = await prod.graphql('query { ...F } fragment F on Query { __type(name: "Query") { name } }');
      expect(typeQuery.body.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
      const customer = await prod.signIn('customer');
      expect((await prod.graphql('{ __schema { queryType { name } } }', {}, { bearer: customer.token })).body.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
      const admin = await prod.apiKey('admin');
      expect((await prod.graphql('{ __schema { queryType { name } } }', {}, { apiKey: admin })).body.data).toEqual({ __schema: { queryType: { name: 'Query' } } });
      expect((await prod.graphql('{ __typename }')).body.data).toEqual({ __typename: 'Query' });

      const typo = await prod.graphql('{ setings }', {}, { apiKey: admin });
      expect(JSON.stringify(typo.body.errors)).not.toContain('Did you mean');

      const page = await prod.request('/graphql', { headers: { accept: 'text/html' } });
      expect(page.text).not.toContain('GraphiQL');
    } finally {
      await prod.close();
    }
    // Development keeps all three.
    expect(JSON.stringify((await t.graphql('{ setings }', {}, { apiKey: store.admin })).body.errors)).toContain('Did you mean');
    expect((await t.graphql('{ __schema { queryType { name } } }')).body.data).toBeTruthy();
  });

  it('a duplicate slug is 409 naming the field, not the database constraint', async () => {
    const slug = `dup-${Date.now()}`;
    expect((await t.request('/api/catalog/entities', { apiKey: store.admin, body: { type: 'product', slug } })).status).toBe(201);
    const res = await t.request('/api/catalog/entities', { apiKey: store.admin, body: { type: 'product', slug } });
    expect(res.status).toBe(409);
    expect(res.text).not.toMatch(/_key|_idx|organization_id|constraint/);
  });
});

describe('10. a client that hangs up is not a server error', () => {
  it('an aborted request is logged at debug with its request id, never at error', async () => {
    const lines: Array<{ level: number; msg: string; reqId?: string }> = [];
    const sink = new Writable({
      write(chunk, _encoding, done) {
        for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line));
        done();
      },
    });
    const logged = await startTestApp({}, { logger: pino({ level: 'debug' }, sink) });
    try {
      const admin = await logged.apiKey('admin');
      for (let i = 0; i < 3; i++) {
        const controller = new AbortController();
        const body = new ReadableStream({
          start(c) {
            c.enqueue(new TextEncoder().encode('{"query":"{ settings '));
            setTimeout(() => controller.abort(), 100);
          },
        });
        await fetch(`${logged.url}/graphql`, {
          method: 'POST',
          body,
          headers: { 'content-type': 'application/json', 'x-api-key': admin },
          signal: controller.signal,
          duplex: 'half',
        } as RequestInit).catch(() => undefined);
      }
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(lines.filter((l) => l.level >= 50)).toEqual([]);
      const aborted = lines.filter((l) => l.msg === 'client closed the request');
      expect(aborted.length).toBe(3);
      expect(aborted.every((l) => typeof l.reqId === 'string')).toBe(true);
    } finally {
      await logged.close();
    }
  });
});

describe("2b. mail-sending auth endpoints spend the address's budget too", () => {
  it('password-reset requests for one address are limited (no inbox flooding)', async () => {
    const email = `flood-${Date.now()}@example.com`;
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await t.request('/api/auth/request-password-reset', { body: { email, redirectTo: 'http://localhost:3000/reset' } })).status);
    expect(statuses.slice(0, 5)).toEqual([200, 200, 200, 200, 200]);
    expect(statuses[5]).toBe(429);
  });
});
