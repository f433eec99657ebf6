// ETag / If-None-Match / Cache-Control: what a browser or CDN in front of the API relies on.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { createEntity } from '../catalog/helpers.js';

let t: TestApp;
let admin: string;

beforeAll(async () => {
  t = await startTestApp();
  admin = await t.apiKey('admin');
});
afterAll(() => t?.close());

describe('conditional GET', () => {
  it('tags a GET, answers 304 without a body to a matching If-None-Match, and 200 again after a change', async () => {
    const entity = await createEntity(t, admin, { status: 'active' });
    const first = await t.request(`/api/catalog/entities/${entity.id}`, { apiKey: admin });
    expect(first.status).toBe(200);
    const etag = first.headers.get('etag');
    expect(etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
    // Credentialed answers may differ per caller: browsers keep them, shared caches do not.
    expect(first.headers.get('cache-control')).toBe('private, no-cache');

    const again = await t.request(`/api/catalog/entities/${entity.id}`, { apiKey: admin, headers: { 'if-none-match': etag! } });
    expect(again.status).toBe(304);
    expect(again.text).toBe('');
    expect(again.headers.get('etag')).toBe(etag);
    expect(again.headers.get('x-request-id')).toBeTruthy();

    // A list of tags and the weak form both match (RFC 9110 weak comparison).
    const listed = await t.request(`/api/catalog/entities/${entity.id}`, { apiKey: admin, headers: { 'if-none-match': `"nope", W/${etag}` } });
    expect(listed.status).toBe(304);

    const patched = await t.request(`/api/catalog/entities/${entity.id}`, { method: 'PATCH', apiKey: admin, body: { slug: `${entity.slug}-x` } });
    expect(patched.status, patched.text).toBe(200);
    const changed = await t.request(`/api/catalog/entities/${entity.id}`, { apiKey: admin, headers: { 'if-none-match': etag! } });
    expect(changed.status).toBe(200);
    expect(changed.body.data.slug).toBe(`${entity.slug}-x`);
    expect(changed.headers.get('etag')).not.toBe(etag);
  });

  it('the same body gives the same tag across requests', async () => {
    const a = await t.request('/api/settings/general', { apiKey: admin });
    const b = await t.request('/api/settings/general', { apiKey: admin });
    expect(a.status).toBe(200);
    expect(a.headers.get('etag')).toBeTruthy();
    expect(b.headers.get('etag')).toBe(a.headers.get('etag'));
  });

  it('storefront catalog reads are publicly cacheable for a short while, varying on the credential', async () => {
    await createEntity(t, admin, { status: 'active' });
    const storefront = await t.apiKey('storefront');
    const res = await t.request('/api/catalog/entities?limit=5', { apiKey: storefront });
    expect(res.status, res.text).toBe(200);
    expect(res.headers.get('cache-control')).toBe('public, max-age=60');
    expect(res.headers.get('vary')?.toLowerCase()).toContain('x-api-key');
    // An admin key sees unpublished entities too: never shared.
    const credentialed = await t.request('/api/catalog/entities?limit=5', { apiKey: admin });
    expect(credentialed.headers.get('cache-control')).toBe('private, no-cache');
    // Storefront reads outside the catalog stay private.
    const settings = await t.request('/api/settings/general', { apiKey: storefront });
    if (settings.status === 200) expect(settings.headers.get('cache-control')).toBe('private, no-cache');
  });

  it('writes, errors and non-matching tags are not affected', async () => {
    const created = await t.request('/api/catalog/entities', { apiKey: admin, body: { type: 'product', slug: `etag-${Date.now()}` }, headers: { 'if-none-match': '*' } });
    expect(created.status).toBe(201);
    expect(created.headers.get('etag')).toBeNull();
    const missing = await t.request('/api/catalog/entities/2b1f3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d', { apiKey: admin, headers: { 'if-none-match': '*' } });
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe('NOT_FOUND');
    const other = await t.request('/api/settings/general', { apiKey: admin, headers: { 'if-none-match': '"something-else"' } });
    expect(other.status).toBe(200);
    expect(other.body.data).toBeTruthy();
  });
});
