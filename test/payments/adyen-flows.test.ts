// Adyen end to end: checkout, capture, void, 3-D Secure, refunds and notifications through the
// real app (REST and GraphQL) against the local fake of Adyen's Checkout API. The offline
// provider stays the default, so Stripe's POST /api/payments/webhook keeps working beside
// Adyen's POST /api/payments/webhook/adyen.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { ADYEN_TEST_CARDS, adyenCard, startAdyenFake, type AdyenFake } from '../support/adyen-fake.js';
import { available, events, guestCart, openStore, pay, placeOrder, product, setSettings, WEBHOOK_SECRET, type Store } from '../orders/helpers.js';
import type { AdyenNotificationItem } from '../../src/modules/payments/providers/adyen/types.js';

let t: TestApp;
let fake: AdyenFake;
let store: Store;
let entityId: string;
const PRICE = 2500;
const ADYEN_WEBHOOK = '/api/payments/webhook/adyen';

beforeAll(async () => {
  fake = await startAdyenFake();
  t = await startTestApp({
    payments: {
      // Offline stays the default (Stripe's webhook format); Adyen is enabled by its settings.
      provider: 'offline',
      webhookSecret: WEBHOOK_SECRET,
      adyen: { apiKey: fake.apiKey, merchantAccount: fake.merchantAccount, hmacKey: fake.hmacKey, apiBase: fake.url },
      timeoutMs: 5000,
    },
  });
  store = await openStore(t);
  entityId = await product(store, { price: PRICE, stock: 500 });
});
afterAll(async () => {
  await t?.close();
  await fake?.close();
});

/** Checks out one item with Adyen; staff (the admin key) may choose the capture mode. */
async function adyenCheckout(card: string, options: { quantity?: number; captureMode?: 'automatic' | 'manual'; entity?: string } = {}) {
  const cart = await guestCart(store, [{ entityId: options.entity ?? entityId, quantity: options.quantity ?? 1 }]);
  const apiKey = options.captureMode ? store.admin : store.storefront;
  const res = await t.request('/api/checkout', {
    apiKey,
    headers: cart.headers,
    body: {
      cartId: cart.id,
      currency: 'USD',
      paymentProvider: 'adyen',
      paymentMethodId: JSON.stringify(adyenCard(card)),
      returnUrl: 'https://shop.example/checkout/return',
      shippingAddress: { firstName: 'Ada', lastName: 'Lovelace', line1: '1 Main St', city: 'Springfield', state: 'IL', postalCode: '62701', country: 'US' },
      email: 'buyer@example.com',
      ...(options.captureMode ? { captureMode: options.captureMode } : {}),
    },
  });
  return res;
}

async function orderOf(id: string) {
  const res = await t.request(`/api/orders/${id}?include=payments`, { apiKey: store.admin });
  expect(res.status, res.text).toBe(200);
  return res.body.data;
}

/** Takes the fake's queued notifications for a payment (its own and its modifications'). */
function notificationsOf(psp: string, eventCode?: string): AdyenNotificationItem[] {
  return fake.take((n) => (n.pspReference === psp || n.originalReference === psp) && (!eventCode || n.eventCode === eventCode));
}

async function deliver(items: AdyenNotificationItem[], options: { hmacKey?: string } = {}) {
  const res = await fake.deliver(t, items, options);
  return res;
}

