// Every shipped plugin (POS, layaway, channel, marketplace, loyalty), enabled together, under the
// suite's generated permission matrix (test/security/matrix-support.ts; the core matrix,
// test/security/permission-matrix.test.ts, runs without plugins). Every route a plugin mounts,
// over REST, and every GraphQL field it declares, called by ten actors — among them a vendor user
// with and without a linked vendor, a POS register (shift) key and another organization's
// register key — answers what its access rule declares: 401 anonymous, 403 without the
// permission, and with it never 401/403 (unless the handler needs an identity the caller lacks:
// a vendor, a customer, the right PIN), never 5xx. Another organization's callers never get this
// organization's ids back.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../support/app.js';
import { startTestApp } from '../support/app.js';
import { ORDER_TEST_CONFIG, openStore, product, type Store } from '../orders/helpers.js';
import { permissionsFromMap } from '../../src/auth/permissions.js';
import { IdPool, registryOperations, registryRoutes, uuidsIn, type Credential, type Route } from '../security/registry-inputs.js';
import { graphqlMatrix, keyAlone, restMatrix, type MatrixActor } from '../security/matrix-support.js';
import { SHIPPED_PLUGINS, shippedPlugins } from './shipped.js';
import type { RegisteredOperation } from '../../src/graphql/operation.js';

/** Operations whose handler also needs an identity: the vendor's, a customer's, or a PIN that matches (pin-login, override). */
const IDENTITY =
  /^marketplaceVendorMe|^marketplaceDisputeRespond$|^marketplaceVendorReviewCreate$|^marketplace(Dispute|Return)(Create|ShipBack|Escalate|Receive)$|^marketplaceDisputes$|^posPinLogin$|^posOverrideCreate$/;

let t: TestApp;
let store: Store;
let doc: Record<string, any>;
let pool: IdPool;
let routes: Route[];
let ops: RegisteredOperation[];
const mine = new Set<string>();
const actors: MatrixActor[] = [];

const pluginPath = (path: string | undefined) => !!path && SHIPPED_PLUGINS.some((p) => `${path}/`.startsWith(p.prefix));

/** A register's shift key, minted by PIN login as the till does it (scope pos, pos:operate). */
async function registerKey(admin: string, organizationId?: string): Promise<string> {
  const operator = await t.signIn('staff', organizationId ? { organizationId } : {});
  const set = await t.request('/api/pos/auth/pin', { method: 'PUT', apiKey: admin, body: { operatorId: operator.userId, pin: '4711' } });
  expect(set.status, set.text).toBe(200);
  const login = await t.request('/api/pos/auth/pin-login', { apiKey: admin, body: { operatorId: operator.userId, pin: '4711', registerId: 'matrix-till' } });
  expect(login.status, login.text).toBe(201);
  return login.body.data.apiKey;
}

beforeAll(async () => {
  t = await startTestApp({ ...ORDER_TEST_CONFIG, rateLimit: { enabled: false }, plugins: shippedPlugins() });
  store = await openStore(t);
  const entityId = await product(store, { price: 1_000, stock: 10 });
  mine.add(entityId);
  const plan = await t.request('/api/layaways', {
    apiKey: store.admin,
    body: {
      customerEmail: 'matrix@example.com',
      currency: 'USD',
      lines: [{ entityId, quantity: 1 }],
      deposit: 200,
      expiresAt: new Date(Date.now() + 7 * 86_400_000).toISOString(),
    },
  });
  expect(plan.status, plan.text).toBe(201);
  mine.add(plan.body.data.id);
  const vendorUser = await t.signIn('vendor');
  const vendor = await t.request('/api/marketplace/vendors', { apiKey: store.admin, body: { name: 'Matrix vendor', email: vendorUser.email, userId: vendorUser.userId } });
  expect(vendor.status, vendor.text).toBe(201);
  mine.add(vendor.body.data.id);
  const unlinked = await t.signIn('vendor');

  const other = await t.app.services.organizations.create({ slug: `plugin-matrix-${Date.now()}`, name: 'Other' });
  const otherAdmin = await t.apiKey('admin', { organizationId: other.id });
  const roles = t.app.config.auth.roles;
  const scopes = t.app.config.apiKeyScopes;
  const customer = await t.signIn('customer');
  const staff = await t.signIn('staff');
  const register = { permissions: permissionsFromMap(scopes.pos!.permissions) };
  actors.push(
    { name: 'anonymous', credential: {}, permissions: null },
    { name: 'customer', credential: { bearer: customer.token }, permissions: roles.customer! },
    { name: 'storefront key', credential: { apiKey: store.storefront }, permissions: keyAlone(permissionsFromMap(scopes.storefront!.permissions)) },
    { name: 'staff', credential: { bearer: staff.token }, permissions: roles.staff! },
    { name: 'vendor with a linked vendor', credential: { bearer: vendorUser.token }, permissions: roles.vendor! },
    { name: 'vendor without a linked vendor', credential: { bearer: unlinked.token }, permissions: roles.vendor! },
    { name: 'register key', credential: { apiKey: await registerKey(store.admin) }, ...register },
    { name: "another organization's register key", credential: { apiKey: await registerKey(otherAdmin, other.id) }, ...register, other: true },
    { name: 'admin of another organization', credential: { apiKey: otherAdmin }, permissions: ['*:*'], other: true },
    { name: 'admin key', credential: { apiKey: store.admin }, permissions: ['*:*'] },
  );
  doc = (await t.request('/api/doc')).body;
  pool = new IdPool(t, { apiKey: store.admin });
  routes = registryRoutes().filter((r) => pluginPath(r.path));
  ops = registryOperations().filter((op) => pluginPath(op.rest?.path));
}, 240_000);
afterAll(() => t?.close());

