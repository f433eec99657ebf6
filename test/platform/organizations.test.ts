// Tenancy: every read and write is scoped to the caller's organization; storeResolver and
// strictOrgResolution decide the organization of anonymous traffic.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';

describe('cross-organization isolation', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t?.close());

  it('a second organization sees none of the first’s settings, and writes only its own', async () => {
    const second = await t.app.services.organizations.create({ slug: 'second', name: 'Second store' });
    const firstKey = await t.apiKey('admin');
    const secondKey = await t.apiKey('admin', { organizationId: second.id });

    await t.request('/api/settings/general', { method: 'PATCH', apiKey: firstKey, body: { currency: 'EUR' } });
    await t.request('/api/settings/branding', { method: 'PATCH', apiKey: firstKey, body: { storeName: 'First' } });

    expect((await t.request('/api/settings', { apiKey: secondKey })).body).toEqual({ data: {} });
    expect((await t.request('/api/settings/general', { apiKey: secondKey })).body).toEqual({ data: {} });

    await t.request('/api/settings/general', { method: 'PATCH', apiKey: secondKey, body: { currency: 'JPY' } });
    expect((await t.request('/api/settings/general', { apiKey: firstKey })).body).toEqual({ data: { currency: 'EUR' } });
    expect((await t.request('/api/settings/general', { apiKey: secondKey })).body).toEqual({ data: { currency: 'JPY' } });

    const secondOwner = await t.signIn('owner', { organizationId: second.id });
    expect((await t.request('/api/settings/branding', { bearer: secondOwner.token })).body).toEqual({ data: {} });
  });
});

describe('organization resolution', () => {
  let t: TestApp;
  let storeB: { id: string };
  beforeAll(async () => {
    const resolver = (request: Request) => {
      const host = new URL(request.url).searchParams.get('store') ?? request.headers.get('x-store');
      return host === 'b' ? (storeB?.id ?? null) : host === 'default' ? defaultId : null;
    };
    let defaultId: string | null = null;
    t = await startTestApp({ storeResolver: resolver, strictOrgResolution: true });
    defaultId = (await t.app.services.organizations.defaultOrganization()).id;
    storeB = await t.app.services.organizations.create({ slug: 'store-b', name: 'Store B' });
  });
  afterAll(() => t?.close());

  it('rejects an unresolved organization with 503 under strict resolution', async () => {
    const res = await t.request('/api/settings');
    expect(res.status).toBe(503);
    expect(res.body.error.code).toBe('SERVICE_UNAVAILABLE');
    const signUp = await t.request('/api/auth/sign-up/email', { body: { email: 'x@example.com', password: 'correct-horse-battery', name: 'X' } });
    expect(signUp.status).toBe(503);
  });

  it('signs customers up into the organization the resolver picks', async () => {
    const res = await t.request('/api/auth/sign-up/email', {
      headers: { 'x-store': 'b' },
      body: { email: 'b-shopper@example.com', password: 'correct-horse-battery', name: 'B' },
    });
    expect(res.status).toBe(200);
    expect(res.body.user.organizationId).toBe(storeB.id);
  });

  it('refuses credentials of one organization on another organization’s storefront', async () => {
    const keyB = await t.apiKey('admin', { organizationId: storeB.id });
    expect((await t.request('/api/settings', { apiKey: keyB, headers: { 'x-store': 'b' } })).status).toBe(200);
    const wrong = await t.request('/api/settings', { apiKey: keyB, headers: { 'x-store': 'default' } });
    expect(wrong.status).toBe(403);
  });
});
