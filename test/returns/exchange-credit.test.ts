// Where a replacement order's exchange credit goes (issue 27): the credit is money the customer paid
// on the original order, so a refund of the replacement (destination original_payment, the default
// and a guest's only one) or its cancellation pays it back through the original order's payment it
// came from — a provider refund against that payment, or a credit back to the gift card that paid
// it — under the refund rules (daily cap, undo window, settlement, retry after a refusal). Money is
// checked over both orders after each move: Σ (captured − refunded) = what the provider captured −
// what it paid back (+ what went back to gift cards), and the original's own records do not move.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { ORDER_TEST_CONFIG, checkout, guestCart, openStore, placeOrder, product, sendWebhook, setSettings, setStatus, type Store } from '../orders/helpers.js';
import { customerOrder, moveReturn, openReturn, restockAll, ship, shippedOrder } from './helpers.js';

let t: TestApp;
let store: Store;

beforeAll(async () => {
  t = await startTestApp(ORDER_TEST_CONFIG);
  store = await openStore(t);
  await setSettings(store, 'policies', { refundUndoWindowMinutes: 0 });
});
afterAll(() => t?.close());

type Call = { kind: string; input: Record<string, any>; result: Record<string, any> };
const log = () => (t.app.services.payments.provider as unknown as { log: Call[] }).log;
const getOrder = async (id: string) => (await t.request(`/api/orders/${id}?include=payments`, { apiKey: store.admin })).body.data;
const getReturn = async (id: string) => (await t.request(`/api/returns/${id}`, { apiKey: store.admin })).body.data;
function refund(orderId: string, lineItemId: string, quantity: number, extra: Record<string, unknown> = {}) {
  return t.request(`/api/orders/${orderId}/refunds`, { apiKey: store.admin, body: { lines: [{ lineItemId, quantity }], ...extra } });
}

/** Exchanges the first unit of `order` for `quantity` of `outbound`; answers the settled return and the replacement. */
async function exchange(order: any, outbound: string, quantity = 1, settle: Record<string, unknown> = {}): Promise<{ ret: any; replacement: any }> {
  const opened = await openReturn(store, order.id, [{ lineItemId: order.lineItems[0].lineItemId, quantity: 1 }], { exchangeLines: [{ entityId: outbound, quantity }] });
  expect(opened.status, opened.text).toBe(201);
  expect((await moveReturn(store, opened.body.data.id, 'approve')).status).toBe(200);
  expect((await moveReturn(store, opened.body.data.id, 'receive', restockAll(opened.body.data, store.warehouseId))).status).toBe(200);
  const settled = await moveReturn(store, opened.body.data.id, 'exchange', settle);
  expect(settled.status, settled.text).toBe(200);
  return { ret: settled.body.data, replacement: await getOrder(settled.body.data.exchangeOrderId) };
}

/**
 * Σ over the orders of (captured − refunded) against the money itself: what the provider captured
 * on their intents less what it refunded, plus what the orders' gift cards paid less what went back to them.
 */
async function expectConserved(orderIds: string[], cardIds: string[] = []) {
  let net = 0;
  const intents = new Set<string>();
  for (const id of orderIds) {
    const o = await getOrder(id);
    net += o.capturedAmount - o.refundedAmount;
    for (const p of o.payments) if (p.provider === 'offline' && p.providerReference) intents.add(p.providerReference);
  }
  const calls = log().filter((c) => intents.has(c.input.providerReference) || intents.has(c.result?.providerReference));
  const captured = (await t.app.db.payment.findMany({ where: { orderId: { in: orderIds }, provider: 'offline' } })).reduce((sum, p) => sum + Number(p.capturedAmount), 0);
  const paidBack = calls.filter((c) => c.kind === 'refund' && c.result.ok).reduce((sum, c) => sum + c.input.amount, 0);
  const entries = await t.app.db.giftCardEntry.findMany({ where: { giftCardId: { in: cardIds }, kind: { in: ['redeem', 'refund_credit'] } } });
  const cards = entries.reduce((sum, e) => sum - Number(e.amount), 0);
  expect(net).toBe(captured - paidBack + cards);
}

