// The offline queue against the real server, one case per row of the spec's "Client offline
// queue operation" table, plus ordering, the replayed answers (onChange and the result promise), storage adapters, a checkout whose response is lost
// (replayed → one order) and a server stopped and restarted mid-drain. A small TCP-level proxy
// (node:http) stands between queue and server where the network has to misbehave: it drops a
// response after the server has answered, or answers 408 as a load balancer would.
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import fs from 'node:fs';
import fsPromises from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { listen, type Listening } from '../../src/http/listen.js';
import {
  asyncStorageAdapter,
  createOfflineQueue,
  jsonFileStorage,
  localStorageAdapter,
  memoryStorage,
  type OfflineQueue,
  type QueueAnswer,
  type QueuedOperation,
} from '../../client/src/index.js';
import { ADDRESS, ORDER_TEST_CONFIG, available, guestCart, openStore, product, type Store } from '../orders/helpers.js';

let t: TestApp;
let store: Store;
beforeAll(async () => {
  t = await startTestApp(ORDER_TEST_CONFIG);
  store = await openStore(t);
});
afterAll(() => t?.close());

interface Proxy {
  url: string;
  /** Drop the response of the next request whose path matches (the server still handles it). */
  dropNext(pathPart: string): void;
  /** Answer the next n requests with this status without forwarding them. */
  answer(status: number, n: number): void;
  requests: Array<{ method: string; path: string; at: number }>;
  close(): Promise<void>;
}