describe('Adyen: automatic capture', () => {
  it('checkout captures at once; the AUTHORISATION notification confirms the order once ([accepted])', async () => {
    const res = await adyenCheckout(ADYEN_TEST_CARDS.visa);
    expect(res.status, res.text).toBe(201);
    const { data: order, payment } = res.body;
    // As with every provider, the answer starts the payment and the provider's event confirms it.
    expect(payment).toMatchObject({ provider: 'adyen', status: 'pending', amount: PRICE, captureMode: 'automatic' });
    const adyenPayment = fake.paymentByReference(payment.id)!;
    expect(adyenPayment).toMatchObject({ status: 'authorised', captured: PRICE, manualCapture: false });
    expect(payment.providerReference).toBe(adyenPayment.pspReference);

    const [authorisation] = notificationsOf(adyenPayment.pspReference, 'AUTHORISATION');
    const ack = await deliver([authorisation!]);
    expect(ack.status, ack.text).toBe(200);
    expect(ack.text).toBe('[accepted]');
    const after = await orderOf(order.id);
    expect(after).toMatchObject({ status: 'confirmed', paymentStatus: 'paid', capturedAmount: PRICE });
    expect(after.payments).toHaveLength(1);
    expect(after.payments[0]).toMatchObject({ status: 'captured', capturedAmount: PRICE, provider: 'adyen' });

    // Redelivered (Adyen retries until it reads [accepted]): acknowledged, nothing moves.
    expect((await deliver([authorisation!])).text).toBe('[accepted]');
    expect((await events(t, 'orders.statusChange')).filter((e) => e.payload.order.id === order.id)).toHaveLength(1);
  });

  it('a refused card is 422 CHECKOUT_FAILED with the shopper message, and keeps nothing', async () => {
    const before = await available(store, entityId);
    const res = await adyenCheckout(ADYEN_TEST_CARDS.refused);
    expect(res.status, res.text).toBe(422);
    expect(res.body.error).toMatchObject({ code: 'CHECKOUT_FAILED', message: expect.stringContaining('Your card was declined.') });
    expect(await available(store, entityId)).toEqual(before);
  });

  it('GraphQL: Order.payments shows the Adyen payment', async () => {
    const res = await adyenCheckout(ADYEN_TEST_CARDS.mastercard);
    expect(res.status, res.text).toBe(201);
    await deliver(notificationsOf(res.body.payment.providerReference, 'AUTHORISATION'));
    const q = await t.graphql(
      'query($id: String!) { order(idOrNumber: $id) { id paymentStatus payments { provider status amount capturedAmount providerReference } } }',
      { id: res.body.data.id },
      { apiKey: store.admin },
    );
    expect(q.body.errors).toBeUndefined();
    expect(q.body.data.order.payments).toEqual([
      { provider: 'adyen', status: 'captured', amount: PRICE, capturedAmount: PRICE, providerReference: fake.paymentByReference(res.body.payment.id)!.pspReference },
    ]);
  });
});