describe("a guest's replacement order refunded", () => {
  it("over GraphQL: the exchange credit is paid back through the original order's payment; the original's records stay", async () => {
    const p = await product(store, { price: 1800, stock: 5 });
    const order = await shippedOrder(store, [{ entityId: p }]);
    const { ret, replacement } = await exchange(order, p);
    const original = await getOrder(order.id);
    const gql = await t.graphql(
      'mutation($id: String!, $line: UUID!) { orderRefundCreate(id: $id, lines: [{ lineItemId: $line, quantity: 1 }], destination: original_payment) { amount status destination } }',
      { id: replacement.id, line: replacement.lineItems[0].lineItemId },
      { apiKey: store.admin },
    );
    expect(gql.body.errors).toBeUndefined();
    expect(gql.body.data.orderRefundCreate).toEqual({ amount: ret.exchangeCredit, status: 'succeeded', destination: 'original_payment' });
    const calls = log().filter((c) => c.kind === 'refund' && c.input.metadata?.orderId === replacement.id);
    expect(calls.map((c) => [c.input.paymentId, c.input.providerReference, c.input.amount, c.result.ok])).toEqual([
      [original.payments[0].id, original.payments[0].providerReference, ret.exchangeCredit, true],
    ]);
    const after = await getOrder(replacement.id);
    expect(after).toMatchObject({ paymentStatus: 'refunded', refundedAmount: ret.exchangeCredit });
    expect(after.payments).toMatchObject([{ provider: 'exchange_credit', status: 'refunded', refundedAmount: ret.exchangeCredit }]);
    expect(await getOrder(order.id)).toEqual(original);
    await expectConserved([order.id, replacement.id]);
  });

  it("finds the credit's source by the return it names, not by a refund's reason text a staff refund can copy", async () => {
    const p = await product(store, { price: 1800, stock: 5 });
    const order = await shippedOrder(store, [{ entityId: p, quantity: 2 }]);
    const { ret, replacement } = await exchange(order, p);
    // A staff refund of the other unit whose free-text reason reads like the exchange's own transfer.
    const copied = await refund(order.id, order.lineItems[0].lineItemId, 1, { reason: `exchange ${ret.id} (changed_mind): credit toward the replacement order` });
    expect(copied.status, copied.text).toBe(201);
    const rows = await t.app.db.orderRefund.findMany({ where: { orderId: order.id }, orderBy: { createdAt: 'asc' } });
    expect(rows.map((r) => [Number(r.amount), r.exchangeReturnId])).toEqual([
      [ret.exchangeCredit, ret.id],
      [1800, null],
    ]);
    const back = await refund(replacement.id, replacement.lineItems[0].lineItemId, 1);
    expect(back.status, back.text).toBe(201);
    expect(back.body.data).toMatchObject({ amount: ret.exchangeCredit, status: 'succeeded' });
    const paidBack = log().filter((c) => c.kind === 'refund' && c.input.metadata?.orderId === replacement.id);
    expect(paidBack.map((c) => [c.input.amount, c.result.ok])).toEqual([[ret.exchangeCredit, true]]);
    await expectConserved([order.id, replacement.id]);
  });

  it('inside the undo window nothing is paid; undone, nothing moves; the daily cap refuses it (403) with nothing written', async () => {
    const p = await product(store, { price: 900, stock: 5 });
    const order = await shippedOrder(store, [{ entityId: p }]);
    const { replacement } = await exchange(order, p);
    await setSettings(store, 'policies', { refundUndoWindowMinutes: 15 });
    try {
      const res = await refund(replacement.id, replacement.lineItems[0].lineItemId, 1);
      expect(res.status, res.text).toBe(201);
      expect(res.body.data.status).toBe('pending');
      expect(log().filter((c) => c.kind === 'refund' && c.input.metadata?.orderId === replacement.id)).toEqual([]);
      const undone = await t.request(`/api/orders/${replacement.id}/refunds/${res.body.data.id}/undo`, { method: 'POST', apiKey: store.admin });
      expect(undone.status, undone.text).toBe(200);
      expect(await getOrder(replacement.id)).toMatchObject({ paymentStatus: 'paid', refundedAmount: 0, payments: [{ refundedAmount: 0 }] });

      await setSettings(store, 'policies', { refundUndoWindowMinutes: 0, refundDailyCap: 100 });
      const capped = await refund(replacement.id, replacement.lineItems[0].lineItemId, 1);
      expect(capped.status, capped.text).toBe(403);
      expect(await t.app.db.orderRefund.count({ where: { orderId: replacement.id, status: { not: 'undone' } } })).toBe(0);
      expect(await getOrder(replacement.id)).toMatchObject({ paymentStatus: 'paid', refundedAmount: 0 });
    } finally {
      await setSettings(store, 'policies', { refundUndoWindowMinutes: 0, refundDailyCap: null });
    }
    await expectConserved([order.id, replacement.id]);
  });

  it("a payback the provider refuses fails the refund: the replacement's amounts are as before; a retry asks again under a new key", async () => {
    const p = await product(store, { price: 1100, stock: 5 });
    // Charges succeed on this card, every refund of it fails.
    const order = await ship(store, await placeOrder(store, [{ entityId: p }], { paymentMethodId: 'pm_card_refundFail' }));
    const { replacement } = await exchange(order, p);
    const original = await getOrder(order.id);
    const res = await refund(replacement.id, replacement.lineItems[0].lineItemId, 1);
    expect(res.status, res.text).toBe(201);
    expect(res.body.data).toMatchObject({ status: 'failed', failureReason: expect.stringContaining('refund_failed') });
    const after = await getOrder(replacement.id);
    expect(after).toMatchObject({ paymentStatus: 'paid', refundedAmount: 0, payments: [{ provider: 'exchange_credit', status: 'captured', refundedAmount: 0 }] });
    expect(after.lineItems[0].refundedQuantity).toBe(0);
    expect(await getOrder(order.id)).toEqual(original);
    const retried = await t.request(`/api/orders/${replacement.id}/refunds/${res.body.data.id}/retry`, { method: 'POST', apiKey: store.admin });
    expect(retried.status, retried.text).toBe(200);
    expect(retried.body.data.status).toBe('failed');
    const keys = log()
      .filter((c) => c.kind === 'refund' && c.input.refundId === res.body.data.id)
      .map((c) => c.input.idempotencyKey);
    expect(keys).toEqual([`${original.payments[0].id}:refund:${res.body.data.id}:1`, `${original.payments[0].id}:refund:${res.body.data.id}:2`]);
    expect(await getOrder(replacement.id)).toMatchObject({ paymentStatus: 'paid', refundedAmount: 0 });
    await expectConserved([order.id, replacement.id]);
  });

  it("a payback the provider reports failed later (refund.updated): the replacement's refund fails and its credit is whole again", async () => {
    const p = await product(store, { price: 1400, stock: 5 });
    const order = await shippedOrder(store, [{ entityId: p }]);
    const { replacement } = await exchange(order, p);
    const original = await getOrder(order.id);
    const res = await refund(replacement.id, replacement.lineItems[0].lineItemId, 1);
    expect(res.body.data).toMatchObject({ status: 'succeeded', providerRefundId: expect.any(String) });
    const hook = await sendWebhook(t, {
      id: `evt_${res.body.data.id.replace(/-/g, '')}`,
      object: 'event',
      type: 'charge.refund.updated',
      data: {
        object: {
          id: res.body.data.providerRefundId,
          object: 'refund',
          status: 'failed',
          amount: res.body.data.amount,
          payment_intent: original.paymentIntentId,
          metadata: { refundId: res.body.data.id, orderId: replacement.id },
        },
      },
    });
    expect(hook.status, hook.text).toBe(200);
    expect(hook.body.data.outcome).toBe('refund_failed');
    const after = await getOrder(replacement.id);
    expect(after).toMatchObject({ paymentStatus: 'paid', refundedAmount: 0, payments: [{ provider: 'exchange_credit', status: 'captured', refundedAmount: 0 }] });
    expect(after.lineItems[0].refundedQuantity).toBe(0);
    expect((await t.request(`/api/orders/${replacement.id}/refunds`, { apiKey: store.admin })).body.data[0].status).toBe('failed');
    // The original's money is as it was (its payment's event log gained the event, nothing else).
    const money = (o: any) => [o.refundedAmount, o.paymentStatus, o.payments.map((x: any) => [x.capturedAmount, x.refundedAmount, x.status])];
    expect(money(await getOrder(order.id))).toEqual(money(original));
  });

  it('an original order paid by a gift card: the credit goes back onto that card, no provider call', async () => {
    const p = await product(store, { price: 1300, stock: 5 });
    const card = await t.request('/api/gift-cards', { apiKey: store.admin, body: { initialBalance: 5000, currency: 'USD' } });
    expect(card.status, card.text).toBe(201);
    const cart = await guestCart(store, [{ entityId: p }]);
    const placed = await checkout(store, cart, { body: { giftCardCodes: [card.body.data.code] } });
    expect(placed.status, placed.text).toBe(201);
    expect(placed.body.data).toMatchObject({ status: 'confirmed', paymentStatus: 'paid' });
    expect((await setStatus(store, placed.body.data.id, 'processing')).status).toBe(200);
    expect((await t.request(`/api/orders/${placed.body.data.id}/fulfillments`, { apiKey: store.admin, body: {} })).status).toBe(201);
    const order = await getOrder(placed.body.data.id);
    const { ret, replacement } = await exchange(order, p);
    const balance = Number((await t.app.db.giftCard.findUniqueOrThrow({ where: { id: card.body.data.id } })).balance);
    const res = await refund(replacement.id, replacement.lineItems[0].lineItemId, 1);
    expect(res.status, res.text).toBe(201);
    expect(res.body.data).toMatchObject({ status: 'succeeded', amount: ret.exchangeCredit });
    expect(log().filter((c) => c.kind === 'refund' && c.input.metadata?.orderId === replacement.id)).toEqual([]);
    const after = await t.app.db.giftCard.findUniqueOrThrow({ where: { id: card.body.data.id } });
    expect(Number(after.balance)).toBe(balance + ret.exchangeCredit);
    const last = await t.app.db.giftCardEntry.findFirstOrThrow({ where: { giftCardId: card.body.data.id }, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }] });
    expect(last).toMatchObject({ kind: 'refund_credit', amount: BigInt(ret.exchangeCredit), orderId: order.id });
    expect(await getOrder(replacement.id)).toMatchObject({ paymentStatus: 'refunded', refundedAmount: ret.exchangeCredit });
    await expectConserved([order.id, replacement.id], [card.body.data.id]);
  });
});

