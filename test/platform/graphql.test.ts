// /graphql: the printed schema is current, GraphiQL is served without a CDN, and the request
// limits refuse abusive operations before they execute.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { printSchemaSDL } from '../../src/schema.js';
import { PACKAGE_ROOT } from '../../src/paths.js';
import { startTestApp, type TestApp } from '../support/app.js';

let t: TestApp;
let key: string;

beforeAll(async () => {
  t = await startTestApp();
  key = await t.apiKey('admin');
});
afterAll(() => t?.close());

describe('schema.graphql', () => {
  it('matches the Pothos schema (run `npm run schema:print` after changing it)', () => {
    const committed = fs.readFileSync(path.join(PACKAGE_ROOT, 'schema.graphql'), 'utf8');
    expect(committed).toBe(printSchemaSDL());
  });

  it('declares MinorUnits beyond 32 bits and documents the limits', () => {
    const sdl = printSchemaSDL();
    expect(sdl).toContain('scalar MinorUnits');
    expect(sdl).toMatch(/depth: at most \d+/);
    expect(sdl).toMatch(/aliases: at most \d+/);
  });
});

describe('GraphiQL', () => {
  it('is served to browsers with its bundle inlined (no CDN)', async () => {
    const res = await t.request('/graphql', { headers: { accept: 'text/html' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/html');
    expect(res.text).not.toMatch(/<script[^>]+src="https?:/);
    expect(res.text.length).toBeGreaterThan(500_000);
  });
});

describe('request limits', () => {
  it('refuses too many aliases', async () => {
    const fields = Array.from({ length: 40 }, (_, i) => `a${i}: settings`).join(' ');
    const res = await t.graphql(`{ ${fields} }`, {}, { apiKey: key });
    expect(res.body.data).toBeUndefined();
    expect(res.body.errors?.[0].message).toMatch(/alias/i);
  });

  it('refuses a query deeper than the configured depth', async () => {
    const shallow = await startTestApp({ graphql: { maxDepth: 3 } });
    try {
      const adminKey = await shallow.apiKey('admin');
      const ok = await shallow.graphql('{ catalogEntities { data { slug } } }', {}, { apiKey: adminKey });
      expect(ok.body.errors).toBeUndefined();
      const deep = await shallow.graphql('{ catalogEntities { data { categories { slug } } } }', {}, { apiKey: adminKey });
      expect(deep.body.data).toBeUndefined();
      expect(deep.body.errors?.[0].message).toMatch(/depth/i);
    } finally {
      await shallow.close();
    }
  });

  it('refuses an oversized document', async () => {
    const fields = Array.from({ length: 6000 }, () => '__typename').join(' ');
    const res = await t.graphql(`{ ${fields} }`, {}, { apiKey: key });
    expect(res.body.errors?.[0].message).toMatch(/token/i);
  });

  it('runs a normal operation', async () => {
    const res = await t.graphql('{ settings }', {}, { apiKey: key });
    expect(res.body).toEqual({ data: { settings: {} } });
  });
});
