// Carrier rates (issue 25) against a local stub of Shippo's POST /shipments, started by this test:
// the request carries the parcel (the variants' weight and dimensions) and both addresses in
// Shippo's shape with the ShippoToken header; the options show the cheapest offered service
// level in minor units plus the markup; a second quote of the same cart and address is served
// from the cache (the stub counts requests), and checkout reuses it; when the carrier fails or
// times out the fallback prices the method, and a method without fallback is not offered.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { checkout, guestCart, ORDER_TEST_CONFIG, setSettings, type Store } from '../orders/helpers.js';
import { decimalToMinor } from '../../src/modules/shipping/carrier/provider.js';
import { flat, heavyProduct, method, shippingStore, zone } from './helpers.js';

type Mode = 'ok' | 'fail' | 'slow' | 'garbled';
let mode: Mode = 'ok';
const received: Array<{ path?: string; method?: string; auth?: string; body: any }> = [];
let stub: Server;
let t: TestApp;

function readJson(req: IncomingMessage): Promise<any> {
  return new Promise((resolve) => {
    let text = '';
    req.on('data', (c) => (text += c));
    req.on('end', () => resolve(text ? JSON.parse(text) : null));
  });
}

const rate = (token: string, amount: string, currency: string, days: number) => ({
  object_id: `rate_${token}`,
  amount,
  currency,
  provider: token.startsWith('usps') ? 'USPS' : 'UPS',
  estimated_days: days,
  servicelevel: { token, name: token.replace(/^[a-z]+_/, '').replace(/^./, (c) => c.toUpperCase()) },
});

/** Shippo's shipment answer with async:false: the rates inline, amounts as decimal strings. */
async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const body = await readJson(req);
  received.push({ path: req.url, method: req.method, auth: req.headers.authorization, body });
  if (mode === 'fail') return void res.writeHead(502, { 'content-type': 'application/json' }).end('{"detail":"carrier down"}');
  if (mode === 'slow') return void setTimeout(() => res.writeHead(200, { 'content-type': 'application/json' }).end('{"rates":[]}'), 2_000);
  if (mode === 'garbled') return void res.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"QUEUED"}');
  res.writeHead(201, { 'content-type': 'application/json' }).end(
    JSON.stringify({
      object_id: 'shp_1',
      status: 'SUCCESS',
      address_from: body.address_from,
      address_to: body.address_to,
      rates: [
        rate('usps_priority', '12.34', 'USD', 2),
        rate('usps_ground_advantage', '8.10', 'USD', 5),
        rate('ups_next_day_air', '45.00', 'USD', 1),
        rate('usps_priority', '7.00', 'EUR', 2),
      ],
    }),
  );
}

beforeAll(async () => {
  stub = createServer((req, res) => void handle(req, res));
  await new Promise<void>((resolve) => stub.listen(0, '127.0.0.1', resolve));
  const port = (stub.address() as AddressInfo).port;
  t = await startTestApp({ ...ORDER_TEST_CONFIG, shipping: { carrier: { timeoutMs: 500, shippo: { apiUrl: `http://127.0.0.1:${port}`, apiToken: 'shippo_test_token' } } } });
});
afterAll(async () => {
  await t?.close();
  await new Promise((resolve) => stub?.close(resolve));
});

const STORE_ADDRESS = { line1: '1 Broadway', city: 'New York', state: 'NY', postalCode: '10004', country: 'US' };
const TO = '?country=US&state=IL&postalCode=62701';

const options = (store: Store, cart: { id: string; headers: Record<string, string> }, qs = TO) =>
  t.request(`/api/carts/${cart.id}/shipping-options${qs}`, { apiKey: store.storefront, headers: cart.headers });

/** A store with two carrier methods (one with a fallback, one without) and a flat one. */
async function carrierStore(): Promise<{ store: Store; cheapest: any; priority: any }> {
  const store = await shippingStore(t);
  await setSettings(store, 'branding', { address: STORE_ADDRESS });
  const us = await zone(store, { countries: ['US'] });
  const cheapest = await method(store, us.id, {
    name: 'Carrier saver',
    minDays: 9,
    maxDays: 9,
    calculator: { carrier: { provider: 'shippo', serviceLevels: ['usps_priority', 'usps_ground_advantage'], markupBps: 1000, fallback: flat(999) } },
  });
  const priority = await method(store, us.id, { name: 'Carrier priority', calculator: { carrier: { provider: 'shippo', serviceLevels: ['usps_priority'] } } });
  await method(store, us.id, { name: 'Flat', calculator: flat(2500) });
  return { store, cheapest, priority };
}

