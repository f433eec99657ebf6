// Finding 1 of the security review: better-auth's own API-key endpoints were reachable by every
// session, so a customer who had just signed up could mint a `*:*` key for any organization.
// Now only the listed auth endpoints answer; every other one is 404, for every caller.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { EXPOSED_AUTH_ENDPOINTS, HIDDEN_AUTH_ENDPOINTS } from '../../src/auth/exposed-endpoints.js';

let t: TestApp;
let otherOrg: string;

beforeAll(async () => {
  t = await startTestApp();
  otherOrg = (await t.app.db.organization.create({ data: { slug: `other-${Date.now()}`, name: 'Other store' } })).id;
});
afterAll(() => t?.close());

async function signUp(): Promise<{ token: string; cookie: string }> {
  const email = `shopper-${Math.random().toString(36).slice(2)}@example.com`;
  const res = await t.request('/api/auth/sign-up/email', { body: { email, password: 'correct-horse-battery', name: 'Shopper' } });
  expect(res.status, res.text).toBe(200);
  return { token: res.body.token, cookie: (res.headers.get('set-cookie') ?? '').split(';')[0]! };
}

describe('better-auth API-key endpoints', () => {
  it('a customer who just signed up cannot mint an admin key for any organization (404, no key row)', async () => {
    const { token } = await signUp();
    const before = await t.app.db.apikey.count();
    for (const organizationId of [otherOrg, (await t.app.services.organizations.defaultOrganization()).id]) {
      const res = await t.request('/api/auth/api-key/create', { bearer: token, body: { configId: 'admin', metadata: { organizationId } } });
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe('NOT_FOUND');
    }
    expect(await t.app.db.apikey.count()).toBe(before);
  });

  it('staff and admins cannot reach them either, nor rewrite a key through /api-key/update', async () => {
    const staff = await t.signIn('staff');
    const admin = await t.signIn('admin');
    const key = await t.apiKey('storefront');
    const row = await t.app.db.apikey.findFirstOrThrow({ where: { configId: 'storefront' }, orderBy: { createdAt: 'desc' } });
    for (const caller of [{ bearer: staff.token }, { bearer: admin.token }, { apiKey: key }]) {
      expect((await t.request('/api/auth/api-key/create', { ...caller, body: { configId: 'admin' } })).status).toBe(404);
      expect((await t.request('/api/auth/api-key/update', { ...caller, body: { keyId: row.id, metadata: { organizationId: otherOrg } } })).status).toBe(404);
      expect((await t.request('/api/auth/api-key/list', caller)).status).toBe(404);
    }
    const after = await t.app.db.apikey.findUniqueOrThrow({ where: { id: row.id } });
    expect(after.metadata).toBe(row.metadata);
  });

  it('a key minted without the server (as the hole allowed) grants nothing', async () => {
    const { token } = await signUp();
    const session = await t.request('/api/auth/get-session', { bearer: token });
    const userId = session.body.user.id as string;
    // What the open endpoint did: better-auth's createApiKey with caller-chosen metadata.
    const forged = await t.app.auth.api.createApiKey({
      body: { configId: 'admin', userId, metadata: { organizationId: (await t.app.services.organizations.defaultOrganization()).id } },
    });
    const res = await t.request('/api/settings', { apiKey: forged.key });
    expect(res.status).toBe(401);
    // A key the CLI path mints still works.
    expect((await t.request('/api/settings', { apiKey: await t.apiKey('admin') })).status).toBe(200);
  });
});

describe('the audit of every better-auth endpoint', () => {
  it('every endpoint better-auth mounts is either exposed (with a reason) or hidden: none is undecided', () => {
    const mounted = Object.values(t.app.auth.api as Record<string, { path?: string; options?: { method?: string | string[] } }>)
      .filter((e) => e?.path)
      .flatMap((e) => [e.options!.method!].flat().map((method) => `${method} ${e.path}`));
    const decided = new Set([...EXPOSED_AUTH_ENDPOINTS, ...HIDDEN_AUTH_ENDPOINTS].map((e) => `${e.method} ${e.path.replace(/:\w+/, ':id')}`));
    const normalise = (entry: string) => entry.replace(/:\w+/, ':id').replace(/\/reset-password\/:id$/, '/reset-password/:id');
    const undecided = mounted.map(normalise).filter((entry) => !decided.has(entry));
    expect(undecided).toEqual([]);
    for (const e of EXPOSED_AUTH_ENDPOINTS) expect(e.why.length).toBeGreaterThan(10);
  });

  it('every hidden endpoint answers 404 to anonymous callers and to a signed-in admin', async () => {
    const admin = await t.signIn('admin');
    for (const { method, path } of HIDDEN_AUTH_ENDPOINTS) {
      for (const caller of [{}, { bearer: admin.token }]) {
        const res = await t.request(`/api/auth${path}`, { method, ...caller, ...(method === 'POST' ? { body: {} } : {}) });
        expect(res.status, `${method} ${path}`).toBe(404);
      }
    }
  });

  it('unlisted spellings of a hidden path are 404 too (trailing slash, encoded slash, case)', async () => {
    const { token } = await signUp();
    for (const path of ['/api/auth/api-key/create/', '/api/auth/api-key%2Fcreate', '/api/auth/API-KEY/create', '/api/auth//api-key/create']) {
      const res = await t.request(path, { bearer: token, body: { configId: 'admin' } });
      expect(res.status, path).toBe(404);
    }
  });

  it('the exposed session endpoints work for their owner', async () => {
    const { token } = await signUp();
    const session = await t.request('/api/auth/get-session', { bearer: token });
    expect(session.status).toBe(200);
    expect(session.body.user.email).toMatch(/@example\.com$/);
    const sessions = await t.request('/api/auth/list-sessions', { bearer: token });
    expect(sessions.status).toBe(200);
    expect(sessions.body.length).toBe(1);
    const out = await t.request('/api/auth/sign-out', { bearer: token, body: {} });
    expect(out.status).toBe(200);
    expect((await t.request('/api/settings', { bearer: token })).status).toBe(401);
  });

  it('two-factor and social endpoints are absent while those features are not configured', async () => {
    const { token } = await signUp();
    expect((await t.request('/api/auth/two-factor/enable', { bearer: token, body: { password: 'correct-horse-battery' } })).status).toBe(404);
    expect((await t.request('/api/auth/sign-in/social', { body: { provider: 'github' } })).status).toBe(404);
  });
});

