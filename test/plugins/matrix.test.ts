// The POS, channel, layaway and loyalty plugins under the suite's generated permission matrix,
// enabled together (the core matrix, test/security/permission-matrix.test.ts, runs without
// plugins; the marketplace has its own, test/plugins/marketplace/matrix.test.ts). Every route
// they mount, called by six actors, answers what its access rule declares: 401 anonymous, 403
// without the permission, and with it never 401, never 5xx. The admin of another organization
// never gets this organization's ids back.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../support/app.js';
import { startTestApp } from '../support/app.js';
import { ORDER_TEST_CONFIG, openStore, product, type Store } from '../orders/helpers.js';
import { accessRefusal } from '../../src/graphql/operation.js';
import { permissionsFromMap } from '../../src/auth/permissions.js';
import { buildRequest, IdPool, registryRoutes, uuidsIn, type Credential, type Route } from '../security/registry-inputs.js';
import { pos } from '../../plugins/pos/index.js';
import { channel } from '../../plugins/channel/index.js';
import { layaway } from '../../plugins/layaway/index.js';
import { loyalty } from '../../plugins/loyalty/index.js';

const PREFIXES = ['/pos/', '/channel/', '/layaways', '/loyalty/'];

let t: TestApp;
let store: Store;
let doc: Record<string, any>;
let pool: IdPool;
let routes: Route[];
const mine = new Set<string>();
const actors: Array<{ name: string; credential: Credential; permissions: string[] | null; kind?: 'user' | 'apiKey'; customerId?: string; other?: boolean }> = [];

beforeAll(async () => {
  t = await startTestApp({ ...ORDER_TEST_CONFIG, rateLimit: { enabled: false }, plugins: [pos(), channel(), layaway(), loyalty()] });
  store = await openStore(t);
  mine.add(await product(store, { price: 1_000, stock: 10 }));
  const other = await t.app.services.organizations.create({ slug: `plugin-matrix-${Date.now()}`, name: 'Other' });
  const roles = t.app.config.auth.roles;
  const customer = await t.signIn('customer');
  const staff = await t.signIn('staff');
  actors.push(
    { name: 'anonymous', credential: {}, permissions: null },
    { name: 'customer', credential: { bearer: customer.token }, permissions: roles.customer!, kind: 'user', customerId: 'c' },
    { name: 'storefront key', credential: { apiKey: store.storefront }, permissions: permissionsFromMap(t.app.config.apiKeyScopes.storefront!.permissions), kind: 'apiKey' },
    { name: 'staff', credential: { bearer: staff.token }, permissions: roles.staff!, kind: 'user' },
    { name: 'admin of another organization', credential: { apiKey: await t.apiKey('admin', { organizationId: other.id }) }, permissions: ['*:*'], kind: 'apiKey', other: true },
    { name: 'admin key', credential: { apiKey: store.admin }, permissions: ['*:*'], kind: 'apiKey' },
  );
  doc = (await t.request('/api/doc')).body;
  pool = new IdPool(t, { apiKey: store.admin });
  routes = registryRoutes().filter((r) => PREFIXES.some((prefix) => r.path.startsWith(prefix)));
}, 240_000);
afterAll(() => t?.close());

describe('plugins under the generated permission matrix', () => {
  it('every POS, channel, layaway and loyalty route × six actors answers per its access rule, with no foreign ids', async () => {
    // Every plugin contributes routes: a prefix that matched nothing would hide a whole plugin.
    for (const prefix of PREFIXES) expect(routes.some((r) => r.path.startsWith(prefix)), prefix).toBe(true);
    const problems: string[] = [];
    let calls = 0;
    for (const route of routes) {
      const request = await buildRequest(doc, route, pool);
      for (const actor of actors) {
        const res = await t.request(request.path, { method: request.method, body: request.body, ...actor.credential });
        calls += 1;
        const label = `${route.method} ${route.path} as ${actor.name} → ${res.status}`;
        const refusal = accessRefusal(route.access, actor.permissions ? { permissions: actor.permissions, kind: actor.kind, customerId: actor.customerId } : null);
        const want = refusal ? (refusal.code === 'UNAUTHORIZED' ? 401 : 403) : null;
        if (res.status >= 500) problems.push(`${label}: server error ${res.text.slice(0, 200)}`);
        else if (want !== null && res.status !== want) problems.push(`${label}: expected ${want}`);
        else if (want === null && res.status === 401 && !/pin-login|override/.test(route.path)) problems.push(`${label}: expected access (${res.text.slice(0, 160)})`);
        if (res.status >= 400 && !(res.body?.error?.code && res.body?.error?.message)) problems.push(`${label}: no error envelope`);
        if (actor.other && res.status < 300) {
          const sent = uuidsIn(request.path + JSON.stringify(request.body ?? null));
          const leaks = [...uuidsIn(res.body)].filter((id) => mine.has(id) && !sent.has(id));
          if (leaks.length) problems.push(`${label}: LEAK ${leaks.join(', ')}`);
        }
      }
    }
    console.log(`plugin permission matrix: ${routes.length} routes × ${actors.length} actors = ${calls} calls`);
    expect(problems).toEqual([]);
  }, 600_000);

  it("another organization's admin, a customer and a storefront key cannot set an operator's PIN, sign in with it or get an override", async () => {
    const operator = await t.signIn('staff');
    const setPin = (credential: Credential, pin: string) => t.request('/api/pos/auth/pin', { method: 'PUT', ...credential, body: { operatorId: operator.userId, pin } });
    const login = (credential: Credential, pin: string) => t.request('/api/pos/auth/pin-login', { ...credential, body: { operatorId: operator.userId, pin, registerId: 'till-1' } });
    const override = (credential: Credential, pin: string) => t.request('/api/pos/auth/override', { ...credential, body: { managerId: operator.userId, pin, action: 'price_override' } });
    expect((await setPin({ apiKey: store.admin }, '2468')).status).toBe(200);
    const [customer, storefront, foreign] = [actors[1]!, actors[2]!, actors.find((a) => a.other)!];
    expect((await setPin(customer.credential, '1111')).status).toBe(403);
    expect((await setPin(storefront.credential, '1111')).status).toBe(403);
    // The operator is not a user of the other organization: nothing is set there or here.
    expect((await setPin(foreign.credential, '1111')).status).toBeGreaterThanOrEqual(400);
    expect((await login(customer.credential, '2468')).status).toBe(403);
    expect((await override(customer.credential, '2468')).status).toBe(403);
    // With the right PIN, the other organization's admin still cannot act as this operator.
    const foreignLogin = await login(foreign.credential, '2468');
    expect(foreignLogin.status).toBeGreaterThanOrEqual(400);
    expect(foreignLogin.body.data?.apiKey).toBeUndefined();
    expect((await override(foreign.credential, '2468')).body.data?.token).toBeUndefined();
    // The PIN this organization set is the one that works, here.
    expect((await login({ apiKey: store.admin }, '1111')).status).toBe(401);
    const own = await login({ apiKey: store.admin }, '2468');
    expect(own.status, own.text).toBe(201);
  });
});
