// The shared response cache (src/cache): storefront and anonymous catalog reads are answered
// from memory / Redis, keyed by organization, operation and arguments, locale, currency and
// customer groups; staff and admin callers never are; a catalog or price change reaches every
// API process (LISTEN/NOTIFY) so the next read shows it; ETag / 304 still hold.
//
// Two API instances share one database and one Redis (a key prefix unique to this run), as two
// processes would: each has its own LRU, its own listener connection and its own Redis client.
import { createHash, randomBytes } from 'node:crypto';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp, type App } from '../../src/app.js';
import { configFromEnv, resolveConfig } from '../../src/config/index.js';
import { listen, type Listening } from '../../src/http/listen.js';
import { PACKAGE_ROOT } from '../../src/paths.js';
import { startTestApp, TEST_BASE_URL, type TestApp } from '../support/app.js';
import { adjust, createEntity, createEntityWithVariants, createWarehouse } from '../inventory/helpers.js';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const overrides = { redisUrl: REDIS_URL, cache: { keyPrefix: `rc-test-${process.pid}-${randomBytes(4).toString('hex')}` } };

let a: TestApp;
let b: { app: App; server: Listening };
let admin: string;
let storefront: string;
let entityId: string;
let priceId: string;

async function get(base: string, urlPath: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: Headers; text: string; body: any }> {
  const res = await fetch(base + urlPath, { headers });
  const text = await res.text();
  return { status: res.status, headers: res.headers, text, body: text ? JSON.parse(text) : null };
}

