// Identity: every auth method, cookie hygiene, session lifetime, roles, API keys, origin check.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';

let t: TestApp;

beforeAll(async () => {
  t = await startTestApp({ auth: { trustedOrigins: ['https://admin.example.com'], sessionDuration: 3600 } });
});
afterAll(() => t?.close());

async function signUp(email: string) {
  return t.request<{ token: string; user: { id: string; role: string; organizationId: string } }>('/api/auth/sign-up/email', {
    body: { email, password: 'correct-horse-battery', name: 'Shopper' },
  });
}

describe('sign-up and sign-in', () => {
  it('sign-up creates a customer of the resolved organization', async () => {
    const res = await signUp('shopper@example.com');
    expect(res.status).toBe(200);
    const defaultOrg = await t.app.services.organizations.defaultOrganization();
    expect(res.body.user).toMatchObject({ role: 'customer', organizationId: defaultOrg.id });
    const user = await t.app.db.user.findUnique({ where: { email: 'shopper@example.com' } });
    expect(user).toMatchObject({ role: 'customer', organizationId: defaultOrg.id });
  });

  it('never lets sign-up choose its role or organization', async () => {
    const promoted = await t.request('/api/auth/sign-up/email', {
      body: { email: 'climber@example.com', password: 'correct-horse-battery', name: 'Climber', role: 'admin' },
    });
    // better-auth ignores the server-set role field; the user-create hook sets customer.
    expect(promoted.status).toBe(200);
    expect((await t.app.db.user.findUnique({ where: { email: 'climber@example.com' } }))?.role).toBe('customer');
    const otherOrg = await t.request('/api/auth/sign-up/email', {
      body: { email: 'mover@example.com', password: 'correct-horse-battery', name: 'Mover', organizationId: '00000000-0000-0000-0000-000000000000' },
    });
    expect(otherOrg.status).toBe(422);
    expect(otherOrg.body.error.code).toBe('VALIDATION_FAILED');
    expect(await t.app.db.user.findUnique({ where: { email: 'mover@example.com' } })).toBeNull();
  });

  it('sign-in needs no Origin header and returns a bearer token; wrong password is 401', async () => {
    await signUp('mobile@example.com');
    const ok = await t.request('/api/auth/sign-in/email', { body: { email: 'mobile@example.com', password: 'correct-horse-battery' } });
    expect(ok.status).toBe(200);
    expect(ok.body.token).toEqual(expect.any(String));
    const bad = await t.request('/api/auth/sign-in/email', { body: { email: 'mobile@example.com', password: 'wrong-password-here' } });
    expect(bad.status).toBe(401);
    expect(bad.body.error.code).toBe('UNAUTHORIZED');
  });

  it('sets the session cookie HttpOnly, SameSite=Lax, with sessionDuration as its lifetime', async () => {
    await signUp('cookie@example.com');
    const res = await t.request('/api/auth/sign-in/email', { body: { email: 'cookie@example.com', password: 'correct-horse-battery' } });
    const cookie = res.headers.get('set-cookie') ?? '';
    expect(cookie).toMatch(/^commerce\.session_token=/);
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
    expect(cookie).toMatch(/Max-Age=3600/);
    const session = await t.app.db.session.findFirst({ where: { user: { email: 'cookie@example.com' } }, orderBy: { createdAt: 'desc' } });
    const lifetime = (session!.expiresAt.getTime() - session!.createdAt.getTime()) / 1000;
    expect(Math.round(lifetime)).toBe(3600);
  });
});

describe('the three credentials', () => {
  it('session cookie, bearer token and API key each authenticate', async () => {
    const owner = await t.signIn('owner');
    expect((await t.request('/api/settings', { cookie: owner.cookie })).status).toBe(200);
    expect((await t.request('/api/settings', { bearer: owner.token })).status).toBe(200);
    expect((await t.request('/api/settings', { apiKey: await t.apiKey('admin') })).status).toBe(200);
  });

  it('GET /api/auth/get-session returns the session for a bearer token and null without one', async () => {
    const customer = await t.signIn('customer');
    const res = await t.request('/api/auth/get-session', { bearer: customer.token });
    expect(res.status).toBe(200);
    expect(res.body.user).toMatchObject({ id: customer.userId, role: 'customer' });
    const anonymous = await t.request('/api/auth/get-session');
    expect(anonymous.status).toBe(200);
    expect(anonymous.body).toBeNull();
  });

  it('a signed-out token stops working', async () => {
    const staff = await t.signIn('staff');
    const out = await t.request('/api/auth/sign-out', { method: 'POST', bearer: staff.token, body: {} });
    expect(out.status).toBe(200);
    expect((await t.request('/api/auth/get-session', { bearer: staff.token })).body).toBeNull();
  });

  it('API keys are stored hashed, never in clear', async () => {
    const key = await t.apiKey('storefront');
    expect(key.startsWith('cs_store_')).toBe(true);
    const rows = await t.app.db.apikey.findMany();
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) expect(row.key).not.toBe(key);
    expect(rows.some((row) => row.key.includes(key.slice(9)))).toBe(false);
  });

  it('an expired API key is refused', async () => {
    const key = await t.apiKey('admin');
    await t.app.db.apikey.updateMany({ data: { expiresAt: new Date(Date.now() - 1000) }, where: { configId: 'admin', expiresAt: null } });
    const res = await t.request('/api/settings', { apiKey: key });
    expect(res.status).toBe(401);
  });
});