async function proxyTo(target: string): Promise<Proxy> {
  const upstream = new URL(target);
  let drop: string | null = null;
  let injected: { status: number; left: number } | null = null;
  const requests: Proxy['requests'] = [];
  const server = http.createServer((req, res) => {
    requests.push({ method: req.method!, path: req.url!, at: Date.now() });
    if (injected && injected.left > 0) {
      injected.left -= 1;
      req.resume();
      res.writeHead(injected.status, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { code: 'REQUEST_TIMEOUT', message: 'upstream timed out' } }));
      return;
    }
    const forward = http.request({ host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers }, (answer) => {
      if (drop && req.url!.includes(drop)) {
        drop = null;
        // The server did the work; the client never hears about it.
        answer.resume();
        answer.on('end', () => req.socket.destroy());
        return;
      }
      res.writeHead(answer.statusCode!, answer.headers);
      answer.pipe(res);
    });
    req.pipe(forward);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    dropNext: (part) => (drop = part),
    answer: (status, n) => (injected = { status, left: n }),
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

async function until(queue: OfflineQueue, done: (ops: QueuedOperation[]) => boolean, timeoutMs = 20_000): Promise<QueuedOperation[]> {
  const started = Date.now();
  while (Date.now() - started < timeoutMs) {
    const ops = await queue.list();
    if (done(ops)) return ops;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`queue did not settle: ${JSON.stringify(await queue.list())}`);
}

function checkoutBody(cartId: string) {
  return { cartId, currency: 'USD', paymentMethodId: 'pm_card_visa', shippingAddress: ADDRESS, email: 'queue@example.com' };
}

async function orderCount(): Promise<number> {
  const res = await t.request('/api/orders?limit=1', { apiKey: store.admin });
  return res.body.meta.pagination.total;
}

describe('offline queue state table', () => {
  it('pending + 2xx → removed (and the operation id reaches the server as idempotencyKey)', async () => {
    const entity = await product(store, { price: 900, stock: 5 });
    const cart = await guestCart(store, [{ entityId: entity, quantity: 1 }]);
    const queue = createOfflineQueue({ baseUrl: t.url, headers: { 'x-api-key': store.storefront, ...cart.headers } });
    const before = await orderCount();
    const op = await queue.enqueue({ path: '/api/checkout', body: checkoutBody(cart.id) });
    expect(op).toMatchObject({ method: 'POST', status: 'pending', attempts: 0 });
    await until(queue, (ops) => ops.length === 0);
    expect(await orderCount()).toBe(before + 1);
    // The same key again is a replay of that order, not a second one.
    const replay = await t.request('/api/checkout', { apiKey: store.storefront, headers: cart.headers, body: { ...checkoutBody(cart.id), idempotencyKey: op.id } });
    expect(replay.body.meta.replayed).toBe(true);
    queue.dispose();
  });

  it('pending + network failure → pending, drain stops, backoff retry scheduled', async () => {
    const proxy = await proxyTo(t.url);
    await proxy.close(); // nothing listens there any more
    const seen: number[] = [];
    const counting: typeof fetch = (input, init) => {
      seen.push(Date.now());
      return fetch(input, init);
    };
    const queue = createOfflineQueue({ baseUrl: proxy.url, headers: { 'x-api-key': store.admin }, backoffMs: 5_000, autoFlush: false, fetch: counting });
    await queue.enqueue({ path: '/api/carts', body: { currency: 'USD' } });
    await queue.enqueue({ path: '/api/carts', body: { currency: 'USD' } });
    await queue.flush();
    const ops = await queue.list();
    expect(ops.map((o) => o.status)).toEqual(['pending', 'pending']);
    expect(ops[0]!.attempts).toBe(0); // network failures do not use attempts
    expect((ops[0]!.lastError as any).error.code).toBe('NETWORK_ERROR');
    expect(ops[0]!.notBefore! - Date.now()).toBeGreaterThan(3_000);
    expect(ops[1]!.lastError).toBeUndefined(); // the drain stopped at the first
    expect(seen).toHaveLength(1);
    queue.dispose();
  });

  describe('>= 500 from the real server', () => {
    let down: TestApp;
    beforeAll(async () => {
      // Strict organization resolution with no organization: every request is a real 503.
      down = await startTestApp({ storeResolver: () => null, strictOrgResolution: true });
    });
    afterAll(() => down?.close());

    it('retries with exponential backoff, then failed at maxAttempts', async () => {
      const times: number[] = [];
      const counting: typeof fetch = (input, init) => {
        times.push(Date.now());
        return fetch(input, init);
      };
      const queue = createOfflineQueue({ baseUrl: down.url, backoffMs: 100, maxAttempts: 3, fetch: counting });
      const op = await queue.enqueue({ path: '/api/carts', body: { currency: 'USD' } });
      const [settled] = await until(queue, (ops) => ops[0]?.status === 'failed');
      expect(settled).toMatchObject({ id: op.id, status: 'failed', attempts: 3, lastStatus: 503 });
      expect((settled!.lastError as any).error.code).toBe('SERVICE_UNAVAILABLE');
      expect(times).toHaveLength(3);
      // 100 ms after the first answer, 200 ms after the second.
      expect(times[1]! - times[0]!).toBeGreaterThanOrEqual(95);
      expect(times[2]! - times[1]!).toBeGreaterThanOrEqual(195);
      queue.dispose();
    });
  });

  it('429 from the real server: pending with backoff (Retry-After), then 2xx removes', async () => {
    const limited = await startTestApp({ rateLimit: { authenticated: { points: 1, durationSeconds: 1 } } });
    try {
      const key = await limited.apiKey('admin');
      const statuses: number[] = [];
      const counting: typeof fetch = async (input, init) => {
        const res = await fetch(input, init);
        statuses.push(res.status);
        return res;
      };
      const queue = createOfflineQueue({ baseUrl: limited.url, headers: { 'x-api-key': key }, backoffMs: 50, fetch: counting });
      await queue.enqueue({ path: '/api/carts', body: { currency: 'USD' } });
      await queue.enqueue({ path: '/api/carts', body: { currency: 'USD' } });
      await until(queue, (ops) => ops.length === 0);
      expect(statuses[0]).toBe(201);
      expect(statuses).toContain(429);
      expect(statuses.at(-1)).toBe(201);
      queue.dispose();
    } finally {
      await limited.close();
    }
  });

  it('408: retried, failed at maxAttempts; retry(id) resets attempts and flushes; 2xx removes', async () => {
    const proxy = await proxyTo(t.url);
    try {
      proxy.answer(408, 2);
      const queue = createOfflineQueue({ baseUrl: proxy.url, headers: { 'x-api-key': store.admin }, backoffMs: 20, maxAttempts: 2 });
      const op = await queue.enqueue({ path: '/api/carts', body: { currency: 'USD' } });
      const [failed] = await until(queue, (ops) => ops[0]?.status === 'failed');
      expect(failed).toMatchObject({ status: 'failed', attempts: 2, lastStatus: 408 });
      await queue.retry(op.id);
      expect(await queue.list()).toEqual([]);
      expect(proxy.requests.filter((r) => r.path === '/api/carts')).toHaveLength(3);
      queue.dispose();
    } finally {
      await proxy.close();
    }
  });

  it('other 4xx → failed at once with the server error body; the next operation still runs; drop(id) removes', async () => {
    const changes: QueuedOperation[][] = [];
    const queue = createOfflineQueue({ baseUrl: t.url, headers: { 'x-api-key': store.admin }, autoFlush: false });
    queue.onChange((ops) => changes.push(ops));
    const bad = await queue.enqueue({ path: '/api/carts', body: { currency: 'DOLLARS' } });
    await queue.enqueue({ path: '/api/carts', body: { currency: 'USD' } });
    await queue.flush();
    const [failed, ...rest] = await queue.list();
    expect(rest).toEqual([]);
    expect(failed).toMatchObject({ id: bad.id, status: 'failed', attempts: 1, lastStatus: 422 });
    expect((failed!.lastError as any).error.code).toBe('VALIDATION_FAILED');
    expect((failed!.lastError as any).error.details[0].field).toBe('currency');
    await queue.drop(bad.id);
    expect(await queue.list()).toEqual([]);
    expect(changes.at(-1)).toEqual([]);
    queue.dispose();
  });
});

describe('replay', () => {
  it('replays in order', async () => {
    const a = await product(store, { price: 100 });
    const b = await product(store, { price: 200 });
    const c = await product(store, { price: 300 });
    const cart = await guestCart(store);
    const queue = createOfflineQueue({ baseUrl: t.url, headers: { 'x-api-key': store.storefront, ...cart.headers }, autoFlush: false });
    for (const entityId of [a, b, c]) await queue.enqueue({ path: '/api/carts/{id}/items', params: { path: { id: cart.id } }, body: { entityId, quantity: 1 } });
    await queue.flush();
    expect(await queue.list()).toEqual([]);
    const res = await t.request(`/api/carts/${cart.id}`, { apiKey: store.storefront, headers: cart.headers });
    expect(res.body.data.items.map((i: any) => i.entityId)).toEqual([a, b, c]);
    queue.dispose();
  });

  it('a checkout whose response was lost is replayed and makes one order', async () => {
    const entity = await product(store, { price: 1500, stock: 4 });
    const cart = await guestCart(store, [{ entityId: entity, quantity: 2 }]);
    const proxy = await proxyTo(t.url);
    try {
      proxy.dropNext('/api/checkout');
      const before = await orderCount();
      const queue = createOfflineQueue({ baseUrl: proxy.url, headers: { 'x-api-key': store.storefront, ...cart.headers }, backoffMs: 50 });
      await queue.enqueue({ path: '/api/checkout', body: checkoutBody(cart.id) });
      await until(queue, (ops) => ops.length === 0);
      expect(proxy.requests.filter((r) => r.path === '/api/checkout')).toHaveLength(2);
      expect(await orderCount()).toBe(before + 1);
      expect((await available(store, entity)).reserved).toBe(2);
      queue.dispose();
    } finally {
      await proxy.close();
    }
  });

  it('survives the server stopping and restarting mid-drain', async () => {
    let server: Listening = await listen(t.app.http, 0, '127.0.0.1');
    const port = server.port;
    const cart = await guestCart(store);
    const entities = [await product(store, { price: 10 }), await product(store, { price: 20 }), await product(store, { price: 30 })];
    const queue = createOfflineQueue({ baseUrl: server.url, headers: { 'x-api-key': store.storefront, ...cart.headers }, backoffMs: 50, autoFlush: false });
    for (const entityId of entities) await queue.enqueue({ path: '/api/carts/{id}/items', params: { path: { id: cart.id } }, body: { entityId, quantity: 1 } });
    let stopping: Promise<void> | null = null;
    queue.onChange((ops) => {
      // After the first operation landed: stop the server before the second goes out.
      if (ops.length === 2 && !stopping) stopping = server.close();
    });
    await queue.flush();
    await stopping;
    const waiting = await queue.list();
    expect(waiting).toHaveLength(2);
    expect((waiting[0]!.lastError as any).error.code).toBe('NETWORK_ERROR');
    expect(waiting.every((o) => o.status === 'pending' && o.attempts === 0)).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 200)); // a backoff retry or two fail meanwhile
    server = await listen(t.app.http, port, '127.0.0.1');
    try {
      await until(queue, (ops) => ops.length === 0);
      const res = await t.request(`/api/carts/${cart.id}`, { apiKey: store.storefront, headers: cart.headers });
      expect(res.body.data.items.map((i: any) => i.entityId)).toEqual(entities);
    } finally {
      queue.dispose();
      await server.close();
    }
  });
});

