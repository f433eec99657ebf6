// Gift-card product lines added through a draft order or an order edit behave as at checkout
// (issue 27): no stock is reserved (the product has none at all here, so a reservation would be a
// 409), an optional giftCardRecipient (422 on any other line) is stored on the order line, and the
// cards are issued once the order is paid — by the draft's completion and payment, the payment
// link's checkout, or the payment of an edited order — exactly once per unit however often the
// paid events are dispatched. A gift-card line removed before payment issues nothing, and an edit
// cannot lower a line whose cards were issued.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { ADDRESS, ORDER_TEST_CONFIG, available, openStore, pay, placeOrder, product, unique, type Store } from '../orders/helpers.js';

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
});
afterAll(() => t?.close());

const runJobs = async () => {
  const run = await t.request('/api/jobs/run?limit=50', { apiKey: store.admin });
  expect(run.status, run.text).toBe(200);
  return run.body.data;
};
const orderOf = async (id: string) => (await t.request(`/api/orders/${id}`, { apiKey: store.admin })).body.data;
const giftLineOf = (order: any) => order.lineItems.find((l: any) => l.entityId === giftProduct);
async function cardsOf(orderId: string) {
  return t.app.db.giftCard.findMany({ where: { sourceOrderId: orderId }, orderBy: { createdAt: 'asc' } });
}
/** The paid events dispatched again (at-least-once delivery), and every job run until none is left. */
async function redispatchAndRun(orderId: string, hasGiftLines = true) {
  await t.app.db.domainEvent.updateMany({ where: { type: { in: ['orders.statusChange', 'payments.update', 'orders.edit'] } }, data: { dispatchedAt: null } });
  const where = { taskSlug: 'gift-cards/issue-purchased', input: { path: ['orderId'], equals: orderId } };
  // Jobs of one order run one at a time: each batch may leave one for the next.
  for (let batch = 0; batch < 10 && (batch < 2 || (await t.app.db.job.count({ where: { ...where, status: { not: 'succeeded' } } })) > 0); batch += 1) await runJobs();
  const jobs = await t.app.db.job.findMany({ where });
  // An order without a gift-card line is never enqueued.
  expect(jobs.length > 0).toBe(hasGiftLines);
  expect(jobs.map((j) => [j.status, j.error])).toEqual(jobs.map(() => ['succeeded', null]));
}

function draft(body: Record<string, unknown>) {
  return t.request('/api/draft-orders', { apiKey: store.admin, body: { currency: 'USD', shippingAddress: ADDRESS, ...body } });
}