describe('Adyen: manual capture and void', () => {
  it('authorizes only, then captures in full over REST (CAPTURE notification confirms, changes nothing more)', async () => {
    const res = await adyenCheckout(ADYEN_TEST_CARDS.visa, { captureMode: 'manual' });
    expect(res.status, res.text).toBe(201);
    const { data: order, payment } = res.body;
    expect(payment).toMatchObject({ status: 'pending', captureMode: 'manual', capturedAmount: 0 });
    const psp = fake.paymentByReference(`${payment.id}:manual`)!.pspReference;
    expect(fake.payments.get(psp)).toMatchObject({ manualCapture: true, captured: 0 });
    expect((await deliver(notificationsOf(psp, 'AUTHORISATION'))).text).toBe('[accepted]');
    expect(await orderOf(order.id)).toMatchObject({ status: 'confirmed', paymentStatus: 'authorized' });

    const captured = await t.request(`/api/orders/${order.id}/capture`, { apiKey: store.admin, body: {} });
    expect(captured.status, captured.text).toBe(200);
    expect(captured.body.data).toMatchObject({ captured: PRICE, order: { paymentStatus: 'paid' } });
    expect(captured.body.data.payments[0]).toMatchObject({ status: 'captured', capturedAmount: PRICE });
    expect(fake.payments.get(psp)!.captured).toBe(PRICE);
    expect(fake.requests.at(-1)).toMatchObject({ path: `/v71/payments/${psp}/captures`, idempotencyKey: `${payment.id}:capture:1` });

    expect((await deliver(notificationsOf(psp, 'CAPTURE'))).text).toBe('[accepted]');
    expect((await orderOf(order.id)).payments[0]).toMatchObject({ status: 'captured', capturedAmount: PRICE });
    // Nothing left to capture.
    expect((await t.request(`/api/orders/${order.id}/capture`, { apiKey: store.admin, body: {} })).status).toBe(409);
  });

  it('captures in two partials (REST then GraphQL) and refuses more than is left', async () => {
    const res = await adyenCheckout(ADYEN_TEST_CARDS.visa, { captureMode: 'manual', quantity: 2 });
    expect(res.status, res.text).toBe(201);
    const { data: order, payment } = res.body;
    const total = payment.amount as number;
    const psp = fake.paymentByReference(`${payment.id}:manual`)!.pspReference;
    // The CAPTURE notifications will come after the captures; the AUTHORISATION now.
    await deliver(notificationsOf(psp, 'AUTHORISATION'));

    const first = await t.request(`/api/orders/${order.id}/capture`, { apiKey: store.admin, body: { amount: 1000 } });
    expect(first.status, first.text).toBe(200);
    expect(first.body.data.payments[0]).toMatchObject({ status: 'partially_captured', capturedAmount: 1000 });
    expect(first.body.data.order.paymentStatus).toBe('partially_paid');

    const tooMuch = await t.request(`/api/orders/${order.id}/capture`, { apiKey: store.admin, body: { amount: total } });
    expect(tooMuch.status).toBe(422);

    const second = await t.graphql(
      'mutation($id: String!, $amount: Int) { orderCapture(id: $id, amount: $amount) { captured order { paymentStatus } payments { status capturedAmount } } }',
      { id: order.id, amount: total - 1000 },
      { apiKey: store.admin },
    );
    expect(second.body.errors).toBeUndefined();
    expect(second.body.data.orderCapture).toMatchObject({ captured: total - 1000, order: { paymentStatus: 'paid' }, payments: [{ status: 'captured', capturedAmount: total }] });

    expect(fake.payments.get(psp)!.modifications.map((m) => [m.kind, m.amount])).toEqual([
      ['capture', 1000],
      ['capture', total - 1000],
    ]);
    // Both CAPTURE notifications, in reverse order and one twice: they confirm, nothing moves.
    const captures = notificationsOf(psp, 'CAPTURE').reverse();
    expect((await deliver(captures)).status).toBe(200);
    expect((await deliver(captures.slice(0, 1))).status).toBe(200);
    expect((await orderOf(order.id)).payments[0]).toMatchObject({ status: 'captured', capturedAmount: total });
  });

  it('voids an authorization (REST), and GraphQL orderVoid on another; CANCELLATION notifications change nothing more', async () => {
    const a = await adyenCheckout(ADYEN_TEST_CARDS.visa, { captureMode: 'manual' });
    const b = await adyenCheckout(ADYEN_TEST_CARDS.visa, { captureMode: 'manual' });
    const voided = await t.request(`/api/orders/${a.body.data.id}/void`, { method: 'POST', apiKey: store.admin });
    expect(voided.status, voided.text).toBe(200);
    expect(voided.body.data.payments[0]).toMatchObject({ status: 'voided', capturedAmount: 0 });
    expect(voided.body.data.order.paymentStatus).toBe('voided');
    const gql = await t.graphql('mutation($id: String!) { orderVoid(id: $id) { order { paymentStatus } payments { status } } }', { id: b.body.data.id }, { apiKey: store.admin });
    expect(gql.body.errors).toBeUndefined();
    expect(gql.body.data.orderVoid).toEqual({ order: { paymentStatus: 'voided' }, payments: [{ status: 'voided' }] });

    for (const res of [a, b]) {
      const psp = fake.paymentByReference(`${res.body.payment.id}:manual`)!.pspReference;
      expect(fake.payments.get(psp)!.status).toBe('cancelled');
      expect((await deliver(notificationsOf(psp))).text).toBe('[accepted]');
      expect((await orderOf(res.body.data.id)).payments[0].status).toBe('voided');
    }
    // Nothing to capture after a void.
    expect((await t.request(`/api/orders/${a.body.data.id}/capture`, { apiKey: store.admin, body: {} })).status).toBe(409);
  });

  it('a capture whose answer is lost is 503 and records nothing; the retry uses the same key and Adyen captures once', async () => {
    const res = await adyenCheckout(ADYEN_TEST_CARDS.visa, { captureMode: 'manual' });
    const { data: order, payment } = res.body;
    const psp = fake.paymentByReference(`${payment.id}:manual`)!.pspReference;
    await deliver(notificationsOf(psp, 'AUTHORISATION'));
    // Three lost answers outlast the client's own two retries.
    fake.dropNextAnswer(/\/captures$/, 3);
    const lost = await t.request(`/api/orders/${order.id}/capture`, { apiKey: store.admin, body: {} });
    expect(lost.status, lost.text).toBe(503);
    expect((await orderOf(order.id)).payments[0]).toMatchObject({ status: 'authorized', capturedAmount: 0 });
    expect(fake.payments.get(psp)!.captured).toBe(PRICE);

    const retried = await t.request(`/api/orders/${order.id}/capture`, { apiKey: store.admin, body: {} });
    expect(retried.status, retried.text).toBe(200);
    expect(retried.body.data.payments[0]).toMatchObject({ status: 'captured', capturedAmount: PRICE });
    const calls = fake.requests.filter((r) => r.path === `/v71/payments/${psp}/captures`);
    expect(new Set(calls.map((c) => c.idempotencyKey))).toEqual(new Set([`${payment.id}:capture:1`]));
    expect(calls.map((c) => c.replayed)).toEqual([false, true, true, true]);
    expect(fake.payments.get(psp)!.modifications.filter((m) => m.kind === 'capture')).toHaveLength(1);
  });
});

