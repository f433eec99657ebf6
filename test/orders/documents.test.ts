// Invoice (PDF and HTML), receipt and the invoice email.
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { ORDER_TEST_CONFIG, checkoutBody, openStore, pay, placeOrder, product, setSettings, setStatus, type Store } from './helpers.js';

let t: TestApp;
let store: Store;
let productId: string;

beforeAll(async () => {
  t = await startTestApp(ORDER_TEST_CONFIG);
  store = await openStore(t);
  productId = await product(store, { price: 1250, stock: 100, title: 'Mug <b>"Deluxe"</b> & co' });
  await setSettings(store, 'branding', {
    storeName: 'Acme <script>alert(1)</script> Store',
    legalName: 'Acme Goods Ltd',
    email: 'hello@acme.example',
    taxId: 'GB123456789',
    address: { line1: '1 Market St', city: 'London', postalCode: 'EC1A 1AA', country: 'GB' },
    receiptFooter: 'Thanks & see you soon',
    primaryColor: '#0055aa',
  });
});
afterAll(() => t?.close());

async function binary(path: string, apiKey = store.admin): Promise<{ status: number; type: string | null; body: Buffer; headers: Headers }> {
  const response = await fetch(`${t.url}${path}`, { headers: { 'x-api-key': apiKey } });
  return { status: response.status, type: response.headers.get('content-type'), body: Buffer.from(await response.arrayBuffer()), headers: response.headers };
}

describe('invoice.pdf', () => {
  it('is a real PDF with a sequential invoice number, stable per order', async () => {
    const first = await pay(store, await placeOrder(store, [{ entityId: productId, quantity: 2 }]));
    const second = await placeOrder(store, [{ entityId: productId }]);
    const pdf = await binary(`/api/orders/${first.id}/invoice.pdf`);
    expect(pdf.status).toBe(200);
    expect(pdf.type).toBe('application/pdf');
    expect(pdf.body.subarray(0, 5).toString()).toBe('%PDF-');
    expect(pdf.body.subarray(-6).toString()).toContain('%%EOF');
    expect(pdf.headers.get('x-request-id')).toBeTruthy();

    const year = new Date().getUTCFullYear();
    const firstNumber = (await t.request(`/api/orders/${first.id}`, { apiKey: store.admin })).body.data.invoiceNumber;
    expect(firstNumber).toMatch(new RegExp(`^INV-${year}-\\d{6}$`));
    expect(pdf.headers.get('content-disposition')).toContain(`${firstNumber}.pdf`);
    // The document's metadata names the invoice (PDF info strings are not compressed).
    expect(pdf.body.toString('latin1')).toContain(firstNumber);

    await binary(`/api/orders/${second.number}/invoice.pdf`);
    const secondNumber = (await t.request(`/api/orders/${second.id}`, { apiKey: store.admin })).body.data.invoiceNumber;
    expect(Number(secondNumber.slice(-6))).toBe(Number(firstNumber.slice(-6)) + 1);
    await binary(`/api/orders/${first.id}/invoice.pdf`);
    expect((await t.request(`/api/orders/${first.id}`, { apiKey: store.admin })).body.data.invoiceNumber).toBe(firstNumber);
  });

  it('issues one number when the first invoices are requested concurrently', async () => {
    const order = await placeOrder(store, [{ entityId: productId }]);
    const results = await Promise.all(Array.from({ length: 5 }, () => binary(`/api/orders/${order.id}/invoice.pdf`)));
    expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    const number = (await t.request(`/api/orders/${order.id}`, { apiKey: store.admin })).body.data.invoiceNumber;
    expect(await t.app.db.order.count({ where: { invoiceNumber: number } })).toBe(1);
  });

  it('has no invoice for a cancelled order never invoiced (409)', async () => {
    const order = await placeOrder(store, [{ entityId: productId }]);
    await setStatus(store, order.id, 'cancelled');
    expect((await binary(`/api/orders/${order.id}/invoice.pdf`)).status).toBe(409);
  });

  it('is the GraphQL orderInvoicePdf field, base64', async () => {
    const order = await placeOrder(store, [{ entityId: productId }]);
    const res = await t.graphql('query($id: String!) { orderInvoicePdf(id: $id) { filename contentType encoding content } }', { id: order.id }, { apiKey: store.admin });
    expect(res.body.errors).toBeUndefined();
    const doc = res.body.data.orderInvoicePdf;
    expect(doc).toMatchObject({ contentType: 'application/pdf', encoding: 'base64' });
    expect(Buffer.from(doc.content, 'base64').subarray(0, 5).toString()).toBe('%PDF-');
  });
});

