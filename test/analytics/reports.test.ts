// The six reports over HTTP: local calendar days (a DST day in America/New_York), YYYY-MM-DD
// parameters, meta, CSV, permission and organization isolation.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { newOrganization, seedOrder } from './helpers.js';

let t: TestApp;
let admin: string;
let orgId: string;

beforeAll(async () => {
  t = await startTestApp();
  admin = await t.apiKey('admin');
  orgId = (await t.app.services.organizations.defaultOrganization()).id;
  const res = await t.request('/api/settings/general', { method: 'PATCH', apiKey: admin, body: { timezone: 'America/New_York', currency: 'USD' } });
  expect(res.status, res.text).toBe(200);
  // 2026-11-01 is the day New York leaves daylight time: local midnight is 04:00Z, the next one 05:00Z (a 25-hour day).
  await seedOrder(t, orgId, { placedAt: new Date('2026-11-01T03:30:00Z'), grandTotal: 1 }); // 23:30 EDT on Oct 31
  await seedOrder(t, orgId, { placedAt: new Date('2026-11-01T04:30:00Z'), grandTotal: 1000, taxTotal: 80 }); // 00:30 EDT Nov 1
  await seedOrder(t, orgId, { placedAt: new Date('2026-11-01T05:30:00Z'), grandTotal: 2000, taxTotal: 160 }); // 01:30 EDT, the first pass
  await seedOrder(t, orgId, { placedAt: new Date('2026-11-01T06:30:00Z'), grandTotal: 3000, taxTotal: 240, paymentStatus: 'awaiting_payment', status: 'pending' }); // 01:30 EST, the second pass
  await seedOrder(t, orgId, { placedAt: new Date('2026-11-02T04:30:00Z'), grandTotal: 4000, taxTotal: 320 }); // 23:30 EST Nov 1
  await seedOrder(t, orgId, { placedAt: new Date('2026-11-02T05:30:00Z'), grandTotal: 7 }); // 00:30 EST Nov 2
  const other = await newOrganization(t);
  await seedOrder(t, other.id, { placedAt: new Date('2026-11-01T12:00:00Z'), grandTotal: 55555 });
});
afterAll(async () => t?.close());

describe('daily-journal', () => {
  it('counts the orders of the local day across the DST change, by payment status', async () => {
    const res = await t.request('/api/analytics/reports/daily-journal?date=2026-11-01', { apiKey: admin });
    expect(res.status, res.text).toBe(200);
    expect(res.body.data).toEqual([
      { paymentStatus: 'awaiting_payment', orders: 1, revenue: 3000, tax: 240, refunds: 0, net: 3000 },
      { paymentStatus: 'paid', orders: 3, revenue: 7000, tax: 560, refunds: 0, net: 7000 },
    ]);
    expect(res.body.meta).toMatchObject({
      report: 'daily-journal',
      parameters: { date: '2026-11-01' },
      timezone: 'America/New_York',
      currency: 'USD',
      totals: { orders: 4, revenue: 10000 },
    });
  });

  it('renders as CSV with Accept: text/csv', async () => {
    const res = await t.request('/api/analytics/reports/daily-journal?date=2026-11-01', { apiKey: admin, headers: { accept: 'text/csv' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(res.headers.get('content-disposition')).toContain('daily-journal-2026-11-01.csv');
    expect(res.text.split('\r\n')).toEqual([
      'Payment status,Orders,Revenue,Tax,Refunds,Net',
      'awaiting_payment,1,3000,240,0,3000',
      'paid,3,7000,560,0,7000',
      'Total,4,10000,800,0,10000',
      '',
    ]);
  });
});

describe('parameters and access', () => {
  it('422 for dates that are not YYYY-MM-DD, in JSON and CSV', async () => {
    for (const q of ['date=2026-11-31', 'date=11/01/2026', 'date=2026-1-1']) {
      const res = await t.request(`/api/analytics/reports/daily-journal?${q}`, { apiKey: admin });
      expect(res.status, q).toBe(422);
      expect(res.body.error.details[0].field).toBe('date');
    }
    const range = await t.request('/api/analytics/reports/tax-summary?from=2026-11-05&to=2026-11-01', { apiKey: admin });
    expect(range.status).toBe(422);
    const csv = await t.request('/api/analytics/reports/tax-summary?from=yesterday', { apiKey: admin, headers: { accept: 'text/csv' } });
    expect(csv.status).toBe(422);
    expect(csv.body.error.code).toBe('VALIDATION_FAILED');
  });

  it('needs analytics:read; unknown reports are 404', async () => {
    const staff = await t.signIn('staff');
    expect((await t.request('/api/analytics/reports', { bearer: staff.token })).status).toBe(403);
    expect((await t.request('/api/analytics/reports/daily-journal', { headers: { accept: 'text/csv' } })).status).toBe(401);
    expect((await t.request('/api/analytics/reports/nope', { apiKey: admin })).status).toBe(404);
    const list = await t.request('/api/analytics/reports', { apiKey: admin });
    expect(list.body.data.map((r: any) => r.name)).toEqual(['daily-journal', 'tax-summary', 'inventory-aging', 'sell-through', 'reorder-needed', 'staff-sales']);
  });
});

describe('every report', () => {
  it('runs with meta and in a fixed few statements', async () => {
    for (const name of ['tax-summary', 'inventory-aging', 'sell-through', 'reorder-needed', 'staff-sales']) {
      const before = t.statements();
      const res = await t.request(`/api/analytics/reports/${name}?from=2026-10-01&to=2026-11-30`, { apiKey: admin });
      expect(res.status, name + res.text).toBe(200);
      expect(t.statements() - before, name).toBeLessThanOrEqual(2);
      expect(res.body.meta.report).toBe(name);
      expect(res.body.meta.currency).toBe('USD');
    }
    const tax = await t.request('/api/analytics/reports/tax-summary?from=2026-11-01&to=2026-11-01', { apiKey: admin });
    expect(tax.body.meta.parameters).toEqual({ from: '2026-11-01', to: '2026-11-01' });
    expect(tax.body.meta.totals.tax).toBe(0); // the seeded lines carry no line tax
    expect(tax.body.meta.totals.taxableAmount).toBe(10000 - 800);
  });

  it('over GraphQL too', async () => {
    const res = await t.graphql('{ analyticsReport(name: "daily-journal", date: "2026-11-01") { data meta { totals parameters } } }', {}, { apiKey: admin });
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.analyticsReport.meta.totals.orders).toBe(4);
  });
});
