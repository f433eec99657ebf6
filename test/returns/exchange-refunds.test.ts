// Refunds after an exchange, and payment status always derived from the payment records:
//   - a replacement order (paid by the exchange credit, plus a charged difference) can be refunded:
//     what the provider charged goes back through the provider first, the exchange credit after
//     it, back through the original order's payment (guests and customers alike), or all of it as
//     store credit when the refund asks for destination store_credit (a customer only);
//   - a refund paid out as store credit, and the credit an exchange carries onto its replacement,
//     are recorded on the payments they came from, so paymentStatus (derived from the payments)
//     matches the order's amounts after any mix of refunds.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { ORDER_TEST_CONFIG, openStore, pay, product, setSettings, type Store } from '../orders/helpers.js';
import { customerOrder, moveReturn, openReturn, restockAll, ship, shippedOrder } from './helpers.js';

let t: TestApp;
let store: Store;

beforeAll(async () => {
  t = await startTestApp(ORDER_TEST_CONFIG);
  store = await openStore(t);
  await setSettings(store, 'policies', { refundUndoWindowMinutes: 0 });
});
afterAll(() => t?.close());

type Call = { kind: string; input: Record<string, any> };
const providerRefunds = (orderId: string) =>
  (t.app.services.payments.provider as unknown as { log: Call[] }).log.filter((c) => c.kind === 'refund' && c.input.metadata?.orderId === orderId);
const getOrder = async (id: string) => (await t.request(`/api/orders/${id}?include=payments`, { apiKey: store.admin })).body.data;
async function creditBalance(customerId: string): Promise<number> {
  const account = await t.app.db.storeCreditAccount.findFirst({ where: { customerId, currency: 'USD' } });
  return Number(account?.balance ?? 0n);
}
function refund(orderId: string, lineItemId: string, quantity: number, extra: Record<string, unknown> = {}) {
  return t.request(`/api/orders/${orderId}/refunds`, { apiKey: store.admin, body: { lines: [{ lineItemId, quantity }], ...extra } });
}
/** The provider's refunds of a payment of the original order that carry the replacement's refund (paybacks of its exchange credit). */
const paybacks = (replacementId: string, original: any) =>
  providerRefunds(replacementId).filter((c) => original.payments.some((p: any) => p.id === c.input.paymentId && p.provider !== 'exchange_credit'));

/** Ships `order`, exchanges its first unit for `quantity` of `outbound`, pays a positive difference; answers the replacement. */
async function exchanged(order: any, outbound: string, quantity: number): Promise<{ replacement: any; credit: number; difference: number }> {
  const opened = await openReturn(store, order.id, [{ lineItemId: order.lineItems[0].lineItemId, quantity: 1 }], { exchangeLines: [{ entityId: outbound, quantity }] });
  expect(opened.status, opened.text).toBe(201);
  expect((await moveReturn(store, opened.body.data.id, 'approve')).status).toBe(200);
  expect((await moveReturn(store, opened.body.data.id, 'receive', restockAll(opened.body.data, store.warehouseId))).status).toBe(200);
  const settled = await moveReturn(store, opened.body.data.id, 'exchange');
  expect(settled.status, settled.text).toBe(200);
  const { exchangeOrderId, exchangeCredit, exchangeDifference } = settled.body.data;
  let replacement = await getOrder(exchangeOrderId);
  if (exchangeDifference > 0) replacement = await pay(store, { id: replacement.id, paymentIntentId: replacement.paymentIntentId, grandTotal: exchangeDifference });
  expect(replacement).toMatchObject({ status: 'confirmed', paymentStatus: 'paid' });
  return { replacement: await getOrder(exchangeOrderId), credit: exchangeCredit, difference: exchangeDifference };
}