describe('invoice.html and receipt.html', () => {
  it('renders escaped, printable HTML with the store identity, lines, taxes and totals', async () => {
    const order = await placeOrder(store, [{ entityId: productId, quantity: 2 }]);
    const res = await t.request(`/api/orders/${order.id}/invoice.html`, { apiKey: store.admin });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/html');
    expect(res.headers.get('content-security-policy')).toContain("default-src 'none'");
    const html = res.text;
    expect(html).toContain('<!doctype html>');
    expect(html).toContain('@media print');
    expect(html).not.toContain('<script>alert(1)</script>');
    expect(html).toContain('Acme &lt;script&gt;alert(1)&lt;/script&gt; Store');
    expect(html).toContain('Mug &lt;b&gt;&quot;Deluxe&quot;&lt;/b&gt; &amp; co');
    expect(html).toContain('GB123456789');
    expect(html).toContain('$25.00');
    expect(html).toContain(order.number);
    const number = (await t.request(`/api/orders/${order.id}`, { apiKey: store.admin })).body.data.invoiceNumber;
    expect(html).toContain(number);

    const receipt = await t.request(`/api/orders/${order.number}/receipt.html`, { apiKey: store.admin });
    expect(receipt.status).toBe(200);
    expect(receipt.text).toContain('Receipt');
    expect(receipt.text).toContain(order.number);
    expect(receipt.text).toContain('Thanks &amp; see you soon');
    expect(receipt.text).not.toContain('<script>alert(1)</script>');
  });

  it('formats money in the currency: JPY has no minor unit', async () => {
    const yen = await product(store, { price: 1500, stock: 5, currency: 'JPY' });
    const cart = await t.request('/api/carts', { apiKey: store.storefront, body: { currency: 'JPY' } });
    const headers = { 'x-cart-token': cart.body.data.cartToken };
    await t.request(`/api/carts/${cart.body.data.id}/items`, { apiKey: store.storefront, headers, body: { entityId: yen, quantity: 1 } });
    const placed = await t.request('/api/checkout', { apiKey: store.storefront, headers, body: checkoutBody({ id: cart.body.data.id }, { currency: 'JPY' }) });
    expect(placed.status, placed.text).toBe(201);
    const html = await t.request(`/api/orders/${placed.body.data.id}/receipt.html`, { apiKey: store.admin });
    expect(html.text).toContain('¥1,500');
  });

  it('lets a customer read their own documents only; anonymous callers get 401', async () => {
    const alice = await t.signIn('customer');
    const cart = await t.request('/api/carts', { bearer: alice.token, body: { currency: 'USD' } });
    await t.request(`/api/carts/${cart.body.data.id}/items`, { bearer: alice.token, body: { entityId: productId, quantity: 1 } });
    const mine = (await t.request('/api/checkout', { bearer: alice.token, body: checkoutBody({ id: cart.body.data.id }) })).body.data;
    const other = await placeOrder(store, [{ entityId: productId }]);
    expect((await t.request(`/api/orders/${mine.id}/receipt.html`, { bearer: alice.token })).status).toBe(200);
    expect((await t.request(`/api/orders/${mine.id}/invoice.html`, { bearer: alice.token })).status).toBe(200);
    const theirs = await t.request(`/api/orders/${other.id}/invoice.html`, { bearer: alice.token });
    expect(theirs.status).toBe(404);
    expect(theirs.text).not.toContain(other.number);
    expect((await t.request(`/api/orders/${other.id}/invoice.pdf`)).status).toBe(401);
    expect((await t.request(`/api/orders/${other.id}/receipt.html`, { apiKey: store.storefront })).status).toBe(403);
  });
});

