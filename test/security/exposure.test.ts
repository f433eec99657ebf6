// Finding 17 of issue 22 (the parts other than list-sessions): the persisted-query store was
// shared by every caller (a miss told whether anyone had sent a query), production
// introspection was open to vendor-role sessions though the message says staff only, and a slow
// body held its request for Node's 300 s. Each is decided in README's Security section.
import { createHash } from 'node:crypto';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_ROLES } from '../../src/config/schema.js';
import { startTestApp, type TestApp } from '../support/app.js';

let t: TestApp;

beforeAll(async () => {
  t = await startTestApp({
    env: 'production',
    auth: { secret: 'prod-secret-prod-secret-prod-secret-0123456789', roles: { ...DEFAULT_ROLES, vendor: ['catalog:read', 'catalog:update'] } },
    payments: { webhookSecret: 'whsec_x' },
    bodyReadTimeoutMs: 500,
  });
});
afterAll(() => t?.close());

const sha = (text: string) => createHash('sha256').update(text).digest('hex');

describe('17. persisted queries are kept per caller', () => {
  it('a hash one caller registered is a miss for another, and a hit for itself', async () => {
    const query = `query Secret${Date.now()} { catalogEntities(limit: 1) { meta { pagination { total } } } }`;
    const extensions = { persistedQuery: { version: 1, sha256Hash: sha(query) } };
    const admin = await t.apiKey('admin');
    const other = await t.apiKey('admin');
    const post = (headers: Record<string, string>, body: Record<string, unknown> = { extensions }) =>
      fetch(`${t.url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) }).then((r) => r.json() as Promise<any>);
    expect((await post({ 'x-api-key': admin }, { query, extensions })).errors).toBeUndefined();
    expect((await post({ 'x-api-key': admin })).data.catalogEntities.meta.pagination.total).toBeTypeOf('number');
    expect((await post({ 'x-api-key': other })).errors[0].extensions.code).toBe('PERSISTED_QUERY_NOT_FOUND');
    expect((await post({})).errors[0].extensions.code).toBe('PERSISTED_QUERY_NOT_FOUND');
  });
});

describe('17. production introspection is for staff and API keys only', () => {
  it('a vendor-role session is refused; a staff session may introspect', async () => {
    const introspect = '{ __schema { queryType { name } } }';
    const vendor = await t.signIn('vendor');
    const refused = await t.graphql(introspect, {}, { bearer: vendor.token });
    expect(refused.body.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    const staff = await t.signIn('staff');
    expect((await t.graphql(introspect, {}, { bearer: staff.token })).body.data).toEqual({ __schema: { queryType: { name: 'Query' } } });
  });
});

/** Sends the request head and part of its body, then nothing; resolves with the raw answer. */
function slowBody(head: string, ms = 5000): Promise<{ text: string; elapsed: number }> {
  const { hostname, port } = new URL(t.url);
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname, () => socket.write(head));
    let text = '';
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no answer within ${ms} ms`));
    }, ms);
    socket.on('data', (chunk) => (text += chunk.toString('utf8')));
    socket.on('close', () => {
      clearTimeout(timer);
      resolve({ text, elapsed: Date.now() - started });
    });
    socket.on('error', () => undefined);
  });
}

describe('17. a body that stops arriving is answered 408 after graphql bodyReadTimeoutMs', () => {
  it('a declared body sent in part, and a chunked body that never ends, get 408 with the envelope', async () => {
    const declared = await slowBody(`POST /graphql HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: 100\r\n\r\n{"query":`);
    const chunked = await slowBody(`POST /api/auth/sign-in/email HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ntransfer-encoding: chunked\r\n\r\n5\r\n{"ema\r\n`);
    for (const answer of [declared, chunked]) {
      expect(answer.text).toMatch(/^HTTP\/1\.1 408 /);
      expect(answer.text.toLowerCase()).toContain('connection: close');
      expect(answer.text).toContain('{"error":{"code":"REQUEST_TIMEOUT"');
      expect(answer.elapsed).toBeLessThan(3000);
    }
  });
});
