// /admin as the API server serves it: the index revalidated on every visit (no-cache), hashed
// assets cached for a year (immutable), a strict CSP on both (scripts and API calls from this
// origin only, no inline script), client routes answered with the index (SPA fallback), and no
// writes. Needs the built bundle: built here when missing or stale (scripts/admin-build.mjs).
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_DIST } from '../../src/http/admin.js';
import { startTestApp, type TestApp } from '../support/app.js';
// @ts-expect-error: a plain .mjs script without type declarations
import { ensureAdminBundle } from '../../scripts/admin-build.mjs';

let t: TestApp;

beforeAll(async () => {
  await ensureAdminBundle();
  t = await startTestApp();
}, 180_000);
afterAll(async () => {
  await t?.close();
});

function csp(headers: Headers): Record<string, string> {
  return Object.fromEntries(
    (headers.get('content-security-policy') ?? '').split(';').map(
      (d) =>
        d
          .trim()
          .split(/\s+(.*)/s)
          .slice(0, 2) as [string, string],
    ),
  );
}

describe('/admin serving', () => {
  it('answers the index with no-cache and a strict CSP, on /admin and on client routes', async () => {
    for (const path of ['/admin', '/admin/', '/admin/orders', '/admin/catalog/new']) {
      const res = await fetch(t.url + path);
      expect(res.status, path).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^text\/html/);
      expect(res.headers.get('cache-control')).toBe('no-cache');
      const policy = csp(res.headers);
      expect(policy['script-src']).toBe("'self'");
      expect(policy['connect-src']).toBe("'self'");
      expect(policy['default-src']).toBe("'self'");
      expect(policy['object-src']).toBe("'none'");
      expect(policy['frame-ancestors']).toBe("'none'");
      const html = await res.text();
      expect(html).toContain('<div id="root">');
      // Every script is an external file of this origin: nothing inline for the CSP to allow.
      expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    }
  });

  it('serves hashed assets for a year (immutable) and 404s an unknown one', async () => {
    const html = await (await fetch(`${t.url}/admin/`)).text();
    const script = /src="(\/admin\/assets\/index-[A-Za-z0-9_-]+\.js)"/.exec(html)?.[1];
    const style = /href="(\/admin\/assets\/index-[A-Za-z0-9_-]+\.css)"/.exec(html)?.[1];
    expect(script).toBeTruthy();
    expect(style).toBeTruthy();
    for (const [asset, type] of [
      [script!, /^text\/javascript/],
      [style!, /^text\/css/],
    ] as const) {
      const res = await fetch(t.url + asset);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(type);
      expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect((await res.arrayBuffer()).byteLength).toBeGreaterThan(100);
    }
    // Every chunk the screens load lazily is served too.
    for (const name of fs.readdirSync(path.join(ADMIN_DIST, 'assets'))) {
      const res = await fetch(`${t.url}/admin/assets/${name}`, { headers: { origin: t.url, 'sec-fetch-mode': 'cors' } });
      expect(res.status, name).toBe(200);
    }
    const missing = await fetch(`${t.url}/admin/assets/nope-12345678.js`);
    expect(missing.status).toBe(404);
    expect((await missing.json()).error.code).toBe('NOT_FOUND');
    const traversal = await fetch(`${t.url}/admin/assets/..%2F..%2Fpackage.json`);
    expect(traversal.status).toBe(404);
  });

  it('refuses writes with the JSON error envelope', async () => {
    const res = await fetch(`${t.url}/admin/orders`, { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } });
    expect(res.status).toBe(404);
    expect((await res.json()).error.code).toBe('NOT_FOUND');
  });

  it("viewer answers the caller's role and permissions (what the shell draws its navigation from)", async () => {
    const staff = await t.signIn('staff');
    const res = await t.graphql('{ viewer { kind role permissions plugins } }', {}, { bearer: staff.token });
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.viewer).toMatchObject({ kind: 'user', role: 'staff', plugins: [] });
    expect(res.body.data.viewer.permissions).toContain('orders:read');
    expect(res.body.data.viewer.permissions).not.toContain('settings:manage');
    const anonymous = await t.request('/api/viewer');
    expect(anonymous.status).toBe(401);
  });
});
