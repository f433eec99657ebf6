// Gift cards and store credit at checkout: full and partial gift-card payment, several cards,
// split with the provider, refusals (disabled, expired, other currency, unknown: 422, nothing
// kept), refunds back to the card and the credit, and races for the last balance on separate
// connections.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { race } from '../support/race.js';
import { ORDER_TEST_CONFIG, available, checkout, checkoutBody, guestCart, openStore, product, sendWebhook, setSettings, type Store } from '../orders/helpers.js';

let t: TestApp;
let store: Store;
let entityId: string;

beforeAll(async () => {
  t = await startTestApp(ORDER_TEST_CONFIG);
  store = await openStore(t);
  entityId = await product(store, { price: 1000, stock: 500 });
});
afterAll(() => t?.close());

async function card(initialBalance: number, body: Record<string, unknown> = {}): Promise<any> {
  const res = await t.request('/api/gift-cards', { apiKey: store.admin, body: { initialBalance, currency: 'USD', ...body } });
  expect(res.status, res.text).toBe(201);
  return res.body.data;
}

const balanceOf = async (id: string) => (await t.request(`/api/gift-cards/${id}`, { apiKey: store.admin })).body.data;
const paymentsOf = (orderId: string) => t.app.db.payment.findMany({ where: { orderId }, orderBy: { createdAt: 'asc' } });
function offlineLog() {
  return (t.app.services.payments.provider as unknown as { log: Array<{ kind: string; idempotencyKey: string; input: Record<string, unknown> }> }).log;
}

async function checkoutWith(body: Record<string, unknown>, quantity = 1) {
  const cart = await guestCart(store, [{ entityId, quantity }]);
  return checkout(store, cart, { body });
}

