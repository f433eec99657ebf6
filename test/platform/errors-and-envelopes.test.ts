// The REST contract's envelopes and error statuses, and the request id on every response.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';

let t: TestApp;
let adminKey: string;

beforeAll(async () => {
  t = await startTestApp();
  adminKey = await t.apiKey('admin');
});
afterAll(() => t?.close());

describe('success envelopes', () => {
  it('wraps a single object in { data }', async () => {
    const res = await t.request('/api/settings/general', { apiKey: adminKey });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(['data']);
    expect(res.headers.get('content-type')).toContain('application/json');
  });

  it('serves /api/health bare: { status, version } with the package version', async () => {
    const res = await t.request('/api/health');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ok', version: '0.1.0' });
  });
});

describe('error envelopes', () => {
  it('400 BAD_REQUEST for malformed JSON', async () => {
    const res = await t.request('/api/settings/general', {
      method: 'PATCH',
      apiKey: adminKey,
      rawBody: '{"currency": ',
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: { code: 'BAD_REQUEST', message: expect.any(String) } });
  });

  it('401 UNAUTHORIZED without credentials, and with a wrong API key', async () => {
    const anonymous = await t.request('/api/settings');
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.error.code).toBe('UNAUTHORIZED');
    const wrongKey = await t.request('/api/settings', { apiKey: 'cs_admin_notarealkeyatallnotarealkeyatall' });
    expect(wrongKey.status).toBe(401);
    const wrongBearer = await t.request('/api/settings', { bearer: 'not-a-session-token' });
    expect(wrongBearer.status).toBe(401);
  });

  it('401 comes before 422: an anonymous bad body is not validated', async () => {
    const res = await t.request('/api/settings/policies', { method: 'PATCH', body: { refundDailyCap: -5 } });
    expect(res.status).toBe(401);
  });

  it('403 FORBIDDEN naming the missing permission', async () => {
    const storefront = await t.apiKey('storefront');
    const res = await t.request('/api/settings', { apiKey: storefront });
    expect(res.status).toBe(403);
    expect(res.body.error).toEqual({ code: 'FORBIDDEN', message: expect.stringContaining('settings:manage') });
  });

  it('404 NOT_FOUND for unknown routes, wrong methods, and sofa’s closed /api/webhook routes', async () => {
    for (const [method, path] of [
      ['GET', '/api/no-such-thing'],
      ['DELETE', '/api/settings'],
      ['POST', '/api/webhook'],
      ['POST', '/api/webhook/abc'],
      ['DELETE', '/api/webhook/abc'],
      ['GET', '/nothing-here'],
    ] as const) {
      const res = await t.request(path, { method, apiKey: adminKey });
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.body.error.code).toBe('NOT_FOUND');
    }
  });

  it('409 CONFLICT when signing up with an email already taken', async () => {
    const body = { email: 'taken@example.com', password: 'correct-horse-battery', name: 'First' };
    expect((await t.request('/api/auth/sign-up/email', { body })).status).toBe(200);
    const again = await t.request('/api/auth/sign-up/email', { body: { ...body, name: 'Second' } });
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('CONFLICT');
  });

  it('413 PAYLOAD_TOO_LARGE above 1 MB, declared or streamed', async () => {
    const big = JSON.stringify({ blob: 'x'.repeat(1024 * 1024) });
    const declared = await t.request('/api/settings/custom', { method: 'PATCH', apiKey: adminKey, rawBody: big, headers: { 'content-type': 'application/json' } });
    expect(declared.status).toBe(413);
    expect(declared.body.error.code).toBe('PAYLOAD_TOO_LARGE');

    // No Content-Length: a chunked stream is counted as it arrives.
    const chunks = Array.from({ length: 20 }, () => new TextEncoder().encode('y'.repeat(64 * 1024)));
    const stream = new ReadableStream({
      pull(controller) {
        const next = chunks.shift();
        if (next) controller.enqueue(next);
        else controller.close();
      },
    });
    const response = await fetch(`${t.url}/api/settings/custom`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/json', 'x-api-key': adminKey },
      body: stream,
      duplex: 'half',
    } as RequestInit);
    expect(response.status).toBe(413);

    const justUnder = JSON.stringify({ blob: 'z'.repeat(1024 * 1024 - 20) });
    const ok = await t.request('/api/settings/custom', { method: 'PATCH', apiKey: adminKey, rawBody: justUnder, headers: { 'content-type': 'application/json' } });
    expect(ok.status).toBe(200);
  });

  it('431 REQUEST_HEADER_FIELDS_TOO_LARGE with the envelope for a request line above 16 KB, and the server keeps serving', async () => {
    // Refused by Node's HTTP parser before any handler runs (http/listen.ts answers it).
    const long = await t.request(`/api/audit?event=${'a'.repeat(20_000)}`, { apiKey: adminKey });
    expect(long.status, long.text).toBe(431);
    expect(long.body.error.code).toBe('REQUEST_HEADER_FIELDS_TOO_LARGE');
    expect(typeof long.body.error.message).toBe('string');
    expect(long.headers.get('content-type')).toContain('application/json');
    const next = await t.request('/api/settings/general', { apiKey: adminKey });
    expect(next.status).toBe(200);
  });

  it('422 VALIDATION_FAILED with the failing fields in details', async () => {
    const res = await t.request('/api/settings/policies', { method: 'PATCH', apiKey: adminKey, body: { refundDailyCap: 'lots', refundUndoWindowMinutes: -1 } });
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe('VALIDATION_FAILED');
    expect(res.body.error.details.map((d: { field: string }) => d.field).sort()).toEqual(['refundDailyCap', 'refundUndoWindowMinutes']);
  });

  it('GraphQL clients get GraphQL-style errors with 200 and the code in extensions', async () => {
    const res = await t.graphql('{ settings }');
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ settings: null }); // a field the caller may be refused is nullable
    expect(res.body.errors?.[0]).toMatchObject({ message: expect.any(String), path: ['settings'], extensions: { code: 'UNAUTHORIZED' } });
  });
});

describe('X-Request-Id', () => {
  it('is on every response, unique per request', async () => {
    const responses = await Promise.all([
      t.request('/api/health'),
      t.request('/api/settings'),
      t.request('/api/nope'),
      t.graphql('{ __typename }'),
      t.request('/api/auth/get-session'),
    ]);
    const ids = responses.map((r) => r.headers.get('x-request-id'));
    for (const id of ids) expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('honours a sane incoming id and replaces an unsafe one', async () => {
    const kept = await t.request('/api/health', { headers: { 'x-request-id': 'edge-7f3a.42' } });
    expect(kept.headers.get('x-request-id')).toBe('edge-7f3a.42');
    const replaced = await t.request('/api/health', { headers: { 'x-request-id': 'bad id with spaces' } });
    expect(replaced.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    const tooLong = await t.request('/api/health', { headers: { 'x-request-id': 'a'.repeat(200) } });
    expect(tooLong.headers.get('x-request-id')).not.toBe('a'.repeat(200));
  });
});