describe('Adyen: 3-D Secure', () => {
  it('completed: requires_action with a redirect, the shopper returns, confirm captures and confirms the order', async () => {
    const before = await available(store, entityId);
    const res = await adyenCheckout(ADYEN_TEST_CARDS.threeDS);
    expect(res.status, res.text).toBe(201);
    const { data: order, payment } = res.body;
    expect(payment).toMatchObject({ status: 'requires_action', nextAction: { type: 'redirect', url: expect.stringContaining('/threeDS/redirect?MD=') } });
    expect(order).toMatchObject({ status: 'pending', paymentStatus: 'awaiting_payment' });
    expect((await available(store, entityId)).available).toBe(before.available - 1);

    const redirectResult = await fake.completeRedirect(payment.nextAction.url);
    const confirmed = await t.request(`/api/payments/${payment.id}/confirm`, { body: { params: { redirectResult } } });
    expect(confirmed.status, confirmed.text).toBe(200);
    expect(confirmed.body.data).toMatchObject({ status: 'captured', capturedAmount: PRICE });
    expect(fake.requests.at(-1)).toMatchObject({ path: '/v71/payments/details', body: { details: { redirectResult } } });
    expect(await orderOf(order.id)).toMatchObject({ status: 'confirmed', paymentStatus: 'paid' });

    // The AUTHORISATION notification arrives afterwards: nothing more happens.
    const psp = fake.paymentByReference(payment.id)!.pspReference;
    expect((await deliver(notificationsOf(psp))).text).toBe('[accepted]');
    expect((await orderOf(order.id)).payments[0]).toMatchObject({ status: 'captured', capturedAmount: PRICE });
    expect((await events(t, 'orders.statusChange')).filter((e) => e.payload.order.id === order.id)).toHaveLength(1);
  });

  it('GraphQL paymentConfirm on a manual-capture payment authorizes it; a second confirm answers the state', async () => {
    const res = await adyenCheckout(ADYEN_TEST_CARDS.threeDS, { captureMode: 'manual' });
    const { data: order, payment } = res.body;
    const redirectResult = await fake.completeRedirect(payment.nextAction.url);
    const mutation = 'mutation($id: UUID!, $params: JSONObject) { paymentConfirm(id: $id, params: $params) { status authorizedAmount capturedAmount } }';
    const confirmed = await t.graphql(mutation, { id: payment.id, params: { redirectResult } });
    expect(confirmed.body.errors).toBeUndefined();
    expect(confirmed.body.data.paymentConfirm).toEqual({ status: 'authorized', authorizedAmount: PRICE, capturedAmount: 0 });
    expect(await orderOf(order.id)).toMatchObject({ status: 'confirmed', paymentStatus: 'authorized' });
    const requests = fake.requests.length;
    const again = await t.graphql(mutation, { id: payment.id, params: { redirectResult } });
    expect(again.body.data.paymentConfirm.status).toBe('authorized');
    expect(fake.requests.length).toBe(requests);
  });

  it('abandoned: OFFER_CLOSED fails the payment, cancels the order and releases its stock', async () => {
    const before = await available(store, entityId);
    const res = await adyenCheckout(ADYEN_TEST_CARDS.threeDS);
    const { data: order, payment } = res.body;
    expect((await available(store, entityId)).available).toBe(before.available - 1);
    const offerClosed: AdyenNotificationItem = {
      eventCode: 'OFFER_CLOSED',
      success: 'true',
      pspReference: fake.paymentByReference(payment.id)!.pspReference,
      merchantAccountCode: fake.merchantAccount,
      merchantReference: payment.id,
      amount: { value: PRICE, currency: 'USD' },
      eventDate: new Date().toISOString(),
      reason: 'Offer closed',
    };
    expect((await deliver([offerClosed])).text).toBe('[accepted]');
    const after = await orderOf(order.id);
    expect(after.status).toBe('cancelled');
    expect(after.payments[0]).toMatchObject({ status: 'failed' });
    expect(await available(store, entityId)).toEqual(before);
    // A late confirm answers the failed state; nothing is asked of Adyen.
    const requests = fake.requests.length;
    const late = await t.request(`/api/payments/${payment.id}/confirm`, { body: { params: { redirectResult: 'late' } } });
    expect(late.status, late.text).toBe(200);
    expect(late.body.data.status).toBe('failed');
    expect(fake.requests.length).toBe(requests);
  });

  it('refused by the issuer: confirm fails the payment and cancels the order', async () => {
    const res = await adyenCheckout(ADYEN_TEST_CARDS.threeDS);
    const { data: order, payment } = res.body;
    const redirectResult = await fake.completeRedirect(payment.nextAction.url, 'refused');
    const confirmed = await t.request(`/api/payments/${payment.id}/confirm`, { body: { params: { redirectResult } } });
    expect(confirmed.status, confirmed.text).toBe(200);
    expect(confirmed.body.data).toMatchObject({ status: 'failed' });
    expect((await orderOf(order.id)).status).toBe('cancelled');
  });
});

