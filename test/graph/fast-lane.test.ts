// /graphql's fast lane (src/graphql/fast-lane.ts) answers a document Yoga has validated before
// without Yoga's pipeline. It must answer exactly as Yoga does: two apps, one with the lane and one
// without (graphql.fastLane: false), are sent the same requests, each three times (the first goes
// to Yoga on both, the next ones take the lane on the first app), and every status, content type
// and body must be equal: data, refusals of scope-auth, the cost and introspection guards, variable
// errors with their details, persisted queries, Accept negotiation.
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { regularMediaType } from '../../src/graphql/fast-lane.js';

interface Side {
  t: TestApp;
  keys: Record<'admin' | 'storefront', string>;
}

let lane: Side;
let yoga: Side;

async function side(fastLane: boolean): Promise<Side> {
  const t = await startTestApp({ graphql: { fastLane, publicIntrospection: false } });
  const keys = { admin: await t.apiKey('admin'), storefront: await t.apiKey('storefront') };
  const created = await t.request('/api/catalog/entities', { apiKey: keys.admin, body: { type: 'product', slug: 'lane-product', status: 'active' } });
  expect(created.status).toBe(201);
  return { t, keys };
}

beforeAll(async () => {
  [lane, yoga] = await Promise.all([side(true), side(false)]);
});
afterAll(async () => {
  await lane?.t.close();
  await yoga?.t.close();
});

const sha = (text: string) => createHash('sha256').update(text).digest('hex');

/** What may differ between two databases: ids, timestamps, request ids. */
function normalized(text: string): string {
  return text.replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, '<uuid>').replace(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z/g, '<time>');
}

async function send(s: Side, who: 'admin' | 'storefront' | 'anonymous', body: unknown, accept?: string) {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (who !== 'anonymous') headers['x-api-key'] = s.keys[who];
  if (accept) headers.accept = accept;
  const res = await fetch(`${s.t.url}/graphql`, { method: 'POST', headers, body: JSON.stringify(body) });
  return { status: res.status, type: res.headers.get('content-type'), body: normalized(await res.text()) };
}

const cases: Array<{ name: string; body: unknown; who: Array<'admin' | 'storefront' | 'anonymous'>; accept?: string[] }> = [
  { name: 'a trivial read', body: { query: '{ settingsGroup(group: "general") }' }, who: ['admin', 'storefront', 'anonymous'] },
  {
    name: 'a read with variables',
    body: { query: 'query P($slug: String!) { catalogEntity(idOrSlug: $slug) { id slug status createdAt } }', variables: { slug: 'lane-product' } },
    who: ['admin', 'storefront', 'anonymous'],
    accept: ['application/json', 'application/graphql-response+json', 'application/graphql-response+json, application/json;q=0.9', '*/*', 'text/event-stream', 'text/html'],
  },
  {
    name: 'a missing entity',
    body: { query: 'query P($slug: String!) { catalogEntity(idOrSlug: $slug) { id } }', variables: { slug: 'no-such-product' } },
    who: ['admin'],
  },
  { name: 'a missing variable', body: { query: 'mutation M($id: UUID!) { catalogEntityPublish(id: $id) { id } }' }, who: ['admin', 'storefront'] },
  { name: 'a malformed variable', body: { query: 'mutation M($id: UUID!) { catalogEntityPublish(id: $id) { id } }', variables: { id: 'nope' } }, who: ['admin'] },
  { name: 'a staff-only list', body: { query: '{ orders(limit: 1) { data { id } } }' }, who: ['admin', 'storefront', 'anonymous'] },
  { name: 'introspection', body: { query: '{ __schema { queryType { name } } }' }, who: ['admin', 'storefront', 'anonymous'] },
  {
    name: 'an operation over the cost limit',
    body: { query: '{ catalogEntities(limit: 100) { data { variants { id } categories { id } brands { id } } } }' },
    who: ['admin'],
  },
  {
    name: 'a named operation of several',
    body: { query: 'query A { settingsGroup(group: "general") } query B { __typename }', operationName: 'B' },
    who: ['admin'],
  },
  { name: 'an unknown operation name', body: { query: 'query A { __typename }', operationName: 'C' }, who: ['admin'] },
  { name: 'an unexpected parameter', body: { query: '{ __typename }', other: 1 }, who: ['admin'] },
];

