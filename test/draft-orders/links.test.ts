// Draft payment links (issue 27): POST /draft-orders/:id/send emails a link; the public link page
// shows exactly the draft's lines and prices; paying it completes the draft into an order (stock
// reserved only then, payment started through the provider). The state table's legal and illegal
// moves over REST and GraphQL: re-send replaces the link, an edit kills it (back to open), the link
// works once, expires, and a completed draft refuses every move.
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { race } from '../support/race.js';
import { ADDRESS, ORDER_TEST_CONFIG, available, openStore, pay, product, unique, type Store } from '../orders/helpers.js';

let t: TestApp;
let store: Store;
let dataDir: string;

beforeAll(async () => {
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'commerce-draft-links-'));
  t = await startTestApp({ ...ORDER_TEST_CONFIG, dataDir });
  store = await openStore(t);
});
afterAll(async () => {
  await t?.close();
  await fs.rm(dataDir, { recursive: true, force: true });
});

/** Every mail to `to`, oldest first (the file transport names files by time). */
async function mailsTo(to: string): Promise<Array<{ subject: string; text: string }>> {
  const files = (await fs.readdir(path.join(dataDir, 'mail')).catch(() => [] as string[])).sort();
  const mails = await Promise.all(files.map(async (f) => JSON.parse(await fs.readFile(path.join(dataDir, 'mail', f), 'utf8'))));
  return mails.filter((m) => JSON.stringify(m.to).includes(to));
}
async function lastLink(to: string): Promise<{ url: URL; token: string; text: string }> {
  const mails = await mailsTo(to);
  const text = mails.at(-1)?.text ?? '';
  const match = /(https?:\/\/\S+)/.exec(text);
  if (!match?.[1]) throw new Error(`no link mailed to ${to}`);
  const url = new URL(match[1]);
  return { url, token: url.pathname.split('/').at(-1) ?? '', text };
}

async function sentDraft(options: { stock?: number; email?: string } = {}) {
  const a = await product(store, { price: 1000, stock: options.stock ?? 10 });
  const b = await product(store, { price: 300, stock: 10 });
  const email = options.email ?? `${unique('link')}@example.com`;
  const created = await t.request('/api/draft-orders', {
    apiKey: store.admin,
    body: {
      currency: 'USD',
      email,
      lines: [
        { entityId: a, quantity: 2, unitPrice: 750, priceReason: 'quoted by phone' },
        { entityId: b, quantity: 1 },
      ],
      discount: { amount: 50, reason: 'goodwill' },
      shippingAddress: ADDRESS,
    },
  });
  expect(created.status, created.text).toBe(201);
  const draft = created.body.data;
  const sent = await t.request(`/api/draft-orders/${draft.id}/send`, { apiKey: store.admin, body: {} });
  expect(sent.status, sent.text).toBe(200);
  return { draft: sent.body.data, a, b, email, link: await lastLink(email) };
}

const checkoutLink = (token: string, body: Record<string, unknown> = { paymentMethodId: 'pm_card_visa' }) => t.request(`/api/draft-order-links/${token}/checkout`, { body });

