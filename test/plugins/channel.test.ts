// plugins/channel with two real instances of the service: `remote` is the connected store (its
// own database, its own API key), `local` the platform that imports its catalog, mirrors its
// stock and pushes orders to it. Everything goes over HTTP: the store routes on `local`, the
// connector's REST calls to `remote`, and the jobs through GET /api/jobs/run as a cron would.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { ADDRESS, ORDER_TEST_CONFIG, openStore, unique, type Store } from '../orders/helpers.js';
import { channel } from '../../plugins/channel/index.js';

const ENTITIES = 250;
const PAGE_SIZE = 50;

// One plugin object for both apps: plugins are activated once per process.
// The two instances talk over 127.0.0.1: private targets allowed explicitly, as an operator would.
const plugin = channel({ retries: { attempts: 3, delayMs: 0 }, allowPrivateTargets: true });
const config = {
  ...ORDER_TEST_CONFIG,
  plugins: [plugin],
  apiKeyScopes: {
    // Merchandisers edit the catalog but may not touch what a sync owns.
    merch: { prefix: 'cs_merch_', description: 'merchandising', permissions: { catalog: ['read', 'read:unpublished', 'update'] } },
  },
};

let remote: TestApp;
let local: TestApp;
let shop: Store; // the remote store's admin key and warehouse
let sourceKey: string; // the key the store gives the platform (scope channel-source)
let admin: string; // local admin key
let storeId: string;
/** Remote entities with a title, price and stock (the others are bare). */
const sellable: Array<{ id: string; slug: string; title: string }> = [];

/** Runs the organization's jobs the way a cron calls GET /api/jobs/run, until none is left. */
async function drain(t: TestApp, key: string): Promise<Array<{ taskSlug: string; status: string; attempts: number; id: string }>> {
  const seen = [];
  for (let round = 0; round < 300; round += 1) {
    const run = await t.request('/api/jobs/run?limit=50', { apiKey: key });
    expect(run.status, run.text).toBe(200);
    seen.push(...run.body.data.jobs);
    if (run.body.data.claimed === 0 && run.body.data.released === 0) return seen;
  }
  throw new Error('jobs did not drain');
}

async function localTwin(remoteId: string) {
  const link = await local.app.db.channelLink.findUniqueOrThrow({ where: { storeId_remoteId: { storeId, remoteId } } });
  const res = await local.request(`/api/catalog/entities/${link.entityId}?include=attributes,inventory`, { apiKey: admin });
  expect(res.status, res.text).toBe(200);
  return res.body.data;
}

async function remoteAvailable(remoteId: string): Promise<number> {
  const res = await remote.request(`/api/inventory/check?entityIds=${remoteId}`, { apiKey: shop.admin });
  return res.body.data[0].available;
}

async function remoteOrderCount(): Promise<number> {
  const res = await remote.request('/api/orders?limit=1', { apiKey: shop.admin });
  expect(res.status, res.text).toBe(200);
  return res.body.meta.pagination.total;
}

