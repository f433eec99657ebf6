// The REST contract harness (test/support/contract-rest.ts) itself: it passes real answers that
// match /api/doc and throws on each kind of drift, against a copy of the served document broken
// on purpose. (Every other test file runs it on every answer; this proves it can fail.)
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documentOf, restContract, type RestAnswer } from '../support/contract-rest.js';
import { startTestApp, type TestApp } from '../support/app.js';

let t: TestApp;
let doc: any;
let apiKey: string;

beforeAll(async () => {
  t = await startTestApp();
  apiKey = await t.apiKey('admin');
  doc = await documentOf(t.url);
});
afterAll(() => t?.close());

async function answer(path: string, options: Parameters<TestApp['request']>[1] = {}): Promise<RestAnswer> {
  const res = await t.request(path, options);
  return { method: options.method ?? (options.body === undefined ? 'GET' : 'POST'), path, status: res.status, headers: res.headers, body: res.body, text: res.text };
}

const withDoc = (edit: (copy: any) => void) => {
  const copy = structuredClone(doc);
  edit(copy);
  return restContract(async () => copy, { count: false });
};

describe('REST contract harness', () => {
  it('passes answers that match the served document, nulls included', async () => {
    const contract = restContract(async () => doc, { count: false });
    // An empty list: meta.pagination.endCursor is null, which the document must allow.
    const empty = await answer('/api/catalog/entities?type=nothing-here', { apiKey });
    expect(empty.status).toBe(200);
    expect((empty.body as any).meta.pagination.endCursor).toBeNull();
    await expect(contract.check(empty)).resolves.toBeUndefined();
    await expect(contract.check(await answer('/api/nope', { apiKey }))).resolves.toBeUndefined();
  });

  it('throws on a body the schema refuses (a null the document does not allow)', async () => {
    const contract = withDoc((copy) => {
      delete copy.components.schemas.Pagination.properties.endCursor.nullable;
    });
    await expect(contract.check(await answer('/api/catalog/entities?type=nothing-here', { apiKey }))).rejects.toThrow(/endCursor.*must be string/s);
  });

  it('throws on an undocumented status of a documented route', async () => {
    const contract = withDoc((copy) => {
      delete copy.paths['/api/catalog/entities'].get.responses['401'];
    });
    await expect(contract.check(await answer('/api/catalog/entities'))).rejects.toThrow(/GET \/api\/catalog\/entities -> 401.*status 401 is not documented/s);
  });

  it('throws on an undocumented content type', async () => {
    const contract = withDoc((copy) => {
      copy.paths['/api/reference'].get.responses['200'].content = { 'application/json': { schema: { type: 'object' } } };
    });
    await expect(contract.check(await answer('/api/reference'))).rejects.toThrow(/content type text\/html is not documented/);
  });

  it('throws when a route missing from the document answers anything but the 404 error body', async () => {
    const contract = withDoc((copy) => {
      delete copy.paths['/api/catalog/entities'];
    });
    await expect(contract.check(await answer('/api/catalog/entities', { apiKey }))).rejects.toThrow(/no such operation in \/api\/doc/);
  });

  it('matches the most literal template first', async () => {
    const contract = withDoc((copy) => {
      // Break only the literal route: if the template /api/orders/{id}/... were picked, it would pass.
      copy.paths['/api/orders/refunds/cap'].get.responses['200'].content['application/json'].schema = { type: 'string' };
    });
    await expect(contract.check(await answer('/api/orders/refunds/cap', { apiKey }))).rejects.toThrow(/orders\/refunds\/cap/);
  });
});
