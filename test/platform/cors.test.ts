// CORS (issue 24, item 4): origins in cors.origins (CORS_ORIGINS) and the cookie-trusted
// auth.trustedOrigins get CORS answers; a storefront on http://localhost:5173 could not call the
// API before (preflight 204 without Access-Control-Allow-Origin). Raw preflights check the
// headers exactly; Chromium then makes real cross-origin calls from a page on another origin.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromium, type Browser } from 'playwright-core';
import { startTestApp, type TestApp } from '../support/app.js';
import { configFromEnv, resolveConfig } from '../../src/config/index.js';

const STOREFRONT = 'http://localhost:5173';
const ADMIN = 'https://admin.example.com';

let t: TestApp;
let key: string;
/** A page server on its own port: a listed origin (127.0.0.1) and an unlisted one (localhost), same server. */
let pages: http.Server;
let pageOrigin: string;
let unlistedOrigin: string;

beforeAll(async () => {
  pages = http.createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>shop</title>'));
  await new Promise<void>((resolve) => pages.listen(0, '127.0.0.1', resolve));
  const port = (pages.address() as AddressInfo).port;
  pageOrigin = `http://127.0.0.1:${port}`;
  unlistedOrigin = `http://localhost:${port}`;
  t = await startTestApp({ cors: { origins: [STOREFRONT, pageOrigin] }, auth: { trustedOrigins: [ADMIN] } });
  key = await t.apiKey('storefront');
}, 60_000);
afterAll(async () => {
  await t?.close();
  await new Promise((resolve) => pages?.close(resolve));
});

function preflight(origin: string, method = 'POST', headers = 'x-api-key, authorization, idempotency-key, content-type') {
  return t.request('/api/checkout', { method: 'OPTIONS', headers: { origin, 'access-control-request-method': method, 'access-control-request-headers': headers } });
}

describe('CORS preflight', () => {
  it('a listed origin gets 204 with the origin, Vary, methods, the storefront headers, credentials and Max-Age', async () => {
    const res = await preflight(STOREFRONT);
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe(STOREFRONT);
    expect(res.headers.get('vary')).toMatch(/origin/i);
    expect(res.headers.get('access-control-allow-methods')?.split(/,\s*/)).toEqual(expect.arrayContaining(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']));
    const allowed = res.headers.get('access-control-allow-headers')!.split(/,\s*/);
    expect(allowed).toEqual(expect.arrayContaining(['x-api-key', 'authorization', 'idempotency-key', 'content-type']));
    expect(res.headers.get('access-control-allow-credentials')).toBe('true');
    expect(Number(res.headers.get('access-control-max-age'))).toBeGreaterThan(0);
  });

  it('auth.trustedOrigins (TRUSTED_ORIGINS) are merged in: a cookie-trusted page passes CORS too', async () => {
    const res = await preflight(ADMIN, 'PATCH');
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe(ADMIN);
  });

  it('an unlisted origin gets no Access-Control-Allow-Origin, on preflights and on answers', async () => {
    const res = await preflight('https://evil.example');
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
    expect(res.headers.get('access-control-allow-headers')).toBeNull();
    const get = await t.request('/api/store', { apiKey: key, headers: { origin: 'https://evil.example' } });
    expect(get.status).toBe(200);
    expect(get.headers.get('access-control-allow-origin')).toBeNull();
  });

  it("an actual cross-origin GET from a listed origin carries the CORS headers and keeps the handler's Vary", async () => {
    const res = await t.request('/api/store', { apiKey: key, headers: { origin: STOREFRONT, 'accept-encoding': 'identity' } });
    expect(res.status, res.text).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe(STOREFRONT);
    expect(res.headers.get('access-control-allow-credentials')).toBe('true');
    expect(res.headers.get('access-control-expose-headers')).toContain('x-request-id');
    expect(res.headers.get('vary')).toMatch(/origin/i);
  });

  it('CORS_ORIGINS fills cors.origins (comma-separated); a path or a non-URL is a config error', () => {
    expect(configFromEnv({ CORS_ORIGINS: 'http://localhost:5173, https://shop.example.com' }).cors).toEqual({ origins: ['http://localhost:5173', 'https://shop.example.com'] });
    expect(() => resolveConfig({ cors: { origins: ['https://shop.example.com/path'] } })).toThrow(/cors\.origins\.0/);
    expect(() => resolveConfig({ cors: { origins: ['localhost:5173'] } })).toThrow(/cors\.origins\.0/);
  });
});

describe('CORS in a browser', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-background-networking'] });
  }, 60_000);
  afterAll(() => browser?.close());

  async function fetchFrom(origin: string): Promise<{ ok: true; status: number; body: any } | { ok: false; error: string }> {
    const page = await browser.newPage();
    try {
      await page.goto(`${origin}/`);
      // x-api-key and content-type: application/json make Chromium send a real preflight first.
      return await page.evaluate(
        async ({ url, key }) => {
          try {
            const res = await fetch(`${url}/graphql`, {
              method: 'POST',
              headers: { 'x-api-key': key, 'content-type': 'application/json', 'idempotency-key': 'k1' },
              body: JSON.stringify({ query: '{ store { name defaultLocale } }' }),
            });
            return { ok: true as const, status: res.status, body: await res.json() };
          } catch (error) {
            return { ok: false as const, error: String(error) };
          }
        },
        { url: t.url, key },
      );
    } finally {
      await page.close();
    }
  }

  it('a page on a listed origin calls the API with x-api-key; a page on an unlisted origin is blocked by the browser', async () => {
    const listed = await fetchFrom(pageOrigin);
    expect(listed).toEqual({ ok: true, status: 200, body: { data: { store: { name: expect.any(String), defaultLocale: 'en' } } } });
    const unlisted = await fetchFrom(unlistedOrigin);
    expect(unlisted.ok).toBe(false);
  }, 60_000);
});