describe('refunding a replacement order', () => {
  it("in full: the charged difference goes back through the provider, the exchange credit through the original order's payment", async () => {
    const shopper = await t.signIn('customer');
    const cheap = await product(store, { price: 1000, stock: 5 });
    const dear = await product(store, { price: 2500, stock: 5 });
    const order = await ship(store, await customerOrder(t, shopper.token, [{ entityId: cheap }]));
    const { replacement, credit, difference } = await exchanged(order, dear, 1);
    expect(difference).toBeGreaterThan(0);
    const before = await creditBalance(order.customerId);
    const originalBefore = await getOrder(order.id);
    const res = await refund(replacement.id, replacement.lineItems[0].lineItemId, 1);
    expect(res.status, res.text).toBe(201);
    expect(res.body.data).toMatchObject({ amount: replacement.grandTotal, status: 'succeeded', destination: 'original_payment' });
    // Two provider refunds carry the replacement's refund: the difference on its own payment, the credit on the original's.
    expect(providerRefunds(replacement.id).reduce((sum, c) => sum + c.input.amount, 0)).toBe(difference + credit);
    expect(paybacks(replacement.id, originalBefore).map((c) => c.input.amount)).toEqual([credit]);
    expect(await creditBalance(order.customerId)).toBe(before);
    const after = await getOrder(replacement.id);
    expect(after).toMatchObject({ paymentStatus: 'refunded', refundedAmount: replacement.grandTotal });
    expect(after.payments.map((p: any) => [p.provider, p.status, p.refundedAmount]).sort()).toEqual([
      ['exchange_credit', 'refunded', credit],
      ['offline', 'refunded', difference],
    ]);
    // The original's payment counted the credit when it left (the exchange): its records do not move again.
    const original = await getOrder(order.id);
    expect(original).toMatchObject({ refundedAmount: originalBefore.refundedAmount, paymentStatus: originalBefore.paymentStatus });
    expect(original.payments).toEqual(originalBefore.payments);
  });

  it("with destination store_credit: all of it as the customer's store credit, no provider call", async () => {
    const shopper = await t.signIn('customer');
    const cheap = await product(store, { price: 1000, stock: 5 });
    const dear = await product(store, { price: 2500, stock: 5 });
    const order = await ship(store, await customerOrder(t, shopper.token, [{ entityId: cheap }]));
    const { replacement, credit, difference } = await exchanged(order, dear, 1);
    const before = await creditBalance(order.customerId);
    const calls = providerRefunds(replacement.id).length;
    const res = await refund(replacement.id, replacement.lineItems[0].lineItemId, 1, { destination: 'store_credit' });
    expect(res.status, res.text).toBe(201);
    expect(res.body.data).toMatchObject({ amount: credit + difference, status: 'succeeded', destination: 'store_credit' });
    expect(providerRefunds(replacement.id)).toHaveLength(calls);
    expect(await creditBalance(order.customerId)).toBe(before + credit + difference);
    expect(await getOrder(replacement.id)).toMatchObject({ paymentStatus: 'refunded', refundedAmount: replacement.grandTotal });
  });

  it('in part: the provider-charged difference is given back before the exchange credit', async () => {
    const shopper = await t.signIn('customer');
    const cheap = await product(store, { price: 1000, stock: 5 });
    const dear = await product(store, { price: 2500, stock: 5 });
    const order = await ship(store, await customerOrder(t, shopper.token, [{ entityId: cheap }]));
    const { replacement, credit, difference } = await exchanged(order, dear, 2);
    const before = await creditBalance(order.customerId);
    const originalBefore = await getOrder(order.id);
    const res = await refund(replacement.id, replacement.lineItems[0].lineItemId, 1);
    expect(res.status, res.text).toBe(201);
    const amount = res.body.data.amount as number;
    expect(amount).toBeLessThanOrEqual(difference);
    expect(providerRefunds(replacement.id).reduce((sum, c) => sum + c.input.amount, 0)).toBe(amount);
    expect(paybacks(replacement.id, originalBefore)).toEqual([]);
    // The second unit: the rest of the difference by provider, the credit through the original order's payment.
    const rest = await refund(replacement.id, replacement.lineItems[0].lineItemId, 1);
    expect(rest.status, rest.text).toBe(201);
    expect(providerRefunds(replacement.id).reduce((sum, c) => sum + c.input.amount, 0)).toBe(difference + credit);
    expect(paybacks(replacement.id, originalBefore).map((c) => c.input.amount)).toEqual([credit]);
    expect(await creditBalance(order.customerId)).toBe(before);
    expect(await getOrder(replacement.id)).toMatchObject({ paymentStatus: 'refunded', refundedAmount: replacement.grandTotal });
  });

  it("a guest's replacement: the exchange credit goes back through the original order's payment", async () => {
    const cheap = await product(store, { price: 1000, stock: 5 });
    const same = await product(store, { price: 1000, stock: 5 });
    const order = await shippedOrder(store, [{ entityId: cheap }]);
    const { replacement, credit } = await exchanged(order, same, 1);
    const originalBefore = await getOrder(order.id);
    const res = await refund(replacement.id, replacement.lineItems[0].lineItemId, 1);
    expect(res.status, res.text).toBe(201);
    expect(res.body.data).toMatchObject({ amount: credit, status: 'succeeded', destination: 'original_payment' });
    const calls = providerRefunds(replacement.id);
    expect(calls.map((c) => [c.input.paymentId, c.input.providerReference, c.input.amount])).toEqual([
      [originalBefore.payments[0].id, originalBefore.payments[0].providerReference, credit],
    ]);
    expect(await getOrder(replacement.id)).toMatchObject({ paymentStatus: 'refunded', refundedAmount: credit });
    // A guest's store credit is not asked for: still 422.
    const refused = await refund(replacement.id, replacement.lineItems[0].lineItemId, 1, { destination: 'store_credit' });
    expect(refused.status, refused.text).toBe(422);
  });
});

