// Automatic Persisted Queries and field-error details over GraphQL.
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';

let t: TestApp;
let admin: string;

beforeAll(async () => {
  t = await startTestApp();
  admin = await t.apiKey('admin');
});
afterAll(() => t?.close());

const sha = (text: string) => createHash('sha256').update(text).digest('hex');

async function post(body: unknown) {
  const res = await fetch(`${t.url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': admin }, body: JSON.stringify(body) });
  return { status: res.status, body: (await res.json()) as any };
}

describe('automatic persisted queries', () => {
  it('asks for the document once, then answers the hash alone (POST and GET)', async () => {
    const query = `query Apq${Date.now()} { catalogEntities(limit: 1) { meta { pagination { limit } } } }`;
    const extensions = { persistedQuery: { version: 1, sha256Hash: sha(query) } };
    const miss = await post({ extensions });
    expect(miss.status).toBe(200);
    expect(miss.body.errors[0]).toMatchObject({ message: 'PersistedQueryNotFound', extensions: { code: 'PERSISTED_QUERY_NOT_FOUND' } });
    const register = await post({ query, extensions });
    expect(register.body.errors).toBeUndefined();
    expect(register.body.data.catalogEntities.meta.pagination.limit).toBe(1);
    const hit = await post({ extensions });
    expect(hit.body).toEqual(register.body);
    const get = await fetch(`${t.url}/graphql?extensions=${encodeURIComponent(JSON.stringify(extensions))}`, { headers: { 'x-api-key': admin, accept: 'application/json' } });
    expect(((await get.json()) as any).data.catalogEntities.meta.pagination.limit).toBe(1);
  });

  it('refuses a document that does not match its hash, and keeps nothing under that hash', async () => {
    const hash = sha('query { __typename }');
    const mismatch = await post({ query: '{ catalogEntities(limit: 1) { data { id } } }', extensions: { persistedQuery: { version: 1, sha256Hash: hash } } });
    expect(mismatch.body.errors[0].extensions.code).toBe('PERSISTED_QUERY_HASH_MISMATCH');
    const after = await post({ extensions: { persistedQuery: { version: 1, sha256Hash: hash } } });
    expect(after.body.errors[0].extensions.code).toBe('PERSISTED_QUERY_NOT_FOUND');
    const bad = await post({ extensions: { persistedQuery: { version: 2, sha256Hash: 'nothex' } } });
    expect(bad.body.errors[0].extensions.code).toBe('PERSISTED_QUERY_INVALID');
  });
});

describe('field errors in extensions.details', () => {
  it('names the failing variable like REST 422 details', async () => {
    const res = await t.graphql(`mutation($id: UUID!) { catalogEntityPublish(id: $id) { id } }`, {}, { apiKey: admin });
    expect(res.body.errors?.[0]?.extensions).toMatchObject({ code: 'VALIDATION_FAILED', details: [{ field: 'id', message: 'is required' }] });
    const malformed = await t.graphql(`mutation($id: UUID!) { catalogEntityPublish(id: $id) { id } }`, { id: 'not-a-uuid' }, { apiKey: admin });
    expect(malformed.body.errors?.[0]?.extensions).toMatchObject({ code: 'VALIDATION_FAILED', details: [{ field: 'id', message: expect.stringContaining('UUID') }] });
  });

  it('carries zod failures of a mutation with their field paths, as REST does', async () => {
    const gql = await t.graphql(`mutation { catalogEntityCreate(type: "product", slug: "Not A Slug") { id } }`, {}, { apiKey: admin });
    const rest = await t.request('/api/catalog/entities', { apiKey: admin, body: { type: 'product', slug: 'Not A Slug' } });
    expect(rest.status).toBe(422);
    expect(gql.body.errors?.[0]?.extensions?.code).toBe('VALIDATION_FAILED');
    expect(gql.body.errors?.[0]?.extensions?.details).toEqual(rest.body.error.details);
    expect(rest.body.error.details[0].field).toBe('slug');
  });
});
