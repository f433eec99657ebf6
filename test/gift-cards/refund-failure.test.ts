// A refund of a gift-card line takes the unused cards back when it is made (so they cannot be spent
// while their money may be on its way back); when the provider then refuses the refund with nothing
// of it paid out — at settlement, or later by its asynchronous refund.updated event — the cards are
// given back: enabled, balance restored by an `adjust` entry (no entry ever leaves a negative
// balance). A retry takes them back again, and is refused (422 GIFT_CARD_ALREADY_USED, nothing
// changed) if one was spent in between.
import { readFileSync, readdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { ORDER_TEST_CONFIG, checkout, guestCart, openStore, pay, product, sendWebhook, setSettings, unique, type Store } from '../orders/helpers.js';

let t: TestApp;
let store: Store;
let giftProduct: string;
let shirt: string;

beforeAll(async () => {
  t = await startTestApp(ORDER_TEST_CONFIG);
  store = await openStore(t);
  giftProduct = await product(store, { type: 'giftCard', price: 2500, stock: 0 });
  shirt = await product(store, { price: 1000, stock: 50 });
  await setSettings(store, 'policies', { refundUndoWindowMinutes: 0 });
});
afterAll(() => t?.close());

const orderOf = async (id: string) => (await t.request(`/api/orders/${id}`, { apiKey: store.admin })).body.data;
const cardOf = async (id: string) => (await t.request(`/api/gift-cards/${id}`, { apiKey: store.admin })).body.data;

function codeMailedTo(to: string): string {
  const dir = `${t.app.config.dataDir}/mail`;
  const mails = readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .map((f) => JSON.parse(readFileSync(`${dir}/${f}`, 'utf8')))
    .filter((m) => m.to.some((a: { address: string }) => a.address === to));
  const code = /Gift card code: ([A-Z0-9-]+)/.exec(mails[0]?.text ?? '')?.[1];
  expect(code).toBeTruthy();
  return code as string;
}

/** A guest buys one gift card (and a shirt) with `paymentMethodId` and pays; the card is issued. Answers the order, its gift-card line and the card. */
async function bought(paymentMethodId: string) {
  const email = `${unique('buyer')}@example.com`;
  const cart = await guestCart(store, [{ entityId: shirt }]);
  const added = await t.request(`/api/carts/${cart.id}/items`, { apiKey: store.storefront, headers: cart.headers, body: { entityId: giftProduct, quantity: 1 } });
  expect(added.status, added.text).toBe(201);
  const res = await checkout(store, cart, { paymentMethodId, body: { email } });
  expect(res.status, res.text).toBe(201);
  await pay(store, res.body.data);
  const run = await t.request('/api/jobs/run?limit=50', { apiKey: store.admin });
  expect(run.status, run.text).toBe(200);
  const order = await orderOf(res.body.data.id);
  const line = order.lineItems.find((l: any) => l.entityId === giftProduct);
  expect(line.giftCards).toHaveLength(1);
  return { order, line, card: line.giftCards[0], code: codeMailedTo(email) };
}

function expectLive(card: any) {
  expect(card).toMatchObject({ state: 'active', balance: 2500, revokedAt: null });
}

describe('a gift-card refund the provider refuses', () => {
  it('at settlement: the refund fails and the card is live again with its balance; a retry revokes and restores it again (REST and GraphQL)', async () => {
    const { order, line, card, code } = await bought('pm_card_refundFail');
    const res = await t.request(`/api/orders/${order.id}/refunds`, { apiKey: store.admin, body: { lines: [{ lineItemId: line.lineItemId, quantity: 1 }] } });
    expect(res.status, res.text).toBe(201);
    expect(res.body.data).toMatchObject({ status: 'failed', amount: 2500 });
    expectLive(await cardOf(card.id));
    const after = await orderOf(order.id);
    expect(after).toMatchObject({ refundedAmount: 0, paymentStatus: 'paid' });
    expect(after.lineItems.find((l: any) => l.entityId === giftProduct).refundedQuantity).toBe(0);
    const lookup = await t.request('/api/gift-cards/lookup', { apiKey: store.storefront, body: { code } });
    expect(lookup.body.data).toMatchObject({ state: 'active', usable: true, balance: 2500 });

    const gql = await t.graphql(
      'mutation($id: String!, $refundId: UUID!) { orderRefundRetry(id: $id, refundId: $refundId) { status } }',
      { id: order.id, refundId: res.body.data.id },
      { apiKey: store.admin },
    );
    expect(gql.body.errors).toBeUndefined();
    expect(gql.body.data.orderRefundRetry.status).toBe('failed');
    expectLive(await cardOf(card.id));
    const entries = (await cardOf(card.id)).entries;
    expect(entries.map((e: any) => [e.kind, e.amount])).toEqual([
      ['issue', 2500],
      ['adjust', -2500],
      ['adjust', 2500],
      ['adjust', -2500],
      ['adjust', 2500],
    ]);
    for (const e of await t.app.db.giftCardEntry.findMany({ where: { giftCardId: card.id } })) expect(Number(e.balanceAfter)).toBeGreaterThanOrEqual(0);

    // Spent in between: the retry is refused before anything moves.
    const spend = await checkout(store, await guestCart(store, [{ entityId: shirt }]), { body: { giftCardCodes: [code] } });
    expect(spend.status, spend.text).toBe(201);
    const refused = await t.request(`/api/orders/${order.id}/refunds/${res.body.data.id}/retry`, { method: 'POST', apiKey: store.admin });
    expect(refused.status, refused.text).toBe(422);
    expect(refused.body.error.details[0].reason).toBe('GIFT_CARD_ALREADY_USED');
    expect((await t.request(`/api/orders/${order.id}/refunds`, { apiKey: store.admin })).body.data[0].status).toBe('failed');
    expect(await orderOf(order.id)).toMatchObject({ refundedAmount: 0 });
  });

  it("later, by the provider's refund.updated event: the refund fails and the card comes back", async () => {
    const { order, line, card } = await bought('pm_card_visa');
    const res = await t.request(`/api/orders/${order.id}/refunds`, { apiKey: store.admin, body: { lines: [{ lineItemId: line.lineItemId, quantity: 1 }] } });
    expect(res.status, res.text).toBe(201);
    expect(res.body.data.status).toBe('succeeded');
    expect(await cardOf(card.id)).toMatchObject({ state: 'disabled', balance: 0 });
    const event = {
      id: `evt_${unique('rf').replace(/[^a-z0-9]/gi, '')}`,
      object: 'event',
      type: 'charge.refund.updated',
      data: {
        object: {
          id: res.body.data.providerRefundId,
          object: 'refund',
          status: 'failed',
          failure_reason: 'expired_or_canceled_card',
          amount: 2500,
          payment_intent: order.paymentIntentId,
          metadata: { refundId: res.body.data.id, orderId: order.id },
        },
      },
    };
    const hook = await sendWebhook(t, event);
    expect(hook.status, hook.text).toBe(200);
    expect(hook.body.data.outcome).toBe('refund_failed');
    expectLive(await cardOf(card.id));
    const refunds = (await t.request(`/api/orders/${order.id}/refunds`, { apiKey: store.admin })).body.data;
    expect(refunds[0]).toMatchObject({ status: 'failed', failureReason: expect.stringContaining('expired_or_canceled_card') });
    expect(await orderOf(order.id)).toMatchObject({ refundedAmount: 0, paymentStatus: 'paid' });
  });
});
