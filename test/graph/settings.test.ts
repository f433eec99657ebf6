// storeSettings: the known settings groups as typed objects, next to the JSON routes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';

let t: TestApp;
let admin: string;

beforeAll(async () => {
  t = await startTestApp();
  admin = await t.apiKey('admin');
});
afterAll(() => t?.close());

describe('storeSettings', () => {
  it('answers the known groups typed, with defaults where a group was never set', async () => {
    for (const [group, body] of [
      ['general', { currency: 'EUR', timezone: 'Europe/Berlin' }],
      ['branding', { storeName: 'Mugs & Co', address: { line1: '1 Main St', city: 'Berlin', postalCode: '10115', country: 'DE' } }],
      ['shipping', { flatRate: 495, freeOver: 5000 }],
    ] as const) {
      const res = await t.request(`/api/settings/${group}`, { method: 'PATCH', apiKey: admin, body });
      expect(res.status, res.text).toBe(200);
    }
    const res = await t.graphql(
      `{ storeSettings { general { currency timezone locale } branding { storeName address { city country line2 } } policies { refundDailyCap refundUndoWindowMinutes } shipping { flatRate freeOver } } }`,
      {},
      { apiKey: admin },
    );
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data!.storeSettings).toEqual({
      general: { currency: 'EUR', timezone: 'Europe/Berlin', locale: null },
      branding: { storeName: 'Mugs & Co', address: { city: 'Berlin', country: 'DE', line2: null } },
      policies: { refundDailyCap: null, refundUndoWindowMinutes: 15 },
      shipping: { flatRate: 495, freeOver: 5000 },
    });
  });

  it('needs settings:manage like the routes', async () => {
    const res = await t.graphql(`{ storeSettings { general { currency } } }`, {}, { apiKey: await t.apiKey('storefront') });
    expect(res.body.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
  });
});
