// GET /me/orders/:orderId/downloads (and the GraphQL query meOrderDownloads): the files of a
// paid order's digital lines as signed URLs that really serve the bytes, refused before payment
// (partially_paid included), 404 for another customer's order, 403 for an API key, and a
// link that stops working once it expires.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { checkoutBody, openStore, ORDER_TEST_CONFIG, pay, paymentSucceeded, product, sendWebhook, type Store } from '../orders/helpers.js';
import { PDF, upload } from '../media/helpers.js';
import { signMediaUrl } from '../../src/modules/media/signing.js';

let t: TestApp;
let store: Store;
let ebook: string;
let poster: string;
const bookBytes = Buffer.concat([PDF, Buffer.from('% the e-book itself\n')]);

async function fetchUrl(url: string): Promise<Response> {
  const { pathname, search } = new URL(url);
  return fetch(`${t.url}${pathname}${search}`);
}

async function customerOrder(token: string, items: Array<{ entityId: string; quantity?: number }>) {
  const cart = await t.request('/api/carts', { bearer: token, body: { currency: 'USD' } });
  expect(cart.status, cart.text).toBe(201);
  for (const item of items) {
    const added = await t.request(`/api/carts/${cart.body.data.id}/items`, { bearer: token, body: { entityId: item.entityId, quantity: item.quantity ?? 1 } });
    expect(added.status, added.text).toBe(201);
  }
  const order = await t.request('/api/checkout', { bearer: token, body: checkoutBody({ id: cart.body.data.id }) });
  expect(order.status, order.text).toBe(201);
  return order.body.data;
}

beforeAll(async () => {
  t = await startTestApp(ORDER_TEST_CONFIG);
  store = await openStore(t);
  ebook = await product(store, { type: 'digitalDownload', price: 900, stock: 100, title: 'The E-Book' });
  poster = await product(store, { price: 1500, stock: 100, title: 'A Poster' });
  const book = await upload(t, store.admin, { file: { bytes: bookBytes, type: 'application/pdf', name: 'book.pdf' }, alt: 'The E-Book (PDF)' });
  expect(book.status, book.text).toBe(201);
  const cover = await upload(t, store.admin, { file: { bytes: Buffer.concat([PDF, Buffer.from('% cover\n')]) } });
  const posterFile = await upload(t, store.admin, { file: { bytes: Buffer.concat([PDF, Buffer.from('% poster print file\n')]) } });
  for (const [entityId, mediaAssetId, role] of [
    [ebook, book.body.data.id, 'download'],
    [ebook, cover.body.data.id, 'gallery'], // a picture of the product is not what was sold
    [poster, posterFile.body.data.id, 'download'], // a physical product's line has no downloads
  ]) {
    const attached = await t.request('/api/media/attach', { apiKey: store.admin, body: { entityId, mediaAssetId, role } });
    expect(attached.status, attached.text).toBe(201);
  }
});
afterAll(async () => t?.close());

