// src/graphql/request-caches.ts: scope-auth's per-request cache (RequestCache, in a module-level
// WeakMap keyed by the GraphQL context) is dropped once an execution is done, on every path that
// executes: the REST facade, /graphql through Yoga, and /graphql's fast lane. Left in the WeakMap,
// the entry kept the request's whole object graph alive through V8's young-generation collections
// until a full one (each settings read promoted ~5 KB to the old generation, a catalog page more).
// The test watches scope-auth's own two entry points: every context a cache was made for must
// have had it cleared after the last time it was asked for.
import { RequestCache } from '@pothos/plugin-scope-auth';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';

let t: TestApp;
let key: string;
let entityId: string;

beforeAll(async () => {
  t = await startTestApp();
  key = await t.apiKey('admin');
  const created = await t.request('/api/catalog/entities', { apiKey: key, body: { type: 'product', slug: 'cache-release', status: 'active' } });
  expect(created.status).toBe(201);
  entityId = created.body.data.id;
});
afterAll(() => t.close());
afterEach(() => vi.restoreAllMocks());

/** What scope-auth was asked, in order: a cache for a context, or to clear a context's cache. */
function watchRequestCaches(): Array<['from' | 'clear', object]> {
  const events: Array<['from' | 'clear', object]> = [];
  const from = RequestCache.fromContext.bind(RequestCache);
  const clear = RequestCache.clearForContext.bind(RequestCache);
  vi.spyOn(RequestCache, 'fromContext').mockImplementation((context, builder) => {
    events.push(['from', context as object]);
    return from(context, builder);
  });
  vi.spyOn(RequestCache, 'clearForContext').mockImplementation((context) => {
    events.push(['clear', context as object]);
    clear(context);
  });
  return events;
}

/** The contexts whose last event was not a clear: their cache is still in scope-auth's WeakMap. */
function leftBehind(events: Array<['from' | 'clear', object]>): object[] {
  const last = new Map<object, 'from' | 'clear'>();
  for (const [kind, context] of events) last.set(context, kind);
  return [...last].filter(([, kind]) => kind === 'from').map(([context]) => context);
}

describe('scope-auth request caches', () => {
  it('are released after a REST read and a REST write', async () => {
    const events = watchRequestCaches();
    expect((await t.request('/api/settings/general', { apiKey: key })).status).toBe(200);
    expect((await t.request(`/api/catalog/entities/${entityId}?include=variants`, { apiKey: key })).status).toBe(200);
    const updated = await t.request(`/api/catalog/entities/${entityId}`, { apiKey: key, method: 'PATCH', body: { metadata: { release: true } } });
    expect(updated.status).toBe(200);
    expect(events.some(([kind]) => kind === 'from')).toBe(true);
    expect(leftBehind(events)).toEqual([]);
  });

  it('are released after /graphql through Yoga and through the fast lane (the second sighting of a document)', async () => {
    const events = watchRequestCaches();
    const query = `{ catalogEntity(idOrSlug: "${entityId}") { id slug variants { id } } settingsGroup(group: "general") }`;
    for (let i = 0; i < 3; i++) {
      const res = await t.graphql(query, {}, { apiKey: key });
      expect(res.status).toBe(200);
      expect(res.body.errors).toBeUndefined();
      expect(res.body.data?.catalogEntity?.id).toBe(entityId);
    }
    expect(events.filter(([kind]) => kind === 'clear').length).toBeGreaterThanOrEqual(3);
    expect(leftBehind(events)).toEqual([]);
  });

  it('are released when the operation is refused by a field’s permission, and the refusal is unchanged', async () => {
    const storefront = await t.apiKey('storefront');
    const events = watchRequestCaches();
    const res = await t.graphql('{ settingsGroup(group: "general") }', {}, { apiKey: storefront });
    expect(res.status).toBe(200);
    expect(res.body.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    expect(leftBehind(events)).toEqual([]);
  });
});
