// API keys from the dashboard (issue 28): apiKeyCreate / apiKeys / apiKeyRevoke over REST and
// GraphQL. Minted through the CLI's path (the key works at once), shown once, scoped to the
// organization, audited without the key; a caller cannot mint or revoke a key wider than itself.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashApiKey } from '../../src/auth/key-hash.js';
import { DEFAULT_ROLES } from '../../src/config/schema.js';
import { startTestApp, type TestApp } from '../support/app.js';

let t: TestApp;
let admin: { token: string; userId: string };
/** A role that manages keys but holds only the storefront scope's permissions (and orders:read). */
let keymaster: { token: string };
let staff: { token: string };

const KEYMASTER = [
  'apikeys:manage',
  'catalog:read',
  'cart:create',
  'cart:read',
  'cart:update',
  'orders:create',
  'orders:read',
  'orders:read:own',
  'promotions:read',
  'pricing:read',
  'inventory:read',
  'customers:read:self',
  'customers:update:self',
  'returns:read:own',
  'returns:create:own',
];

beforeAll(async () => {
  t = await startTestApp({ auth: { roles: { ...DEFAULT_ROLES, keymaster: KEYMASTER } } });
  admin = await t.signIn('admin');
  keymaster = await t.signIn('keymaster');
  staff = await t.signIn('staff');
});
afterAll(() => t?.close());

const mint = (body: Record<string, unknown>, bearer = admin.token) => t.request('/api/api-keys', { method: 'POST', bearer, body });
const keyCount = async () => (await t.app.db.apikey.count()) as number;

const CREATE = `mutation ($name: String!, $scope: String!) {
  apiKeyCreate(name: $name, scope: $scope) { key apiKey { id name scope status start } }
}`;