const options = {
  leaked(actor: MatrixActor, body: unknown, request: string) {
    if (!actor.other) return [];
    const sent = uuidsIn(request);
    return [...uuidsIn(body)].filter((id) => mine.has(id) && !sent.has(id));
  },
  excused: (operation: string) => IDENTITY.test(operation),
};

describe('every shipped plugin under the generated permission matrix', () => {
  it('REST: every plugin route × ten actors answers per its access rule, with no foreign ids', async () => {
    // Every plugin contributes routes: a prefix that matched nothing would hide a whole plugin.
    for (const plugin of SHIPPED_PLUGINS)
      expect(
        routes.some((r) => `${r.path}/`.startsWith(plugin.prefix)),
        plugin.id,
      ).toBe(true);
    const { problems, calls } = await restMatrix(t, doc, pool, routes, actors, options);
    console.info(`plugin permission matrix (REST): ${routes.length} routes × ${actors.length} actors = ${calls} calls`);
    expect(problems).toEqual([]);
  }, 900_000);

  it('GraphQL: every plugin field × ten actors answers per its access rule, with no foreign ids', async () => {
    expect(ops.length).toBe(routes.length);
    const { problems, calls } = await graphqlMatrix(t, doc, pool, ops, routes, actors, options);
    console.info(`plugin permission matrix (GraphQL): ${ops.length} fields × ${actors.length} actors = ${calls} calls`);
    expect(problems).toEqual([]);
  }, 900_000);

  it("another organization's admin, a customer and a storefront key cannot set an operator's PIN, sign in with it or get an override", async () => {
    const operator = await t.signIn('staff');
    const setPin = (credential: Credential, pin: string) => t.request('/api/pos/auth/pin', { method: 'PUT', ...credential, body: { operatorId: operator.userId, pin } });
    const login = (credential: Credential, pin: string) =>
      t.request('/api/pos/auth/pin-login', { ...credential, body: { operatorId: operator.userId, pin, registerId: 'till-1' } });
    const override = (credential: Credential, pin: string) =>
      t.request('/api/pos/auth/override', { ...credential, body: { managerId: operator.userId, pin, action: 'price_override' } });
    expect((await setPin({ apiKey: store.admin }, '2468')).status).toBe(200);
    const [customer, storefront] = [actors[1]!, actors[2]!];
    const foreign = actors.find((a) => a.name === 'admin of another organization')!;
    const foreignRegister = actors.find((a) => a.name === "another organization's register key")!;
    expect((await setPin(customer.credential, '1111')).status).toBe(403);
    expect((await setPin(storefront.credential, '1111')).status).toBe(403);
    // The operator is not a user of the other organization: nothing is set there or here.
    expect((await setPin(foreign.credential, '1111')).status).toBeGreaterThanOrEqual(400);
    expect((await login(customer.credential, '2468')).status).toBe(403);
    expect((await override(customer.credential, '2468')).status).toBe(403);
    // With the right PIN, the other organization's admin or register still cannot act as this operator.
    for (const outsider of [foreign, foreignRegister]) {
      const foreignLogin = await login(outsider.credential, '2468');
      expect(foreignLogin.status).toBeGreaterThanOrEqual(400);
      expect(foreignLogin.body.data?.apiKey).toBeUndefined();
      expect((await override(outsider.credential, '2468')).body.data?.token).toBeUndefined();
    }
    // The PIN this organization set is the one that works, here.
    expect((await login({ apiKey: store.admin }, '1111')).status).toBe(401);
    const own = await login({ apiKey: store.admin }, '2468');
    expect(own.status, own.text).toBe(201);
  });
});