describe('Adyen: refunds', () => {
  async function paidOrder() {
    const res = await adyenCheckout(ADYEN_TEST_CARDS.visa, { quantity: 2 });
    expect(res.status, res.text).toBe(201);
    const psp = fake.paymentByReference(res.body.payment.id)!.pspReference;
    await deliver(notificationsOf(psp, 'AUTHORISATION'));
    return { order: await orderOf(res.body.data.id), psp };
  }
  const refund = (order: any, quantity = 1) =>
    t.request(`/api/orders/${order.id}/refunds`, { apiKey: store.admin, body: { lines: [{ lineItemId: order.lineItems[0].lineItemId, quantity }] } });

  beforeAll(() => setSettings(store, 'policies', { refundUndoWindowMinutes: 0 }));
  afterAll(() => setSettings(store, 'policies', { refundUndoWindowMinutes: null }));

  it('pays a refund through Adyen against its payment; the REFUND notification confirms it', async () => {
    const { order, psp } = await paidOrder();
    const created = await refund(order);
    expect(created.status, created.text).toBe(201);
    expect(created.body.data.status).toBe('succeeded');
    expect(fake.requests.at(-1)).toMatchObject({
      path: `/v71/payments/${psp}/refunds`,
      body: { amount: { value: PRICE, currency: 'USD' }, reference: `refund:${created.body.data.id}` },
    });
    expect(fake.payments.get(psp)!.refunded).toBe(PRICE);
    expect((await deliver(notificationsOf(psp, 'REFUND'))).text).toBe('[accepted]');
    const after = await orderOf(order.id);
    expect(after).toMatchObject({ paymentStatus: 'partially_refunded', refundedAmount: PRICE });
    expect(after.payments[0]).toMatchObject({ status: 'partially_refunded', refundedAmount: PRICE });
  });

  it("REFUND_FAILED afterwards: the refund is failed, the order's amounts are as before, and a retry pays it", async () => {
    const { order, psp } = await paidOrder();
    fake.failNextRefund('notification');
    const created = await refund(order);
    expect(created.body.data.status).toBe('succeeded');
    const failed = notificationsOf(psp, 'REFUND_FAILED');
    expect(failed).toHaveLength(1);
    expect((await deliver(failed)).text).toBe('[accepted]');
    const list = await t.request(`/api/orders/${order.id}/refunds`, { apiKey: store.admin });
    expect(list.body.data[0]).toMatchObject({ id: created.body.data.id, status: 'failed' });
    const after = await orderOf(order.id);
    expect(after).toMatchObject({ paymentStatus: 'paid', refundedAmount: 0 });
    expect(after.payments[0]).toMatchObject({ status: 'captured', refundedAmount: 0 });

    const retried = await t.request(`/api/orders/${order.id}/refunds/${created.body.data.id}/retry`, { method: 'POST', apiKey: store.admin });
    expect(retried.status, retried.text).toBe(200);
    expect(retried.body.data.status).toBe('succeeded');
    const keys = fake.requests.filter((r) => r.path === `/v71/payments/${psp}/refunds`).map((r) => r.idempotencyKey);
    expect(keys).toHaveLength(2);
    expect(keys[0]).toMatch(/:1$/);
    expect(keys[1]).toMatch(/:2$/);
    expect((await orderOf(order.id)).refundedAmount).toBe(PRICE);
  });

  it('an error answer leaves the refund failed and retryable, with the order unchanged', async () => {
    const { order, psp } = await paidOrder();
    fake.failNextRefund('error');
    const created = await refund(order);
    expect(created.status, created.text).toBe(201);
    expect(created.body.data.status).toBe('failed');
    expect(fake.payments.get(psp)!.refunded).toBe(0);
    expect(await orderOf(order.id)).toMatchObject({ paymentStatus: 'paid', refundedAmount: 0 });
    const retried = await t.request(`/api/orders/${order.id}/refunds/${created.body.data.id}/retry`, { method: 'POST', apiKey: store.admin });
    expect(retried.status, retried.text).toBe(200);
    expect(retried.body.data.status).toBe('succeeded');
    expect(fake.payments.get(psp)!.refunded).toBe(PRICE);
  });
});