describe('each exposed session endpoint acts on the caller only', () => {
  it("revoke-session cannot end another user's session; revoke-other-sessions and revoke-sessions end the caller's", async () => {
    const alice = await signUp();
    const bob = await signUp();
    const bobSessions = await t.request('/api/auth/list-sessions', { bearer: bob.token });
    const attempt = await t.request('/api/auth/revoke-session', { bearer: alice.token, body: { token: bob.token } });
    expect(attempt.status).toBeLessThan(500);
    const byId = await t.request('/api/auth/revoke-session', { bearer: alice.token, body: { id: bobSessions.body[0].id } });
    expect(byId.status).toBe(404);
    expect((await t.request('/api/auth/get-session', { bearer: bob.token })).body?.user).toBeTruthy();

    // Alice signs in on a second device, then ends the other sessions from it.
    const email = (await t.request('/api/auth/get-session', { bearer: alice.token })).body.user.email;
    const second = await t.request('/api/auth/sign-in/email', { body: { email, password: 'correct-horse-battery' } });
    expect((await t.request('/api/auth/revoke-other-sessions', { bearer: second.body.token, body: {} })).status).toBe(200);
    expect((await t.request('/api/auth/get-session', { bearer: alice.token })).body).toBeNull();
    expect((await t.request('/api/auth/revoke-sessions', { bearer: second.body.token, body: {} })).status).toBe(200);
    expect((await t.request('/api/auth/get-session', { bearer: second.body.token })).body).toBeNull();
    expect((await t.request('/api/auth/get-session', { bearer: bob.token })).body?.user).toBeTruthy();
  });

  it('list-sessions shows no bearer tokens (finding 17); a session is revoked by its id', async () => {
    const erin = await signUp();
    const email = (await t.request('/api/auth/get-session', { bearer: erin.token })).body.user.email;
    const laptop = await t.request('/api/auth/sign-in/email', { body: { email, password: 'correct-horse-battery' } });
    const listed = await t.request('/api/auth/list-sessions', { bearer: erin.token });
    expect(listed.status).toBe(200);
    expect(listed.body.length).toBe(2);
    expect(listed.text).not.toContain(laptop.body.token);
    expect(listed.body.every((s: Record<string, unknown>) => !('token' in s) && typeof s.id === 'string')).toBe(true);
    const current = (await t.request('/api/auth/get-session', { bearer: erin.token })).body.session.id as string;
    const other = listed.body.find((s: { id: string }) => s.id !== current);
    expect((await t.request('/api/auth/revoke-session', { bearer: erin.token, body: { id: other.id } })).status).toBe(200);
    expect((await t.request('/api/auth/get-session', { bearer: laptop.body.token })).body).toBeNull();
    expect((await t.request('/api/auth/get-session', { bearer: erin.token })).body?.user).toBeTruthy();
  });

  it('change-password needs the current password', async () => {
    const carol = await signUp();
    const wrong = await t.request('/api/auth/change-password', { bearer: carol.token, body: { currentPassword: 'not-it-at-all', newPassword: 'brand-new-secret-1' } });
    expect(wrong.status).toBeGreaterThanOrEqual(400);
    expect(wrong.status).toBeLessThan(500);
    const right = await t.request('/api/auth/change-password', { bearer: carol.token, body: { currentPassword: 'correct-horse-battery', newPassword: 'brand-new-secret-1' } });
    expect(right.status, right.text).toBe(200);
    expect((await t.request('/api/auth/change-password', { body: { currentPassword: 'x', newPassword: 'y-long-enough' } })).status).toBe(401);
  });

  it('ok and error answer without data; a cookie-carrying write from an untrusted origin is refused', async () => {
    expect((await t.request('/api/auth/ok')).status).toBe(200);
    expect((await t.request('/api/auth/error')).status).toBeLessThan(500);
    const dave = await signUp();
    const cross = await t.request('/api/auth/sign-out', { cookie: dave.cookie, headers: { origin: 'https://evil.example' }, body: {} });
    expect(cross.status).toBe(403);
  });
});