describe('the /graphql fast lane answers as Yoga does', () => {
  for (const { name, body, who, accept } of cases) {
    it(name, async () => {
      for (const caller of who) {
        for (const type of accept ?? [undefined]) {
          for (let round = 0; round < 3; round++) {
            const [fast, slow] = await Promise.all([send(lane, caller, body, type), send(yoga, caller, body, type)]);
            expect({ caller, accept: type, round, ...fast }).toEqual({ caller, accept: type, round, ...slow });
          }
        }
      }
    });
  }

  it('refuses on the lane what scope-auth refuses: a document validated for an admin key is no pass for a storefront key', async () => {
    const query = '{ orders(limit: 1) { data { id } } }';
    expect((await send(lane, 'admin', { query })).status).toBe(200);
    const refused = JSON.parse((await send(lane, 'storefront', { query })).body);
    expect(refused.data.orders).toBeNull();
    expect(refused.errors[0].extensions.code).toBe('FORBIDDEN');
  });

  it('answers a request error with one status on every sighting, before and after its document is compiled', async () => {
    // GraphQL over HTTP: 200 for application/json, 400 for application/graphql-response+json.
    for (const [accept, status] of [
      ['application/json', 200],
      ['application/graphql-response+json', 400],
    ] as const) {
      const query = `mutation Missing${Date.now()}($id: UUID!) { catalogEntityPublish(id: $id) { id } }`;
      for (const s of [lane, yoga]) {
        const statuses: number[] = [];
        for (let i = 0; i < 4; i++) {
          const answer = await send(s, 'admin', { query }, accept);
          statuses.push(answer.status);
          const extensions = JSON.parse(answer.body).errors[0].extensions;
          expect(extensions).toMatchObject({ code: 'VALIDATION_FAILED', details: [{ field: 'id', message: 'is required' }] });
          expect(extensions.http).toBeUndefined();
        }
        expect(statuses).toEqual([status, status, status, status]);
      }
    }
  });

  it('answers a persisted hash registered through Yoga, per caller', async () => {
    const query = `query Persisted${Date.now()} { settingsGroup(group: "general") }`;
    const extensions = { persistedQuery: { version: 1, sha256Hash: sha(query) } };
    const registered = JSON.parse((await send(lane, 'admin', { query, extensions })).body);
    expect(registered.errors).toBeUndefined();
    for (let i = 0; i < 2; i++) expect(JSON.parse((await send(lane, 'admin', { extensions })).body)).toEqual(registered);
    // Another caller never registered it: not found, as Yoga says.
    const other = JSON.parse((await send(lane, 'storefront', { extensions })).body);
    expect(other.errors[0].extensions.code).toBe('PERSISTED_QUERY_NOT_FOUND');
  });

  it('charges the cost of an operation to the rate budget on the lane as on Yoga', async () => {
    const t = await startTestApp({ rateLimit: { authenticated: { points: 50, durationSeconds: 60 }, graphqlCostPerPoint: 10 } });
    try {
      const key = await t.apiKey('admin');
      const query = '{ catalogEntities(limit: 100) { data { id } } }';
      const remaining: number[] = [];
      for (let i = 0; i < 3; i++) {
        const res = await fetch(`${t.url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': key }, body: JSON.stringify({ query }) });
        expect(res.status).toBe(200);
        await res.text();
        remaining.push(Number(res.headers.get('x-ratelimit-remaining')));
      }
      // Each answer's header is what was left after that request's first point; its cost was
      // charged after (guards.ts): the same drop between every two requests, lane or not.
      expect(remaining[0]! - remaining[1]!).toBeGreaterThan(1);
      expect(remaining[1]! - remaining[2]!).toBe(remaining[0]! - remaining[1]!);
    } finally {
      await t.close();
    }
  });
});

describe('regularMediaType', () => {
  it('picks the JSON type Yoga would, or none when Yoga would stream or refuse', () => {
    expect(regularMediaType(null)).toBe('application/json');
    expect(regularMediaType('*/*')).toBe('application/json');
    expect(regularMediaType('application/graphql-response+json')).toBe('application/graphql-response+json');
    expect(regularMediaType('application/graphql-response+json, application/json')).toBe('application/graphql-response+json');
    expect(regularMediaType('application/json, application/graphql-response+json')).toBe('application/json');
    expect(regularMediaType('application/*')).toBe('application/json');
    expect(regularMediaType('text/event-stream')).toBeNull();
    expect(regularMediaType('application/json; charset=latin1')).toBeNull();
  });
});