describe('cancelling a replacement order', () => {
  it("gives the exchange credit back through the original order's payment; the return stays exchanged, the original's timeline says so", async () => {
    const p = await product(store, { price: 1500, stock: 5 });
    const order = await shippedOrder(store, [{ entityId: p }]);
    const { ret, replacement } = await exchange(order, p);
    expect(replacement).toMatchObject({ status: 'confirmed', paymentStatus: 'paid' });
    const original = await getOrder(order.id);
    const res = await setStatus(store, replacement.id, 'cancelled', 'customer changed their mind');
    expect(res.status, res.text).toBe(200);
    expect(res.body.data.status).toBe('cancelled');
    const refunds = (await t.request(`/api/orders/${replacement.id}/refunds`, { apiKey: store.admin })).body.data;
    expect(refunds).toMatchObject([{ amount: ret.exchangeCredit, status: 'succeeded', destination: 'original_payment', lines: [] }]);
    const calls = log().filter((c) => c.kind === 'refund' && c.input.metadata?.orderId === replacement.id);
    expect(calls.map((c) => [c.input.paymentId, c.input.amount, c.result.ok])).toEqual([[original.payments[0].id, ret.exchangeCredit, true]]);
    expect(await getOrder(replacement.id)).toMatchObject({
      status: 'cancelled',
      paymentStatus: 'refunded',
      refundedAmount: ret.exchangeCredit,
      payments: [{ provider: 'exchange_credit', status: 'refunded', refundedAmount: ret.exchangeCredit }],
    });
    expect((await getReturn(ret.id)).status).toBe('exchanged');
    const timeline = (await t.request(`/api/orders/${order.id}/timeline`, { apiKey: store.admin })).body.data;
    expect(timeline.find((e: any) => e.type === 'note')?.data.body).toContain(`Replacement order ${replacement.number}`);
    const originalNow = await getOrder(order.id);
    expect(originalNow.refundedAmount).toBe(original.refundedAmount);
    expect(originalNow.payments).toEqual(original.payments);
    // Nothing is left to give back: a refund of its lines now is 409.
    expect((await refund(replacement.id, replacement.lineItems[0].lineItemId, 1)).status).toBe(409);
    await expectConserved([order.id, replacement.id]);
  });

  it('over GraphQL, with a difference still unpaid: the difference is voided, the credit paid back (a customer too: the original payment)', async () => {
    const shopper = await t.signIn('customer');
    const cheap = await product(store, { price: 700, stock: 5 });
    const dear = await product(store, { price: 2000, stock: 5 });
    const order = await ship(store, await customerOrder(t, shopper.token, [{ entityId: cheap }]));
    const { ret, replacement } = await exchange(order, dear);
    expect(ret.exchangeDifference).toBeGreaterThan(0);
    expect(replacement).toMatchObject({ status: 'pending', paymentStatus: 'partially_paid' });
    const gql = await t.graphql('mutation($id: String!) { orderStatusUpdate(id: $id, status: cancelled) { status } }', { id: replacement.id }, { apiKey: store.admin });
    expect(gql.body.errors).toBeUndefined();
    expect(gql.body.data.orderStatusUpdate.status).toBe('cancelled');
    const after = await getOrder(replacement.id);
    expect(after.payments.map((p: any) => [p.provider, p.status, p.refundedAmount]).sort()).toEqual([
      ['exchange_credit', 'refunded', ret.exchangeCredit],
      ['offline', 'voided', 0],
    ]);
    expect(after).toMatchObject({ status: 'cancelled', refundedAmount: ret.exchangeCredit });
    const account = await t.app.db.storeCreditAccount.findFirst({ where: { customerId: order.customerId } });
    expect(Number(account?.balance ?? 0n)).toBe(0);
    const original = await getOrder(order.id);
    expect(
      log()
        .filter((c) => c.kind === 'refund' && c.input.metadata?.orderId === replacement.id)
        .map((c) => [c.input.paymentId, c.input.amount]),
    ).toEqual([[original.payments[0].id, ret.exchangeCredit]]);
    await expectConserved([order.id, replacement.id]);
  });

  it("counts against the cancelling operator's daily cap: past it the cancel is 403 and nothing changes", async () => {
    const p = await product(store, { price: 1200, stock: 5 });
    const order = await shippedOrder(store, [{ entityId: p }]);
    const { replacement } = await exchange(order, p);
    await setSettings(store, 'policies', { refundDailyCap: 100 });
    try {
      const res = await setStatus(store, replacement.id, 'cancelled');
      expect(res.status, res.text).toBe(403);
      expect(await getOrder(replacement.id)).toMatchObject({ status: 'confirmed', paymentStatus: 'paid', refundedAmount: 0 });
      expect(await t.app.db.orderRefund.count({ where: { orderId: replacement.id } })).toBe(0);
    } finally {
      await setSettings(store, 'policies', { refundDailyCap: null });
    }
  });

  it('cancelled by the system after its difference payment failed: the credit still goes back', async () => {
    const cheap = await product(store, { price: 600, stock: 5 });
    const dear = await product(store, { price: 1600, stock: 5 });
    const order = await shippedOrder(store, [{ entityId: cheap }]);
    const { ret, replacement } = await exchange(order, dear, 1, { paymentMethodId: 'pm_card_threeDSecureRequired' });
    const payment = replacement.payments.find((p: any) => p.provider !== 'exchange_credit');
    expect(payment).toMatchObject({ status: 'requires_action' });
    // The shopper fails the challenge: the provider answers failed, and the replacement is cancelled by the system.
    const url = new URL(payment.nextAction.url);
    const back = await fetch(`${t.url}${url.pathname}${url.search}&result=failed`, { redirect: 'manual' });
    expect(back.status).toBe(302);
    const params = Object.fromEntries(new URL(back.headers.get('location')!).searchParams);
    const confirmed = await t.request(`/api/payments/${payment.id}/confirm`, { apiKey: store.admin, body: { params } });
    expect(confirmed.status, confirmed.text).toBe(200);
    expect(confirmed.body.data.status).toBe('failed');
    const after = await getOrder(replacement.id);
    expect(after).toMatchObject({ status: 'cancelled', refundedAmount: ret.exchangeCredit });
    expect(after.payments.find((p: any) => p.provider === 'exchange_credit')).toMatchObject({ status: 'refunded', refundedAmount: ret.exchangeCredit });
    const [row] = await t.app.db.orderRefund.findMany({ where: { orderId: replacement.id } });
    expect(row).toMatchObject({ operatorId: 'system', status: 'succeeded', amount: BigInt(ret.exchangeCredit) });
    await expectConserved([order.id, replacement.id]);
  });
});