describe('paying with gift cards', () => {
  it('a card covering the total pays it all: the order is confirmed and paid, no provider call', async () => {
    const gc = await card(50_000);
    const res = await checkoutWith({ giftCardCodes: [gc.code.toLowerCase()] });
    expect(res.status, res.text).toBe(201);
    const order = res.body.data;
    expect(order).toMatchObject({ status: 'confirmed', paymentStatus: 'paid', paymentIntentId: null });
    expect(offlineLog().some((c) => c.kind === 'authorize' && c.input.orderId === order.id)).toBe(false);
    const after = await balanceOf(gc.id);
    expect(after.balance).toBe(50_000 - order.grandTotal);
    expect(after.entries.at(-1)).toMatchObject({ kind: 'redeem', amount: -order.grandTotal, orderId: order.id });
    const payments = await paymentsOf(order.id);
    expect(payments.map((p) => [p.provider, Number(p.capturedAmount), p.status, p.method])).toEqual([['gift_card', order.grandTotal, 'captured', gc.last4]]);
    expect(after.entries.at(-1).paymentId).toBe(payments[0]!.id);
  });

  it('partial redemption over several cards; the provider charges the rest and its event confirms', async () => {
    const a = await card(300);
    const b = await card(200);
    const res = await checkoutWith({ giftCardCodes: [a.code, b.code, a.code] }, 2);
    expect(res.status, res.text).toBe(201);
    const order = res.body.data;
    expect(order).toMatchObject({ status: 'pending', paymentStatus: 'awaiting_payment' });
    const rest = order.grandTotal - 500;
    const call = offlineLog().find((c) => c.kind === 'authorize' && c.input.orderId === order.id);
    expect(call?.input).toMatchObject({ amount: rest });
    expect((await balanceOf(a.id)).balance).toBe(0);
    expect((await balanceOf(b.id)).balance).toBe(0);
    const payments = await paymentsOf(order.id);
    expect(
      payments
        .filter((p) => p.provider === 'gift_card')
        .map((p) => Number(p.amount))
        .sort(),
    ).toEqual([200, 300]);

    const event = {
      id: `evt_${order.id.replace(/-/g, '')}`,
      object: 'event',
      type: 'payment_intent.succeeded',
      data: { object: { id: order.paymentIntentId, object: 'payment_intent', amount: rest, amount_received: rest, metadata: { orderId: order.id } } },
    };
    const hook = await sendWebhook(t, event);
    expect(hook.body.data.outcome).toBe('confirmed');
    const got = (await t.request(`/api/orders/${order.id}`, { apiKey: store.admin })).body.data;
    expect(got).toMatchObject({ status: 'confirmed', paymentStatus: 'paid' });
  });

  it('over GraphQL', async () => {
    const gc = await card(40_000);
    const cart = await guestCart(store, [{ entityId }]);
    const res = await t.graphql(
      'mutation($input: AddressInput!, $cartId: UUID!, $codes: [String!]) { checkout(cartId: $cartId, paymentMethodId: "pm_card_visa", currency: "USD", shippingAddress: $input, email: "gql@example.com", giftCardCodes: $codes) { data { id status paymentStatus grandTotal } } }',
      { input: checkoutBody(cart).shippingAddress, cartId: cart.id, codes: [gc.code] },
      { apiKey: store.storefront, headers: cart.headers },
    );
    expect(res.body.errors).toBeUndefined();
    const order = res.body.data.checkout.data;
    expect(order).toMatchObject({ status: 'confirmed', paymentStatus: 'paid' });
    expect((await balanceOf(gc.id)).balance).toBe(40_000 - order.grandTotal);
  });

  it('refuses disabled, expired, other-currency and unknown cards with 422, keeping nothing', async () => {
    const disabled = await card(10_000);
    await t.request(`/api/gift-cards/${disabled.id}/disable`, { apiKey: store.admin, body: {} });
    const expired = await card(10_000, { expiresAt: new Date(Date.now() + 60_000).toISOString() });
    await t.app.db.giftCard.update({ where: { id: expired.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    const euro = await card(10_000, { currency: 'EUR' });
    const good = await card(10_000);
    const before = await available(store, entityId);
    for (const [code, reason] of [
      [disabled.code, 'GIFT_CARD_DISABLED'],
      [expired.code, 'GIFT_CARD_EXPIRED'],
      [euro.code, 'GIFT_CARD_CURRENCY_MISMATCH'],
      ['ZZZZ-ZZZZ-ZZZZ-ZZZZ', 'GIFT_CARD_NOT_FOUND'],
    ]) {
      const res = await checkoutWith({ giftCardCodes: [good.code, code] });
      expect(res.status, reason).toBe(422);
      expect(res.body.error.code).toBe('CHECKOUT_FAILED');
      expect(res.body.error.details).toMatchObject({ step: 'tenders', code: 'VALIDATION_FAILED' });
      expect(res.body.error.details.details[0].reason).toBe(reason);
    }
    expect((await balanceOf(good.id)).balance).toBe(10_000);
    expect(await available(store, entityId)).toEqual(before);
    const empty = await card(100);
    await t.request(`/api/gift-cards/${empty.id}/adjust`, { apiKey: store.admin, body: { amount: -100, note: 'empty it' } });
    const res = await checkoutWith({ giftCardCodes: [empty.code] });
    expect(res.status).toBe(422);
    expect(res.body.error.details).toMatchObject({ step: 'tenders', code: 'CONFLICT' });
  });
});

describe('refunds go back to the card and the credit', () => {
  it('a gift-card-paid order refunds to the card (settled at once with a window of 0)', async () => {
    await setSettings(store, 'policies', { refundUndoWindowMinutes: 0 });
    try {
      const gc = await card(50_000);
      const order = (await checkoutWith({ giftCardCodes: [gc.code] }, 2)).body.data;
      const line = order.lineItems[0];
      const refund = await t.request(`/api/orders/${order.id}/refunds`, { apiKey: store.admin, body: { lines: [{ lineItemId: line.lineItemId, quantity: 1 }] } });
      expect(refund.status, refund.text).toBe(201);
      expect(refund.body.data.status).toBe('succeeded');
      expect(offlineLog().some((c) => c.idempotencyKey.includes(`:refund:${refund.body.data.id}:`))).toBe(false);
      const after = await balanceOf(gc.id);
      expect(after.balance).toBe(50_000 - order.grandTotal + refund.body.data.amount);
      expect(after.entries.at(-1)).toMatchObject({ kind: 'refund_credit', amount: refund.body.data.amount, orderId: order.id });
      const [payment] = await paymentsOf(order.id);
      expect(payment).toMatchObject({ status: 'partially_refunded', refundedAmount: BigInt(refund.body.data.amount) });
    } finally {
      await setSettings(store, 'policies', { refundUndoWindowMinutes: null });
    }
  });

  it('a split order refunds the card first, then the provider for the rest', async () => {
    await setSettings(store, 'policies', { refundUndoWindowMinutes: 0 });
    try {
      const gc = await card(500);
      const order = (await checkoutWith({ giftCardCodes: [gc.code] }, 1)).body.data;
      const rest = order.grandTotal - 500;
      await sendWebhook(t, {
        id: `evt_${order.id.replace(/-/g, '')}`,
        object: 'event',
        type: 'payment_intent.succeeded',
        data: { object: { id: order.paymentIntentId, object: 'payment_intent', amount: rest, amount_received: rest, metadata: { orderId: order.id } } },
      });
      const refund = await t.request(`/api/orders/${order.id}/refunds`, { apiKey: store.admin, body: { lines: [{ lineItemId: order.lineItems[0].lineItemId, quantity: 1 }] } });
      expect(refund.status, refund.text).toBe(201);
      expect(refund.body.data.status).toBe('succeeded');
      const amount = refund.body.data.amount;
      expect((await balanceOf(gc.id)).balance).toBe(Math.min(500, amount));
      const call = offlineLog().find((c) => c.idempotencyKey.includes(`:refund:${refund.body.data.id}:`));
      if (amount > 500) expect(call?.input).toMatchObject({ amount: amount - 500, providerReference: order.paymentIntentId });
      else expect(call).toBeUndefined();
    } finally {
      await setSettings(store, 'policies', { refundUndoWindowMinutes: null });
    }
  });
});

describe('store credit at checkout', () => {
  async function customerCart(token: string, quantity = 1): Promise<string> {
    const cart = await t.request('/api/carts', { bearer: token, body: { currency: 'USD' } });
    expect(cart.status, cart.text).toBe(201);
    const added = await t.request(`/api/carts/${cart.body.data.id}/items`, { bearer: token, body: { entityId, quantity } });
    expect(added.status, added.text).toBe(201);
    return cart.body.data.id;
  }
  const credit = (customerId: string, amount: number) =>
    t.request(`/api/customers/${customerId}/store-credit`, { apiKey: store.admin, body: { type: 'credit', amount, currency: 'USD', reason: 'goodwill' } });

  it('useStoreCredit pays what the credit covers; the provider the rest; a refund credits it back', async () => {
    const alice = await t.signIn('customer');
    await credit(alice.userId, 400);
    const res = await t.request('/api/checkout', { bearer: alice.token, body: checkoutBody({ id: await customerCart(alice.token) }, { useStoreCredit: true }) });
    expect(res.status, res.text).toBe(201);
    const order = res.body.data;
    expect(offlineLog().find((c) => c.kind === 'authorize' && c.input.orderId === order.id)?.input).toMatchObject({ amount: order.grandTotal - 400 });
    const mine = (await t.request('/api/me/store-credit', { bearer: alice.token })).body.data;
    expect(mine.balances).toEqual([{ currency: 'USD', balance: 0 }]);
    expect(mine.entries[0]).toMatchObject({ amount: -400, sourceType: 'checkout', sourceId: order.id });
    expect((await paymentsOf(order.id)).map((p) => [p.provider, Number(p.amount)])).toEqual([
      ['offline', order.grandTotal - 400],
      ['store_credit', 400],
    ]);

    await setSettings(store, 'policies', { refundUndoWindowMinutes: 0 });
    try {
      const rest = order.grandTotal - 400;
      await sendWebhook(t, {
        id: `evt_${order.id.replace(/-/g, '')}`,
        object: 'event',
        type: 'payment_intent.succeeded',
        data: { object: { id: order.paymentIntentId, object: 'payment_intent', amount: rest, amount_received: rest, metadata: { orderId: order.id } } },
      });
      const refund = await t.request(`/api/orders/${order.id}/refunds`, { apiKey: store.admin, body: { lines: [{ lineItemId: order.lineItems[0].lineItemId, quantity: 1 }] } });
      expect(refund.body.data.status, refund.text).toBe('succeeded');
      const back = (await t.request('/api/me/store-credit', { bearer: alice.token })).body.data;
      expect(back.balances).toEqual([{ currency: 'USD', balance: Math.min(400, refund.body.data.amount) }]);
      expect(back.entries[0]).toMatchObject({ sourceType: 'refund', sourceId: refund.body.data.id });
    } finally {
      await setSettings(store, 'policies', { refundUndoWindowMinutes: null });
    }
  });

  it('storeCreditAmount above the balance is refused; a guest cannot use store credit', async () => {
    const bob = await t.signIn('customer');
    await credit(bob.userId, 100);
    const short = await t.request('/api/checkout', { bearer: bob.token, body: checkoutBody({ id: await customerCart(bob.token) }, { storeCreditAmount: 150 }) });
    expect(short.status).toBe(422);
    expect(short.body.error.details).toMatchObject({ step: 'tenders', code: 'CONFLICT' });
    const guest = await checkoutWith({ useStoreCredit: true });
    expect(guest.status).toBe(422);
    expect(guest.body.error.details).toMatchObject({ step: 'tenders', code: 'VALIDATION_FAILED' });
  });
});

describe('concurrency', () => {
  it('two checkouts racing for the last gift-card balance on separate connections: one wins', async () => {
    const probe = (await checkoutWith({ giftCardCodes: [(await card(100_000)).code] })).body.data;
    const gc = await card(probe.grandTotal);
    const carts = [await guestCart(store, [{ entityId }]), await guestCart(store, [{ entityId }])];
    const results = await race(
      t.url,
      carts.map((cart) => ({ path: '/api/checkout', apiKey: store.storefront, headers: cart.headers, body: checkoutBody(cart, { giftCardCodes: [gc.code] }) })),
    );
    expect(results.map((r) => r.status).sort()).toEqual([201, 422]);
    const loser = results.find((r) => r.status === 422)!;
    expect(loser.body.error.details).toMatchObject({ step: 'tenders', code: 'CONFLICT' });
    const after = await balanceOf(gc.id);
    expect(after.balance).toBe(0);
    expect(after.entries.filter((e: any) => e.kind === 'redeem')).toHaveLength(1);
  });

  it('two checkouts racing for the last store credit on separate connections: one wins', async () => {
    const carol = await t.signIn('customer');
    const carts = [];
    for (let i = 0; i < 2; i++) {
      const cart = await t.request('/api/carts', { bearer: carol.token, body: { currency: 'USD' } });
      await t.request(`/api/carts/${cart.body.data.id}/items`, { bearer: carol.token, body: { entityId, quantity: 1 } });
      carts.push(cart.body.data.id as string);
    }
    await t.request(`/api/customers/${carol.userId}/store-credit`, { apiKey: store.admin, body: { type: 'credit', amount: 700, currency: 'USD', reason: 'goodwill' } });
    const results = await race(
      t.url,
      carts.map((id) => ({ path: '/api/checkout', bearer: carol.token, body: checkoutBody({ id }, { storeCreditAmount: 700 }) })),
    );
    expect(results.map((r) => r.status).sort()).toEqual([201, 422]);
    const mine = (await t.request('/api/me/store-credit', { bearer: carol.token })).body.data;
    expect(mine.balances).toEqual([{ currency: 'USD', balance: 0 }]);
    expect(mine.entries.filter((e: any) => e.sourceType === 'checkout')).toHaveLength(1);
  });
});
