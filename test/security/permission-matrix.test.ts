// The permission matrix, generated from the operation registry: every REST route and every
// GraphQL field is called by ten actors (three of them an API key with a session) with real ids and a minimal valid input, and each
// answer is checked against the operation's declared access rule:
//   refused by the rule → 401 (no credential) or 403 (credential without the permission);
//   allowed             → neither 401 nor 403, and never 5xx (the handler ran).
// Another organization holds recognisable data (a catalog, prices, stock, an order): none of its
// ids may appear in any 2xx body of the first organization's callers, and the first
// organization's ids (other than those in the request itself) never in the other admin's.
// A new operation is covered by this file without a line added to it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { permissionsFromMap } from '../../src/auth/permissions.js';
import { seed } from '../../src/seed.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { openStore, placeOrder, product, ORDER_TEST_CONFIG } from '../orders/helpers.js';
import { IdPool, registryOperations, registryRoutes, uuidsIn } from './registry-inputs.js';
import { graphqlMatrix, keyAlone, keyAndSession, restMatrix, type MatrixActor } from './matrix-support.js';

type Actor = MatrixActor;

let t: TestApp;
let doc: Record<string, any>;
let actors: Actor[];
let pool: IdPool;
let otherPool: IdPool;
/** Ids only the other organization has (its leak markers), and only the first has. */
let otherIds: Set<string>;
let mineIds: Set<string>;

beforeAll(async () => {
  t = await startTestApp({ ...ORDER_TEST_CONFIG, rateLimit: { enabled: false } });
  await seed(t.app);
  const other = await t.app.services.organizations.create({ slug: `matrix-other-${Date.now()}`, name: 'Matrix other store' });
  const roles = t.app.config.auth.roles;
  const scopes = t.app.config.apiKeyScopes;
  const admin = await t.apiKey('admin');
  const otherAdmin = await t.apiKey('admin', { organizationId: other.id });
  const customer = await t.signIn('customer');
  const customer2 = await t.signIn('customer');
  const staff = await t.signIn('staff');
  // Both organizations get a store with a product, stock and a placed order; the first also the
  // demo seed, so every list route has rows to read.
  for (const organizationId of [undefined, other.id]) {
    const store = await openStore(t, organizationId ? { organizationId } : {});
    const entityId = await product(store, { price: 1580, stock: 20, title: organizationId ? 'Other-org marker product' : 'Own product' });
    await placeOrder(store, [{ entityId, quantity: 1 }]);
  }
  const storefrontKey = await t.apiKey('storefront');
  const storefrontScope = permissionsFromMap(scopes.storefront!.permissions);
  actors = [
    { name: 'anonymous', credential: {}, permissions: null },
    { name: 'customer', credential: { bearer: customer.token }, permissions: roles.customer ?? [] },
    { name: 'another customer', credential: { bearer: customer2.token }, permissions: roles.customer ?? [] },
    { name: 'storefront key', credential: { apiKey: storefrontKey }, permissions: keyAlone(storefrontScope) },
    // Key + session pairs (issue 24's actor rule): the session's user acts, bounded by the key.
    { name: 'storefront key + customer', credential: { apiKey: storefrontKey, bearer: customer.token }, permissions: keyAndSession(roles.customer ?? [], storefrontScope) },
    { name: 'storefront key + staff', credential: { apiKey: storefrontKey, bearer: staff.token }, permissions: keyAndSession(roles.staff ?? [], storefrontScope) },
    { name: 'admin key + customer', credential: { apiKey: admin, bearer: customer2.token }, permissions: keyAndSession(roles.customer ?? [], ['*:*']) },
    { name: 'staff', credential: { bearer: staff.token }, permissions: roles.staff ?? [] },
    { name: 'admin of another organization', credential: { apiKey: otherAdmin }, permissions: ['*:*'], other: true },
    { name: 'admin key', credential: { apiKey: admin }, permissions: ['*:*'] },
  ];
  doc = (await t.request('/api/doc')).body;
  pool = new IdPool(t, { apiKey: admin });
  otherPool = new IdPool(t, { apiKey: otherAdmin });
  const mine = await pool.harvest();
  const theirs = await otherPool.harvest();
  theirs.add(other.id);
  otherIds = new Set([...theirs].filter((id) => !mine.has(id)));
  mineIds = new Set([...mine].filter((id) => !theirs.has(id)));
  mineIds.add((await t.app.services.organizations.defaultOrganization()).id);
  // The leak check is only as good as its markers: both organizations must have many rows a
  // leak would show (products, variants, prices, stock, the order and its lines).
  expect(otherIds.size).toBeGreaterThan(5);
  expect(mineIds.size).toBeGreaterThan(20);
}, 240_000);

afterAll(() => t?.close());

function leaked(actor: Actor, body: unknown, request: string): string[] {
  const markers = actor.other ? mineIds : otherIds;
  const sent = uuidsIn(request);
  return [...uuidsIn(body)].filter((id) => markers.has(id) && !sent.has(id));
}

describe('permission matrix', () => {
  it('REST: every route × every actor gets the status its access rule declares, and no foreign data', async () => {
    const routes = registryRoutes();
    expect(routes.length).toBeGreaterThan(50);
    const { problems, calls } = await restMatrix(t, doc, pool, routes, actors, { leaked });
    console.info(`permission matrix (REST): ${routes.length} routes × ${actors.length} actors = ${calls} calls`);
    expect(problems).toEqual([]);
  }, 600_000);

  it('GraphQL: every field × every actor gets the code its access rule declares, and no foreign data', async () => {
    const ops = registryOperations();
    const { problems, calls } = await graphqlMatrix(t, doc, pool, ops, registryRoutes(), actors, { leaked });
    console.info(`permission matrix (GraphQL): ${ops.length} fields × ${actors.length} actors = ${calls} calls`);
    expect(problems).toEqual([]);
  }, 600_000);
});
