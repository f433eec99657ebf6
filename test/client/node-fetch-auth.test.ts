// Issue 13, defect 1: Node's own fetch (Sec-Fetch-Mode: cors, no Origin, no cookie) signs up,
// signs in and uses its bearer token; cookie-carrying writes from untrusted origins stay
// refused, and so does a browser's cross-site sign-in. better-auth's production origin check
// runs here (it would switch itself off under NODE_ENV=test).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, TEST_BASE_URL, type TestApp } from '../support/app.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t?.close());

const json = { 'content-type': 'application/json' };
const email = `node-${Date.now()}@example.com`;
const password = 'correct-horse-battery';

describe("Node's fetch without Origin or cookies", () => {
  let token: string;
  let cookie: string;

  it('signs up', async () => {
    const res = await fetch(`${t.url}/api/auth/sign-up/email`, { method: 'POST', headers: json, body: JSON.stringify({ email, password, name: 'Node' }) });
    expect(res.status, await res.clone().text()).toBe(200);
    expect((await res.json()).user.email).toBe(email);
  });

  it('signs in and gets a bearer token', async () => {
    const res = await fetch(`${t.url}/api/auth/sign-in/email`, { method: 'POST', headers: json, body: JSON.stringify({ email, password }) });
    expect(res.status, await res.clone().text()).toBe(200);
    token = (await res.json()).token;
    expect(token).toEqual(expect.any(String));
    cookie = (res.headers.get('set-cookie') ?? '').split(';')[0]!;
    expect(cookie).toMatch(/session_token=/);
  });

  it('uses the bearer token for a write and a read', async () => {
    const cart = await fetch(`${t.url}/api/carts`, { method: 'POST', headers: { ...json, authorization: `Bearer ${token}` }, body: JSON.stringify({ currency: 'USD' }) });
    expect(cart.status, await cart.clone().text()).toBe(201);
    const session = await fetch(`${t.url}/api/auth/get-session`, { headers: { authorization: `Bearer ${token}` } });
    expect((await session.json()).user.email).toBe(email);
  });

  it('still refuses a cookie-carrying write from an untrusted origin (ours and better-auth)', async () => {
    const hostile = { ...json, cookie, origin: 'https://evil.example' };
    const api = await fetch(`${t.url}/api/carts`, { method: 'POST', headers: hostile, body: JSON.stringify({ currency: 'USD' }) });
    expect(api.status).toBe(403);
    expect((await api.json()).error.code).toBe('FORBIDDEN');
    const signOut = await fetch(`${t.url}/api/auth/sign-out`, { method: 'POST', headers: hostile, body: '{}' });
    expect(signOut.status).toBe(403);
    // A cookie write with no Origin at all is refused too.
    const bare = await fetch(`${t.url}/api/carts`, { method: 'POST', headers: { ...json, cookie }, body: JSON.stringify({ currency: 'USD' }) });
    expect(bare.status).toBe(403);
  });

  it("refuses a browser's cross-site sign-in (login CSRF) but accepts the trusted origin's", async () => {
    const hostile = await fetch(`${t.url}/api/auth/sign-in/email`, {
      method: 'POST',
      headers: { ...json, origin: 'https://evil.example' },
      body: JSON.stringify({ email, password }),
    });
    expect(hostile.status).toBe(403);
    expect((await hostile.json()).error.details.reason).toBe('INVALID_ORIGIN');
    const trusted = await fetch(`${t.url}/api/auth/sign-in/email`, {
      method: 'POST',
      headers: { ...json, origin: new URL(TEST_BASE_URL).origin },
      body: JSON.stringify({ email, password }),
    });
    expect(trusted.status).toBe(200);
  });

  it('accepts a cookie write from the trusted origin', async () => {
    const res = await fetch(`${t.url}/api/carts`, {
      method: 'POST',
      headers: { ...json, cookie, origin: new URL(TEST_BASE_URL).origin },
      body: JSON.stringify({ currency: 'USD' }),
    });
    expect(res.status, await res.clone().text()).toBe(201);
  });
});