describe('Adyen: notifications', () => {
  it('refuses a bad HMAC with 400 and changes nothing (no event recorded)', async () => {
    const res = await adyenCheckout(ADYEN_TEST_CARDS.visa, { captureMode: 'manual' });
    const { data: order, payment } = res.body;
    const psp = fake.paymentByReference(`${payment.id}:manual`)!.pspReference;
    const items = notificationsOf(psp, 'AUTHORISATION');
    const wrongKey = await deliver(items, { hmacKey: 'AB'.repeat(32) });
    expect(wrongKey.status).toBe(400);
    expect(wrongKey.body.error.code).toBe('BAD_REQUEST');
    const unsigned = await fake.deliver(t, items, { sign: false });
    expect(unsigned.status).toBe(400);
    // Signed, then changed: the amount is part of the signature.
    const body = JSON.stringify({ live: 'false', notificationItems: [{ NotificationRequestItem: { ...items[0]!, additionalData: { hmacSignature: 'x' } } }] });
    expect((await t.request(ADYEN_WEBHOOK, { method: 'POST', rawBody: body, headers: { 'content-type': 'application/json' } })).status).toBe(400);
    expect(await orderOf(order.id)).toMatchObject({ status: 'pending', paymentStatus: 'awaiting_payment' });
    expect(await t.app.db.paymentEvent.count({ where: { provider: 'adyen', eventId: `${psp}:AUTHORISATION:true` } })).toBe(0);
    // The same item correctly signed is then accepted.
    expect((await deliver(items)).text).toBe('[accepted]');
    expect((await orderOf(order.id)).status).toBe('confirmed');
  });

  it('duplicates in one delivery and concurrent redeliveries are processed once', async () => {
    const res = await adyenCheckout(ADYEN_TEST_CARDS.visa);
    const { data: order, payment } = res.body;
    const [item] = notificationsOf(fake.paymentByReference(payment.id)!.pspReference, 'AUTHORISATION');
    const answers = await Promise.all([deliver([item!, item!]), deliver([item!]), deliver([item!])]);
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
    expect(await t.app.db.paymentEvent.count({ where: { provider: 'adyen', eventId: `${item!.pspReference}:AUTHORISATION:true` } })).toBe(1);
    expect((await events(t, 'orders.statusChange')).filter((e) => e.payload.order.id === order.id)).toHaveLength(1);
  });

  it("Stripe's POST /api/payments/webhook keeps working for the default provider beside Adyen's", async () => {
    const order = await placeOrder(store, [{ entityId }]);
    const paid = await pay(store, order);
    expect(paid.status).toBe('confirmed');
  });
});
