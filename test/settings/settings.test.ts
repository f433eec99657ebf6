import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';

let t: TestApp;
let adminKey: string;

beforeAll(async () => {
  t = await startTestApp();
  adminKey = await t.apiKey('admin');
});
afterAll(() => t?.close());

describe('settings', () => {
  it('answers {} for a group that was never set', async () => {
    const res = await t.request('/api/settings/general', { apiKey: adminKey });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: {} });
  });

  it('shallow-merges a patch, and null deletes a key', async () => {
    let res = await t.request('/api/settings/general', { method: 'PATCH', apiKey: adminKey, body: { currency: 'EUR', timezone: 'Europe/Berlin' } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: { currency: 'EUR', timezone: 'Europe/Berlin' } });

    res = await t.request('/api/settings/general', { method: 'PATCH', apiKey: adminKey, body: { locale: 'de-DE', timezone: null } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: { currency: 'EUR', locale: 'de-DE' } });

    res = await t.request('/api/settings/general', { apiKey: adminKey });
    expect(res.body).toEqual({ data: { currency: 'EUR', locale: 'de-DE' } });
  });

  it('lists every group of the organization', async () => {
    await t.request('/api/settings/custom-thing', { method: 'PATCH', apiKey: adminKey, body: { anything: { nested: [1, 2] } } });
    const res = await t.request('/api/settings', { apiKey: adminKey });
    expect(res.status).toBe(200);
    expect(res.body.data['custom-thing']).toEqual({ anything: { nested: [1, 2] } });
    expect(res.body.data.general).toEqual({ currency: 'EUR', locale: 'de-DE' });
  });

  it.each([
    ['general', { currency: 'euro' }, 'currency'],
    ['general', { timezone: 'Mars/Olympus' }, 'timezone'],
    ['policies', { refundDailyCap: -1 }, 'refundDailyCap'],
    ['policies', { refundDailyCap: 10.5 }, 'refundDailyCap'],
    ['policies', { refundUndoWindowMinutes: 'soon' }, 'refundUndoWindowMinutes'],
    ['policies', { refundDailycap: 100 }, ''],
  ])('refuses bad %s input %j with 422 naming the field', async (group, patch, field) => {
    const before = await t.request(`/api/settings/${group}`, { apiKey: adminKey });
    const res = await t.request(`/api/settings/${group}`, { method: 'PATCH', apiKey: adminKey, body: patch });
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe('VALIDATION_FAILED');
    expect(res.body.error.details.map((d: { field: string }) => d.field)).toContain(field || '(input)');
    const after = await t.request(`/api/settings/${group}`, { apiKey: adminKey });
    expect(after.body).toEqual(before.body);
  });

  it('refuses a group name outside the allowed pattern with 422', async () => {
    const res = await t.request('/api/settings/Bad%20Name', { apiKey: adminKey });
    expect(res.status).toBe(422);
    expect(res.body.error.details[0].field).toBe('group');
  });

  it('accepts policies and lands concurrent patches of one group', async () => {
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) => t.request('/api/settings/custom-concurrent', { method: 'PATCH', apiKey: adminKey, body: { [`k${i}`]: i } })),
    );
    expect(results.every((r) => r.status === 200)).toBe(true);
    const res = await t.request('/api/settings/custom-concurrent', { apiKey: adminKey });
    expect(Object.keys(res.body.data).sort()).toEqual(Array.from({ length: 10 }, (_, i) => `k${i}`).sort());
  });

  it('needs settings:manage: 401 anonymous, 403 for a customer and for the storefront scope', async () => {
    expect((await t.request('/api/settings')).status).toBe(401);
    const customer = await t.signIn('customer');
    const asCustomer = await t.request('/api/settings', { bearer: customer.token });
    expect(asCustomer.status).toBe(403);
    expect(asCustomer.body.error.code).toBe('FORBIDDEN');
    const storefront = await t.apiKey('storefront');
    expect((await t.request('/api/settings', { apiKey: storefront })).status).toBe(403);
    const staff = await t.signIn('staff');
    expect((await t.request('/api/settings', { bearer: staff.token })).status).toBe(403);
    const owner = await t.signIn('owner');
    expect((await t.request('/api/settings', { bearer: owner.token })).status).toBe(200);
  });

  it('works the same over GraphQL', async () => {
    const res = await t.graphql('mutation($v: JSONObject!) { settingsUpdate(group: "branding", values: $v) }', { v: { storeName: 'Corner Shop' } }, { apiKey: adminKey });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ settingsUpdate: { storeName: 'Corner Shop' } });
    const read = await t.graphql('{ settingsGroup(group: "branding") }', {}, { apiKey: adminKey });
    expect(read.body.data).toEqual({ settingsGroup: { storeName: 'Corner Shop' } });
    const bad = await t.graphql('mutation { settingsUpdate(group: "branding", values: { email: "nope" }) }', {}, { apiKey: adminKey });
    expect(bad.status).toBe(200);
    expect(bad.body.errors?.[0].extensions.code).toBe('VALIDATION_FAILED');
  });
});