async function postGraphql(base: string, body: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(`${base}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  const text = await res.text();
  return { status: res.status, headers: res.headers, text, body: JSON.parse(text) };
}

const persisted = (query: string) => ({ version: 1, sha256Hash: createHash('sha256').update(query).digest('hex') });

beforeAll(async () => {
  a = await startTestApp(overrides);
  const config = resolveConfig(
    {
      env: 'test',
      baseUrl: TEST_BASE_URL,
      databaseUrl: a.app.databaseUrl,
      // Its cache invalidation LISTENs: on the server itself, not through .ci/run's PgBouncer.
      databaseDirectUrl: a.app.directUrl,
      dataDir: path.join(PACKAGE_ROOT, '.test-data'),
      logLevel: 'silent',
      auth: { secret: 'test-secret-test-secret-test-secret-0123456789' },
    },
    overrides,
  );
  const app = await createApp(config, { migrate: false });
  b = { app, server: await listen(app.http, 0, '127.0.0.1') };
  admin = await a.apiKey('admin');
  storefront = await a.apiKey('storefront');
  entityId = (await createEntity(a, admin, { status: 'active' })).id;
  const prices = [{ amount: 2000 }, { amount: 1500, customerGroupId: 'wholesale' }, { amount: 1200, customerGroupId: 'gold' }];
  for (const body of prices) {
    const res = await a.request('/api/pricing/prices', { apiKey: admin, body: { entityId, currency: 'USD', ...body } });
    expect(res.status, res.text).toBe(201);
    if (!body.customerGroupId) priceId = res.body.data.id;
  }
});

afterAll(async () => {
  await b?.server.close();
  await b?.app.close();
  await a?.close();
});

describe('response cache', () => {
  it('answers a repeated anonymous or storefront catalog read from the cache, ETag and 304 kept', async () => {
    // Anonymous catalog reads are refused (401) by default: a storefront key is the usual caller.
    expect((await a.request('/api/catalog/entities?limit=5')).headers.get('x-cache')).toBe('miss');
    expect((await a.request('/api/catalog/entities?limit=5')).status).toBe(401);
    const first = await a.request('/api/catalog/entities?limit=5&include=pricing', { apiKey: storefront });
    expect(first.status, first.text).toBe(200);
    expect(first.headers.get('x-cache')).toBe('miss');
    const second = await a.request('/api/catalog/entities?include=pricing&limit=5', { apiKey: storefront }); // same query, other order: same key
    expect(second.headers.get('x-cache')).toBe('hit');
    expect(second.text).toBe(first.text);
    expect(second.headers.get('etag')).toBe(first.headers.get('etag'));
    expect(second.headers.get('content-type')).toBe(first.headers.get('content-type'));
    const notModified = await a.request('/api/catalog/entities?limit=5&include=pricing', { apiKey: storefront, headers: { 'if-none-match': first.headers.get('etag')! } });
    expect(notModified.status).toBe(304);
    expect(notModified.headers.get('x-cache')).toBe('hit');

    const viaKey = await a.request(`/api/catalog/entities/${entityId}`, { apiKey: storefront });
    expect(viaKey.headers.get('x-cache')).toBe('miss');
    expect((await a.request(`/api/catalog/entities/${entityId}`, { apiKey: storefront })).headers.get('x-cache')).toBe('hit');
  });

  it('never caches staff, admin or session callers, nor writes', async () => {
    for (let i = 0; i < 2; i++) expect((await a.request('/api/catalog/entities?limit=5', { apiKey: admin })).headers.get('x-cache')).toBeNull();
    const staff = await a.signIn('staff');
    for (let i = 0; i < 2; i++) expect((await a.request('/api/catalog/entities?limit=5', { bearer: staff.token })).headers.get('x-cache')).toBeNull();
    const shopper = await a.signIn('customer');
    for (let i = 0; i < 2; i++) expect((await a.request('/api/catalog/entities?limit=5', { cookie: shopper.cookie })).headers.get('x-cache')).toBeNull();
    // Not a catalog read: settings, carts.
    expect((await a.request('/api/settings/general', { apiKey: storefront })).headers.get('x-cache')).toBeNull();
  });

  it('a group price never reaches another group (persisted GraphQL, keyed by the variables)', async () => {
    const query =
      'query Price($id: String!, $groups: [String!]) { catalogEntity(idOrSlug: $id) { price(currency: "USD", customerGroupIds: $groups) { unitAmount customerGroupId } } }';
    const ask = (groups: string[] | null, withQuery: boolean) =>
      postGraphql(
        a.url,
        { ...(withQuery ? { query } : {}), operationName: 'Price', variables: { id: entityId, groups }, extensions: { persistedQuery: persisted(query) } },
        { 'x-api-key': storefront },
      );
    const wholesale = await ask(['wholesale'], true);
    expect(wholesale.body.data.catalogEntity.price, wholesale.text).toMatchObject({ unitAmount: 1500, customerGroupId: 'wholesale' });
    expect(wholesale.headers.get('x-cache')).toBe('miss');
    const again = await ask(['wholesale'], false); // hash only, as a persisted-query client sends it
    expect(again.headers.get('x-cache')).toBe('hit');
    expect(again.body.data.catalogEntity.price.unitAmount).toBe(1500);
    const gold = await ask(['gold'], false);
    expect(gold.headers.get('x-cache')).not.toBe('hit');
    expect(gold.body.data?.catalogEntity.price.unitAmount ?? null, gold.text).not.toBe(1500);
    const goldFull = await ask(['gold'], true);
    expect(goldFull.body.data.catalogEntity.price).toMatchObject({ unitAmount: 1200, customerGroupId: 'gold' });
    const none = await ask(null, true);
    expect(none.body.data.catalogEntity.price).toMatchObject({ unitAmount: 2000, customerGroupId: null });
    expect((await ask(['gold'], false)).body.data.catalogEntity.price.unitAmount).toBe(1200);
    expect((await ask(['wholesale'], false)).body.data.catalogEntity.price.unitAmount).toBe(1500);
    // A non-catalog document is never cached, persisted or not.
    const settingsQuery = 'query { __typename settings }';
    expect(
      (await postGraphql(a.url, { query: settingsQuery, extensions: { persistedQuery: persisted(settingsQuery) } }, { 'x-api-key': storefront })).headers.get('x-cache'),
    ).toBeNull();
    const mutation = 'mutation { catalogEntityDelete(id: "00000000-0000-4000-8000-000000000000") { id } }';
    expect((await postGraphql(a.url, { query: mutation, extensions: { persistedQuery: persisted(mutation) } })).headers.get('x-cache')).toBeNull();
  });

  it('a price change made through one instance is on the next read of both (LISTEN/NOTIFY, shared Redis)', async () => {
    const read = (base: string) => get(base, `/api/catalog/entities/${entityId}?include=pricing`, { 'x-api-key': storefront });
    const basePrice = (res: { body: any }) => res.body.data.pricing.find((p: any) => p.customerGroupId === null)?.amount;
    for (const base of [a.url, b.server.url]) {
      await read(base);
      const warm = await read(base);
      expect(warm.headers.get('x-cache')).toBe('hit');
      expect(basePrice(warm)).toBe(2000);
    }
    for (const [amount, writer, other] of [
      [2100, a.url, b.server.url],
      [2200, b.server.url, a.url],
    ] as const) {
      const patched = await fetch(`${writer}/api/pricing/prices/${priceId}`, {
        method: 'PATCH',
        headers: { 'x-api-key': admin, 'content-type': 'application/json' },
        body: JSON.stringify({ amount }),
      });
      expect(patched.status, await patched.text()).toBe(200);
      const started = Date.now();
      // The writer dropped its entries before answering: its next read is fresh.
      expect(basePrice(await read(writer))).toBe(amount);
      // The other instance hears the commit's notification; allowed one second, measured here.
      let seen: number | undefined;
      while (Date.now() - started < 1000) {
        seen = basePrice(await read(other));
        if (seen === amount) break;
        await new Promise((r) => setTimeout(r, 5));
      }
      expect(seen, `propagation after ${Date.now() - started} ms`).toBe(amount);
    }
  });

  it("an inventory or settings change also drops the organization's entries", async () => {
    const list = () => a.request('/api/catalog/entities?limit=3', { apiKey: storefront });
    await list();
    expect((await list()).headers.get('x-cache')).toBe('hit');
    const patched = await a.request('/api/settings/branding', { method: 'PATCH', apiKey: admin, body: { storeName: `Store ${randomBytes(2).toString('hex')}` } });
    expect(patched.status, patched.text).toBe(200);
    expect((await list()).headers.get('x-cache')).toBe('miss');
    expect((await list()).headers.get('x-cache')).toBe('hit');
    const { entity, variants } = await createEntityWithVariants(a, admin, ['S']);
    const warehouse = await createWarehouse(a, admin);
    await list();
    expect((await list()).headers.get('x-cache')).toBe('hit');
    await adjust(a, admin, { entityId: entity.id, variantId: variants[0].id, warehouseId: warehouse.id, type: 'restock', quantity: 5 });
    expect((await list()).headers.get('x-cache')).toBe('miss');
  });

  it('counts hits and misses in the metrics', async () => {
    const metrics = await a.request('/metrics');
    expect(metrics.text).toMatch(/commerce_response_cache_lookups_total\{outcome="hit",layer="memory"\} [1-9]/);
    expect(metrics.text).toMatch(/commerce_response_cache_lookups_total\{outcome="miss",layer="redis"\} [1-9]/);
  });

  it('RESPONSE_CACHE=off turns it off', async () => {
    expect(resolveConfig(configFromEnv({ RESPONSE_CACHE: 'off' })).cache.enabled).toBe(false);
    expect(resolveConfig(configFromEnv({})).cache).toMatchObject({ enabled: true, ttlSeconds: 60, maxEntries: 5000 });
  });
});
