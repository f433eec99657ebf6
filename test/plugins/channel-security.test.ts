// The channel connector against stores that misbehave, over HTTP. Where its requests (each
// carrying the store's API key) may go:
// a store answering 307 to another host is not followed (the key never reaches that host), and
// a store name that passes the registration check but resolves to 127.0.0.1 when connected to
// (DNS re-pointed after the check) is refused at connect time — unless the operator allows
// private targets; moving a store needs its key. And what an import may copy: a store's
// metadata.vendorId never attributes an imported product to a local vendor.
// `open` allows private targets explicitly (webhooks.allowPrivateTargets), `strict` not.
import dns from 'node:dns';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { channel } from '../../plugins/channel/index.js';

// One plugin object for both apps (plugins activate once per process); each app's config decides.
const plugin = channel({ retries: { attempts: 1, delayMs: 0 } });
const STORE_KEY = 'cs_chsrc_the-store-key-1234567890';

let open: TestApp;
let strict: TestApp;

/** A local HTTP server recording what reaches it; `answer` writes the response. */
async function server(answer: (req: http.IncomingMessage, res: http.ServerResponse) => void) {
  const seen: Array<{ url: string; apiKey: string | undefined }> = [];
  const s = http.createServer((req, res) => {
    seen.push({ url: req.url ?? '', apiKey: req.headers['x-api-key'] as string | undefined });
    answer(req, res);
  });
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  return { seen, port: (s.address() as AddressInfo).port, close: () => new Promise<void>((resolve) => s.close(() => resolve())) };
}

/** Connects a store, backfills it and runs the jobs as a cron would; returns the backfill job. */
async function backfill(t: TestApp, baseUrl: string) {
  const admin = await t.apiKey('admin');
  const created = await t.request('/api/channel/stores', { apiKey: admin, body: { name: `store ${Math.random()}`, baseUrl, apiKey: STORE_KEY } });
  expect(created.status, created.text).toBe(201);
  const started = await t.request(`/api/channel/stores/${created.body.data.id}/backfill`, { method: 'POST', apiKey: admin });
  expect(started.status, started.text).toBe(202);
  for (let round = 0; round < 10; round += 1) {
    const run = await t.request('/api/jobs/run?limit=50', { apiKey: admin });
    expect(run.status, run.text).toBe(200);
    if (run.body.data.claimed === 0 && run.body.data.released === 0) break;
  }
  return t.app.db.job.findUniqueOrThrow({ where: { id: started.body.data.jobId } });
}

beforeAll(async () => {
  open = await startTestApp({ plugins: [plugin], webhooks: { allowPrivateTargets: true } });
  strict = await startTestApp({ plugins: [plugin], webhooks: { allowPrivateTargets: false } });
}, 120_000);
afterAll(async () => {
  await open?.close();
  await strict?.close();
});
afterEach(() => vi.restoreAllMocks());

