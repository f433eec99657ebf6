// The TaxJar adapter against a local stub of TaxJar's POST /v2/taxes, started by this test:
// the request carries the draft in TaxJar's shape (major units, per-line discounts, from/to
// addresses, bearer token); the answer's per-line tax_collectable becomes the order's tax. When
// the provider fails (5xx, unreachable, timeout) checkout is 503 with the error envelope and
// writes nothing: no order, no stock reserved, the cart still open and checkable later.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { ADDRESS, ORDER_TEST_CONFIG, available, checkout, guestCart, openStore, product, setSettings, type Store } from '../orders/helpers.js';
import { toMajor, toMinor } from '../../src/modules/tax/taxjar.js';

type Mode = 'ok' | 'fail' | 'slow' | 'garbled';
let mode: Mode = 'ok';
const received: any[] = [];
let stub: Server;
let t: TestApp;
let store: Store;

function readJson(req: IncomingMessage): Promise<any> {
  return new Promise((resolve) => {
    let text = '';
    req.on('data', (c) => (text += c));
    req.on('end', () => resolve(text ? JSON.parse(text) : null));
  });
}

/** TaxJar's answer shape: 8.875 % on every line and on shipping. */
async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const body = await readJson(req);
  received.push({ path: req.url, method: req.method, auth: req.headers.authorization, body });
  if (mode === 'fail') return void res.writeHead(503, { 'content-type': 'application/json' }).end('{"error":"Service Unavailable"}');
  if (mode === 'slow') return void setTimeout(() => res.writeHead(200).end('{}'), 3_000);
  if (mode === 'garbled') return void res.writeHead(200, { 'content-type': 'application/json' }).end('{"tax":{"breakdown":{"line_items":[]}}}');
  const rate = 0.08875;
  const lines = body.line_items.map((l: any) => ({ id: l.id, combined_tax_rate: rate, tax_collectable: Math.round((l.unit_price * l.quantity - l.discount) * rate * 100) / 100 }));
  res
    .writeHead(200, { 'content-type': 'application/json' })
    .end(JSON.stringify({ tax: { amount_to_collect: 0, rate, breakdown: { line_items: lines, shipping: { tax_collectable: Math.round(body.shipping * rate * 100) / 100 } } } }));
}

beforeAll(async () => {
  stub = createServer((req, res) => void handle(req, res));
  await new Promise<void>((resolve) => stub.listen(0, '127.0.0.1', resolve));
  const port = (stub.address() as AddressInfo).port;
  t = await startTestApp({ ...ORDER_TEST_CONFIG, tax: { provider: 'taxjar', taxjar: { apiUrl: `http://127.0.0.1:${port}/v2`, apiToken: 'tj_test_token', timeoutMs: 1_000 } } });
  store = await openStore(t);
  await setSettings(store, 'shipping', { flatRate: 500 });
  await setSettings(store, 'branding', { address: { line1: '1 Broadway', city: 'New York', state: 'NY', postalCode: '10004', country: 'US' } });
});
afterAll(async () => {
  await t?.close();
  await new Promise((resolve) => stub?.close(resolve));
});

describe('TaxJar provider', () => {
  it('converts between minor and major units exactly', () => {
    expect([toMajor(1999, 2), toMajor(5, 2), toMajor(1234, 0)]).toEqual([19.99, 0.05, 1234]);
    expect([toMinor(1.005, 2), toMinor(19.99, 2), toMinor(0.1 + 0.2, 2)]).toEqual([101, 1999, 30]);
  });

  it("sends the draft in TaxJar's shape and charges the tax it answers", async () => {
    mode = 'ok';
    received.length = 0;
    const a = await product(store, { price: 1_999, stock: 5 });
    const b = await product(store, { price: 500, stock: 5 });
    const res = await checkout(store, await guestCart(store, [{ entityId: a, quantity: 2 }, { entityId: b }]), {
      body: { shippingAddress: { ...ADDRESS, state: 'NY', postalCode: '10001' } },
    });
    expect(res.status, res.text).toBe(201);
    expect(received).toHaveLength(1);
    expect(received[0]).toMatchObject({ method: 'POST', path: '/v2/taxes', auth: 'Bearer tj_test_token' });
    expect(received[0].body).toMatchObject({
      from_country: 'US',
      from_zip: '10004',
      from_state: 'NY',
      to_country: 'US',
      to_zip: '10001',
      to_state: 'NY',
      amount: 44.98,
      shipping: 5,
      line_items: [
        { id: '0', quantity: 2, unit_price: 19.99, discount: 0 },
        { id: '1', quantity: 1, unit_price: 5, discount: 0 },
      ],
    });
    const order = res.body.data;
    // 39.98 × 8.875 % = 3.548… → 3.55; 5.00 → 0.44; shipping 5.00 → 0.44.
    expect(order.lineItems.map((l: any) => l.taxTotal)).toEqual([355, 44]);
    // The line records the provider's combined rate (8.875 % = 888 bps, rounded), for the invoice's summary.
    expect(order.lineItems.map((l: any) => l.taxRateBps)).toEqual([888, 888]);
    expect(order.taxTotal).toBe(355 + 44 + 44);
    expect(order.grandTotal).toBe(4_498 + 500 + 443);
  });

  for (const failing of ['fail', 'slow', 'garbled'] as const) {
    it(`a provider that ${failing === 'fail' ? 'answers 503' : failing === 'slow' ? 'times out' : 'answers without the lines'} makes checkout 503 and writes nothing`, async () => {
      const p = await product(store, { price: 1_000, stock: 3 });
      const cart = await guestCart(store, [{ entityId: p, quantity: 2 }]);
      const ordersBefore = (await t.request('/api/orders?limit=100', { apiKey: store.admin })).body.meta;
      mode = failing;
      const res = await checkout(store, cart);
      expect(res.status, res.text).toBe(503);
      expect(res.body.error).toMatchObject({ code: 'SERVICE_UNAVAILABLE', details: { step: 'tax', provider: 'taxjar' } });
      expect(await available(store, p)).toMatchObject({ onHand: 3, reserved: 0, available: 3 });
      expect((await t.request('/api/orders?limit=100', { apiKey: store.admin })).body.meta).toEqual(ordersBefore);
      // The cart is still open: once the provider is back, the same cart checks out.
      mode = 'ok';
      const again = await checkout(store, cart);
      expect(again.status, again.text).toBe(201);
      expect(await available(store, p)).toMatchObject({ reserved: 2 });
    });
  }
});
