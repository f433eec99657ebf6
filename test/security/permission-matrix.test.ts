// The permission matrix, generated from the operation registry: every REST route and every
// GraphQL field is called by seven actors with real ids and a minimal valid input, and each
// answer is checked against the operation's declared access rule:
//   refused by the rule → 401 (no credential) or 403 (credential without the permission);
//   allowed             → neither 401 nor 403, and never 5xx (the handler ran).
// Another organization holds recognisable data (a catalog, prices, stock, an order): none of its
// ids may appear in any 2xx body of the first organization's callers, and the first
// organization's ids (other than those in the request itself) never in the other admin's.
// A new operation is covered by this file without a line added to it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getNamedType, isLeafType, isNonNullType, isObjectType, type GraphQLField, type GraphQLSchema } from 'graphql';
import { accessRefusal, type Access } from '../../src/graphql/operation.js';
import { hasPermission, permissionsFromMap } from '../../src/auth/permissions.js';
import { buildSchema } from '../../src/graphql/schema.js';
import { seed } from '../../src/seed.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { openStore, placeOrder, product, ORDER_TEST_CONFIG } from '../orders/helpers.js';
import { buildArgs, buildRequest, IdPool, registryOperations, registryRoutes, uuidsIn, type Credential } from './registry-inputs.js';