describe('API keys', () => {
  it('mints a key over REST that works at once, shows it once, and audits without it', async () => {
    const res = await mint({ name: 'ERP sync', scope: 'admin' });
    expect(res.status).toBe(201);
    const { key, apiKey } = res.body.data;
    expect(key).toMatch(/^cs_admin_/);
    expect(apiKey).toMatchObject({ name: 'ERP sync', scope: 'admin', status: 'active', expiresAt: null });
    expect(key.startsWith(apiKey.start)).toBe(true);
    expect((await t.request('/api/orders', { apiKey: key })).status).toBe(200);

    const list = await t.request('/api/api-keys?limit=100', { bearer: admin.token });
    expect(list.status).toBe(200);
    expect(list.body.data.find((k: { id: string }) => k.id === apiKey.id)).toMatchObject({ name: 'ERP sync', status: 'active' });
    expect(list.text).not.toContain(key);

    const audit = await t.request(`/api/audit?entityType=api_key&entityId=${apiKey.id}`, { bearer: admin.token });
    // The operation's entry names who minted it; the api_keys row trigger adds its own apiKeys.create.
    const entry = audit.body.data.find((e: { event: string }) => e.event === 'apikeys.create');
    expect(entry).toMatchObject({ actorId: admin.userId, after: { id: apiKey.id, scope: 'admin', name: 'ERP sync' } });
    expect(audit.text).not.toContain(key);
  });

  it('mints with an expiry within the scope bounds and refuses bad input with 422, writing nothing', async () => {
    const inTenDays = new Date(Date.now() + 10 * 86_400_000).toISOString();
    const ok = await mint({ name: 'Temp', scope: 'storefront', expiresAt: inTenDays });
    expect(ok.status).toBe(201);
    expect(new Date(ok.body.data.apiKey.expiresAt).getTime()).toBeGreaterThanOrEqual(new Date(inTenDays).getTime() - 1000);
    const before = await keyCount();
    for (const [body, field] of [
      [{ name: 'x', scope: 'nope' }, 'scope'],
      [{ name: 'x', scope: 'admin', expiresAt: new Date(Date.now() + 60_000).toISOString() }, 'expiresAt'],
      [{ name: 'x', scope: 'admin', expiresAt: new Date(Date.now() + 400 * 86_400_000).toISOString() }, 'expiresAt'],
      [{ name: 'x', scope: 'admin', expiresAt: 'yesterday-ish' }, 'expiresAt'],
      [{ name: '   ', scope: 'admin' }, 'name'],
      [{ scope: 'admin' }, 'name'],
    ] as const) {
      const res = await mint(body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body.error.code).toBe('VALIDATION_FAILED');
      expect(res.body.error.details.map((d: { field: string }) => d.field)).toContain(field);
    }
    expect(await keyCount()).toBe(before);
  });

  it('mints, lists and revokes over GraphQL; a revoked key is refused from the next request', async () => {
    const created = await t.graphql(CREATE, { name: 'Storefront', scope: 'storefront' }, { bearer: admin.token });
    expect(created.body.errors).toBeUndefined();
    const { key, apiKey } = created.body.data.apiKeyCreate;
    expect(key).toMatch(/^cs_store_/);
    expect((await t.request('/api/catalog/entities', { apiKey: key })).status).toBe(200);

    const listed = await t.graphql('{ apiKeys(limit: 100) { data { id status } } }', {}, { bearer: admin.token });
    expect(listed.body.data.apiKeys.data).toContainEqual({ id: apiKey.id, status: 'active' });

    const revoked = await t.graphql('mutation ($id: UUID!) { apiKeyRevoke(id: $id) { id status } }', { id: apiKey.id }, { bearer: admin.token });
    expect(revoked.body.data.apiKeyRevoke).toEqual({ id: apiKey.id, status: 'revoked' });
    expect((await t.request('/api/catalog/entities', { apiKey: key })).status).toBe(401);
    // Idempotent: revoking again answers the same, over REST too.
    const again = await t.request(`/api/api-keys/${apiKey.id}`, { method: 'DELETE', bearer: admin.token });
    expect(again.status).toBe(200);
    expect(again.body.data.status).toBe('revoked');
    const onlyRevoked = await t.request('/api/api-keys?status=revoked&limit=100', { bearer: admin.token });
    expect(onlyRevoked.body.data.map((k: { id: string }) => k.id)).toContain(apiKey.id);
    expect(onlyRevoked.body.data.every((k: { status: string }) => k.status === 'revoked')).toBe(true);
  });

  it('refuses a key wider than its minter (no privilege escalation), over REST and GraphQL', async () => {
    const scopes = await t.request('/api/api-key-scopes', { bearer: keymaster.token });
    expect(scopes.status).toBe(200);
    expect(Object.fromEntries(scopes.body.data.map((s: { name: string; grantable: boolean }) => [s.name, s.grantable]))).toMatchObject({ admin: false, storefront: true });

    const before = await keyCount();
    const rest = await mint({ name: 'escalate', scope: 'admin' }, keymaster.token);
    expect(rest.status).toBe(403);
    expect(rest.body.error.code).toBe('FORBIDDEN');
    const graph = await t.graphql(CREATE, { name: 'escalate', scope: 'admin' }, { bearer: keymaster.token });
    expect(graph.body.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    expect(graph.body.data?.apiKeyCreate ?? null).toBeNull();
    expect(await keyCount()).toBe(before);

    // Within its own permissions it may mint; the key acts for the keymaster.
    const allowed = await mint({ name: 'shop', scope: 'storefront' }, keymaster.token);
    expect(allowed.status).toBe(201);
    expect(await keyCount()).toBe(before + 1);

    // Nor may it revoke an admin key.
    const adminKey = (await mint({ name: 'ops', scope: 'admin' })).body.data.apiKey.id;
    const revoke = await t.request(`/api/api-keys/${adminKey}`, { method: 'DELETE', bearer: keymaster.token });
    expect(revoke.status).toBe(403);
    const state = await t.request('/api/api-keys?status=active&limit=100', { bearer: admin.token });
    expect(state.body.data.map((k: { id: string }) => k.id)).toContain(adminKey);
  });

  it('needs apikeys:manage: staff and a storefront key are refused', async () => {
    const storefront = await t.apiKey('storefront');
    for (const credential of [{ bearer: staff.token }, { apiKey: storefront }]) {
      expect((await t.request('/api/api-keys', credential)).status).toBe(403);
      expect((await t.request('/api/api-keys', { ...credential, method: 'POST', body: { name: 'x', scope: 'storefront' } })).status).toBe(403);
      const graph = await t.graphql(CREATE, { name: 'x', scope: 'storefront' }, credential);
      expect(graph.body.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    }
    expect((await t.request('/api/api-keys')).status).toBe(401);
  });

  it('an admin key mints and revokes others but not itself', async () => {
    const key = await t.apiKey('admin');
    const self = await t.app.db.apikey.findFirstOrThrow({ where: { key: hashApiKey(key) } });
    const res = await t.request(`/api/api-keys/${self.id}`, { method: 'DELETE', apiKey: key });
    expect(res.status).toBe(422);
    expect((await t.request('/api/orders', { apiKey: key })).status).toBe(200);
    const minted = await t.request('/api/api-keys', { method: 'POST', apiKey: key, body: { name: 'from a key', scope: 'storefront' } });
    expect(minted.status).toBe(201);
  });

  it('is scoped to the organization', async () => {
    const other = await t.app.services.organizations.create({ slug: `keys-other-${Date.now()}`, name: 'Other' });
    const otherKey = await t.apiKey('admin', { organizationId: other.id });
    const mine = (await mint({ name: 'mine', scope: 'storefront' })).body.data.apiKey.id;
    const theirs = await t.request('/api/api-keys?limit=100', { apiKey: otherKey });
    expect(theirs.status).toBe(200);
    expect(theirs.body.data.map((k: { id: string }) => k.id)).not.toContain(mine);
    expect((await t.request(`/api/api-keys/${mine}`, { method: 'DELETE', apiKey: otherKey })).status).toBe(404);
    const list = await t.request('/api/api-keys?status=active&limit=100', { bearer: admin.token });
    expect(list.body.data.map((k: { id: string }) => k.id)).toContain(mine);
  });
});