describe('payment status derived from the payment records', () => {
  it('a store-credit refund is recorded on the payment; a later provider refund of the rest leaves the order refunded', async () => {
    const shopper = await t.signIn('customer');
    const p = await product(store, { price: 1000, stock: 5 });
    const order = await ship(store, await customerOrder(t, shopper.token, [{ entityId: p, quantity: 2 }]));
    const opened = await openReturn(store, order.id, [{ lineItemId: order.lineItems[0].lineItemId, quantity: 1 }]);
    expect((await moveReturn(store, opened.body.data.id, 'approve')).status).toBe(200);
    expect((await moveReturn(store, opened.body.data.id, 'receive', restockAll(opened.body.data, store.warehouseId))).status).toBe(200);
    const credited = await moveReturn(store, opened.body.data.id, 'refund', { method: 'store_credit' });
    expect(credited.status, credited.text).toBe(200);
    const first = credited.body.data.refundAmount as number;
    const mid = await getOrder(order.id);
    expect(mid).toMatchObject({ paymentStatus: 'partially_refunded', refundedAmount: first });
    expect(mid.payments).toMatchObject([{ refundedAmount: first, status: 'partially_refunded' }]);
    const rest = await refund(order.id, order.lineItems[0].lineItemId, 1);
    expect(rest.status, rest.text).toBe(201);
    expect(providerRefunds(order.id).reduce((sum, c) => sum + c.input.amount, 0)).toBe(order.grandTotal - first);
    const after = await getOrder(order.id);
    expect(after).toMatchObject({ paymentStatus: 'refunded', refundedAmount: order.grandTotal });
    expect(after.payments).toMatchObject([{ refundedAmount: order.grandTotal, status: 'refunded' }]);
  });

  it('an exchange records its credit on the original payment; refunding the rest of the original leaves it refunded', async () => {
    const p = await product(store, { price: 1000, stock: 5 });
    const order = await shippedOrder(store, [{ entityId: p, quantity: 2 }]);
    const { credit } = await exchanged(order, p, 1);
    const mid = await getOrder(order.id);
    expect(mid).toMatchObject({ paymentStatus: 'partially_refunded', refundedAmount: credit });
    expect(mid.payments).toMatchObject([{ refundedAmount: credit, status: 'partially_refunded' }]);
    const rest = await refund(order.id, order.lineItems[0].lineItemId, 1);
    expect(rest.status, rest.text).toBe(201);
    expect(providerRefunds(order.id).reduce((sum, c) => sum + c.input.amount, 0)).toBe(order.grandTotal - credit);
    expect(await getOrder(order.id)).toMatchObject({ paymentStatus: 'refunded', refundedAmount: order.grandTotal });
  });
});