describe('channel connector targets', () => {
  it('does not follow a store’s redirect: the key never reaches the other host', async () => {
    const elsewhere = await server((_req, res) => res.end('{"data":[],"meta":{"pagination":{"page":1,"limit":50,"total":0,"totalPages":0}}}'));
    const store = await server((req, res) => res.writeHead(307, { location: `http://127.0.0.1:${elsewhere.port}${req.url}` }).end());
    try {
      const job = await backfill(open, `http://127.0.0.1:${store.port}`);
      expect(store.seen.length).toBeGreaterThan(0);
      expect(elsewhere.seen).toEqual([]);
      expect(job.status).toBe('failed');
      expect(job.error).toContain('307');
    } finally {
      await elsewhere.close();
      await store.close();
    }
  });

  it('refuses at connect time a store name that resolves to a private address after the registration check', async () => {
    const target = await server((_req, res) => res.end('{}'));
    const host = 'shop.rebind.test';
    // Registration resolves it to a public address; the socket's own lookup later gets 127.0.0.1.
    const promisesLookup = dns.promises.lookup.bind(dns.promises);
    vi.spyOn(dns.promises, 'lookup').mockImplementation(((name: string, options: never) =>
      name === host ? Promise.resolve([{ address: '93.184.216.34', family: 4 }]) : promisesLookup(name, options)) as never);
    const lookup = dns.lookup.bind(dns);
    vi.spyOn(dns, 'lookup').mockImplementation(((name: string, options: any, callback: any) => {
      if (name !== host) return lookup(name, options, callback);
      const cb = typeof options === 'function' ? options : callback;
      return options?.all ? cb(null, [{ address: '127.0.0.1', family: 4 }]) : cb(null, '127.0.0.1', 4);
    }) as never);
    try {
      const job = await backfill(strict, `http://${host}:${target.port}`);
      expect(target.seen).toEqual([]);
      expect(job.status).toBe('failed');
      expect(job.error).toContain('127.0.0.1');
      // the operator setting still lets a deployment reach its own network
      const allowed = await backfill(open, `http://${host}:${target.port}`);
      expect(target.seen.length).toBeGreaterThan(0);
      expect(allowed.error ?? '').not.toContain('private');
    } finally {
      await target.close();
    }
  });

  it('moves a store to another baseUrl only with its apiKey in the same request', async () => {
    const store = await server((_req, res) => res.end('{}'));
    const attacker = await server((_req, res) => res.end('{}'));
    try {
      const admin = await open.apiKey('admin');
      const manager = await open.apiKey('channel');
      const created = await open.request('/api/channel/stores', { apiKey: admin, body: { name: 'moved', baseUrl: `http://127.0.0.1:${store.port}`, apiKey: STORE_KEY } });
      expect(created.status, created.text).toBe(201);
      const id = created.body.data.id as string;
      const moved = await open.request(`/api/channel/stores/${id}`, { method: 'PATCH', apiKey: manager, body: { baseUrl: `http://127.0.0.1:${attacker.port}` } });
      expect(moved.status, moved.text).toBe(422);
      expect(moved.body.error.details.map((d: { field: string }) => d.field)).toEqual(['apiKey']);
      expect((await open.request(`/api/channel/stores/${id}`, { apiKey: manager })).body.data.baseUrl).toBe(`http://127.0.0.1:${store.port}`);
      expect((await open.request(`/api/channel/stores/${id}/backfill`, { method: 'POST', apiKey: manager })).status).toBe(202);
      await open.request('/api/jobs/run?limit=50', { apiKey: admin });
      expect(attacker.seen).toEqual([]);
      // the same URL again, other fields, or a new URL with a new key are fine
      expect(
        (await open.request(`/api/channel/stores/${id}`, { method: 'PATCH', apiKey: manager, body: { baseUrl: `http://127.0.0.1:${store.port}/`, name: 'renamed' } })).status,
      ).toBe(200);
      const rekeyed = await open.request(`/api/channel/stores/${id}`, {
        method: 'PATCH',
        apiKey: manager,
        body: { baseUrl: `http://127.0.0.1:${attacker.port}`, apiKey: 'cs_chsrc_another-key-0987654321' },
      });
      expect(rekeyed.status, rekeyed.text).toBe(200);
      expect(rekeyed.body.data.apiKeyHint).toBe('…4321');
    } finally {
      await store.close();
      await attacker.close();
    }
  });

  it('never copies a store’s metadata.vendorId; a vendorId set locally survives the next import', async () => {
    const remote = {
      id: 'remote-1',
      type: 'product',
      slug: `remote-${Date.now()}`,
      status: 'active',
      metadata: { colour: 'red', vendorId: '00000000-0000-4000-8000-00000000000a' },
      attributes: [],
      inventory: null,
    };
    const store = await server((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ data: remote })));
    try {
      const admin = await open.apiKey('admin');
      const created = await open.request('/api/channel/stores', { apiKey: admin, body: { name: 'vendors', baseUrl: `http://127.0.0.1:${store.port}`, apiKey: STORE_KEY } });
      expect(created.status, created.text).toBe(201);
      const id = created.body.data.id as string;
      const importNow = async () => {
        const queued = await open.request(`/api/channel/stores/${id}/import`, { apiKey: admin, body: { remoteIds: [remote.id] } });
        expect(queued.status, queued.text).toBe(202);
        await open.request('/api/jobs/run?limit=50', { apiKey: admin });
        expect((await open.app.db.job.findUniqueOrThrow({ where: { id: queued.body.data.jobId } })).status).toBe('succeeded');
        const link = await open.app.db.channelLink.findUniqueOrThrow({ where: { storeId_remoteId: { storeId: id, remoteId: remote.id } } });
        return (await open.request(`/api/catalog/entities/${link.entityId}`, { apiKey: admin })).body.data;
      };
      const twin = await importNow();
      expect(twin.metadata).toEqual({ colour: 'red' });
      // staff attribute it locally; the store changes its metadata (and its own vendorId)
      const localVendor = '00000000-0000-4000-8000-00000000000b';
      expect(
        (await open.request(`/api/catalog/entities/${twin.id}`, { method: 'PATCH', apiKey: admin, body: { metadata: { colour: 'red', vendorId: localVendor } } })).status,
      ).toBe(200);
      remote.metadata = { colour: 'blue', vendorId: '00000000-0000-4000-8000-00000000000c' };
      expect((await importNow()).metadata).toEqual({ colour: 'blue', vendorId: localVendor });
      expect((await importNow()).metadata).toEqual({ colour: 'blue', vendorId: localVendor });
    } finally {
      await store.close();
    }
  });
});