describe('roles and permissions', () => {
  it('applies the spec’s default role permissions', async () => {
    for (const [role, status] of [
      ['owner', 200],
      ['admin', 200],
      ['staff', 403],
      ['customer', 403],
    ] as const) {
      const user = await t.signIn(role);
      const res = await t.request('/api/settings', { bearer: user.token });
      expect(res.status, role).toBe(status);
    }
  });
});

describe('origin check', () => {
  it('refuses a cookie-carrying mutation from an untrusted origin or with no origin', async () => {
    const owner = await t.signIn('owner');
    const evil = await t.request('/api/settings/general', { method: 'PATCH', cookie: owner.cookie, headers: { origin: 'https://evil.example' }, body: { currency: 'EUR' } });
    expect(evil.status).toBe(403);
    expect(evil.body.error.code).toBe('FORBIDDEN');
    const none = await t.request('/api/settings/general', { method: 'PATCH', cookie: owner.cookie, body: { currency: 'EUR' } });
    expect(none.status).toBe(403);
    const viaGraphql = await t.request('/graphql', {
      method: 'POST',
      cookie: owner.cookie,
      headers: { origin: 'https://evil.example' },
      body: { query: 'mutation { settingsUpdate(group: "general", values: { currency: "EUR" }) }' },
    });
    expect(viaGraphql.status).toBe(403);
    const unchanged = await t.request('/api/settings/general', { cookie: owner.cookie });
    expect(unchanged.body.data.currency).toBeUndefined();
  });

  it('allows trusted origins, reads from any origin, and bearer or API-key requests', async () => {
    const owner = await t.signIn('owner');
    const trusted = await t.request('/api/settings/general', {
      method: 'PATCH',
      cookie: owner.cookie,
      headers: { origin: 'https://admin.example.com' },
      body: { currency: 'EUR' },
    });
    expect(trusted.status).toBe(200);
    expect(trusted.headers.get('access-control-allow-origin')).toBe('https://admin.example.com');
    const read = await t.request('/api/settings/general', { cookie: owner.cookie, headers: { origin: 'https://evil.example' } });
    expect(read.status).toBe(200);
    expect(read.headers.get('access-control-allow-origin')).toBeNull();
    const bearer = await t.request('/api/settings/general', { method: 'PATCH', bearer: owner.token, headers: { origin: 'https://evil.example' }, body: { locale: 'en' } });
    expect(bearer.status).toBe(200);
    const key = await t.request('/api/settings/general', {
      method: 'PATCH',
      apiKey: await t.apiKey('admin'),
      cookie: owner.cookie,
      headers: { origin: 'https://evil.example' },
      body: { locale: 'fr' },
    });
    expect(key.status).toBe(200);
  });

  it('answers CORS preflight only for trusted origins', async () => {
    const trusted = await t.request('/api/settings', { method: 'OPTIONS', headers: { origin: 'https://admin.example.com', 'access-control-request-method': 'PATCH' } });
    expect(trusted.status).toBe(204);
    expect(trusted.headers.get('access-control-allow-methods')).toContain('PATCH');
    const other = await t.request('/api/settings', { method: 'OPTIONS', headers: { origin: 'https://evil.example' } });
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
  });
});

describe('https deployments', () => {
  it('use the __Secure- cookie prefix with the Secure flag', async () => {
    const secure = await startTestApp({ baseUrl: 'https://shop.example.com' });
    try {
      await secure.request('/api/auth/sign-up/email', { body: { email: 's@example.com', password: 'correct-horse-battery', name: 'S' } });
      const res = await secure.request('/api/auth/sign-in/email', { body: { email: 's@example.com', password: 'correct-horse-battery' } });
      const cookie = res.headers.get('set-cookie') ?? '';
      expect(cookie).toMatch(/^__Secure-commerce\.session_token=/);
      expect(cookie).toMatch(/; Secure/i);
    } finally {
      await secure.close();
    }
  });
});

describe('requireEmailVerification', () => {
  it('refuses sign-in until the email is verified', async () => {
    const strict = await startTestApp({ auth: { requireEmailVerification: true } });
    try {
      const up = await strict.request('/api/auth/sign-up/email', { body: { email: 'v@example.com', password: 'correct-horse-battery', name: 'V' } });
      expect(up.status).toBe(200);
      expect(up.body.token ?? null).toBeNull();
      const res = await strict.request('/api/auth/sign-in/email', { body: { email: 'v@example.com', password: 'correct-horse-battery' } });
      expect(res.status).toBe(403);
      await strict.app.db.user.update({ where: { email: 'v@example.com' }, data: { emailVerified: true } });
      const after = await strict.request('/api/auth/sign-in/email', { body: { email: 'v@example.com', password: 'correct-horse-battery' } });
      expect(after.status).toBe(200);
    } finally {
      await strict.close();
    }
  });
});