describe('/me/orders/:orderId/downloads', () => {
  it("lists signed URLs of a paid order's digital lines that serve the bytes, over REST and GraphQL", async () => {
    const alice = await t.signIn('customer');
    const order = await customerOrder(alice.token, [{ entityId: ebook }, { entityId: poster }]);
    await pay(store, order);

    for (const ref of [order.id, order.number]) {
      const res = await t.request(`/api/me/orders/${ref}/downloads`, { bearer: alice.token });
      expect(res.status, res.text).toBe(200);
      expect(res.body.data).toMatchObject({ orderId: order.id, orderNumber: order.number, paymentStatus: 'paid' });
      expect(res.body.data.downloads).toHaveLength(1);
      const [link] = res.body.data.downloads;
      expect(link).toMatchObject({ entityId: ebook, title: 'The E-Book', alt: 'The E-Book (PDF)', mimeType: 'application/pdf', size: bookBytes.length });
      expect(new Date(link.expiresAt).getTime()).toBeGreaterThan(Date.now());
      const file = await fetchUrl(link.url); // no session, no key: the signature is the credential
      expect(file.status).toBe(200);
      expect(file.headers.get('content-type')).toBe('application/pdf');
      expect(Buffer.from(await file.arrayBuffer()).equals(bookBytes)).toBe(true);
    }

    const gql = await t.graphql(
      'query($id: String!) { meOrderDownloads(orderId: $id) { orderNumber paymentStatus downloads { entityId mimeType url expiresAt } } }',
      { id: order.id },
      { bearer: alice.token },
    );
    expect(gql.body.errors).toBeUndefined();
    expect(gql.body.data.meOrderDownloads.paymentStatus).toBe('paid');
    expect(gql.body.data.meOrderDownloads.downloads.map((d: any) => d.entityId)).toEqual([ebook]);
    expect((await fetchUrl(gql.body.data.meOrderDownloads.downloads[0].url)).status).toBe(200);
  });

  it('costs the same number of SQL statements for one digital line as for three', async () => {
    const more = [ebook, await product(store, { type: 'digitalDownload', price: 300, stock: 10 }), await product(store, { type: 'digitalDownload', price: 400, stock: 10 })];
    for (const entityId of more.slice(1)) {
      const file = await upload(t, store.admin, { file: { bytes: Buffer.concat([PDF, Buffer.from(`% ${entityId}\n`)]) } });
      expect((await t.request('/api/media/attach', { apiKey: store.admin, body: { entityId, mediaAssetId: file.body.data.id, role: 'download' } })).status).toBe(201);
    }
    const cost = async (entityIds: string[]) => {
      const shopper = await t.signIn('customer');
      const order = await customerOrder(
        shopper.token,
        entityIds.map((entityId) => ({ entityId })),
      );
      await pay(store, order);
      const start = t.statements();
      const res = await t.request(`/api/me/orders/${order.id}/downloads`, { bearer: shopper.token });
      expect(res.body.data.downloads).toHaveLength(entityIds.length);
      return t.statements() - start;
    };
    const one = await cost([ebook]);
    const three = await cost(more);
    expect(three).toBe(one);
    console.log(`GET /me/orders/:id/downloads: ${one} statements for 1 digital line, ${three} for 3`);
  });

  it('refuses an unpaid and a partially paid order with 403 naming the payment status', async () => {
    const bob = await t.signIn('customer');
    const order = await customerOrder(bob.token, [{ entityId: ebook, quantity: 2 }]);
    const unpaid = await t.request(`/api/me/orders/${order.id}/downloads`, { bearer: bob.token });
    expect(unpaid.status).toBe(403);
    expect(unpaid.body.error).toMatchObject({ code: 'FORBIDDEN', details: { paymentStatus: 'awaiting_payment' } });
    expect(unpaid.body.error.message).toMatch(/once the order is paid/);
    expect(unpaid.text).not.toContain('/content?');

    const short = paymentSucceeded(order);
    (short.data.object as any).amount_received = order.grandTotal - 100;
    expect((await sendWebhook(t, short)).status).toBe(200);
    expect((await t.request(`/api/orders/${order.id}`, { apiKey: store.admin })).body.data.paymentStatus).toBe('partially_paid');
    const partial = await t.request(`/api/me/orders/${order.number}/downloads`, { bearer: bob.token });
    expect(partial.status).toBe(403);
    expect(partial.body.error.details).toEqual({ paymentStatus: 'partially_paid' });
  });

  it("is 404 for another customer's order, 401 anonymous and 403 with an API key", async () => {
    const carol = await t.signIn('customer');
    const dave = await t.signIn('customer');
    const order = await customerOrder(carol.token, [{ entityId: ebook }]);
    await pay(store, order);
    const other = await t.request(`/api/me/orders/${order.id}/downloads`, { bearer: dave.token });
    expect(other.status).toBe(404);
    expect(other.text).not.toContain('/content?');
    expect((await t.request(`/api/me/orders/${order.number}/downloads`, { bearer: dave.token })).status).toBe(404);
    expect((await t.request(`/api/me/orders/${order.id}/downloads`)).status).toBe(401);
    const key = await t.request(`/api/me/orders/${order.id}/downloads`, { apiKey: store.admin });
    expect(key.status).toBe(403);
    expect(key.body.error.message).toMatch(/API key is not a customer session/);
  });

  it('hands out links that stop working when they expire', async () => {
    const erin = await t.signIn('customer');
    const order = await customerOrder(erin.token, [{ entityId: ebook }]);
    await pay(store, order);
    const res = await t.request(`/api/me/orders/${order.id}/downloads`, { bearer: erin.token });
    const link = res.body.data.downloads[0];
    const ttl = t.app.config.media.signedUrlTtlSeconds;
    expect(new Date(link.expiresAt).getTime() - Date.now()).toBeLessThanOrEqual(ttl * 1000);
    // The same link as the server would have signed it ttl + 1 seconds ago: expired now.
    const old = signMediaUrl(t.app.config, link.mediaAssetId, ttl, Date.now() - (ttl + 1) * 1000);
    const late = await fetchUrl(old.url);
    expect(late.status).toBe(403);
    expect(((await late.json()) as any).error.message).toContain('expired');
  });
});
