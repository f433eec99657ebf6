// Gift-card products (issue 27, point 5): an entity of type giftCard (isGiftCard), bought without
// stock or shipping; once the order is paid one card per unit is issued (the line's unit price,
// the order's currency) and emailed to the line's recipient or the order email, exactly once
// however often the paid event is dispatched; the cards show on the order line. Refunding or
// cancelling the line revokes unused cards and is refused (422 GIFT_CARD_ALREADY_USED) for spent
// ones. And the expiry sweep: one `expire` entry per expired card, however often it runs.
import { readFileSync, readdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { ORDER_TEST_CONFIG, available, checkout, guestCart, openStore, pay, product, setSettings, setStatus, unique, type Store } from '../orders/helpers.js';

let t: TestApp;
let store: Store;
let giftProduct: string;
let shirt: string;

beforeAll(async () => {
  t = await startTestApp(ORDER_TEST_CONFIG);
  store = await openStore(t);
  // No stock at all: a gift card is issued, not picked.
  giftProduct = await product(store, { type: 'giftCard', price: 2500, stock: 0 });
  shirt = await product(store, { price: 1000, stock: 50 });
  await setSettings(store, 'policies', { refundUndoWindowMinutes: 0 });
});
afterAll(() => t?.close());

const runJobs = async () => {
  const run = await t.request('/api/jobs/run?limit=50', { apiKey: store.admin });
  expect(run.status, run.text).toBe(200);
  return run.body.data;
};
const orderOf = async (id: string) => (await t.request(`/api/orders/${id}`, { apiKey: store.admin })).body.data;
const cardOf = async (id: string) => (await t.request(`/api/gift-cards/${id}`, { apiKey: store.admin })).body.data;

/** Mails (file transport) sent to `to`, oldest first, as { subject, text }. */
function mailsTo(to: string): Array<{ subject: string; text: string }> {
  const dir = `${t.app.config.dataDir}/mail`;
  let files: string[] = [];
  try {
    files = readdirSync(dir).filter((f) => f.endsWith('.json'));
  } catch {
    return [];
  }
  return files
    .sort()
    .map((f) => JSON.parse(readFileSync(`${dir}/${f}`, 'utf8')))
    .filter((m) => m.to.some((a: { address: string }) => a.address === to))
    .map((m) => ({ subject: m.subject, text: m.text }));
}
const codesIn = (mails: Array<{ text: string }>) => mails.map((m) => /Gift card code: ([A-Z0-9-]+)/.exec(m.text)?.[1]);

/** A guest buys `quantity` gift cards (and a shirt) and pays; the issuing job has run. */
async function buy(quantity: number, recipient?: { email: string; name?: string; message?: string }, email = `${unique('buyer')}@example.com`) {
  const cart = await guestCart(store, [{ entityId: shirt }]);
  const added = await t.request(`/api/carts/${cart.id}/items`, {
    apiKey: store.storefront,
    headers: cart.headers,
    body: { entityId: giftProduct, quantity, ...(recipient ? { giftCardRecipient: recipient } : {}) },
  });
  expect(added.status, added.text).toBe(201);
  const res = await checkout(store, cart, { body: { email } });
  expect(res.status, res.text).toBe(201);
  return { order: res.body.data, email };
}

describe('the gift-card product type', () => {
  it('is set by staff at creation or through update, and shows as isGiftCard over REST and GraphQL', async () => {
    const rest = await t.request(`/api/catalog/entities/${giftProduct}`, { apiKey: store.admin });
    expect(rest.body.data).toMatchObject({ type: 'giftCard', isGiftCard: true });
    const plain = await product(store, { price: 500, stock: 0 });
    expect((await t.request(`/api/catalog/entities/${plain}`, { apiKey: store.admin })).body.data.isGiftCard).toBe(false);
    const patched = await t.request(`/api/catalog/entities/${plain}`, { method: 'PATCH', apiKey: store.admin, body: { isGiftCard: true } });
    expect(patched.status, patched.text).toBe(200);
    expect(patched.body.data).toMatchObject({ type: 'giftCard', isGiftCard: true });
    const gql = await t.graphql('query($id: String!) { catalogEntity(idOrSlug: $id) { type isGiftCard } }', { id: plain }, { apiKey: store.admin });
    expect(gql.body.errors).toBeUndefined();
    expect(gql.body.data.catalogEntity).toEqual({ type: 'giftCard', isGiftCard: true });
    const back = await t.graphql('mutation($id: UUID!) { catalogEntityUpdate(id: $id, isGiftCard: false) { type isGiftCard } }', { id: plain }, { apiKey: store.admin });
    expect(back.body.errors).toBeUndefined();
    expect(back.body.data.catalogEntityUpdate).toEqual({ type: 'product', isGiftCard: false });
    // A storefront may not toggle it.
    const denied = await t.request(`/api/catalog/entities/${plain}`, { method: 'PATCH', apiKey: store.storefront, body: { isGiftCard: true } });
    expect(denied.status).toBe(403);
  });

  it('a recipient is taken only on a gift-card line (422 on any other item)', async () => {
    const cart = await guestCart(store);
    const bad = await t.request(`/api/carts/${cart.id}/items`, {
      apiKey: store.storefront,
      headers: cart.headers,
      body: { entityId: shirt, quantity: 1, giftCardRecipient: { email: 'x@example.com' } },
    });
    expect(bad.status, bad.text).toBe(422);
    expect(bad.body.error.details[0].field).toBe('giftCardRecipient');
    const badEmail = await t.request(`/api/carts/${cart.id}/items`, {
      apiKey: store.storefront,
      headers: cart.headers,
      body: { entityId: giftProduct, quantity: 1, giftCardRecipient: { email: 'not-an-email' } },
    });
    expect(badEmail.status, badEmail.text).toBe(422);
    const gql = await t.graphql(
      'mutation($id: UUID!, $e: UUID!) { cartItemAdd(id: $id, entityId: $e, quantity: 1, giftCardRecipient: { email: "r@example.com", name: "Rae" }) { items { giftCardRecipient { email name message } } } }',
      { id: cart.id, e: giftProduct },
      { apiKey: store.storefront, headers: cart.headers },
    );
    expect(gql.body.errors).toBeUndefined();
    expect(gql.body.data.cartItemAdd.items[0].giftCardRecipient).toEqual({ email: 'r@example.com', name: 'Rae', message: null });
  });
});

describe('buying gift cards', () => {
  it('issues one card per unit once paid, emailed to the recipient exactly once, even when the paid event is dispatched twice', async () => {
    const recipient = { email: `${unique('friend')}@example.com`, name: 'Grace', message: 'Happy birthday!' };
    const { order } = await buy(2, recipient);
    // No stock reserved and no shipping for the gift-card line (the shirt alone is shipped and reserved).
    const giftLine = order.lineItems.find((l: any) => l.entityId === giftProduct);
    expect(giftLine).toMatchObject({ quantity: 2, unitPrice: 2500, giftCardRecipient: recipient, giftCards: [] });
    expect(await available(store, giftProduct)).toMatchObject({ reserved: 0, onHand: 0 });
    expect(await available(store, shirt)).toMatchObject({ reserved: expect.any(Number) });

    // Not paid yet: nothing issued.
    await runJobs();
    expect((await orderOf(order.id)).lineItems.find((l: any) => l.entityId === giftProduct).giftCards).toEqual([]);
    expect(mailsTo(recipient.email)).toHaveLength(0);

    await pay(store, order);
    await runJobs();
    // The paid event dispatched again (at-least-once delivery): the job runs again and issues nothing.
    const redispatched = await t.app.db.domainEvent.updateMany({
      where: { organizationId: order.organizationId ?? undefined, type: 'orders.statusChange' },
      data: { dispatchedAt: null },
    });
    expect(redispatched.count).toBeGreaterThan(0);
    const again = await runJobs();
    expect(again.dispatchedEvents).toBeGreaterThan(0);
    // Jobs of one order run one at a time: a second batch takes the one the first left for later.
    await runJobs();
    const jobs = await t.app.db.job.findMany({ where: { taskSlug: 'gift-cards/issue-purchased', input: { path: ['orderId'], equals: order.id } } });
    expect(jobs.length).toBeGreaterThanOrEqual(2);
    expect(jobs.map((j) => [j.status, j.error])).toEqual(jobs.map(() => ['succeeded', null]));

    const after = await orderOf(order.id);
    const cards = after.lineItems.find((l: any) => l.entityId === giftProduct).giftCards;
    expect(cards).toHaveLength(2);
    for (const card of cards) {
      expect(card).toMatchObject({ balance: 2500, initialBalance: 2500, currency: 'USD', state: 'active', recipientEmail: recipient.email, recipientName: 'Grace' });
      expect(card).toMatchObject({ sourceOrderId: order.id, sourceOrderLineId: giftLine.lineItemId });
      expect(card.code).toBeUndefined();
    }
    const mails = mailsTo(recipient.email);
    expect(mails).toHaveLength(2);
    expect(mails[0]!.text).toContain('Happy birthday!');
    const codes = codesIn(mails);
    expect(new Set(codes).size).toBe(2);
    // The emailed codes are the cards' codes.
    for (const code of codes) {
      const lookup = await t.request('/api/gift-cards/lookup', { apiKey: store.storefront, body: { code } });
      expect(lookup.status, lookup.text).toBe(200);
      expect(lookup.body.data).toMatchObject({ balance: 2500, usable: true });
      expect(cards.map((c: any) => c.last4)).toContain(lookup.body.data.last4);
    }

    // GraphQL shows the same on the order line.
    const gql = await t.graphql(
      'query($id: String!) { order(idOrNumber: $id) { lineItems { entityType giftCardRecipient { email } giftCards { maskedCode balance state } } } }',
      { id: order.id },
      { apiKey: store.admin },
    );
    expect(gql.body.errors).toBeUndefined();
    const gqlLine = gql.body.data.order.lineItems.find((l: any) => l.entityType === 'giftCard');
    expect(gqlLine.giftCardRecipient).toEqual({ email: recipient.email });
    expect(gqlLine.giftCards).toHaveLength(2);
  });

  it('without a recipient the cards go to the order email', async () => {
    const { order, email } = await buy(1);
    await pay(store, order);
    await runJobs();
    const cards = (await orderOf(order.id)).lineItems.find((l: any) => l.entityId === giftProduct).giftCards;
    expect(cards).toHaveLength(1);
    expect(cards[0].recipientEmail).toBe(email);
    expect(codesIn(mailsTo(email))).toHaveLength(1);
  });
});

describe('refunding and cancelling a gift-card line', () => {
  it('a refund revokes unused cards; a spent card refuses the refund with 422 and nothing changes', async () => {
    const { order, email } = await buy(2);
    await pay(store, order);
    await runJobs();
    const line = (await orderOf(order.id)).lineItems.find((l: any) => l.entityId === giftProduct);
    const [first, second] = codesIn(mailsTo(email));

    // Spend part of the first card on another order.
    const cart = await guestCart(store, [{ entityId: shirt }]);
    const spent = await checkout(store, cart, { body: { giftCardCodes: [first] } });
    expect(spent.status, spent.text).toBe(201);

    // One unit refunded: the unused card (the second) is taken back.
    const refund = await t.request(`/api/orders/${order.id}/refunds`, { apiKey: store.admin, body: { lines: [{ lineItemId: line.lineItemId, quantity: 1 }] } });
    expect(refund.status, refund.text).toBe(201);
    const cards = (await orderOf(order.id)).lineItems.find((l: any) => l.entityId === giftProduct).giftCards;
    const revoked = cards.filter((c: any) => c.revokedAt !== null);
    expect(revoked).toHaveLength(1);
    expect(revoked[0]).toMatchObject({ state: 'disabled', balance: 0 });
    const lookup = await t.request('/api/gift-cards/lookup', { apiKey: store.storefront, body: { code: second } });
    expect(lookup.body.data).toMatchObject({ state: 'disabled', usable: false });
    const ledger = (await cardOf(revoked[0].id)).entries;
    expect(ledger.map((e: any) => [e.kind, e.amount])).toEqual([
      ['issue', 2500],
      ['adjust', -2500],
    ]);

    // The other unit's card was spent: its refund is refused and nothing moves.
    const before = await orderOf(order.id);
    const refused = await t.request(`/api/orders/${order.id}/refunds`, { apiKey: store.admin, body: { lines: [{ lineItemId: line.lineItemId, quantity: 1 }] } });
    expect(refused.status, refused.text).toBe(422);
    expect(refused.body.error.code).toBe('VALIDATION_FAILED');
    expect(refused.body.error.details[0].reason).toBe('GIFT_CARD_ALREADY_USED');
    const unchanged = await orderOf(order.id);
    expect(unchanged.refundedAmount).toBe(before.refundedAmount);
    expect(unchanged.lineItems.find((l: any) => l.entityId === giftProduct).refundedQuantity).toBe(1);
    const stillLive = unchanged.lineItems.find((l: any) => l.entityId === giftProduct).giftCards.filter((c: any) => c.revokedAt === null);
    expect(stillLive).toHaveLength(1);
    expect(stillLive[0].balance).toBeLessThan(2500);

    // GraphQL says the same.
    const gql = await t.graphql(
      'mutation($id: String!, $line: UUID!) { orderRefundCreate(id: $id, lines: [{ lineItemId: $line, quantity: 1 }]) { id } }',
      { id: order.id, line: line.lineItemId },
      { apiKey: store.admin },
    );
    expect(gql.body.errors?.[0]?.extensions?.code).toBe('VALIDATION_FAILED');
    expect(gql.body.errors?.[0]?.extensions?.details?.[0]?.reason).toBe('GIFT_CARD_ALREADY_USED');
  });

  it('cancelling a paid order revokes its unused cards; a spent card refuses the cancel', async () => {
    const { order } = await buy(1);
    await pay(store, order);
    await runJobs();
    const cancelled = await setStatus(store, order.id, 'cancelled', 'changed my mind');
    expect(cancelled.status, cancelled.text).toBe(200);
    const cards = (await orderOf(order.id)).lineItems.find((l: any) => l.entityId === giftProduct).giftCards;
    expect(cards).toHaveLength(1);
    expect(cards[0]).toMatchObject({ state: 'disabled', balance: 0, revokedAt: expect.any(String) });

    const spentBuy = await buy(1);
    await pay(store, spentBuy.order);
    await runJobs();
    const [code] = codesIn(mailsTo(spentBuy.email));
    const cart = await guestCart(store, [{ entityId: shirt }]);
    expect((await checkout(store, cart, { body: { giftCardCodes: [code] } })).status).toBe(201);
    const refused = await setStatus(store, spentBuy.order.id, 'cancelled');
    expect(refused.status, refused.text).toBe(422);
    expect(refused.body.error.details[0].reason).toBe('GIFT_CARD_ALREADY_USED');
    expect((await orderOf(spentBuy.order.id)).status).toBe('confirmed');
  });
});

describe('expiry', () => {
  it('a card past its expiry gets exactly one expire entry however often the sweep runs; its ledger sums to zero', async () => {
    const issue = async (initialBalance: number) => {
      const res = await t.request('/api/gift-cards', {
        apiKey: store.admin,
        body: { initialBalance, currency: 'USD', expiresAt: new Date(Date.now() + 3_600_000).toISOString() },
      });
      expect(res.status, res.text).toBe(201);
      return res.body.data;
    };
    const a = await issue(1500);
    const b = await issue(900);
    const spend = await guestCart(store, [{ entityId: shirt }]);
    expect((await checkout(store, spend, { body: { giftCardCodes: [a.code] } })).status).toBe(201);
    // One sweep per card, due at its expiry.
    const sweeps = await t.app.db.job.findMany({ where: { taskSlug: 'gift-cards/expire', status: 'pending' } });
    expect(sweeps.length).toBeGreaterThanOrEqual(2);
    for (const job of sweeps) expect(job.waitUntil!.getTime()).toBeGreaterThan(Date.now() + 59 * 60_000);
    await runJobs();
    expect((await cardOf(b.id)).entries.map((e: any) => e.kind)).toEqual(['issue']);

    // Time travel: both cards expired, both sweeps due.
    await t.app.db.giftCard.updateMany({ where: { id: { in: [a.id, b.id] } }, data: { expiresAt: new Date(Date.now() - 1000) } });
    await t.app.db.job.updateMany({ where: { id: { in: sweeps.map((j) => j.id) } }, data: { waitUntil: new Date(Date.now() - 1000) } });
    await runJobs();
    await runJobs();
    const done = await t.app.db.job.findMany({ where: { id: { in: sweeps.map((j) => j.id) } } });
    expect(done.every((j) => j.status === 'succeeded')).toBe(true);
    expect(done.map((j) => (j.output as { expired: number }).expired).reduce((s, n) => s + n, 0)).toBe(2);

    for (const card of [a, b]) {
      const got = await cardOf(card.id);
      expect(got).toMatchObject({ balance: 0, state: 'expired' });
      expect(got.entries.filter((e: any) => e.kind === 'expire')).toHaveLength(1);
      expect(got.entries.reduce((s: number, e: any) => s + e.amount, 0)).toBe(0);
      const lookup = await t.request('/api/gift-cards/lookup', { apiKey: store.storefront, body: { code: card.code } });
      expect(lookup.body.data).toMatchObject({ state: 'expired', usable: false, balance: 0 });
    }
    // Redemption still refuses it as expired.
    const cart = await guestCart(store, [{ entityId: shirt }]);
    const refused = await checkout(store, cart, { body: { giftCardCodes: [b.code] } });
    expect(refused.status).toBe(422);
    expect(refused.body.error.details.details[0].reason).toBe('GIFT_CARD_EXPIRED');
  });
});
