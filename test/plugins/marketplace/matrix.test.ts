// plugins/marketplace under the suite's generic checks, with the plugin enabled (the core's
// permission matrix and fuzz run without plugins): every /api/marketplace operation
//   - called by seven actors answers what its access rule declares (401 anonymous, 403 without
//     the permission; with it never 401, never 5xx; a 403 only where the route is for a vendor
//     or a customer identity the caller does not have), and the other organization's admin
//     never gets this organization's ids;
//   - fuzzed with generated valid and invalid inputs (fast-check, from /api/doc) never answers
//     5xx and every 4xx has the error envelope;
//   - called over GraphQL by an admin never answers an internal error.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { getNamedType, type GraphQLField } from 'graphql';
import type { TestApp } from '../../support/app.js';
import { pay, type Store } from '../../orders/helpers.js';
import { accessRefusal } from '../../../src/graphql/operation.js';
import { permissionsFromMap } from '../../../src/auth/permissions.js';
import { keyAlone } from '../../security/matrix-support.js';
import { buildSchema } from '../../../src/schema.js';
import {
  buildRequest,
  hintFor,
  IdPool,
  invalidArbitrary,
  junk,
  queryParam,
  registryRoutes,
  resolveRefs,
  uuidsIn,
  validArbitrary,
  type Credential,
  type Route,
} from '../../security/registry-inputs.js';
import { graphqlDocument } from '../../security/matrix-support.js';
import { M, buy, startMarketplace, vendor, vendorProduct, type Vendor } from './helpers.js';

let t: TestApp;
let store: Store;
let doc: Record<string, any>;
let pool: IdPool;
let routes: Route[];
let v: Vendor;
const mine = new Set<string>();
const actors: Array<{ name: string; credential: Credential; permissions: string[] | null; kind?: 'user' | 'apiKey'; customerId?: string; other?: boolean }> = [];

/** Routes whose handler also needs an identity: the vendor's (portal, response) or a customer's (review). */
const IDENTITY =
  /^marketplaceVendorMe|^marketplaceDisputeRespond$|^marketplaceVendorReviewCreate$|^marketplace(Dispute|Return)(Create|ShipBack|Escalate|Receive)$|^marketplaceDisputes$/;

beforeAll(async () => {
  ({ t, store } = await startMarketplace());
  v = await vendor(t, store.admin, { name: 'Matrix vendor' });
  const customer = await t.signIn('customer');
  const p = await vendorProduct(store, v.id, { price: 2_000 });
  const placed = await pay(store, await buy(store, [{ entityId: p, quantity: 2 }], { bearer: customer.token }));
  const [sub] = (await t.request(`${M}/sub-orders?orderId=${placed.id}`, { apiKey: store.admin })).body.data;
  for (const [action, body] of [['confirm'], ['ship', { trackingNumber: 'T', carrier: 'UPS' }], ['deliver']] as const) {
    expect((await t.request(`${M}/vendor/me/orders/${sub.id}/${action}`, { method: 'POST', bearer: v.token, ...(body ? { body } : {}) })).status).toBe(200);
  }
  expect((await t.request(`${M}/disputes`, { bearer: customer.token, body: { subOrderId: sub.id, reason: 'x' } })).status).toBe(201);
  expect(
    (await t.request(`${M}/returns`, { bearer: customer.token, body: { subOrderId: sub.id, reason: 'x', lines: [{ subOrderLineId: sub.lines[0].id, quantity: 1 }] } })).status,
  ).toBe(201);
  expect((await t.request(`${M}/vendors/${v.id}/reviews`, { bearer: customer.token, body: { subOrderId: sub.id, rating: 5 } })).status).toBe(201);
  expect((await t.request(`${M}/commission-rules`, { apiKey: store.admin, body: { name: 'global', rateBps: 100 } })).status).toBe(201);
  for (const id of [v.id, sub.id, placed.id]) mine.add(id);

  const other = await t.app.services.organizations.create({ slug: `mkt-matrix-${Date.now()}`, name: 'Other' });
  const roles = t.app.config.auth.roles;
  const staff = await t.signIn('staff');
  actors.push(
    { name: 'anonymous', credential: {}, permissions: null },
    { name: 'customer', credential: { bearer: customer.token }, permissions: roles.customer!, kind: 'user', customerId: 'c' },
    {
      name: 'storefront key',
      credential: { apiKey: store.storefront },
      permissions: keyAlone(permissionsFromMap(t.app.config.apiKeyScopes.storefront!.permissions)),
      kind: 'apiKey',
    },
    { name: 'staff', credential: { bearer: staff.token }, permissions: roles.staff!, kind: 'user' },
    { name: 'vendor user', credential: { bearer: v.token }, permissions: roles.vendor!, kind: 'user' },
    { name: 'admin of another organization', credential: { apiKey: await t.apiKey('admin', { organizationId: other.id }) }, permissions: ['*:*'], kind: 'apiKey', other: true },
    { name: 'admin key', credential: { apiKey: store.admin }, permissions: ['*:*'], kind: 'apiKey' },
  );
  doc = (await t.request('/api/doc')).body;
  pool = new IdPool(t, { apiKey: store.admin });
  routes = registryRoutes().filter((r) => r.path.startsWith('/marketplace/'));
}, 240_000);
afterAll(() => t?.close());

