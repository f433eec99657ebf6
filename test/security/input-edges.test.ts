// Findings 12–14 of security round 3: bodies that reached a 500. A deeply nested JSON body with
// a NUL overflowed the stack of the NUL guard (anonymously); a NUL in a multipart text field
// reached PostgreSQL (22021); a numeric analytics filter of 1e999999 overflowed numeric.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp, type TestResponse } from '../support/app.js';
import { png, upload } from '../media/helpers.js';

let t: TestApp;
let admin: string;

beforeAll(async () => {
  t = await startTestApp();
  admin = await t.apiKey('admin');
});
afterAll(() => t?.close());

function expectEnvelope(res: TestResponse, status: number, code: string) {
  expect(res.status, res.text.slice(0, 300)).toBe(status);
  expect(res.body.error.code).toBe(code);
  expect(typeof res.body.error.message).toBe('string');
}

const json = (raw: string) => ({ method: 'POST', rawBody: raw, headers: { 'content-type': 'application/json' } });
const nested = (depth: number, inner: string) => '['.repeat(depth) + inner + ']'.repeat(depth);

describe('12. deeply nested JSON', () => {
  it('400000 levels around a NUL string is 400 for anyone, on /graphql, REST and auth routes', async () => {
    const body = nested(400_000, '"\\u0000"');
    for (const path of ['/graphql', '/api/catalog/entities', '/api/auth/sign-in/email']) expectEnvelope(await t.request(path, json(body)), 400, 'BAD_REQUEST');
  });

  it('the cap is 64 levels: 65 is 400 naming the limit, 64 goes on to the handler', async () => {
    // Two levels are the body object and `variables`.
    const deep = await t.request('/graphql', json(JSON.stringify({ query: '{ __typename }', variables: { a: JSON.parse(nested(63, '1')) } })));
    expectEnvelope(deep, 400, 'BAD_REQUEST');
    expect(deep.body.error.message).toMatch(/64/);
    const ok = await t.request('/graphql', json(JSON.stringify({ query: '{ __typename }', variables: { a: JSON.parse(nested(62, '1')) } })));
    expect(ok.status, ok.text).toBe(200);
  });

  it('brackets inside strings do not count', async () => {
    const res = await t.request('/graphql', json(JSON.stringify({ query: '{ __typename }', variables: { a: '['.repeat(500) } })));
    expect(res.status, res.text).toBe(200);
  });

  it('a NUL below the cap is still 422 naming where it was', async () => {
    const res = await t.request('/graphql', json(JSON.stringify({ query: '{ __typename }', variables: { a: JSON.parse(nested(40, '"x\\u0000"')) } })));
    expectEnvelope(res, 422, 'VALIDATION_FAILED');
    expect(res.body.error.details[0].field).toBe(`variables.a${'.0'.repeat(40)}`);
  });
});

describe('13. NUL in a multipart text field', () => {
  it('the media upload alt with a NUL is 422 naming alt, and no asset is stored', async () => {
    const before = await t.app.db.mediaAsset.count();
    const res = await upload(t, admin, { file: { bytes: await png(4, 4), type: 'image/png', name: 'x.png' }, alt: 'a\u0000b' });
    expectEnvelope(res, 422, 'VALIDATION_FAILED');
    expect(res.body.error.details[0].field).toBe('alt');
    expect(await t.app.db.mediaAsset.count()).toBe(before);
  });

  it('a GraphQL multipart upload whose alt variable holds a NUL is VALIDATION_FAILED naming it, not INTERNAL_ERROR', async () => {
    const before = await t.app.db.mediaAsset.count();
    const operations = JSON.stringify({ query: 'mutation($file: File!, $alt: String) { mediaUpload(file: $file, alt: $alt) { id } }', variables: { file: null, alt: 'a\u0000b' } });
    const form = new FormData();
    form.append('operations', operations);
    form.append('map', JSON.stringify({ 0: ['variables.file'] }));
    form.append('0', new Blob([new Uint8Array(await png(4, 4))], { type: 'image/png' }), 'x.png');
    const encoded = new Request('http://localhost/', { method: 'POST', body: form });
    const res = await t.request('/graphql', {
      method: 'POST',
      apiKey: admin,
      rawBody: Buffer.from(await encoded.arrayBuffer()),
      headers: { 'content-type': encoded.headers.get('content-type')! },
    });
    expect(res.body.errors?.[0]?.extensions?.code, res.text).toBe('VALIDATION_FAILED');
    expect(JSON.stringify(res.body.errors[0].extensions)).toContain('variables.alt');
    expect(await t.app.db.mediaAsset.count()).toBe(before);
  });
});

describe('14. numeric analytics filter values', () => {
  it('1e999999, -1e999999, 1e-999999 and 2^1100 written out are 422 naming the values, not 500', async () => {
    for (const value of ['1e999999', '-1e999999', '1e-999999', (2n ** 1100n).toString()]) {
      const res = await t.request('/api/analytics/query', {
        apiKey: admin,
        body: { measures: ['Orders.count'], filters: [{ member: 'Orders.revenue', operator: 'gt', values: [value] }] },
      });
      expectEnvelope(res, 422, 'VALIDATION_FAILED');
      expect(res.body.error.details[0].field, value).toMatch(/values/);
    }
  });

  it('large but finite values (2^64, 1e300) still filter', async () => {
    for (const value of ['18446744073709551616', '1e300', '-1.5e-300']) {
      const res = await t.request('/api/analytics/query', {
        apiKey: admin,
        body: { measures: ['Orders.count'], filters: [{ member: 'Orders.revenue', operator: 'lt', values: [value] }] },
      });
      expect(res.status, res.text).toBe(200);
    }
  });
});

describe('15. body and query keys named like Object.prototype members', () => {
  it('valueOf, constructor, toString, hasOwnProperty and __proto__ are unknown fields (422 or ignored), never 500', async () => {
    for (const key of ['valueOf', 'constructor', 'toString', 'hasOwnProperty', '__proto__', 'isPrototypeOf']) {
      // A raw JSON body: `__proto__` as an own key, as a client would send it.
      const res = await fetch(`${t.url}/api/catalog/categories`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': admin }, body: `{"${key}":true}` });
      const body = (await res.json()) as { error?: { code: string; details?: Array<{ field: string }> } };
      expect(res.status, `${key}: ${JSON.stringify(body)}`).toBe(422);
      expect(body.error!.code).toBe('VALIDATION_FAILED');
      expect(body.error!.details).toEqual([expect.objectContaining({ field: 'name' })]);
      const listed = await t.request(`/api/catalog/entities?${key}=1&limit=1`, { apiKey: admin });
      expect(listed.status, `${key}: ${listed.text}`).toBeLessThan(500);
    }
  });
});
