// Order edits of orders paid (in part or in full) by gift cards: the edit moves only what is owed
// beyond what the order has already been paid (tenders and provider captures), never the whole
// new total; a lower total gives the excess back to the card before the provider, and an open
// provider payment that the tenders now cover is voided (not left to capture the old amount).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { ORDER_TEST_CONFIG, checkout, guestCart, openStore, paymentSucceeded, product, sendWebhook, setSettings, type Store } from '../orders/helpers.js';

let t: TestApp;
let store: Store;

beforeAll(async () => {
  t = await startTestApp(ORDER_TEST_CONFIG);
  store = await openStore(t);
  await setSettings(store, 'policies', { refundUndoWindowMinutes: 0 });
});
afterAll(() => t?.close());

async function card(initialBalance: number): Promise<any> {
  const res = await t.request('/api/gift-cards', { apiKey: store.admin, body: { initialBalance, currency: 'USD' } });
  expect(res.status, res.text).toBe(201);
  return res.body.data;
}
const balanceOf = async (id: string) => (await t.request(`/api/gift-cards/${id}`, { apiKey: store.admin })).body.data.balance as number;
async function withPayments(id: string) {
  const res = await t.request(`/api/orders/${id}?include=payments`, { apiKey: store.admin });
  expect(res.status, res.text).toBe(200);
  return res.body.data;
}
/** The order's payments as tuples, in a fixed order (rows written in one statement share a timestamp). */
function rows(order: any, pick: (p: any) => unknown[]) {
  return order.payments.map(pick).sort((a: unknown[], b: unknown[]) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
}
function authorizeCalls(orderId: string) {
  return (t.app.services.payments.provider as unknown as { log: Array<{ kind: string; input: Record<string, any> }> }).log.filter(
    (c) => c.kind === 'authorize' && c.input.orderId === orderId,
  );
}
async function placeWithCard(price: number, quantity: number, code: string) {
  const p = await product(store, { price, stock: 20 });
  const res = await checkout(store, await guestCart(store, [{ entityId: p, quantity }]), { body: { giftCardCodes: [code] } });
  expect(res.status, res.text).toBe(201);
  return res.body.data;
}
async function editAndConfirm(orderId: string, lineItemId: string, quantity: number) {
  const created = await t.request(`/api/orders/${orderId}/edits`, { apiKey: store.admin, body: { quantities: [{ lineItemId, quantity }] } });
  expect(created.status, created.text).toBe(201);
  const confirmed = await t.request(`/api/orders/${orderId}/edits/${created.body.data.id}/confirm`, { method: 'POST', apiKey: store.admin });
  expect(confirmed.status, confirmed.text).toBe(200);
  return confirmed.body.data;
}

describe('order edits of gift-card orders', () => {
  it('awaiting the provider, total up: the card keeps its part, the provider is re-authorized for the rest only', async () => {
    const gc = await card(300);
    const order = await placeWithCard(1000, 1, gc.code);
    expect(authorizeCalls(order.id).map((c) => c.input.amount)).toEqual([order.grandTotal - 300]);
    const edited = await editAndConfirm(order.id, order.lineItems[0].lineItemId, 2);
    expect(edited.paymentAction).toBe('reissued_intent');
    const after = await withPayments(order.id);
    const owed = after.grandTotal - 300;
    expect(authorizeCalls(order.id).map((c) => c.input.amount)).toEqual([order.grandTotal - 300, owed]);
    expect(rows(after, (p) => [p.provider, p.status, p.amount])).toEqual([
      ['gift_card', 'captured', 300],
      ['offline', 'pending', owed],
      ['offline', 'voided', order.grandTotal - 300],
    ]);
    // The provider's event for the new payment pays the order in full: card + provider = the new total.
    const hook = await sendWebhook(t, paymentSucceeded({ id: order.id, paymentIntentId: after.paymentIntentId, grandTotal: owed }));
    expect(hook.status, hook.text).toBe(200);
    const paid = await withPayments(order.id);
    expect(paid).toMatchObject({ status: 'confirmed', paymentStatus: 'paid', capturedAmount: after.grandTotal, refundedAmount: 0 });
    expect(await balanceOf(gc.id)).toBe(0);
  });

  it('awaiting the provider, total down below the card: the provider payment is voided and the excess goes back to the card', async () => {
    const gc = await card(1500);
    const order = await placeWithCard(1000, 2, gc.code);
    const edited = await editAndConfirm(order.id, order.lineItems[0].lineItemId, 1);
    expect(edited.paymentAction).toBe('refund');
    const after = await withPayments(order.id);
    expect(rows(after, (p) => [p.provider, p.status])).toEqual([
      ['gift_card', 'partially_refunded'],
      ['offline', 'voided'],
    ]);
    expect(after.capturedAmount - after.refundedAmount).toBe(after.grandTotal);
    // Nothing left to wait for: confirmed, as a checkout paid in full by a card is.
    expect(after).toMatchObject({ status: 'confirmed', paymentStatus: 'partially_refunded' });
    expect(await balanceOf(gc.id)).toBe(1500 - after.grandTotal);
    expect(authorizeCalls(order.id)).toHaveLength(1);
  });

  it('paid by the card in full, total up: awaiting the difference, nothing authorized; total down again: refunded to the card', async () => {
    const gc = await card(10_000);
    const order = await placeWithCard(1000, 1, gc.code);
    expect(order).toMatchObject({ paymentStatus: 'paid' });
    const up = await editAndConfirm(order.id, order.lineItems[0].lineItemId, 3);
    expect(up.paymentAction).toBe('awaiting_difference');
    expect(authorizeCalls(order.id)).toHaveLength(0);
    const raised = await withPayments(order.id);
    expect(raised).toMatchObject({ paymentStatus: 'partially_paid', capturedAmount: order.grandTotal });
    const down = await editAndConfirm(order.id, order.lineItems[0].lineItemId, 1);
    expect(down.paymentAction).toBe('none');
    expect((await withPayments(order.id)).paymentStatus).toBe('paid');
    // Below what the card paid: the card gets the excess back.
    const p2 = await placeWithCard(800, 2, gc.code);
    const before = await balanceOf(gc.id);
    const cut = await editAndConfirm(p2.id, p2.lineItems[0].lineItemId, 1);
    expect(cut.paymentAction).toBe('refund');
    const after = await withPayments(p2.id);
    expect(await balanceOf(gc.id)).toBe(before + (p2.grandTotal - after.grandTotal));
    expect(after).toMatchObject({ paymentStatus: 'partially_refunded', refundedAmount: p2.grandTotal - after.grandTotal });
  });

  it('split card + captured provider payment, total down: the card is refunded before the provider', async () => {
    const gc = await card(500);
    const order = await placeWithCard(1000, 2, gc.code);
    const hook = await sendWebhook(t, paymentSucceeded({ id: order.id, paymentIntentId: order.paymentIntentId, grandTotal: order.grandTotal - 500 }));
    expect(hook.status, hook.text).toBe(200);
    const edited = await editAndConfirm(order.id, order.lineItems[0].lineItemId, 1);
    expect(edited.paymentAction).toBe('refund');
    const after = await withPayments(order.id);
    const excess = order.grandTotal - after.grandTotal;
    const fromCard = Math.min(500, excess);
    expect(await balanceOf(gc.id)).toBe(fromCard);
    expect(rows(after, (p) => [p.provider, p.refundedAmount])).toEqual([
      ['gift_card', fromCard],
      ['offline', excess - fromCard],
    ]);
    expect(after.capturedAmount - after.refundedAmount).toBe(after.grandTotal);
  });
});