describe('replayed answers', () => {
  it('a queued checkout hands its order to the result promise and to onChange', async () => {
    const entity = await product(store, { price: 1200, stock: 3 });
    const cart = await guestCart(store, [{ entityId: entity, quantity: 1 }]);
    const queue = createOfflineQueue({ baseUrl: t.url, headers: { 'x-api-key': store.storefront, ...cart.headers }, autoFlush: false });
    const answers: QueueAnswer[] = [];
    queue.onChange((_ops, answer) => {
      if (answer) answers.push(answer);
    });
    const queued = await queue.enqueue({ path: '/api/checkout', body: checkoutBody(cart.id) });
    await queue.flush();
    const answer = await queued.result;
    if (!answer.ok) throw new Error(`checkout failed: ${JSON.stringify(answer)}`);
    expect(answer.status).toBe(201);
    expect(answer.data.data.number).toMatch(/^ORD-\d{4}-\d{6}$/);
    expect(answer.data.data.grandTotal).toBeGreaterThanOrEqual(1200);
    // The same answer reached the listener; the order exists under that number.
    expect(answers).toEqual([answer]);
    const order = await t.request(`/api/orders/${answer.data.data.id}`, { apiKey: store.admin });
    expect(order.body.data.number).toBe(answer.data.data.number);
    queue.dispose();
  });

  it('a refused operation settles its promise with the error body; a dropped one with dropped', async () => {
    const queue = createOfflineQueue({ baseUrl: t.url, headers: { 'x-api-key': store.admin }, autoFlush: false });
    const bad = await queue.enqueue({ path: '/api/carts', body: { currency: 'DOLLARS' } });
    await queue.flush();
    const refused = await bad.result;
    expect(refused).toMatchObject({ id: bad.id, ok: false, status: 422, error: { error: { code: 'VALIDATION_FAILED' } } });
    // After the failure, the next outcome of the same operation is its drop.
    const next = queue.result(bad.id)!;
    await queue.drop(bad.id);
    expect(await next).toEqual({ id: bad.id, ok: false, status: 0, dropped: true });
    expect(queue.result(bad.id)).toBeUndefined();
    queue.dispose();
  });

  it('an operation restored from storage reports its answer through result(id)', async () => {
    const storage = memoryStorage();
    const first = createOfflineQueue({ baseUrl: t.url, headers: { 'x-api-key': store.admin }, storage, autoFlush: false });
    const op = await first.enqueue({ path: '/api/carts', body: { currency: 'USD' } });
    first.dispose();
    const second = createOfflineQueue({ baseUrl: t.url, headers: { 'x-api-key': store.admin }, storage, autoFlush: false });
    await second.list();
    const pending = second.result(op.id)!;
    await second.flush();
    const answer = await pending;
    expect(answer).toMatchObject({ id: op.id, ok: true, status: 201 });
    expect((answer as { data: { data: { currency: string } } }).data.data.currency).toBe('USD');
    second.dispose();
  });
});