describe('draft orders with gift-card lines', () => {
  it('REST: a recipient only on a gift-card line; completing reserves no gift-card stock, stores the recipient, and issues the cards once paid, once', async () => {
    const recipient = { email: `${unique('friend')}@example.com`, name: 'Grace', message: 'Congratulations' };
    const refused = await draft({ email: 'buyer@example.com', lines: [{ entityId: shirt, quantity: 1, giftCardRecipient: recipient }] });
    expect(refused.status, refused.text).toBe(422);
    expect(refused.body.error.details[0].field).toBe('lines.0.giftCardRecipient');

    const created = await draft({
      email: `${unique('buyer')}@example.com`,
      lines: [
        { entityId: shirt, quantity: 1 },
        { entityId: giftProduct, quantity: 2, giftCardRecipient: recipient },
      ],
    });
    expect(created.status, created.text).toBe(201);
    expect(created.body.data.lines[1]).toMatchObject({ entityId: giftProduct, quantity: 2, giftCardRecipient: recipient });
    const shirtBefore = await available(store, shirt);

    const done = await t.request(`/api/draft-orders/${created.body.data.id}/complete`, { apiKey: store.admin, body: { paymentMethodId: 'pm_card_visa' } });
    expect(done.status, done.text).toBe(201);
    const order = done.body.data;
    // The gift-card line reserved nothing (it has no stock: a reservation would have been 409); the shirt did.
    expect(await available(store, giftProduct)).toMatchObject({ onHand: 0, reserved: 0 });
    expect((await available(store, shirt)).reserved).toBe(shirtBefore.reserved + 1);
    expect(giftLineOf(order)).toMatchObject({ quantity: 2, unitPrice: 2500, giftCardRecipient: recipient });
    const row = await t.app.db.orderLine.findFirstOrThrow({ where: { orderId: order.id, entityId: giftProduct } });
    expect(row.reservations).toEqual([]);

    // Not paid: nothing issued.
    await runJobs();
    expect(await cardsOf(order.id)).toEqual([]);

    await pay(store, order);
    await runJobs();
    await redispatchAndRun(order.id);
    const cards = await cardsOf(order.id);
    expect(cards.map((c) => [c.initialBalance, c.currency, c.recipientEmail, c.sourceOrderLineId])).toEqual([
      [2500n, 'USD', recipient.email, row.id],
      [2500n, 'USD', recipient.email, row.id],
    ]);
  });

  it('GraphQL: a draft sent as a payment link and paid through it issues its card once, to the order email without a recipient', async () => {
    const email = `${unique('linkbuyer')}@example.com`;
    const created = await t.graphql(
      `mutation($lines: [DraftOrderLineInput!]!, $address: AddressInput) {
        draftOrderCreate(currency: "USD", email: "${email}", lines: $lines, shippingAddress: $address) { id lines { entityId giftCardRecipient { email } } }
      }`,
      { lines: [{ entityId: giftProduct, quantity: 1 }], address: ADDRESS },
      { apiKey: store.admin },
    );
    expect(created.body.errors).toBeUndefined();
    const draftId = created.body.data.draftOrderCreate.id;
    expect(created.body.data.draftOrderCreate.lines).toEqual([{ entityId: giftProduct, giftCardRecipient: null }]);
    const sent = await t.request(`/api/draft-orders/${draftId}/send`, { apiKey: store.admin, body: {} });
    expect(sent.status, sent.text).toBe(200);
    const row = await t.app.db.draftOrder.findUniqueOrThrow({ where: { id: draftId } });
    expect(row.status).toBe('sent');
    // The link token is only in the mail; the link checkout completes the draft as staff's completion does.
    const mailDir = `${t.app.config.dataDir}/mail`;
    const { readdirSync, readFileSync } = await import('node:fs');
    const mail = readdirSync(mailDir)
      .sort()
      .map((f) => JSON.parse(readFileSync(`${mailDir}/${f}`, 'utf8')))
      .filter((m) => JSON.stringify(m.to).includes(email))
      .at(-1);
    const token = new URL(/(https?:\/\/\S+)/.exec(mail.text)![1]!).pathname.split('/').at(-1);
    const paid = await t.request(`/api/draft-order-links/${token}/checkout`, { body: { paymentMethodId: 'pm_card_visa' } });
    expect(paid.status, paid.text).toBe(201);
    const order = paid.body.data.order;
    expect(await available(store, giftProduct)).toMatchObject({ onHand: 0, reserved: 0 });
    await runJobs();
    expect(await cardsOf(order.id)).toEqual([]);
    await pay(store, order);
    await runJobs();
    await redispatchAndRun(order.id);
    const cards = await cardsOf(order.id);
    expect(cards.map((c) => [c.initialBalance, c.currency, c.recipientEmail])).toEqual([[2500n, 'USD', email]]);
  });
});

