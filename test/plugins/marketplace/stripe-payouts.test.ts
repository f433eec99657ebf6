// The Stripe Connect payout adapter through the real Stripe SDK, against a fake Stripe API on
// 127.0.0.1: a payout run transfers the vendor's balance to its connected account with the
// payout's idempotency key; a declined transfer fails the payout, and the retry sends the same
// key (Stripe would answer the first transfer again rather than pay twice).
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../support/app.js';
import { pay, type Store } from '../../orders/helpers.js';
import { runner } from '../../jobs/support.js';
import { stripePayoutAdapter } from '../../../plugins/marketplace/payout-adapters.js';
import { M, buy, startMarketplace, vendor, vendorProduct } from './helpers.js';

let t: TestApp;
let store: Store;
let server: http.Server;
const transfers: Array<{ key: string | undefined; body: URLSearchParams; auth: string | undefined }> = [];
let decline = 0;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      if (req.method !== 'POST' || req.url !== '/v1/transfers') {
        res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { type: 'invalid_request_error', message: 'unknown' } }));
        return;
      }
      transfers.push({ key: req.headers['idempotency-key'] as string | undefined, body: new URLSearchParams(raw), auth: req.headers.authorization });
      if (decline > 0) {
        decline -= 1;
        res
          .writeHead(400, { 'content-type': 'application/json' })
          .end(JSON.stringify({ error: { type: 'invalid_request_error', code: 'insufficient_funds', message: 'Insufficient funds in the platform balance' } }));
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ id: `tr_${transfers.length}`, object: 'transfer' }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  ({ t, store } = await startMarketplace({
    holdingPeriodDays: 0,
    payoutAdapter: stripePayoutAdapter('sk_test_marketplace', { api: { host: '127.0.0.1', port, protocol: 'http' } }),
  }));
});
afterAll(async () => {
  await t?.close();
  await new Promise((resolve) => server?.close(resolve));
});

describe('Stripe Connect payouts', () => {
  it('transfer to the connected account with the payout’s idempotency key; a retry reuses it', async () => {
    const v = await vendor(t, store.admin);
    const noAccount = await vendor(t, store.admin);
    expect((await t.request(`${M}/vendors/${v.id}`, { method: 'PATCH', apiKey: store.admin, body: { stripeAccountId: 'acct_1VendorA' } })).status).toBe(200);
    for (const who of [v, noAccount]) {
      const p = await vendorProduct(store, who.id, { price: 5_000 });
      const placed = await pay(store, await buy(store, [{ entityId: p }]));
      const [sub] = (await t.request(`${M}/sub-orders?orderId=${placed.id}`, { apiKey: store.admin })).body.data;
      for (const [action, body] of [['confirm'], ['ship', { trackingNumber: 'T', carrier: 'UPS' }], ['deliver']] as const) {
        expect((await t.request(`${M}/vendor/me/orders/${sub.id}/${action}`, { method: 'POST', bearer: who.token, ...(body ? { body } : {}) })).status).toBe(200);
      }
    }
    decline = 1;
    expect((await t.request(`${M}/payouts/run`, { method: 'POST', apiKey: store.admin })).status).toBe(202);
    await runner(t).runBatch({ queue: 'default', limit: 10 });
    const payouts = (await t.request(`${M}/payouts`, { apiKey: store.admin })).body.data;
    const mine = payouts.find((p: any) => p.vendorId === v.id);
    const theirs = payouts.find((p: any) => p.vendorId === noAccount.id);
    // no connected account: failed without a call
    expect(theirs).toMatchObject({ status: 'failed', failureReason: expect.stringMatching(/Stripe Connect account/) });
    expect(mine).toMatchObject({ status: 'failed', amount: 5_000, adapter: 'stripe', failureReason: expect.stringMatching(/Insufficient funds/) });
    expect(transfers).toHaveLength(1);
    expect(transfers[0]!.key).toBe(mine.idempotencyKey);
    expect(Object.fromEntries(transfers[0]!.body)).toMatchObject({ amount: '5000', currency: 'usd', destination: 'acct_1VendorA', 'metadata[payoutId]': mine.id });
    expect(transfers[0]!.auth).toBe('Bearer sk_test_marketplace');

    const retried = await t.request(`${M}/payouts/${mine.id}/retry`, { method: 'POST', apiKey: store.admin });
    expect(retried.status, retried.text).toBe(200);
    expect(retried.body.data).toMatchObject({ status: 'paid', externalId: 'tr_2', attempts: 2 });
    expect(transfers.map((x) => x.key)).toEqual([mine.idempotencyKey, mine.idempotencyKey]);
  });
});