describe('draft payment links', () => {
  it('emails a link that opens exactly the draft lines and prices; paying it completes the draft, reserves stock and starts the payment', async () => {
    const { draft, a, b, email, link } = await sentDraft();
    expect(draft).toMatchObject({ status: 'sent', sentTo: email });
    expect(new Date(draft.linkExpiresAt).getTime()).toBeGreaterThan(Date.now() + 6 * 24 * 3600_000);
    expect(link.url.pathname).toBe(`/api/draft-order-links/${link.token}`);
    expect(link.token.length).toBeGreaterThanOrEqual(43);
    expect(link.text).toContain('2 × ');
    // Only the hash is stored.
    const row = await t.app.db.draftOrder.findUniqueOrThrow({ where: { id: draft.id } });
    expect(row.linkTokenHash).not.toContain(link.token);
    expect(Object.values(row).map(String).join(' ')).not.toContain(link.token);
    expect(row.linkTokenHash).toMatch(/^[0-9a-f]{64}$/);
    // Nothing reserved while sent.
    expect((await available(store, a)).reserved).toBe(0);

    const page = await t.request(link.url.pathname + link.url.search);
    expect(page.status, page.text).toBe(200);
    expect(page.body.data).toMatchObject({ currency: 'USD', subtotal: 1800, discountTotal: 50 });
    expect(page.body.data.lines.map((l: any) => [l.quantity, l.unitPrice])).toEqual([
      [2, 750],
      [1, 300],
    ]);

    const paid = await checkoutLink(link.token);
    expect(paid.status, paid.text).toBe(201);
    const { order, payment } = paid.body.data;
    expect(order).toMatchObject({ status: 'pending', paymentStatus: 'awaiting_payment', subtotal: 1800, discountTotal: 50, customerEmail: email });
    expect(order.grandTotal).toBe(page.body.data.grandTotal);
    expect(order.lineItems.map((l: any) => l.unitPrice)).toEqual([750, 300]);
    expect(payment).toMatchObject({ status: 'pending', provider: 'offline', amount: order.grandTotal, providerReference: order.paymentIntentId });
    expect((await available(store, a)).reserved).toBe(2);
    expect((await available(store, b)).reserved).toBe(1);
    const got = (await t.request(`/api/draft-orders/${draft.id}`, { apiKey: store.admin })).body.data;
    expect(got).toMatchObject({ status: 'completed', orderId: order.id });
    expect(await pay(store, order)).toMatchObject({ status: 'confirmed', paymentStatus: 'paid' });

    // Once: a second visit or payment is 409, and no second order.
    const again = await checkoutLink(link.token);
    expect(again.status, again.text).toBe(409);
    expect(again.body.error.details).toMatchObject({ reason: 'INVALID_TRANSITION', from: 'completed' });
    const used = await t.request(`/api/draft-order-links/${link.token}`);
    expect(used.status, used.text).toBe(404);
    expect(used.body.error.details).toMatchObject({ reason: 'LINK_USED' });
    expect(await t.app.db.order.count({ where: { customerEmail: email } })).toBe(1);
  });

  it('a declined card keeps nothing and the link still works', async () => {
    const { draft, a, link } = await sentDraft();
    const refused = await checkoutLink(link.token, { paymentMethodId: 'pm_card_chargeDeclined' });
    expect(refused.status, refused.text).toBe(422);
    expect((await available(store, a)).reserved).toBe(0);
    expect((await t.request(`/api/draft-orders/${draft.id}`, { apiKey: store.admin })).body.data.status).toBe('sent');
    expect((await checkoutLink(link.token)).status).toBe(201);
  });

  it('re-send replaces the link; an edit kills it and moves the draft back to open', async () => {
    const { draft, email, link: first } = await sentDraft();
    const resent = await t.request(`/api/draft-orders/${draft.id}/send`, { apiKey: store.admin, body: { expiresInDays: 2 } });
    expect(resent.status, resent.text).toBe(200);
    expect(resent.body.data.status).toBe('sent');
    const second = await lastLink(email);
    expect(second.token).not.toBe(first.token);
    expect(await mailsTo(email)).toHaveLength(2);
    const old = await t.request(`/api/draft-order-links/${first.token}`);
    expect(old.status, old.text).toBe(404);
    expect(old.body.error.details).toMatchObject({ reason: 'LINK_UNKNOWN' });
    expect((await checkoutLink(first.token)).status).toBe(404);
    expect((await t.request(`/api/draft-order-links/${second.token}`)).status).toBe(200);

    const edited = await t.request(`/api/draft-orders/${draft.id}`, { method: 'PATCH', apiKey: store.admin, body: { note: 'changed after sending' } });
    expect(edited.status, edited.text).toBe(200);
    expect(edited.body.data).toMatchObject({ status: 'open', linkExpiresAt: null });
    expect((await t.request(`/api/draft-order-links/${second.token}`)).status).toBe(404);
    expect((await checkoutLink(second.token)).status).toBe(404);
    // Sent again after the edit: a third link, which works.
    expect((await t.request(`/api/draft-orders/${draft.id}/send`, { apiKey: store.admin, body: {} })).status).toBe(200);
    expect((await checkoutLink((await lastLink(email)).token)).status).toBe(201);
  });

  it('an expired link is 404 LINK_EXPIRED and opens nothing', async () => {
    const { draft, link } = await sentDraft();
    await t.app.db.draftOrder.update({ where: { id: draft.id }, data: { linkExpiresAt: new Date(Date.now() - 1000) } });
    const page = await t.request(`/api/draft-order-links/${link.token}`);
    expect(page.status, page.text).toBe(404);
    expect(page.body.error.details).toMatchObject({ reason: 'LINK_EXPIRED' });
    expect((await checkoutLink(link.token)).status).toBe(404);
    expect((await t.request(`/api/draft-orders/${draft.id}`, { apiKey: store.admin })).body.data.status).toBe('sent');
  });

  it('unknown tokens are 404; bad input 422; send needs drafts:manage and a priceable draft', async () => {
    expect((await t.request(`/api/draft-order-links/${'x'.repeat(43)}`)).status).toBe(404);
    expect((await t.request('/api/draft-order-links/short')).status).toBe(422);
    const { link } = await sentDraft();
    expect((await checkoutLink(link.token, {})).status).toBe(422);
    const p = await product(store, { price: 500, stock: 10 });
    const noAddress = (await t.request('/api/draft-orders', { apiKey: store.admin, body: { currency: 'USD', email: 'n@example.com', lines: [{ entityId: p, quantity: 1 }] } })).body
      .data;
    const refused = await t.request(`/api/draft-orders/${noAddress.id}/send`, { apiKey: store.admin, body: {} });
    expect(refused.status, refused.text).toBe(422);
    expect(JSON.stringify(refused.body.error)).toContain('shippingAddress');
    expect((await t.request(`/api/draft-orders/${noAddress.id}`, { apiKey: store.admin })).body.data.status).toBe('open');
    expect((await t.request(`/api/draft-orders/${noAddress.id}/send`, { apiKey: store.admin, body: { expiresInDays: 0 } })).status).toBe(422);
    expect((await t.request(`/api/draft-orders/${noAddress.id}/send`, { apiKey: store.storefront, body: {} })).status).toBe(403);
    const customer = await t.signIn('customer');
    expect((await t.request(`/api/draft-orders/${noAddress.id}/send`, { bearer: customer.token, body: {} })).status).toBe(403);
    expect((await t.request('/api/draft-orders/00000000-0000-4000-8000-000000000000/send', { apiKey: store.admin, body: {} })).status).toBe(404);
  });

  it('staff completion of a sent draft uses the link up; every move of a completed draft is 409', async () => {
    const { draft, link } = await sentDraft();
    const done = await t.request(`/api/draft-orders/${draft.id}/complete`, { apiKey: store.admin, body: { paymentPending: true } });
    expect(done.status, done.text).toBe(201);
    expect((await checkoutLink(link.token)).status).toBe(409);
    for (const [method, p, body] of [
      ['POST', `/api/draft-orders/${draft.id}/send`, {}],
      ['PATCH', `/api/draft-orders/${draft.id}`, { note: 'x' }],
      ['DELETE', `/api/draft-orders/${draft.id}`, undefined],
      ['POST', `/api/draft-orders/${draft.id}/complete`, { paymentPending: true }],
    ] as const) {
      const res = await t.request(p, { method, apiKey: store.admin, body });
      expect(res.status, `${method} ${p} ${res.text}`).toBe(409);
      expect(res.body.error.details).toMatchObject({ reason: 'INVALID_TRANSITION', from: 'completed' });
    }
  });

  it('a sent draft can be deleted; its link dies with it', async () => {
    const { draft, link } = await sentDraft();
    expect((await t.request(`/api/draft-orders/${draft.id}`, { method: 'DELETE', apiKey: store.admin })).status).toBe(200);
    expect((await t.request(`/api/draft-order-links/${link.token}`)).status).toBe(404);
  });

  it('two payments of one link racing: exactly one order, stock reserved once', async () => {
    const { a, link } = await sentDraft();
    const answers = await race(
      t.url,
      [1, 2].map(() => ({ path: `/api/draft-order-links/${link.token}/checkout`, body: { paymentMethodId: 'pm_card_visa' } })),
    );
    expect(answers.map((r) => r.status).sort(), answers.map((r) => r.text).join('\n')).toEqual([201, 409]);
    expect((await available(store, a)).reserved).toBe(2);
  });

  it('works over GraphQL: send, the link, paying it, and the illegal moves', async () => {
    const p = await product(store, { price: 400, stock: 5 });
    const email = `${unique('gql')}@example.com`;
    const created = await t.graphql(
      'mutation($l: [DraftOrderLineInput!]!, $a: AddressInput) { draftOrderCreate(currency: "USD", email: "' + email + '", lines: $l, shippingAddress: $a) { id } }',
      { l: [{ entityId: p, quantity: 3, unitPrice: 350, priceReason: 'bulk' }], a: ADDRESS },
      { apiKey: store.admin },
    );
    expect(created.body.errors, created.text).toBeUndefined();
    const id = created.body.data.draftOrderCreate.id;
    const sent = await t.graphql('mutation($id: UUID!) { draftOrderSend(id: $id, expiresInDays: 3) { status sentTo linkExpiresAt } }', { id }, { apiKey: store.admin });
    expect(sent.body.errors, sent.text).toBeUndefined();
    expect(sent.body.data.draftOrderSend).toMatchObject({ status: 'sent', sentTo: email });
    const { token } = await lastLink(email);
    const page = await t.graphql('query($t: String!) { draftOrderLink(token: $t) { subtotal lines { quantity unitPrice } } }', { t: token });
    expect(page.body.errors, page.text).toBeUndefined();
    expect(page.body.data.draftOrderLink).toEqual({ subtotal: 1050, lines: [{ quantity: 3, unitPrice: 350 }] });
    const denied = await t.graphql('mutation($id: UUID!) { draftOrderSend(id: $id) { status } }', { id });
    expect(denied.body.errors?.[0]?.extensions?.code).toMatch(/UNAUTHORIZED|FORBIDDEN/);
    const paid = await t.graphql('mutation($t: String!) { draftOrderLinkCheckout(token: $t, paymentMethodId: "pm_card_visa") { order { subtotal status } payment { status } } }', {
      t: token,
    });
    expect(paid.body.errors, paid.text).toBeUndefined();
    expect(paid.body.data.draftOrderLinkCheckout).toEqual({ order: { subtotal: 1050, status: 'pending' }, payment: { status: 'pending' } });
    const twice = await t.graphql('mutation($t: String!) { draftOrderLinkCheckout(token: $t, paymentMethodId: "pm_card_visa") { order { id } } }', { t: token });
    expect(twice.body.errors?.[0]?.extensions?.code).toBe('CONFLICT');
    const resend = await t.graphql('mutation($id: UUID!) { draftOrderSend(id: $id) { status } }', { id }, { apiKey: store.admin });
    expect(resend.body.errors?.[0]?.extensions?.code).toBe('CONFLICT');
    const listed = await t.graphql('{ draftOrders(status: completed, first: 100) { data { id } } }', {}, { apiKey: store.admin });
    expect(listed.body.errors, listed.text).toBeUndefined();
    expect(listed.body.data.draftOrders.data.map((d: any) => d.id)).toContain(id);
  });
});
