// An import's coalesced event (one catalog.import per batch) keeps an external search index in
// step: with search.engine meilisearch, the batch's products reach the index through one
// search/sync job, as single catalog writes do through catalog.create/update.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { startMeiliStub, type MeiliStub } from '../search/meili-stub.js';

const API_KEY = 'meili-master-key';
let stub: MeiliStub;
let t: TestApp;
let admin: string;

beforeAll(async () => {
  stub = await startMeiliStub({ apiKey: API_KEY });
  t = await startTestApp({ search: { engine: 'meilisearch', meilisearch: { host: stub.url, apiKey: API_KEY, indexUid: 'catalog' } } });
  admin = await t.apiKey('admin');
});
afterAll(async () => {
  await t?.close();
  await stub?.close();
});

it('imported products reach the search index through the batch event', async () => {
  const form = new FormData();
  form.append('file', new Blob(['slug,status,title:en\nimported-lamp,active,Imported Lamp\nimported-desk,active,Imported Desk\n'], { type: 'text/csv' }), 'c.csv');
  const encoded = new Request('http://localhost/', { method: 'POST', body: form });
  const res = await t.request('/api/catalog/import', {
    method: 'POST',
    apiKey: admin,
    rawBody: Buffer.from(await encoded.arrayBuffer()),
    headers: { 'content-type': encoded.headers.get('content-type')! },
  });
  expect(res.status, res.text).toBe(202);
  for (let i = 0; i < 3; i++) expect((await t.request('/api/jobs/run?limit=20', { apiKey: admin })).status).toBe(200);
  const events = await t.app.db.domainEvent.findMany({ where: { requestId: `job:${res.body.data.id}` } });
  expect(events.map((e) => e.type)).toEqual(['catalog.import']);
  const syncs = await t.app.db.job.findMany({ where: { taskSlug: 'search/sync' } });
  expect(syncs).toHaveLength(1);
  expect(syncs[0]!.status).toBe('succeeded');
  const titles = stub
    .documents()
    .map((d: any) => d.title)
    .sort();
  expect(titles).toEqual(['Imported Desk', 'Imported Lamp']);
});