describe('storage adapters', () => {
  it('a JSON file keeps the queue across processes (queue objects)', async () => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'queue-')), 'queue.json');
    const first = createOfflineQueue({ baseUrl: t.url, headers: { 'x-api-key': store.admin }, storage: jsonFileStorage(file, fsPromises), autoFlush: false });
    const op = await first.enqueue({ path: '/api/carts', body: { currency: 'USD' } });
    first.dispose();
    expect(JSON.parse(fs.readFileSync(file, 'utf8'))[0].id).toBe(op.id);
    const second = createOfflineQueue({ baseUrl: t.url, headers: { 'x-api-key': store.admin }, storage: jsonFileStorage(file, fsPromises) });
    await until(second, (ops) => ops.length === 0);
    await second.flush(); // the drain (and its last write) has finished
    expect(JSON.parse(fs.readFileSync(file, 'utf8'))).toEqual([]);
    second.dispose();
  });

  it('a localStorage-shaped store keeps the queue under one key', async () => {
    const items = new Map<string, string>();
    const store_ = { getItem: (k: string) => items.get(k) ?? null, setItem: (k: string, v: string) => void items.set(k, v) };
    const queue = createOfflineQueue({ baseUrl: t.url, headers: { 'x-api-key': store.admin }, storage: localStorageAdapter(store_), autoFlush: false });
    const op = await queue.enqueue({ path: '/api/carts', body: { currency: 'DOLLARS' } });
    await queue.flush();
    const saved = JSON.parse(items.get('commerce.offlineQueue')!);
    expect(saved).toEqual([expect.objectContaining({ id: op.id, status: 'failed', lastStatus: 422 })]);
    queue.dispose();
  });

  it('an AsyncStorage-shaped store (React Native) keeps the queue across queue objects', async () => {
    const items = new Map<string, string>();
    const delay = () => new Promise((resolve) => setTimeout(resolve, 5));
    const store_ = {
      getItem: async (k: string) => (await delay(), items.get(k) ?? null),
      setItem: async (k: string, v: string) => void (await delay(), items.set(k, v)),
    };
    const first = createOfflineQueue({ baseUrl: t.url, headers: { 'x-api-key': store.admin }, storage: asyncStorageAdapter(store_), autoFlush: false });
    const op = await first.enqueue({ path: '/api/carts', body: { currency: 'USD' } });
    first.dispose();
    expect(JSON.parse(items.get('commerce.offlineQueue')!)[0].id).toBe(op.id);
    const second = createOfflineQueue({ baseUrl: t.url, headers: { 'x-api-key': store.admin }, storage: asyncStorageAdapter(store_), autoFlush: false });
    const pending = (await second.list(), second.result(op.id)!);
    await second.flush();
    expect(await pending).toMatchObject({ id: op.id, ok: true, status: 201 });
    expect(JSON.parse(items.get('commerce.offlineQueue')!)).toEqual([]);
    second.dispose();
  });
});
