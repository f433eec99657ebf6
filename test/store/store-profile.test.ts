// The public store profile (issue 24, item 3): a storefront key could not read the store's
// currency (settings need settings:manage), yet every price(currency:) takes one. GET /api/store
// and GraphQL `store` answer every catalog reader with the shopper-facing part of the settings.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';

let t: TestApp;
let admin: string;
let storefront: string;

beforeAll(async () => {
  t = await startTestApp();
  admin = await t.apiKey('admin');
  storefront = await t.apiKey('storefront');
}, 60_000);
afterAll(() => t?.close());

async function patch(group: string, body: Record<string, unknown>) {
  const res = await t.request(`/api/settings/${group}`, { method: 'PATCH', apiKey: admin, body });
  expect(res.status, res.text).toBe(200);
}

describe('store profile', () => {
  it('defaults before anything is set: organization name, USD (as the seed sets it), en, UTC', async () => {
    const res = await t.request('/api/store', { apiKey: storefront });
    expect(res.status, res.text).toBe(200);
    const organization = await t.app.services.organizations.defaultOrganization();
    expect(res.body.data).toEqual({
      name: organization.name,
      defaultCurrency: 'USD',
      currencies: ['USD'],
      defaultLocale: 'en',
      locales: ['en'],
      timezone: 'UTC',
      branding: { logoUrl: null, primaryColor: null, website: null, email: null, phone: null },
      policies: { termsUrl: null, privacyUrl: null, returnsUrl: null, shippingFlatRate: 0, freeShippingOver: null },
    });
  });

  it('shows the public part of general, branding, policies and shipping, and never the staff-only settings', async () => {
    await patch('general', { currency: 'EUR', currencies: ['USD', 'EUR'], locale: 'de', locales: ['en'], timezone: 'Europe/Berlin' });
    await patch('branding', {
      storeName: 'Kiosk',
      logoUrl: 'https://cdn.example.com/logo.png',
      primaryColor: '#112233',
      email: 'hi@example.com',
      taxId: 'DE123456789',
      legalName: 'Kiosk GmbH',
      receiptFooter: 'internal footer',
    });
    await patch('policies', { refundDailyCap: 5000, refundUndoWindowMinutes: 30, termsUrl: 'https://example.com/terms', returnsUrl: 'https://example.com/returns' });
    await patch('shipping', { flatRate: 495, freeOver: 5000 });
    const res = await t.request('/api/store', { apiKey: storefront });
    expect(res.body.data).toEqual({
      name: 'Kiosk',
      defaultCurrency: 'EUR',
      currencies: ['EUR', 'USD'],
      defaultLocale: 'de',
      locales: ['de', 'en'],
      timezone: 'Europe/Berlin',
      branding: { logoUrl: 'https://cdn.example.com/logo.png', primaryColor: '#112233', website: null, email: 'hi@example.com', phone: null },
      policies: { termsUrl: 'https://example.com/terms', privacyUrl: null, returnsUrl: 'https://example.com/returns', shippingFlatRate: 495, freeShippingOver: 5000 },
    });
    for (const secret of ['DE123456789', 'Kiosk GmbH', 'internal footer', 'refundDailyCap', 'refundUndoWindowMinutes']) expect(res.text).not.toContain(secret);
  });

  it('is readable with catalog:read: a storefront key, a customer, staff; the settings stay settings:manage', async () => {
    const customer = await t.signIn('customer');
    const staff = await t.signIn('staff');
    for (const credential of [{ apiKey: storefront }, { bearer: customer.token }, { bearer: staff.token }]) {
      const rest = await t.request('/api/store', credential);
      expect(rest.status, rest.text).toBe(200);
      expect(rest.body.data.defaultCurrency).toBe('EUR');
      const gql = await t.graphql('{ store { name currencies defaultCurrency branding { primaryColor } policies { shippingFlatRate } } }', {}, credential);
      expect(gql.body.errors).toBeUndefined();
      expect(gql.body.data.store).toEqual({
        name: 'Kiosk',
        currencies: ['EUR', 'USD'],
        defaultCurrency: 'EUR',
        branding: { primaryColor: '#112233' },
        policies: { shippingFlatRate: 495 },
      });
    }
    expect((await t.request('/api/settings/general', { apiKey: storefront })).status).toBe(403);
    expect((await t.request('/api/store')).status).toBe(401);
  });

  it('validates the new settings fields: 422 for a bad currency list or policy URL, nothing written', async () => {
    const bad = await t.request('/api/settings/general', { method: 'PATCH', apiKey: admin, body: { currencies: ['usd'] } });
    expect(bad.status).toBe(422);
    expect(bad.body.error.details[0].field).toMatch(/^currencies/);
    const url = await t.request('/api/settings/policies', { method: 'PATCH', apiKey: admin, body: { termsUrl: 'not a url' } });
    expect(url.status).toBe(422);
    const res = await t.request('/api/store', { apiKey: storefront });
    expect(res.body.data.currencies).toEqual(['EUR', 'USD']);
    expect(res.body.data.policies.termsUrl).toBe('https://example.com/terms');
  });

  it('costs one settings read', async () => {
    const before = t.statements();
    const res = await t.request('/api/store', { apiKey: storefront });
    expect(res.status).toBe(200);
    const cost = t.statements() - before;
    console.info(`GET /api/store: ${cost} statements`);
    expect(cost).toBeLessThanOrEqual(2);
  });
});