describe('invoice email', () => {
  it("sends the invoice to the order's customer address only, through the file transport by default", async () => {
    const order = await placeOrder(store, [{ entityId: productId }], { body: { email: 'jane@example.com' } });
    const res = await t.request(`/api/orders/${order.id}/invoice/email`, { method: 'POST', apiKey: store.admin, body: { to: 'attacker@example.com' } });
    expect(res.status, res.text).toBe(200);
    expect(res.body.data).toMatchObject({ sent: true, to: 'jane@example.com', transport: 'file' });
    const files = (await import('node:fs')).readdirSync(`${t.app.config.dataDir}/mail`).filter((f) => f.endsWith('.json'));
    const match = [];
    for (const file of files) {
      const message = JSON.parse(await readFile(`${t.app.config.dataDir}/mail/${file}`, 'utf8'));
      if (message.messageId === res.body.data.messageId) match.push(message);
    }
    expect(match).toHaveLength(1);
    const message = match[0];
    expect(message.to.map((a: { address: string }) => a.address)).toEqual(['jane@example.com']);
    expect(message.cc ?? []).toEqual([]);
    expect(message.bcc ?? []).toEqual([]);
    expect(message.subject).toContain(res.body.data.invoiceNumber);
    expect(message.attachments[0]).toMatchObject({ filename: `${res.body.data.invoiceNumber}.pdf`, contentType: 'application/pdf' });
    expect(message.replyTo[0].address).toBe('hello@acme.example');
  });

  it('refuses an order without a customer address with 422', async () => {
    const cart = await t.request('/api/carts', { apiKey: store.storefront, body: { currency: 'USD' } });
    const headers = { 'x-cart-token': cart.body.data.cartToken };
    await t.request(`/api/carts/${cart.body.data.id}/items`, { apiKey: store.storefront, headers, body: { entityId: productId, quantity: 1 } });
    const placed = await t.request('/api/checkout', { apiKey: store.storefront, headers, body: { ...checkoutBody({ id: cart.body.data.id }), email: undefined } });
    expect(placed.status).toBe(201);
    const res = await t.request(`/api/orders/${placed.body.data.id}/invoice/email`, { method: 'POST', apiKey: store.admin });
    expect(res.status).toBe(422);
  });
});

describe('documents in the API description', () => {
  it('lists the raw routes in /api/doc with their content types', async () => {
    const doc = (await t.request('/api/doc')).body;
    expect(doc.paths['/api/orders/{id}/invoice.pdf'].get.responses['200'].content['application/pdf']).toBeTruthy();
    expect(doc.paths['/api/orders/{id}/invoice.html'].get.responses['200'].content['text/html']).toBeTruthy();
    expect(doc.paths['/api/orders/{id}/receipt.html'].get).toBeTruthy();
    expect(doc.paths['/api/payments/webhook'].post).toBeTruthy();
    for (const path of [
      '/api/carts',
      '/api/carts/{id}',
      '/api/carts/{id}/items',
      '/api/carts/{id}/items/{itemId}',
      '/api/checkout',
      '/api/orders',
      '/api/orders/{id}',
      '/api/orders/{id}/status',
      '/api/orders/{id}/fulfillments',
      '/api/orders/{id}/refunds',
      '/api/orders/{id}/refunds/{refundId}/undo',
      '/api/orders/refunds/cap',
      '/api/orders/{id}/notes',
      '/api/orders/{id}/notes/{noteId}',
      '/api/orders/{id}/timeline',
      '/api/orders/{id}/invoice/email',
    ]) {
      expect(doc.paths[path], path).toBeTruthy();
    }
  });
});
