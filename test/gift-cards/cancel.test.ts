// Cancelling an order paid partly with gift cards and store credit (issue 27): the cancel's own
// transaction gives each tender back to its card and account (ledger entries written), marks those
// payment rows refunded and counts them in the order's refundedAmount; the card payment is voided
// when it collected nothing, and left for a refund when it was captured.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { ORDER_TEST_CONFIG, checkoutBody, openStore, product, sendWebhook, setStatus, type Store } from '../orders/helpers.js';

let t: TestApp;
let store: Store;
let entityId: string;

beforeAll(async () => {
  t = await startTestApp(ORDER_TEST_CONFIG);
  store = await openStore(t);
  entityId = await product(store, { price: 1000, stock: 500 });
});
afterAll(() => t?.close());

async function card(initialBalance: number): Promise<any> {
  const res = await t.request('/api/gift-cards', { apiKey: store.admin, body: { initialBalance, currency: 'USD' } });
  expect(res.status, res.text).toBe(201);
  return res.body.data;
}
const cardOf = async (id: string) => (await t.request(`/api/gift-cards/${id}`, { apiKey: store.admin })).body.data;
const creditOf = async (token: string) => (await t.request('/api/me/store-credit', { bearer: token })).body.data;
const paymentsOf = (orderId: string) => t.app.db.payment.findMany({ where: { orderId }, orderBy: { createdAt: 'asc' } });

/** A signed-in customer with 300 of store credit checks out 2 units with a 400 gift card, 300 of credit and a card for the rest. */
async function splitOrder() {
  const alice = await t.signIn('customer');
  await t.request(`/api/customers/${alice.userId}/store-credit`, { apiKey: store.admin, body: { type: 'credit', amount: 300, currency: 'USD', reason: 'goodwill' } });
  const gc = await card(400);
  const cart = await t.request('/api/carts', { bearer: alice.token, body: { currency: 'USD' } });
  await t.request(`/api/carts/${cart.body.data.id}/items`, { bearer: alice.token, body: { entityId, quantity: 2 } });
  const res = await t.request('/api/checkout', {
    bearer: alice.token,
    body: checkoutBody({ id: cart.body.data.id }, { giftCardCodes: [gc.code], storeCreditAmount: 300, paymentMethodId: 'pm_card_visa' }),
  });
  expect(res.status, res.text).toBe(201);
  const order = res.body.data;
  expect((await cardOf(gc.id)).balance).toBe(0);
  expect((await creditOf(alice.token)).balances).toEqual([{ currency: 'USD', balance: 0 }]);
  return { alice, gc, order, rest: order.grandTotal - 700 };
}

function expectTendersBack(payments: Awaited<ReturnType<typeof paymentsOf>>) {
  const tenders = payments.filter((p) => p.provider !== 'offline');
  expect(tenders.map((p) => [p.provider, p.status, Number(p.capturedAmount), Number(p.refundedAmount)]).sort()).toEqual([
    ['gift_card', 'refunded', 400, 400],
    ['store_credit', 'refunded', 300, 300],
  ]);
}

describe('cancelling an order paid with tenders', () => {
  it('a paid order: gift card and store credit come back in the cancel, the captured card payment stays for a refund', async () => {
    const { alice, gc, order, rest } = await splitOrder();
    const event = {
      id: `evt_${order.id.replace(/-/g, '')}`,
      object: 'event',
      type: 'payment_intent.succeeded',
      data: { object: { id: order.paymentIntentId, object: 'payment_intent', amount: rest, amount_received: rest, metadata: { orderId: order.id } } },
    };
    expect((await sendWebhook(t, event)).body.data.outcome).toBe('confirmed');

    const cancelled = await setStatus(store, order.id, 'cancelled', 'customer changed their mind');
    expect(cancelled.status, cancelled.text).toBe(200);
    expect(cancelled.body.data.status).toBe('cancelled');

    const back = await cardOf(gc.id);
    expect(back.balance).toBe(400);
    expect(back.entries.at(-1)).toMatchObject({ kind: 'refund_credit', amount: 400, orderId: order.id });
    const credit = await creditOf(alice.token);
    expect(credit.balances).toEqual([{ currency: 'USD', balance: 300 }]);
    expect(credit.entries[0]).toMatchObject({ amount: 300, sourceType: 'order_cancel', balanceAfter: 300 });

    const payments = await paymentsOf(order.id);
    expectTendersBack(payments);
    expect(payments.filter((p) => p.provider === 'offline').map((p) => [p.status, Number(p.capturedAmount)])).toEqual([['captured', rest]]);
    const after = await t.app.db.order.findUniqueOrThrow({ where: { id: order.id } });
    expect(Number(after.refundedAmount)).toBe(700);

    // A second cancel is refused and gives nothing back twice.
    const again = await setStatus(store, order.id, 'cancelled');
    expect(again.status, again.text).toBe(422);
    expect((await cardOf(gc.id)).balance).toBe(400);
  });

  it('a pending order: the tenders come back and the card authorization is voided', async () => {
    const { alice, gc, order } = await splitOrder();
    const cancelled = await setStatus(store, order.id, 'cancelled');
    expect(cancelled.status, cancelled.text).toBe(200);
    expect((await cardOf(gc.id)).balance).toBe(400);
    expect((await creditOf(alice.token)).balances).toEqual([{ currency: 'USD', balance: 300 }]);
    const payments = await paymentsOf(order.id);
    expectTendersBack(payments);
    expect(payments.filter((p) => p.provider === 'offline').map((p) => p.status)).toEqual(['voided']);
  });
});