describe('marketplace under the generic checks', () => {
  it('every route × seven actors answers per its access rule, with no foreign ids', async () => {
    expect(routes).toHaveLength(45);
    const problems: string[] = [];
    for (const route of routes) {
      const request = await buildRequest(doc, route, pool);
      for (const actor of actors) {
        const res = await t.request(request.path, { method: request.method, body: request.body, ...actor.credential });
        const label = `${route.method} ${route.path} as ${actor.name} → ${res.status}`;
        const refusal = accessRefusal(route.access, actor.permissions ? { permissions: actor.permissions, kind: actor.kind, customerId: actor.customerId } : null);
        const want = refusal ? (refusal.code === 'UNAUTHORIZED' ? 401 : 403) : null;
        if (res.status >= 500) problems.push(`${label}: server error ${res.text.slice(0, 200)}`);
        else if (want !== null && res.status !== want) problems.push(`${label}: expected ${want}`);
        else if (want === null && (res.status === 401 || (res.status === 403 && !IDENTITY.test(route.name))))
          problems.push(`${label}: expected access (${res.text.slice(0, 160)})`);
        if (res.status >= 400 && !(res.body?.error?.code && res.body?.error?.message)) problems.push(`${label}: no error envelope`);
        if (actor.other && res.status < 300) {
          const sent = uuidsIn(request.path + JSON.stringify(request.body ?? null));
          const leaks = [...uuidsIn(res.body)].filter((id) => mine.has(id) && !sent.has(id));
          if (leaks.length) problems.push(`${label}: LEAK ${leaks.join(', ')}`);
        }
      }
    }
    expect(problems).toEqual([]);
  }, 600_000);

  it('every operation over GraphQL (admin) answers without an internal error', async () => {
    const schema = buildSchema();
    const problems: string[] = [];
    for (const route of routes) {
      const { args } = await buildRequest(doc, route, pool);
      const kind = route.method === 'GET' ? 'query' : 'mutation';
      const field = (kind === 'query' ? schema.getQueryType()! : schema.getMutationType()!).getFields()[route.name] as GraphQLField<unknown, unknown>;
      if (!field) {
        problems.push(`${route.name}: no GraphQL field`);
        continue;
      }
      // Every marketplace operation answers a typed object (a page, a list or one object), selected field by field.
      expect(getNamedType(field.type).name).not.toBe('JSON');
      const { query, variables } = graphqlDocument(schema, kind, route.name, args);
      const res = await t.request('/graphql', { method: 'POST', apiKey: store.admin, body: { query, variables } });
      const codes = (res.body?.errors ?? []).map((e: any) => e.extensions?.code ?? 'NONE');
      if (res.status >= 500 || codes.some((c: string) => c === 'INTERNAL_SERVER_ERROR' || c === 'NONE')) problems.push(`${route.name}: ${res.status} ${res.text.slice(0, 200)}`);
    }
    expect(problems).toEqual([]);
  }, 600_000);

  it('generated valid and invalid inputs never get a 5xx, and every 4xx the error envelope', async () => {
    const failures: string[] = [];
    let operations = 0;
    for (const [openApiPath, methods] of Object.entries<Record<string, any>>(doc.paths)) {
      if (!openApiPath.startsWith('/api/marketplace/')) continue;
      for (const [method, entry] of Object.entries<any>(methods)) {
        if (!['get', 'post', 'put', 'patch', 'delete'].includes(method)) continue;
        operations += 1;
        const parameters: any[] = resolveRefs(doc, entry.parameters ?? []);
        const bodySchema = resolveRefs(doc, entry.requestBody?.content?.['application/json']?.schema);
        const pathParams = parameters.filter((p) => p.in === 'path');
        const live: Record<string, string> = {};
        for (const p of pathParams) live[p.name] = hintFor(p.name, p.schema) ?? (await pool.idFor(p.name)) ?? '00000000-0000-4000-8000-000000000000';
        const pathArb = fc.record(
          Object.fromEntries(
            pathParams.map((p) => [
              p.name,
              fc.oneof({ weight: 3, arbitrary: fc.constant(live[p.name]!) }, { weight: 1, arbitrary: junk.map((x) => (typeof x === 'string' ? x : JSON.stringify(x))) }),
            ]),
          ),
        );
        const queryParams = parameters.filter((p) => p.in === 'query');
        const queryArb = fc.record(Object.fromEntries(queryParams.map((p) => [p.name, fc.oneof(validArbitrary(p.schema), junk)])), { requiredKeys: [] });
        const bodyArb = bodySchema ? fc.oneof(validArbitrary(bodySchema), invalidArbitrary(bodySchema)) : fc.constant(undefined);
        try {
          await fc.assert(
            fc.asyncProperty(fc.tuple(pathArb, queryArb, bodyArb), async ([params, query, body]) => {
              const path = openApiPath.replace(/\{([^}]+)\}/g, (_m, name: string) => encodeURIComponent((params as Record<string, string>)[name] ?? ''));
              const qs = new URLSearchParams();
              for (const [key, value] of Object.entries(query)) qs.set(key, queryParam(value));
              const url = `${path}${qs.toString() ? `?${qs}` : ''}`;
              const m = method.toUpperCase();
              const res = await t.request(url, { method: m, apiKey: store.admin, ...(body !== undefined && m !== 'GET' && m !== 'DELETE' ? { body } : {}) });
              if (res.status >= 500) throw new Error(`${m} ${url} → ${res.status} ${res.text.slice(0, 300)}`);
              if (res.status >= 400 && !(typeof res.body?.error?.code === 'string' && typeof res.body?.error?.message === 'string'))
                throw new Error(`${m} ${url} → ${res.status} without the envelope`);
            }),
            { numRuns: 8, endOnFailure: true },
          );
        } catch (error) {
          failures.push(`${method.toUpperCase()} ${openApiPath}: ${(error as Error).message.split('\n').slice(0, 6).join(' | ')}`);
        }
      }
    }
    expect(operations).toBe(45);
    expect(failures).toEqual([]);
  }, 600_000);
});
