// Webhook endpoints: POST/GET/DELETE /webhooks (webhooks:manage), the secret shown once, and the
// SSRF guard on registration.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';

let t: TestApp;
let adminKey: string;

beforeAll(async () => {
  t = await startTestApp();
  adminKey = await t.apiKey('admin');
});
afterAll(() => t?.close());

async function register(body: Record<string, unknown>, apiKey = adminKey) {
  return t.request('/api/webhooks', { method: 'POST', apiKey, body });
}

describe('webhook endpoints', () => {
  it('registers an endpoint and returns its signing secret once; the list never shows it', async () => {
    const res = await register({ url: 'http://127.0.0.1:9/hooks', events: ['orders.create', 'catalog.update'], description: 'ERP' });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ url: 'http://127.0.0.1:9/hooks', events: ['orders.create', 'catalog.update'], description: 'ERP' });
    expect(res.body.data.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(res.body.data.secret.slice(6), 'base64')).toHaveLength(32);

    const list = await t.request('/api/webhooks', { apiKey: adminKey });
    expect(list.status).toBe(200);
    const listed = list.body.data.find((e: { id: string }) => e.id === res.body.data.id);
    expect(listed).toMatchObject({ url: 'http://127.0.0.1:9/hooks', events: ['orders.create', 'catalog.update'], description: 'ERP' });
    expect(listed).not.toHaveProperty('secret');
    expect(list.text).not.toContain(res.body.data.secret);
    expect(list.body.meta.pagination).toMatchObject({ page: 1, total: expect.any(Number) });
  });

  it('keeps * alone when given with names, and drops duplicates', async () => {
    expect((await register({ url: 'http://127.0.0.1:9/all', events: ['orders.create', '*'] })).body.data.events).toEqual(['*']);
    expect((await register({ url: 'http://127.0.0.1:9/dup', events: ['orders.create', 'orders.create'] })).body.data.events).toEqual(['orders.create']);
  });

  it.each([
    [{ url: 'http://127.0.0.1:9/x', events: ['orders.explode'] }, 'events'],
    [{ url: 'http://127.0.0.1:9/x', events: [] }, 'events'],
    [{ url: 'http://127.0.0.1:9/x' }, 'events'],
    [{ url: 'ftp://127.0.0.1/x', events: ['*'] }, 'url'],
    [{ url: 'not a url', events: ['*'] }, 'url'],
    [{ events: ['*'] }, 'url'],
  ])('refuses %j with 422 naming %s', async (body, field) => {
    const res = await register(body);
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe('VALIDATION_FAILED');
    expect(res.body.error.details.map((d: { field: string }) => d.field)).toContain(field);
  });

  it('deletes an endpoint and answers with what it deleted; 404 afterwards', async () => {
    const created = (await register({ url: 'http://127.0.0.1:9/gone', events: ['*'] })).body.data;
    const res = await t.request(`/api/webhooks/${created.id}`, { method: 'DELETE', apiKey: adminKey });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ id: created.id, url: 'http://127.0.0.1:9/gone' });
    expect(res.body.data).not.toHaveProperty('secret');
    expect((await t.request(`/api/webhooks/${created.id}`, { method: 'DELETE', apiKey: adminKey })).status).toBe(404);
    const list = await t.request('/api/webhooks?limit=100', { apiKey: adminKey });
    expect(list.body.data.map((e: { id: string }) => e.id)).not.toContain(created.id);
  });

  it('is scoped to the organization', async () => {
    const other = await t.app.services.organizations.create({ slug: 'webhooks-other', name: 'Other' });
    const otherKey = await t.apiKey('admin', { organizationId: other.id });
    const mine = (await register({ url: 'http://127.0.0.1:9/mine', events: ['*'] })).body.data;
    const theirList = await t.request('/api/webhooks', { apiKey: otherKey });
    expect(theirList.body.data).toEqual([]);
    expect((await t.request(`/api/webhooks/${mine.id}`, { method: 'DELETE', apiKey: otherKey })).status).toBe(404);
  });

  it('needs webhooks:manage: 401 anonymous, 403 for staff and storefront keys', async () => {
    expect((await t.request('/api/webhooks')).status).toBe(401);
    expect((await t.request('/api/webhooks', { method: 'POST', body: { url: 'http://127.0.0.1:9/x', events: ['*'] } })).status).toBe(401);
    const staff = await t.signIn('staff');
    expect((await t.request('/api/webhooks', { bearer: staff.token })).status).toBe(403);
    expect((await register({ url: 'http://127.0.0.1:9/x', events: ['*'] }, await t.apiKey('storefront'))).status).toBe(403);
  });

  it('works over GraphQL', async () => {
    const res = await t.graphql(
      'mutation($url: String!) { webhookEndpointCreate(url: $url, events: ["catalog.create"]) { id secret events } }',
      { url: 'http://127.0.0.1:9/gql' },
      { apiKey: adminKey },
    );
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.webhookEndpointCreate.secret).toMatch(/^whsec_/);
    const list = await t.graphql('{ webhookEndpoints(limit: 100) { data { id url } } }', {}, { apiKey: adminKey });
    expect(list.body.data.webhookEndpoints.data.map((e: { id: string }) => e.id)).toContain(res.body.data.webhookEndpointCreate.id);
  });
});

describe('webhook targets when private targets are not allowed', () => {
  let strict: TestApp;
  let key: string;
  beforeAll(async () => {
    strict = await startTestApp({ webhooks: { allowPrivateTargets: false } });
    key = await strict.apiKey('admin');
  });
  afterAll(() => strict?.close());

  it.each([
    'http://127.0.0.1:8080/hook',
    'http://localhost:8080/hook',
    'http://[::1]/hook',
    'http://[::ffff:127.0.0.1]/hook',
    'http://10.0.0.8/hook',
    'http://172.20.1.1/hook',
    'http://192.168.1.10/hook',
    'http://169.254.169.254/latest/meta-data',
    'http://100.64.0.1/hook',
    'http://0.0.0.0/hook',
    'http://[fe80::1]/hook',
    'http://[fd00::1]/hook',
  ])('refuses %s with 422', async (url) => {
    const res = await strict.request('/api/webhooks', { method: 'POST', apiKey: key, body: { url, events: ['*'] } });
    expect(res.status).toBe(422);
    expect(res.body.error.details[0].field).toBe('url');
    expect(res.body.error.details[0].message).toMatch(/private, loopback or link-local/);
  });

  it('accepts a public address', async () => {
    const res = await strict.request('/api/webhooks', { method: 'POST', apiKey: key, body: { url: 'https://93.184.215.14/hook', events: ['*'] } });
    expect(res.status).toBe(201);
  });
});