interface Actor {
  name: string;
  credential: Credential;
  /** Permissions per the configured role or key scope; null when anonymous. */
  permissions: string[] | null;
  other?: boolean;
}

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
  actors = [
    { name: 'anonymous', credential: {}, permissions: null },
    { name: 'customer', credential: { bearer: customer.token }, permissions: roles.customer ?? [] },
    { name: 'another customer', credential: { bearer: customer2.token }, permissions: roles.customer ?? [] },
    { name: 'storefront key', credential: { apiKey: await t.apiKey('storefront') }, permissions: permissionsFromMap(scopes.storefront!.permissions) },
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

function expectedRefusal(access: Access, actor: Actor): 401 | 403 | null {
  // The matrix sends no signature: a signed-URL route refuses everyone it calls.
  if (access === 'signedUrl') return 403;
  const isKey = 'apiKey' in actor.credential;
  const refusal = accessRefusal(
    access,
    actor.permissions ? { permissions: actor.permissions, kind: isKey ? 'apiKey' : 'user', customerId: actor.name.includes('customer') ? 'customer' : undefined } : null,
  );
  return refusal ? (refusal.code === 'UNAUTHORIZED' ? 401 : 403) : null;
}

/**
 * A 403 the declared rule does not predict is still right when the handler names a permission
 * the caller really lacks (carts are public for guest shoppers, yet a signed-in caller needs
 * cart:read: the spec gives staff cart create and update only).
 */
function justified(actor: Actor, message: unknown): boolean {
  const missing = typeof message === 'string' ? /missing permission ([a-z*:-]+)/i.exec(message)?.[1] : undefined;
  return !!missing && !!actor.permissions && !hasPermission(actor.permissions, missing);
}

function leaked(actor: Actor, body: unknown, request: string): string[] {
  const markers = actor.other ? mineIds : otherIds;
  const sent = uuidsIn(request);
  return [...uuidsIn(body)].filter((id) => markers.has(id) && !sent.has(id));
}

const problems: string[] = [];
let checked = 0;

describe('permission matrix', () => {
  it('REST: every route × every actor gets the status its access rule declares, and no foreign data', async () => {
    const routes = registryRoutes();
    expect(routes.length).toBeGreaterThan(50);
    for (const route of routes) {
      const request = await buildRequest(doc, route, pool);
      for (const actor of actors) {
        const res = await t.request(request.path, { method: request.method, body: request.body, ...actor.credential });
        checked += 1;
        const label = `${route.method} ${route.path} as ${actor.name} → ${res.status}`;
        const want = expectedRefusal(route.access, actor);
        if (res.status >= 500) problems.push(`${label}: server error ${res.text.slice(0, 200)}`);
        else if (want !== null && res.status !== want) problems.push(`${label}: expected ${want}`);
        else if (want === null && (res.status === 401 || res.status === 403) && !justified(actor, res.body?.error?.message)) problems.push(`${label}: expected access (${res.text.slice(0, 160)})`);
        if (res.status >= 400 && !(res.body && typeof res.body === 'object' && res.body.error?.code && res.body.error?.message)) problems.push(`${label}: no error envelope`);
        if (res.status < 300) {
          const leaks = leaked(actor, res.body, request.path + JSON.stringify(request.body ?? null));
          if (leaks.length) problems.push(`${label}: LEAK of ${leaks.slice(0, 3).join(', ')}`);
        }
      }
    }
    console.info(`permission matrix (REST): ${routes.length} routes × ${actors.length} actors = ${routes.length * actors.length} calls`);
    expect(problems).toEqual([]);
  }, 600_000);

  it('GraphQL: every field × every actor gets the code its access rule declares, and no foreign data', async () => {
    const schema = buildSchema();
    const ops = registryOperations();
    const restByName = new Map(registryRoutes().map((r) => [r.name, r]));
    const gqlProblems: string[] = [];
    for (const op of ops) {
      const route = restByName.get(op.name);
      const args = route ? (await buildRequest(doc, route, pool)).args : await buildArgs(op, pool);
      const document = graphqlDocument(schema, op.kind, op.name, args);
      for (const actor of actors) {
        const res = await t.request('/graphql', { method: 'POST', body: { query: document.query, variables: document.variables }, ...actor.credential });
        checked += 1;
        const codes: string[] = (res.body?.errors ?? []).map((e: any) => e.extensions?.code ?? 'NONE');
        const label = `graphql ${op.name} as ${actor.name} → ${res.status} ${codes.join(',') || 'ok'}`;
        const want = expectedRefusal(op.access, actor);
        const wantCode = want === 401 ? 'UNAUTHORIZED' : want === 403 ? 'FORBIDDEN' : null;
        if (res.status >= 500 || codes.some((c) => c === 'INTERNAL_SERVER_ERROR' || c === 'NONE')) gqlProblems.push(`${label}: server error ${res.text.slice(0, 200)}`);
        else if (wantCode && !codes.includes(wantCode)) gqlProblems.push(`${label}: expected ${wantCode}`);
        else if (!wantCode && (res.body?.errors ?? []).some((e: any) => ['UNAUTHORIZED', 'FORBIDDEN'].includes(e.extensions?.code) && !justified(actor, e.message))) gqlProblems.push(`${label}: expected access (${res.text.slice(0, 160)})`);
        if (res.body?.data) {
          const leaks = leaked(actor, res.body.data, JSON.stringify(document.variables));
          if (leaks.length) gqlProblems.push(`${label}: LEAK of ${leaks.slice(0, 3).join(', ')}`);
        }
      }
    }
    console.info(`permission matrix (GraphQL): ${ops.length} fields × ${actors.length} actors = ${ops.length * actors.length} calls; total checked ${checked}`);
    expect(gqlProblems).toEqual([]);
  }, 600_000);
});

/** `query ($a: T!) { field(a: $a) { scalar fields } }` with the variables the REST twin would send. */
function graphqlDocument(schema: GraphQLSchema, kind: 'query' | 'mutation', name: string, input: Record<string, unknown>) {
  const root = kind === 'query' ? schema.getQueryType()! : schema.getMutationType()!;
  const field = root.getFields()[name]! as GraphQLField<unknown, unknown>;
  const variables: Record<string, unknown> = {};
  const defs: string[] = [];
  const passed: string[] = [];
  for (const arg of field.args) {
    if (!(arg.name in input) && !isNonNullType(arg.type)) continue;
    variables[arg.name] = arg.name in input ? input[arg.name] : null;
    defs.push(`$${arg.name}: ${String(arg.type)}`);
    passed.push(`${arg.name}: $${arg.name}`);
  }
  const query = `${kind}${defs.length ? `(${defs.join(', ')})` : ''} { ${name}${passed.length ? `(${passed.join(', ')})` : ''}${selection(field.type, 0)} }`;
  return { query, variables };
}

function selection(type: Parameters<typeof getNamedType>[0], depth: number): string {
  const named = getNamedType(type);
  if (isLeafType(named) || !isObjectType(named)) return isLeafType(named) ? '' : ' { __typename }';
  const fields = Object.values(named.getFields()).filter((f) => !f.args.some((a) => isNonNullType(a.type)));
  const parts = fields.flatMap((f) => {
    const inner = getNamedType(f.type);
    if (isLeafType(inner)) return [f.name];
    // One level of nesting: pages (`data`, `meta`) and embedded objects, so nested resolvers run too.
    return depth < 1 && isObjectType(inner) ? [`${f.name}${selection(f.type, depth + 1)}`] : [];
  });
  return ` { ${parts.length ? parts.join(' ') : '__typename'} }`;
}