/** A proxy in front of the remote store that can lose the answer of one checkout after the store made the order. */
function lossyProxy(target: string) {
  let loseNextCheckout = false;
  let onLoss: (() => Promise<unknown>) | null = null;
  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(req.headers)) {
      if (typeof value === 'string' && !['host', 'connection', 'content-length', 'transfer-encoding'].includes(name)) headers[name] = value;
    }
    const upstream = await fetch(target + req.url, { method: req.method, headers, body: chunks.length ? Buffer.concat(chunks) : undefined });
    const body = Buffer.from(await upstream.arrayBuffer());
    if (loseNextCheckout && req.method === 'POST' && req.url === '/api/checkout') {
      loseNextCheckout = false;
      await onLoss?.();
      req.socket.destroy(); // the store has the order; its answer never arrives
      return;
    }
    res.writeHead(upstream.status, { 'content-type': upstream.headers.get('content-type') ?? 'application/json' });
    res.end(body);
  });
  return {
    listen: () => new Promise<string>((resolve) => server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`))),
    loseNextCheckout: (then?: () => Promise<unknown>) => {
      loseNextCheckout = true;
      onLoss = then ?? null;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

beforeAll(async () => {
  remote = await startTestApp(config);
  local = await startTestApp(config);
  shop = await openStore(remote);
  sourceKey = await remote.apiKey('channel-source');
  admin = await local.apiKey('admin');
  // The store's catalog: 250 entities, oldest first; the first three sellable.
  const slugs = Array.from({ length: ENTITIES }, () => unique('item'));
  for (let i = 0; i < slugs.length; i += 10) {
    await Promise.all(
      slugs.slice(i, i + 10).map(async (slug, j) => {
        const res = await remote.request('/api/catalog/entities', { apiKey: shop.admin, body: { type: 'product', slug, status: 'active', metadata: { n: i + j } } });
        expect(res.status, res.text).toBe(201);
        if (i + j < 3) sellable[i + j] = { id: res.body.data.id, slug, title: `Remote item ${i + j}` };
      }),
    );
    // keep creation order = slug order for the first three (their createdAt may tie; ids break ties)
  }
  for (const item of sellable) {
    const put = await remote.request(`/api/catalog/entities/${item.id}/attributes/en`, {
      method: 'PUT',
      apiKey: shop.admin,
      body: { title: item.title, description: 'from the store' },
    });
    expect(put.status, put.text).toBe(200);
    const price = await remote.request('/api/pricing/prices', { apiKey: shop.admin, body: { entityId: item.id, currency: 'USD', amount: 2500 } });
    expect(price.status, price.text).toBe(201);
    const stock = await remote.request('/api/inventory/adjust', { apiKey: shop.admin, body: { entityId: item.id, warehouseId: shop.warehouseId, type: 'restock', quantity: 10 } });
    expect(stock.status, stock.text).toBe(200);
  }
}, 180_000);

afterAll(async () => {
  await local?.close();
  await remote?.close();
});

describe('channel connector with two instances', () => {
  it('connects a store without ever showing its API key', async () => {
    const doc = await local.request('/api/doc');
    expect(
      Object.keys(doc.body.paths)
        .filter((p) => p.startsWith('/api/channel'))
        .sort(),
    ).toEqual([
      '/api/channel/stores',
      '/api/channel/stores/{id}',
      '/api/channel/stores/{id}/backfill',
      '/api/channel/stores/{id}/import',
      '/api/channel/stores/{id}/orders',
      '/api/channel/stores/{id}/reconcile',
      '/api/channel/stores/{id}/sync-inventory',
    ]);
    const bad = await local.request('/api/channel/stores', { apiKey: admin, body: { name: 'x', baseUrl: 'ftp://example.com', apiKey: 'short' } });
    expect(bad.status, bad.text).toBe(422);
    expect(bad.body.error.details.map((d: { field: string }) => d.field).sort()).toEqual(['apiKey']);
    const badUrl = await local.request('/api/channel/stores', { apiKey: admin, body: { name: 'x', baseUrl: 'ftp://example.com', apiKey: sourceKey } });
    expect(badUrl.status, badUrl.text).toBe(422);
    expect(badUrl.body.error.details[0].field).toBe('baseUrl');
    expect(await local.app.db.channelStore.count()).toBe(0);

    const created = await local.request('/api/channel/stores', { apiKey: admin, body: { name: 'remote', baseUrl: remote.url, apiKey: sourceKey, pageSize: PAGE_SIZE } });
    expect(created.status, created.text).toBe(201);
    storeId = created.body.data.id;
    expect(created.body.data).toMatchObject({
      name: 'remote',
      kind: 'commerce-service',
      status: 'active',
      pageSize: PAGE_SIZE,
      apiKeyHint: `…${sourceKey.slice(-4)}`,
      backfill: { status: 'idle', pages: 0 },
    });
    const listed = await local.request('/api/channel/stores', { apiKey: admin });
    const gql = await local.graphql(`{ channelStore(id: "${storeId}") { id name apiKeyHint status backfill { status pages } } }`, {}, { apiKey: admin });
    for (const text of [created.text, listed.text, JSON.stringify(gql.body)]) expect(text).not.toContain(sourceKey);
    expect((gql.body.data as any).channelStore.id).toBe(storeId);
    // At rest: encrypted, not the key.
    const row = await local.app.db.channelStore.findUniqueOrThrow({ where: { id: storeId } });
    expect(row.apiKeyCiphertext).not.toContain(sourceKey);
    expect(row.apiKeyCiphertext.startsWith('v1:')).toBe(true);
    const dup = await local.request('/api/channel/stores', { apiKey: admin, body: { name: 'remote', baseUrl: remote.url, apiKey: shop.admin } });
    expect(dup.status, dup.text).toBe(409);
    // Audited under the store, without the key.
    const audit = await local.request(`/api/audit/channel_store/${storeId}`, { apiKey: admin });
    expect(audit.status, audit.text).toBe(200);
    expect(audit.body.data.map((e: { event: string }) => e.event)).toEqual(['channel.storeCreate']);
    expect(audit.text).not.toContain(sourceKey);
  });

  it(`backfills a catalog of ${ENTITIES} entities one page per job run`, async () => {
    const started = await local.request(`/api/channel/stores/${storeId}/backfill`, { apiKey: admin, method: 'POST' });
    expect(started.status, started.text).toBe(202);
    expect(started.body.data.task).toBe('channel/backfill-catalog');
    const statementsBefore = local.statements();
    const jobs = await drain(local, admin);
    if (process.env.CHANNEL_REPORT) console.log('statements per imported entity', (local.statements() - statementsBefore) / ENTITIES);
    const runs = jobs.filter((j) => j.taskSlug === 'channel/backfill-catalog');
    expect(runs).toHaveLength(ENTITIES / PAGE_SIZE);
    expect(runs.every((r) => r.status === 'succeeded')).toBe(true);
    const rows = await local.app.db.job.findMany({ where: { taskSlug: 'channel/backfill-catalog' }, orderBy: { createdAt: 'asc' } });
    expect(rows.map((r) => (r.input as { page: number }).page)).toEqual([1, 2, 3, 4, 5]);
    expect(rows.map((r) => (r.output as { entities: number; last: boolean }).entities)).toEqual([50, 50, 50, 50, 50]);
    expect(rows.map((r) => (r.output as { last: boolean }).last)).toEqual([false, false, false, false, true]);
    expect(new Set(rows.map((r) => r.concurrencyKey))).toEqual(new Set([`store:${storeId}`]));

    const store = (await local.request(`/api/channel/stores/${storeId}`, { apiKey: admin })).body.data;
    expect(store.backfill).toMatchObject({ status: 'done', pages: 5, imported: ENTITIES, total: ENTITIES });
    const list = await local.request('/api/catalog/entities?limit=1', { apiKey: admin });
    expect(list.body.meta.pagination.total).toBe(ENTITIES);
    const twin = await localTwin(sellable[0]!.id);
    expect(twin).toMatchObject({ sourceStoreId: storeId, slug: sellable[0]!.slug, status: 'active' });
    expect(twin.attributes[0]).toMatchObject({ locale: 'en', title: sellable[0]!.title, description: 'from the store' });
    expect(twin.inventory).toMatchObject({ onHand: 10, available: 10 });

    // Two backfills asked for at once: the older chain stops at its first run, the newer one
    // walks every page again and imports nothing twice (every entity is linked already).
    const [first, second] = await Promise.all([1, 2].map(() => local.request(`/api/channel/stores/${storeId}/backfill`, { apiKey: admin, method: 'POST' })));
    expect([first!.status, second!.status]).toEqual([202, 202]);
    const again = (await drain(local, admin)).filter((j) => j.taskSlug === 'channel/backfill-catalog');
    const outputs = (await local.app.db.job.findMany({ where: { id: { in: again.map((j) => j.id) } }, orderBy: { createdAt: 'asc' } })).map(
      (j) => j.output as Record<string, unknown>,
    );
    expect(outputs.filter((o) => o.skipped)).toEqual([{ skipped: 'superseded by a newer backfill' }]);
    expect(outputs.filter((o) => !o.skipped).map((o) => [o.page, o.created])).toEqual([
      [1, 0],
      [2, 0],
      [3, 0],
      [4, 0],
      [5, 0],
    ]);
    expect((await local.request('/api/catalog/entities?limit=1', { apiKey: admin })).body.meta.pagination.total).toBe(ENTITIES);
  }, 180_000);

  it('brings stock changes at the store to the local levels', async () => {
    const [a, b] = sellable;
    expect(
      (await remote.request('/api/inventory/adjust', { apiKey: shop.admin, body: { entityId: a!.id, warehouseId: shop.warehouseId, type: 'restock', quantity: 5 } })).status,
    ).toBe(200);
    expect(
      (await remote.request('/api/inventory/adjust', { apiKey: shop.admin, body: { entityId: b!.id, warehouseId: shop.warehouseId, type: 'damage', quantity: -4 } })).status,
    ).toBe(200);
    expect((await localTwin(a!.id)).inventory.onHand).toBe(10); // nothing moves until the sync runs

    // Through the GraphQL twin of POST /channel/stores/:id/sync-inventory.
    const sync = await local.graphql(`mutation { channelStoreInventorySync(id: "${storeId}") { jobId task } }`, {}, { apiKey: admin });
    expect(sync.body.errors, JSON.stringify(sync.body.errors)).toBeUndefined();
    expect((sync.body.data as any).channelStoreInventorySync.task).toBe('channel/sync-inventory');
    const syncStatements = local.statements();
    const jobs = await drain(local, admin);
    if (process.env.CHANNEL_REPORT) console.log('statements of a stock sync of 250 links, 2 changed', local.statements() - syncStatements);
    const run = await local.app.db.job.findUniqueOrThrow({ where: { id: jobs.find((j) => j.taskSlug === 'channel/sync-inventory')!.id } });
    expect(run.output).toMatchObject({ checked: ENTITIES, changed: 2 });
    expect((await localTwin(a!.id)).inventory).toMatchObject({ onHand: 15, available: 15 });
    expect((await localTwin(b!.id)).inventory).toMatchObject({ onHand: 6, available: 6 });
    // The movement says where it came from.
    const twin = await localTwin(a!.id);
    const moves = await local.request(`/api/inventory/movements?entityId=${twin.id}`, { apiKey: admin });
    expect(moves.body.data[0]).toMatchObject({ type: 'correction', quantity: 5, reference: `channel:${storeId}` });
  }, 120_000);

  it('pushes an order once even when the store took it and its answer was lost', async () => {
    const item = sellable[2]!;
    const twin = await localTwin(item.id);
    // Prices are the platform's: the local shop sells the imported item at its own price.
    expect((await local.request('/api/pricing/prices', { apiKey: admin, body: { entityId: twin.id, currency: 'USD', amount: 3000 } })).status).toBe(201);
    const proxy = lossyProxy(remote.url);
    const proxyUrl = await proxy.listen();
    try {
      expect((await local.request(`/api/channel/stores/${storeId}`, { method: 'PATCH', apiKey: admin, body: { baseUrl: proxyUrl, apiKey: sourceKey } })).status).toBe(200);
      const before = await remoteOrderCount();
      const storefront = await local.apiKey('storefront');
      const cart = await local.request('/api/carts', { apiKey: storefront, body: { currency: 'USD' } });
      const headers = { 'x-cart-token': cart.body.data.cartToken };
      expect(
        (await local.request(`/api/carts/${cart.body.data.id}/items`, { apiKey: storefront, headers, body: { entityId: twin.id, quantity: 2, unitPriceSnapshot: 3000 } })).status,
      ).toBe(201);
      const placed = await local.request('/api/checkout', {
        apiKey: storefront,
        headers,
        body: { cartId: cart.body.data.id, paymentMethodId: 'pm_card_visa', currency: 'USD', shippingAddress: ADDRESS, email: 'buyer@example.com' },
      });
      expect(placed.status, placed.text).toBe(201);
      const orderId = placed.body.data.id;

      proxy.loseNextCheckout();
      const jobs = (await drain(local, admin)).filter((j) => j.taskSlug === 'channel/push-order');
      // First run: the store made the order, the answer was lost, the run failed; the retry got
      // the same order back (same cart, same idempotency key).
      expect(jobs.map((j) => j.status)).toEqual(['pending', 'succeeded']);
      expect(await remoteOrderCount()).toBe(before + 1);
      const exports = await local.request(`/api/channel/stores/${storeId}/orders`, { apiKey: admin });
      const exp = exports.body.data.find((e: { orderId: string }) => e.orderId === orderId);
      expect(exp).toMatchObject({ status: 'exported', attempts: 2, lastError: null });
      const remoteOrder = await remote.request(`/api/orders/${exp.remoteOrderId}`, { apiKey: shop.admin });
      expect(remoteOrder.status, remoteOrder.text).toBe(200);
      expect(remoteOrder.body.data).toMatchObject({
        customerEmail: 'buyer@example.com',
        lineItems: [expect.objectContaining({ entityId: item.id, quantity: 2, unitPrice: 2500 })],
      });
      // The store reserved its stock for the order.
      expect(await remoteAvailable(item.id)).toBe(8);

      // Asking again pushes nothing.
      const again = await local.request(`/api/channel/stores/${storeId}/orders`, { apiKey: admin, body: { orderId } });
      expect(again.status, again.text).toBe(202);
      expect(again.body.data).toMatchObject({ status: 'exported', jobId: null });
      await drain(local, admin);
      expect(await remoteOrderCount()).toBe(before + 1);
    } finally {
      await local.request(`/api/channel/stores/${storeId}`, { method: 'PATCH', apiKey: admin, body: { baseUrl: remote.url, apiKey: sourceKey } });
      await proxy.close();
    }
  }, 120_000);

  it('pushes once even when the retry lost the cart the first attempt made', async () => {
    const twin = await localTwin(sellable[2]!.id);
    const proxy = lossyProxy(remote.url);
    const proxyUrl = await proxy.listen();
    try {
      expect((await local.request(`/api/channel/stores/${storeId}`, { method: 'PATCH', apiKey: admin, body: { baseUrl: proxyUrl, apiKey: sourceKey } })).status).toBe(200);
      const before = await remoteOrderCount();
      const storefront = await local.apiKey('storefront');
      const cart = await local.request('/api/carts', { apiKey: storefront, body: { currency: 'USD' } });
      const headers = { 'x-cart-token': cart.body.data.cartToken };
      await local.request(`/api/carts/${cart.body.data.id}/items`, { apiKey: storefront, headers, body: { entityId: twin.id, quantity: 1, unitPriceSnapshot: 3000 } });
      const placed = await local.request('/api/checkout', {
        apiKey: storefront,
        headers,
        body: { cartId: cart.body.data.id, paymentMethodId: 'pm_card_visa', currency: 'USD', shippingAddress: ADDRESS, email: 'twice@example.com' },
      });
      expect(placed.status, placed.text).toBe(201);
      // The answer is lost and so is what the first attempt remembered (its cart): the retry
      // makes a new cart, and the store, seeing the same key on another cart, names its order.
      proxy.loseNextCheckout(() => local.app.db.$executeRaw`update plugin_channel_order_exports set push_state = null where order_id = ${placed.body.data.id}::uuid`);
      const jobs = (await drain(local, admin)).filter((j) => j.taskSlug === 'channel/push-order');
      expect(jobs.map((j) => j.status)).toEqual(['pending', 'succeeded']);
      expect(await remoteOrderCount()).toBe(before + 1);
      const exp = (await local.request(`/api/channel/stores/${storeId}/orders`, { apiKey: admin })).body.data.find((e: { orderId: string }) => e.orderId === placed.body.data.id);
      expect(exp).toMatchObject({ status: 'exported', attempts: 2 });
      const remoteOrder = await remote.request(`/api/orders/${exp.remoteOrderId}`, { apiKey: shop.admin });
      expect(remoteOrder.body.data.customerEmail).toBe('twice@example.com');
    } finally {
      await local.request(`/api/channel/stores/${storeId}`, { method: 'PATCH', apiKey: admin, body: { baseUrl: remote.url, apiKey: sourceKey } });
      await proxy.close();
    }
  }, 120_000);

  it('requeues an export whose pushes all failed once the store is reachable (channel/reap-exports)', async () => {
    const twin = await localTwin(sellable[2]!.id);
    const closed = lossyProxy(remote.url);
    const deadUrl = await closed.listen();
    await closed.close(); // nothing listens there any more
    expect((await local.request(`/api/channel/stores/${storeId}`, { method: 'PATCH', apiKey: admin, body: { baseUrl: deadUrl, apiKey: sourceKey } })).status).toBe(200);
    const storefront = await local.apiKey('storefront');
    const cart = await local.request('/api/carts', { apiKey: storefront, body: { currency: 'USD' } });
    const headers = { 'x-cart-token': cart.body.data.cartToken };
    await local.request(`/api/carts/${cart.body.data.id}/items`, { apiKey: storefront, headers, body: { entityId: twin.id, quantity: 1, unitPriceSnapshot: 3000 } });
    const placed = await local.request('/api/checkout', {
      apiKey: storefront,
      headers,
      body: { cartId: cart.body.data.id, paymentMethodId: 'pm_card_visa', currency: 'USD', shippingAddress: ADDRESS, email: 'late@example.com' },
    });
    expect(placed.status, placed.text).toBe(201);
    const before = await remoteOrderCount();
    const failed = (await drain(local, admin)).filter((j) => j.taskSlug === 'channel/push-order');
    expect(failed.map((j) => j.status)).toEqual(['pending', 'pending', 'pending', 'failed']);
    let exp = (await local.request(`/api/channel/stores/${storeId}/orders?status=pending`, { apiKey: admin })).body.data[0];
    expect(exp).toMatchObject({ orderId: placed.body.data.id, attempts: 4 });
    expect(exp.lastError).toBeTruthy();

    expect((await local.request(`/api/channel/stores/${storeId}`, { method: 'PATCH', apiKey: admin, body: { baseUrl: remote.url, apiKey: sourceKey } })).status).toBe(200);
    const org = await local.app.services.organizations.defaultOrganization();
    await local.app.services.jobs.enqueue({ task: 'channel/reap-exports', input: { storeId, staleAfterMs: 0 }, organizationId: org.id });
    const jobs = await drain(local, admin);
    expect(jobs.filter((j) => j.taskSlug === 'channel/reap-exports').map((j) => j.status)).toEqual(['succeeded']);
    expect(jobs.filter((j) => j.taskSlug === 'channel/push-order').map((j) => j.status)).toEqual(['succeeded']);
    exp = (await local.request(`/api/channel/stores/${storeId}/orders`, { apiKey: admin })).body.data.find((e: { orderId: string }) => e.orderId === placed.body.data.id);
    expect(exp).toMatchObject({ status: 'exported', attempts: 5 });
    expect(await remoteOrderCount()).toBe(before + 1);
  }, 120_000);

  it('reconciliation puts a diverged row back to what the store says', async () => {
    const item = sellable[1]!;
    // Stock in step first (the orders above reserved some at the store).
    await local.request(`/api/channel/stores/${storeId}/sync-inventory`, { apiKey: admin, method: 'POST' });
    await drain(local, admin);
    const twin = await localTwin(item.id);
    // Someone edits store-owned data locally: the title and the stock.
    expect(
      (await local.request(`/api/catalog/entities/${twin.id}/attributes/en`, { method: 'PUT', apiKey: admin, body: { title: 'Edited here', description: 'from the store' } }))
        .status,
    ).toBe(200);
    expect(
      (
        await local.request('/api/inventory/adjust', {
          apiKey: admin,
          body: { entityId: twin.id, warehouseId: twin.inventory.warehouses[0].warehouseId, type: 'correction', quantity: 50 },
        })
      ).status,
    ).toBe(200);

    const started = await local.request(`/api/channel/stores/${storeId}/reconcile`, { apiKey: admin, method: 'POST' });
    expect(started.status, started.text).toBe(202);
    expect(started.body.data.task).toBe('channel/reconcile-sweep');
    const jobs = await drain(local, admin);
    const sweep = jobs.filter((j) => j.taskSlug === 'channel/reconcile-sweep');
    const pages = jobs.filter((j) => j.taskSlug === 'channel/reconcile');
    expect(sweep.map((j) => j.status)).toEqual(['succeeded']);
    expect(pages).toHaveLength(ENTITIES / PAGE_SIZE);
    const outputs = await local.app.db.job.findMany({ where: { id: { in: pages.map((p) => p.id) } } });
    const fixed = outputs.flatMap((o) => (o.output as { fixed: unknown[] }).fixed);
    // Exactly the diverged row, with what was wrong in it.
    expect(fixed).toEqual([{ remoteId: item.id, entityId: twin.id, fields: ['attributes.en.title'], stockDelta: -50 }]);
    const after = await localTwin(item.id);
    expect(after.attributes[0].title).toBe(item.title);
    expect(after.inventory.onHand).toBe(await remoteAvailable(item.id));
  }, 180_000);

  it('store-sourced entities honour catalog:sync and field ownership', async () => {
    const item = sellable[0]!;
    const twin = await localTwin(item.id);
    const merch = await local.apiKey('merch');
    // Ownership of a store-sourced entity needs catalog:sync; a local entity's does not.
    const refused = await local.request(`/api/catalog/entities/${twin.id}/field-ownership`, {
      method: 'PUT',
      apiKey: merch,
      body: { fieldPath: 'attributes.en.title', owner: 'platform' },
    });
    expect(refused.status, refused.text).toBe(403);
    const own = await local.request('/api/catalog/entities', { apiKey: admin, body: { type: 'product', slug: unique('own'), status: 'active' } });
    expect(
      (await local.request(`/api/catalog/entities/${own.body.data.id}/field-ownership`, { method: 'PUT', apiKey: merch, body: { fieldPath: 'metadata', owner: 'platform' } }))
        .status,
    ).toBe(200);
    // Nor may an editor without catalog:sync claim an entity for a store.
    expect((await local.request(`/api/catalog/entities/${own.body.data.id}`, { method: 'PATCH', apiKey: merch, body: { sourceStoreId: storeId } })).status).toBe(403);

    // The admin (catalog:sync) makes the title the platform's and the metadata shared.
    for (const [fieldPath, owner] of [
      ['attributes.en.title', 'platform'],
      ['metadata', 'shared'],
    ] as const) {
      const set = await local.request(`/api/catalog/entities/${twin.id}/field-ownership`, { method: 'PUT', apiKey: admin, body: { fieldPath, owner, storeId } });
      expect(set.status, set.text).toBe(200);
    }
    // Local edits of all three kinds of field.
    expect(
      (await local.request(`/api/catalog/entities/${twin.id}/attributes/en`, { method: 'PUT', apiKey: merch, body: { title: 'Our title', description: 'our description' } }))
        .status,
    ).toBe(200);
    expect((await local.request(`/api/catalog/entities/${twin.id}`, { method: 'PATCH', apiKey: merch, body: { metadata: { n: 0, badge: 'local' } } })).status).toBe(200);

    const reconcileNow = async () => {
      const res = await local.request(`/api/channel/stores/${storeId}/reconcile`, { apiKey: admin, body: { remoteIds: [item.id] } });
      expect(res.status, res.text).toBe(202);
      expect(res.body.data.task).toBe('channel/reconcile');
      await drain(local, admin);
      return localTwin(item.id);
    };
    // The store changed nothing: the store-owned description is put back, the platform's title and
    // the shared metadata (unchanged at the store since the last sync) keep the local edits.
    let now = await reconcileNow();
    expect(now.attributes[0]).toMatchObject({ title: 'Our title', description: 'from the store' });
    expect(now.metadata).toEqual({ n: 0, badge: 'local' });

    // The store changes all three: the title stays ours, the shared metadata takes the store's
    // newer value, the description follows the store.
    expect(
      (
        await remote.request(`/api/catalog/entities/${item.id}/attributes/en`, {
          method: 'PUT',
          apiKey: shop.admin,
          body: { title: 'Store title v2', description: 'store description v2' },
        })
      ).status,
    ).toBe(200);
    expect((await remote.request(`/api/catalog/entities/${item.id}`, { method: 'PATCH', apiKey: shop.admin, body: { metadata: { n: 0, season: 'winter' } } })).status).toBe(200);
    now = await reconcileNow();
    expect(now.attributes[0]).toMatchObject({ title: 'Our title', description: 'store description v2' });
    expect(now.metadata).toEqual({ n: 0, season: 'winter' });
  }, 120_000);

  it('imports named entities on request and archives those the store dropped', async () => {
    const fresh = await remote.request('/api/catalog/entities', { apiKey: shop.admin, body: { type: 'product', slug: unique('fresh'), status: 'draft', metadata: { new: true } } });
    expect(fresh.status, fresh.text).toBe(201);
    const dropped = await remote.request('/api/catalog/entities?limit=1&sort=createdAt:desc&status=active', { apiKey: shop.admin });
    const droppedId = dropped.body.data[0].id;
    const droppedTwin = await localTwin(droppedId);
    expect((await remote.request(`/api/catalog/entities/${droppedId}`, { method: 'DELETE', apiKey: shop.admin })).status).toBe(200);

    const res = await local.request(`/api/channel/stores/${storeId}/import`, { apiKey: admin, body: { remoteIds: [fresh.body.data.id, droppedId] } });
    expect(res.status, res.text).toBe(202);
    expect(res.body.data.task).toBe('channel/import-catalog');
    const jobs = (await drain(local, admin)).filter((j) => j.taskSlug === 'channel/import-catalog');
    const run = await local.app.db.job.findUniqueOrThrow({ where: { id: jobs[0]!.id } });
    expect(run.output).toEqual({ imported: 1, created: 1, removed: 1 });
    expect(await localTwin(fresh.body.data.id)).toMatchObject({ status: 'draft', metadata: { new: true }, sourceStoreId: storeId });
    const gone = await local.request(`/api/catalog/entities/${droppedTwin.id}`, { apiKey: admin });
    expect(gone.body.data.status).toBe('archived');
    const link = await local.app.db.channelLink.findUniqueOrThrow({ where: { storeId_remoteId: { storeId, remoteId: droppedId } } });
    expect(link.status).toBe('removed');
  });

  it('lists stores and exports with the same number of statements at any page size', async () => {
    for (const name of ['second', 'third', 'fourth']) {
      const res = await local.request('/api/channel/stores', { apiKey: admin, body: { name, baseUrl: remote.url, apiKey: shop.admin } });
      expect(res.status, res.text).toBe(201);
    }
    const count = async (path: string) => {
      await local.request(path, { apiKey: admin }); // warm the key cache
      const before = local.statements();
      const res = await local.request(path, { apiKey: admin });
      expect(res.status, res.text).toBe(200);
      return { statements: local.statements() - before, rows: res.body.data.length, meta: res.body.meta };
    };
    const one = await count('/api/channel/stores?limit=1');
    const all = await count('/api/channel/stores?limit=1000');
    expect([one.rows, all.rows]).toEqual([1, 4]);
    expect(all.meta).toMatchObject({ total: 4, limit: 100 });
    expect(all.statements).toBe(one.statements);
    const exportsOne = await count(`/api/channel/stores/${storeId}/orders?limit=1`);
    const exportsAll = await count(`/api/channel/stores/${storeId}/orders?limit=100`);
    expect([exportsOne.rows, exportsAll.rows]).toEqual([1, 3]);
    expect(exportsAll.statements).toBe(exportsOne.statements);
  });

  it('lets only channel managers of the organization in', async () => {
    const storefront = await local.apiKey('storefront');
    const merch = await local.apiKey('merch');
    const other = await local.app.db.organization.create({ data: { slug: `channel-other-${Date.now()}`, name: 'Other shop' } });
    const otherAdmin = await local.apiKey('admin', { organizationId: other.id });
    const calls: Array<[string, string, Record<string, unknown>?]> = [
      ['GET', `/api/channel/stores/${storeId}`],
      ['PATCH', `/api/channel/stores/${storeId}`, { status: 'paused' }],
      ['POST', `/api/channel/stores/${storeId}/backfill`],
      ['POST', `/api/channel/stores/${storeId}/sync-inventory`],
    ];
    for (const [method, path, body] of calls) {
      for (const key of [storefront, merch]) expect((await local.request(path, { method, apiKey: key, body })).status, `${method} ${path}`).toBe(403);
      expect((await local.request(path, { method, apiKey: otherAdmin, body })).status, `${method} ${path} other org`).toBe(404);
    }
    expect((await local.request('/api/channel/stores', { apiKey: storefront })).status).toBe(403);
    expect((await local.request('/api/channel/stores', { apiKey: otherAdmin })).body.data).toEqual([]);
    // The plugin's own scope manages connections and reaches nothing else.
    const integration = await local.apiKey('channel');
    expect(integration.startsWith('cs_channel_')).toBe(true);
    expect((await local.request('/api/channel/stores', { apiKey: integration })).body.data.length).toBe(4);
    expect((await local.request('/api/orders', { apiKey: integration })).status).toBe(403);
    expect((await local.request('/api/catalog/entities', { apiKey: integration, body: { type: 'product', slug: unique('no'), status: 'draft' } })).status).toBe(403);
    // Every channel job of this file was keyed to its store.
    const keys = await local.app.db.job.findMany({ where: { taskSlug: { startsWith: 'channel/' } }, select: { concurrencyKey: true }, distinct: ['concurrencyKey'] });
    expect(keys.map((k) => k.concurrencyKey)).toEqual([`store:${storeId}`]);
    expect((await local.request(`/api/channel/stores/${storeId}`, { apiKey: admin })).body.data.status).toBe('active');

    // Bad input is a 4xx envelope, never a 500, and changes nothing.
    const jobsBefore = await local.app.db.job.count();
    const bad: Array<[string, string, unknown, number]> = [
      ['PATCH', `/api/channel/stores/${storeId}`, { baseUrl: 'not a url' }, 422],
      ['PATCH', `/api/channel/stores/${storeId}`, { status: 'deleted' }, 422],
      ['PATCH', `/api/channel/stores/${storeId}`, { warehouseId: '00000000-0000-4000-8000-000000000000' }, 422],
      ['PATCH', `/api/channel/stores/${storeId}`, { name: 'second' }, 409],
      ['GET', '/api/channel/stores/not-a-store', undefined, 422], // a malformed id is 422 naming it (issue 32)
      ['POST', `/api/channel/stores/${storeId}/orders`, { orderId: 'x' }, 422],
      ['POST', `/api/channel/stores/${storeId}/orders`, { orderId: '00000000-0000-4000-8000-000000000000' }, 422],
      ['POST', `/api/channel/stores/${storeId}/import`, { remoteIds: [] }, 422],
      ['POST', `/api/channel/stores/${storeId}/reconcile`, { remoteIds: [{ id: 'x' }] }, 422],
      ['GET', `/api/channel/stores/${storeId}/orders?status=lost`, undefined, 422],
    ];
    for (const [method, path, body, status] of bad) {
      const res = await local.request(path, { method, apiKey: admin, body });
      expect(res.status, `${method} ${path} ${res.text}`).toBe(status);
      expect(res.body.error.code, res.text).toBeTruthy();
    }
    expect(await local.app.db.job.count()).toBe(jobsBefore);
    expect((await local.request(`/api/channel/stores/${storeId}`, { apiKey: admin })).body.data).toMatchObject({ name: 'remote', baseUrl: remote.url, status: 'active' });

    // A paused store's tasks do nothing, and its triggers say why.
    expect((await local.request(`/api/channel/stores/${storeId}`, { method: 'PATCH', apiKey: admin, body: { status: 'paused' } })).status).toBe(200);
    const paused = await local.request(`/api/channel/stores/${storeId}/backfill`, { method: 'POST', apiKey: admin });
    expect(paused.status, paused.text).toBe(422);
    expect(paused.body.error.code).toBe('INVALID_TRANSITION');
  });
});