describe('carrier rates', () => {
  it("converts decimal strings to minor units exactly, by the currency's digits", () => {
    expect(decimalToMinor('12.34', 'USD')).toBe(1234);
    expect(decimalToMinor('8.1', 'USD')).toBe(810);
    expect(decimalToMinor('0.29', 'USD')).toBe(29); // 0.29 × 100 is 28.999… in floating point
    expect(decimalToMinor('7.005', 'USD')).toBe(701); // half up beyond the cent
    expect(decimalToMinor('7.004', 'USD')).toBe(700);
    expect(decimalToMinor('1200', 'JPY')).toBe(1200);
    expect(decimalToMinor('1200.00', 'JPY')).toBe(1200);
    expect(decimalToMinor('1.234', 'BHD')).toBe(1234);
    expect(decimalToMinor('-1.00', 'USD')).toBeNull();
    expect(decimalToMinor('abc', 'USD')).toBeNull();
  });

  it("shows the carrier's rates in the options, asks once per cart and address, and checkout writes the line from the cached rate", async () => {
    mode = 'ok';
    const { store, cheapest, priority } = await carrierStore();
    const read = await t.request(`/api/shipping/methods/${cheapest.id}`, { apiKey: store.admin });
    expect(read.status, read.text).toBe(200);
    expect(read.body.data.calculator).toMatchObject({
      kind: 'carrier',
      provider: 'shippo',
      serviceLevels: ['usps_priority', 'usps_ground_advantage'],
      markupBps: 1000,
      fallback: { kind: 'flat', amounts: [{ currency: 'USD', amount: 999 }] },
    });

    const item = await heavyProduct(store, 1500, 2000); // 300 × 200 × 100 mm, 1.5 kg each
    const cart = await guestCart(store, [{ ...item, quantity: 2 }]);
    received.length = 0;
    const res = await options(store, cart);
    expect(res.status, res.text).toBe(200);
    // saver: cheapest offered level 8.10 → 810, + 10 % = 891, the carrier's 5 days; priority 12.34 → 1234.
    expect(res.body.data.map((o: any) => [o.name, o.amount, o.minDays, o.maxDays])).toEqual([
      ['Carrier saver', 891, 5, 5],
      ['Carrier priority', 1234, 2, 2],
      ['Flat', 2500, null, null],
    ]);
    // Both carrier methods share one call: same cart, same request.
    expect(received).toHaveLength(1);
    expect(received[0]).toMatchObject({ method: 'POST', path: '/shipments', auth: 'ShippoToken shippo_test_token' });
    expect(received[0]!.body).toEqual({
      address_from: { street1: '1 Broadway', city: 'New York', state: 'NY', zip: '10004', country: 'US' },
      address_to: { state: 'IL', zip: '62701', country: 'US' },
      // 2 × 1500 g; the largest length and width, the heights stacked (2 × 100 mm), in cm
      parcels: [{ length: '30', width: '20', height: '20', distance_unit: 'cm', weight: '3000', mass_unit: 'g' }],
      async: false,
    });

    const again = await options(store, cart);
    expect(again.body.data).toEqual(res.body.data);
    const gql = await t.graphql(
      `query($id: UUID!) { cart(id: $id) { shippingOptions(country: "US", state: "IL", postalCode: "62701") { name amount } } }`,
      { id: cart.id },
      { apiKey: store.storefront, headers: cart.headers },
    );
    expect(gql.body.errors).toBeUndefined();
    expect(gql.body.data!.cart.shippingOptions[0]).toEqual({ name: 'Carrier saver', amount: 891 });
    expect(received).toHaveLength(1);

    // Another address is another request.
    const elsewhere = await options(store, cart, '?country=US&state=CA&postalCode=94105');
    expect(elsewhere.status).toBe(200);
    expect(received).toHaveLength(2);
    expect(received[1]!.body.address_to).toEqual({ state: 'CA', zip: '94105', country: 'US' });

    const order = await checkout(store, cart, { body: { shippingMethodId: cheapest.id } });
    expect(order.status, order.text).toBe(201);
    expect(order.body.data).toMatchObject({ subtotal: 4000, shippingTotal: 891, grandTotal: 4891 });
    expect(order.body.data.shippingLines).toEqual([expect.objectContaining({ methodId: cheapest.id, name: 'Carrier saver', amount: 891, minDays: 5, maxDays: 5 })]);
    expect(received).toHaveLength(2); // checkout priced from the cache
    expect(priority.id).toBeTruthy();
  });

  it.each([
    ['fails', 'fail'],
    ['times out', 'slow'],
    ['answers no rates', 'garbled'],
  ] as const)('when the carrier %s, the fallback prices the method and one without fallback is not offered', async (_label, failing) => {
    const { store, cheapest } = await carrierStore();
    const item = await heavyProduct(store, 500, 1000);
    const cart = await guestCart(store, [item]);
    mode = failing;
    received.length = 0;
    const res = await options(store, cart);
    expect(res.status, res.text).toBe(200);
    expect(res.body.data.map((o: any) => [o.name, o.amount, o.minDays])).toEqual([
      ['Carrier saver', 999, 9],
      ['Flat', 2500, null],
    ]);
    expect(received).toHaveLength(1);
    // A failure is not cached: the next quote asks again, and checkout charges the fallback.
    const order = await checkout(store, cart, { body: { shippingMethodId: cheapest.id } });
    expect(order.status, order.text).toBe(201);
    expect(order.body.data).toMatchObject({ shippingTotal: 999 });
    expect(received).toHaveLength(2);
    mode = 'ok';
  });

  it('refuses a carrier calculator with an unknown provider or two calculators (422)', async () => {
    const store = await shippingStore(t);
    const us = await zone(store, { countries: ['US'] });
    for (const calculator of [{ carrier: { provider: 'fedex-direct' } }, { carrier: { provider: 'shippo' }, flat: flat(1).flat }]) {
      const res = await t.request('/api/shipping/methods', {
        apiKey: store.admin,
        body: { zoneId: us.id, name: 'bad', code: `bad-${Math.random().toString(36).slice(2, 8)}`, calculator },
      });
      expect(res.status, res.text).toBe(422);
      expect(res.body.error.code).toBe('VALIDATION_FAILED');
    }
  });
});