describe('order edits adding gift-card lines', () => {
  function edit(orderId: string, body: Record<string, unknown>) {
    return t.request(`/api/orders/${orderId}/edits`, { apiKey: store.admin, body });
  }
  async function confirm(orderId: string, editId: string) {
    const res = await t.request(`/api/orders/${orderId}/edits/${editId}/confirm`, { method: 'POST', apiKey: store.admin });
    expect(res.status, res.text).toBe(200);
    return res.body.data;
  }

  it('REST: the added line reserves nothing and keeps its recipient; its card is issued once the edited order is paid, once; a lowered issued line is 409', async () => {
    const order = await placeOrder(store, [{ entityId: shirt, quantity: 1 }]);
    const recipient = { email: `${unique('editfriend')}@example.com`, name: 'Ada' };
    const refused = await edit(order.id, { addLines: [{ entityId: shirt, quantity: 1, giftCardRecipient: recipient }] });
    expect(refused.status, refused.text).toBe(422);
    expect(refused.body.error.details[0].field).toBe('addLines.0.giftCardRecipient');

    const created = await edit(order.id, { addLines: [{ entityId: giftProduct, quantity: 1, giftCardRecipient: recipient }] });
    expect(created.status, created.text).toBe(201);
    const confirmed = await confirm(order.id, created.body.data.id);
    // The pending order's open payment no longer fit: a new one for the edited total.
    expect(confirmed.paymentAction).toBe('reissued_intent');
    expect(await available(store, giftProduct)).toMatchObject({ onHand: 0, reserved: 0 });
    const edited = await orderOf(order.id);
    expect(giftLineOf(edited)).toMatchObject({ quantity: 1, unitPrice: 2500, giftCardRecipient: recipient });
    expect(edited.grandTotal).toBeGreaterThan(order.grandTotal);

    await runJobs();
    expect(await cardsOf(order.id)).toEqual([]);
    await pay(store, edited);
    await runJobs();
    await redispatchAndRun(order.id);
    const cards = await cardsOf(order.id);
    expect(cards.map((c) => [c.initialBalance, c.currency, c.recipientEmail, c.sourceOrderLineId])).toEqual([[2500n, 'USD', recipient.email, giftLineOf(edited).lineItemId]]);

    // Issued: an edit may not take the line back (the card stays spendable); a refund revokes it instead.
    const lowered = await edit(order.id, { removeLineIds: [giftLineOf(edited).lineItemId] });
    expect(lowered.status, lowered.text).toBe(409);
    expect(lowered.body.error.details).toMatchObject({ reason: 'GIFT_CARDS_ISSUED' });
  });

  it('GraphQL: a gift-card line added and removed again before payment issues nothing', async () => {
    const order = await placeOrder(store, [{ entityId: shirt, quantity: 1 }]);
    const added = await t.graphql(
      `mutation($id: String!, $add: [OrderEditAddLineInput!]) { orderEditCreate(id: $id, addLines: $add) { id after { grandTotal } } }`,
      { id: order.id, add: [{ entityId: giftProduct, quantity: 2, giftCardRecipient: { email: 'someone@example.com' } }] },
      { apiKey: store.admin },
    );
    expect(added.body.errors).toBeUndefined();
    const first = await t.graphql(
      'mutation($id: String!, $editId: UUID!) { orderEditConfirm(id: $id, editId: $editId) { status } }',
      { id: order.id, editId: added.body.data.orderEditCreate.id },
      { apiKey: store.admin },
    );
    expect(first.body.errors).toBeUndefined();
    const withGift = await orderOf(order.id);
    expect(giftLineOf(withGift)).toMatchObject({ quantity: 2, giftCardRecipient: { email: 'someone@example.com' } });
    const reservedBefore = (await available(store, shirt)).reserved;

    const removed = await edit(order.id, { removeLineIds: [giftLineOf(withGift).lineItemId] });
    expect(removed.status, removed.text).toBe(201);
    await confirm(order.id, removed.body.data.id);
    // Nothing was held for it, so nothing is released either.
    expect((await available(store, shirt)).reserved).toBe(reservedBefore);
    expect(await available(store, giftProduct)).toMatchObject({ onHand: 0, reserved: 0 });
    const final = await orderOf(order.id);
    expect(giftLineOf(final)).toBeUndefined();
    await pay(store, final);
    await redispatchAndRun(order.id, false);
    expect(await cardsOf(order.id)).toEqual([]);
  });
});
