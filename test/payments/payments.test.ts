// Payment records through the offline provider, over REST and GraphQL: automatic capture,
// manual capture (full, partial, two partials), void, 3-D Secure completed / failed / abandoned,
// capture on fulfilment, expiry, duplicate and out-of-order events, refund failure and retry.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import {
  ORDER_TEST_CONFIG,
  available,
  checkout,
  events,
  guestCart,
  openStore,
  paymentSucceeded,
  product,
  sendWebhook,
  setSettings,
  setStatus,
  type Store,
} from '../orders/helpers.js';

let t: TestApp;
let store: Store;

beforeAll(async () => {
  t = await startTestApp({ ...ORDER_TEST_CONFIG, baseUrl: 'http://shop.test' });
  store = await openStore(t);
});
afterAll(() => t?.close());

const RETURN_URL = 'https://storefront.example/checkout/return';

async function place(price: number, options: { quantity?: number; paymentMethodId?: string; body?: Record<string, unknown>; apiKey?: string } = {}) {
  const p = await product(store, { price, stock: 10 });
  const cart = await guestCart(store, [{ entityId: p, quantity: options.quantity ?? 1 }]);
  const res = await checkout(store, cart, {
    ...(options.paymentMethodId ? { paymentMethodId: options.paymentMethodId } : {}),
    ...(options.apiKey ? { apiKey: options.apiKey } : {}),
    body: { returnUrl: RETURN_URL, ...options.body },
  });
  expect(res.status, res.text).toBe(201);
  return { entityId: p, order: res.body.data, payment: res.body.payment };
}

async function orderWithPayments(id: string) {
  const res = await t.request(`/api/orders/${id}?include=payments`, { apiKey: store.admin });
  expect(res.status, res.text).toBe(200);
  return res.body.data;
}

function authorizedEvent(order: { id: string; paymentIntentId: string; grandTotal: number }, amount = order.grandTotal) {
  return {
    id: `evt_auth_${Math.random().toString(36).slice(2)}`,
    object: 'event',
    type: 'payment_intent.amount_capturable_updated',
    data: { object: { id: order.paymentIntentId, object: 'payment_intent', amount, amount_capturable: amount, metadata: { orderId: order.id } } },
  };
}

async function runJobs() {
  const run = await t.request('/api/jobs/run?limit=50', { apiKey: store.admin });
  expect(run.status, run.text).toBe(200);
}

describe('automatic capture', () => {
  it('checkout records a pending payment; the provider event captures it and confirms the order', async () => {
    const { order, payment } = await place(1500);
    // No provider event can name a payment before checkout commits: the answer lists none (and reads none).
    expect(payment).toMatchObject({ status: 'pending', provider: 'offline', captureMode: 'automatic', amount: order.grandTotal, capturedAmount: 0, nextAction: null, events: [] });
    expect(payment.providerReference).toBe(order.paymentIntentId);
    expect(order).toMatchObject({ status: 'pending', paymentStatus: 'awaiting_payment' });
    // Without include the embed is null; with it, the list.
    expect((await t.request(`/api/orders/${order.id}`, { apiKey: store.admin })).body.data.payments).toBeNull();
    const res = await sendWebhook(t, paymentSucceeded(order));
    expect(res.body.data).toMatchObject({ outcome: 'confirmed', paymentId: payment.id });
    const after = await orderWithPayments(order.id);
    expect(after).toMatchObject({ status: 'confirmed', paymentStatus: 'paid', capturedAmount: order.grandTotal });
    expect(after.payments).toHaveLength(1);
    expect(after.payments[0]).toMatchObject({ id: payment.id, status: 'captured', capturedAmount: order.grandTotal, authorizedAmount: order.grandTotal, capturableAmount: 0 });
    const gql = await t.graphql(
      'query($id: String!) { order(idOrNumber: $id) { paymentStatus payments { id status capturedAmount intentId events { type outcome } } } }',
      { id: order.id },
      { apiKey: store.admin },
    );
    expect(gql.body.errors).toBeUndefined();
    expect(gql.body.data.order.payments[0]).toMatchObject({
      id: payment.id,
      status: 'captured',
      capturedAmount: order.grandTotal,
      intentId: order.paymentIntentId,
      events: [{ type: 'payment_intent.succeeded', outcome: 'confirmed' }],
    });
  });
});

describe('manual capture', () => {
  beforeAll(() => setSettings(store, 'payments', { capture: 'manual' }));
  afterAll(() => setSettings(store, 'payments', { capture: null }));

  it('authorizes at checkout; the authorization event confirms the order; two partial captures, then nothing left (409), over REST and GraphQL', async () => {
    const { order, payment } = await place(1000);
    expect(payment).toMatchObject({ captureMode: 'manual', status: 'pending' });
    expect((await t.request(`/api/orders/${order.id}/capture`, { apiKey: store.admin, body: {} })).status).toBe(409);
    const auth = await sendWebhook(t, authorizedEvent(order));
    expect(auth.body.data.outcome).toBe('confirmed');
    expect(await orderWithPayments(order.id)).toMatchObject({
      status: 'confirmed',
      paymentStatus: 'authorized',
      capturedAmount: 0,
      payments: [{ status: 'authorized', authorizedAmount: order.grandTotal, capturableAmount: order.grandTotal }],
    });

    const tooMuch = await t.request(`/api/orders/${order.id}/capture`, { apiKey: store.admin, body: { amount: order.grandTotal + 1 } });
    expect(tooMuch.status).toBe(422);
    expect(tooMuch.body.error.details[0].field).toBe('amount');

    const first = await t.request(`/api/orders/${order.id}/capture`, { apiKey: store.admin, body: { amount: 300 } });
    expect(first.status, first.text).toBe(200);
    expect(first.body.data).toMatchObject({
      captured: 300,
      order: { paymentStatus: 'partially_paid', capturedAmount: 300 },
      payments: [{ status: 'partially_captured', capturedAmount: 300, capturableAmount: order.grandTotal - 300 }],
    });

    const second = await t.graphql(
      'mutation($id: String!) { orderCapture(id: $id) { captured order { paymentStatus capturedAmount } payments { status capturedAmount capturableAmount } } }',
      { id: order.id },
      { apiKey: store.admin },
    );
    expect(second.body.errors).toBeUndefined();
    expect(second.body.data.orderCapture).toEqual({
      captured: order.grandTotal - 300,
      order: { paymentStatus: 'paid', capturedAmount: order.grandTotal },
      payments: [{ status: 'captured', capturedAmount: order.grandTotal, capturableAmount: 0 }],
    });

    const none = await t.request(`/api/orders/${order.id}/capture`, { apiKey: store.admin, body: {} });
    expect(none.status).toBe(409);
    // Each capture carried its own key: <payment>:capture:1 and :2.
    const log = (t.app.services.payments.provider as unknown as { log: Array<{ kind: string; idempotencyKey: string }> }).log;
    expect(log.filter((c) => c.kind === 'capture' && c.idempotencyKey.startsWith(payment.id)).map((c) => c.idempotencyKey)).toEqual([
      `${payment.id}:capture:1`,
      `${payment.id}:capture:2`,
    ]);
    // The provider's capture event afterwards only confirms.
    const late = await sendWebhook(t, paymentSucceeded(order));
    expect(late.status).toBe(200);
    expect((await orderWithPayments(order.id)).payments[0]).toMatchObject({ status: 'captured', capturedAmount: order.grandTotal });
  });

  it('a full capture at once; concurrent captures capture once', async () => {
    const { order } = await place(800);
    await sendWebhook(t, authorizedEvent(order));
    const results = await Promise.all([1, 2, 3].map(() => t.request(`/api/orders/${order.id}/capture`, { apiKey: store.admin, body: {} })));
    expect(results.map((r) => r.status).sort()).toEqual([200, 409, 409]);
    expect(await orderWithPayments(order.id)).toMatchObject({
      paymentStatus: 'paid',
      capturedAmount: order.grandTotal,
      payments: [{ status: 'captured', capturedAmount: order.grandTotal }],
    });
  });

  it('void releases the authorization (REST), then nothing to void (409); GraphQL orderVoid too', async () => {
    const { order } = await place(700);
    await sendWebhook(t, authorizedEvent(order));
    const voided = await t.request(`/api/orders/${order.id}/void`, { apiKey: store.admin, body: {} });
    expect(voided.status, voided.text).toBe(200);
    expect(voided.body.data).toMatchObject({ order: { paymentStatus: 'voided', status: 'confirmed' }, payments: [{ status: 'voided' }] });
    expect((await t.request(`/api/orders/${order.id}/void`, { apiKey: store.admin, body: {} })).status).toBe(409);
    expect((await t.request(`/api/orders/${order.id}/capture`, { apiKey: store.admin, body: {} })).status).toBe(409);

    const other = await place(700);
    await sendWebhook(t, authorizedEvent(other.order));
    const gql = await t.graphql('mutation($id: String!) { orderVoid(id: $id) { order { paymentStatus } payments { status } } }', { id: other.order.id }, { apiKey: store.admin });
    expect(gql.body.errors).toBeUndefined();
    expect(gql.body.data.orderVoid).toEqual({ order: { paymentStatus: 'voided' }, payments: [{ status: 'voided' }] });
  });

  it('a storefront key may not capture or void (payments:manage)', async () => {
    const { order } = await place(500);
    expect((await t.request(`/api/orders/${order.id}/capture`, { apiKey: store.storefront, body: {} })).status).toBe(403);
    expect((await t.request(`/api/orders/${order.id}/void`, { apiKey: store.storefront, body: {} })).status).toBe(403);
  });

  it('out-of-order and duplicate events: the capture before the authorization, the authorization then changes nothing', async () => {
    const { order } = await place(900);
    const captured = paymentSucceeded(order);
    expect((await sendWebhook(t, captured)).body.data.outcome).toBe('confirmed');
    const late = await sendWebhook(t, authorizedEvent(order));
    expect(late.body.data.outcome).toBe('ignored: payment is captured');
    const again = await sendWebhook(t, captured);
    expect(again.body.data).toMatchObject({ duplicate: true, outcome: 'duplicate' });
    expect(await orderWithPayments(order.id)).toMatchObject({ status: 'confirmed', paymentStatus: 'paid', payments: [{ status: 'captured', capturedAmount: order.grandTotal }] });
  });

  it('a provider-reported expiry voids the authorization, flags it and emits payments.update', async () => {
    const { order, payment } = await place(600);
    await sendWebhook(t, authorizedEvent(order));
    const expiry = {
      id: `evt_exp_${Date.now()}`,
      object: 'event',
      type: 'payment_intent.canceled',
      data: { object: { id: order.paymentIntentId, object: 'payment_intent', cancellation_reason: 'automatic', metadata: { orderId: order.id } } },
    };
    expect((await sendWebhook(t, expiry)).body.data.outcome).toBe('expired');
    expect(await orderWithPayments(order.id)).toMatchObject({ paymentStatus: 'voided', payments: [{ status: 'voided', expired: true }] });
    const updates = (await events(t, 'payments.update')).filter((e) => e.payload.payment.id === payment.id);
    expect(updates.map((e) => e.payload.change)).toEqual(['authorized', 'expired']);
  });
});

describe('capture on fulfilment', () => {
  it('a staff checkout in on_fulfilment mode is captured in full by the job the first fulfilment enqueues', async () => {
    const shopper = await place(400, { quantity: 2, apiKey: store.admin, body: { captureMode: 'on_fulfilment' } });
    expect(shopper.payment.captureMode).toBe('on_fulfilment');
    await sendWebhook(t, authorizedEvent(shopper.order));
    expect((await setStatus(store, shopper.order.id, 'processing')).status).toBe(200);
    const shipped = await t.request(`/api/orders/${shopper.order.id}/fulfillments`, {
      apiKey: store.admin,
      body: { lines: [{ lineItemId: shopper.order.lineItems[0].lineItemId, quantity: 1 }] },
    });
    expect(shipped.status, shipped.text).toBe(201);
    expect(await t.app.db.job.count({ where: { taskSlug: 'payments/capture-on-fulfilment', input: { path: ['orderId'], equals: shopper.order.id } } })).toBe(1);
    await runJobs();
    expect(await orderWithPayments(shopper.order.id)).toMatchObject({
      paymentStatus: 'paid',
      capturedAmount: shopper.order.grandTotal,
      payments: [{ status: 'captured', capturedAmount: shopper.order.grandTotal }],
    });
  });

  it('captureMode from a storefront is 403; an unknown provider is 422', async () => {
    const p = await product(store, { price: 100, stock: 5 });
    const cart = await guestCart(store, [{ entityId: p }]);
    expect((await checkout(store, cart, { body: { captureMode: 'manual' } })).status).toBe(403);
    const res = await checkout(store, cart, { body: { paymentProvider: 'paypal' } });
    expect(res.status).toBe(422);
    expect(res.body.error.details[0].field).toBe('paymentProvider');
  });
});

describe('3-D Secure', () => {
  async function challenge(nextAction: { url: string }, result: 'succeeded' | 'failed') {
    const url = new URL(nextAction.url);
    expect(url.origin).toBe('http://shop.test');
    const page = await t.request(`${url.pathname}${url.search}`, {});
    expect(page.status).toBe(200);
    expect(page.text).toContain('Complete');
    // The shopper's browser follows the link; the redirect itself is what we check (not followed).
    const back = await fetch(`${t.url}${url.pathname}${url.search}&result=${result}`, { redirect: 'manual' });
    expect(back.status).toBe(302);
    const location = new URL(back.headers.get('location')!);
    expect(`${location.origin}${location.pathname}`).toBe(RETURN_URL);
    return Object.fromEntries(location.searchParams);
  }

  it('answers 201 requires_action with a redirect; completing it confirms the order (REST), and the later event adds nothing', async () => {
    const { order, payment, entityId } = await place(1200, { paymentMethodId: 'pm_card_threeDSecureRequired' });
    expect(payment).toMatchObject({ status: 'requires_action', nextAction: { type: 'redirect', clientSecret: null } });
    expect(order).toMatchObject({ status: 'pending', paymentStatus: 'awaiting_payment' });
    expect(await available(store, entityId)).toMatchObject({ reserved: 1 });
    const params = await challenge(payment.nextAction, 'succeeded');
    const confirmed = await t.request(`/api/payments/${payment.id}/confirm`, { apiKey: store.storefront, body: { params } });
    expect(confirmed.status, confirmed.text).toBe(200);
    expect(confirmed.body.data).toMatchObject({ status: 'captured', capturedAmount: order.grandTotal, nextAction: null });
    expect(await orderWithPayments(order.id)).toMatchObject({ status: 'confirmed', paymentStatus: 'paid' });
    // Confirming again answers the state; the provider's event afterwards changes nothing.
    expect((await t.request(`/api/payments/${payment.id}/confirm`, { apiKey: store.storefront, body: { params } })).body.data.status).toBe('captured');
    expect((await sendWebhook(t, paymentSucceeded(order))).status).toBe(200);
    expect(await orderWithPayments(order.id)).toMatchObject({ capturedAmount: order.grandTotal, payments: [{ capturedAmount: order.grandTotal }] });
  });

  it('completed through GraphQL paymentConfirm; a failed challenge cancels the order and releases its stock', async () => {
    const ok = await place(300, { paymentMethodId: 'pm_card_threeDSecure2Required' });
    const params = await challenge(ok.payment.nextAction, 'succeeded');
    const gql = await t.graphql(
      'mutation($id: UUID!, $params: JSONObject) { paymentConfirm(id: $id, params: $params) { status } }',
      { id: ok.payment.id, params },
      { apiKey: store.storefront },
    );
    expect(gql.body.errors).toBeUndefined();
    expect(gql.body.data.paymentConfirm.status).toBe('captured');

    const bad = await place(300, { paymentMethodId: 'pm_card_threeDSecureRequired' });
    const failedParams = await challenge(bad.payment.nextAction, 'failed');
    const failed = await t.request(`/api/payments/${bad.payment.id}/confirm`, { apiKey: store.storefront, body: { params: failedParams } });
    expect(failed.body.data).toMatchObject({ status: 'failed', failureCode: 'payment_intent_authentication_failure' });
    expect(await orderWithPayments(bad.order.id)).toMatchObject({ status: 'cancelled', paymentStatus: 'voided' });
    expect(await available(store, bad.entityId)).toMatchObject({ reserved: 0 });
  });

  it('an abandoned action releases the stock when the reservation expires (payments/expire-action)', async () => {
    const { order, payment, entityId } = await place(250, { paymentMethodId: 'pm_card_threeDSecureRequired' });
    const job = await t.app.db.job.findFirstOrThrow({ where: { taskSlug: 'payments/expire-action', input: { path: ['paymentId'], equals: payment.id } } });
    expect(job.waitUntil!.getTime()).toBeGreaterThan(Date.now() + 29 * 60_000);
    await runJobs();
    expect((await orderWithPayments(order.id)).status).toBe('pending');
    // Time travel: the reservation expired.
    await t.app.db.job.update({ where: { id: job.id }, data: { waitUntil: new Date(Date.now() - 1000) } });
    await runJobs();
    expect(await orderWithPayments(order.id)).toMatchObject({ status: 'cancelled', payments: [{ status: 'failed', failureCode: 'authentication_abandoned' }] });
    expect(await available(store, entityId)).toMatchObject({ reserved: 0 });
    // The shopper coming back later finds it failed.
    expect((await t.request(`/api/payments/${payment.id}/confirm`, { apiKey: store.storefront, body: { params: {} } })).body.data.status).toBe('failed');
  });
});

describe('refunds through the payment', () => {
  it('a refund the provider refuses is failed with the order unchanged; the retry asks again under a new key', async () => {
    await setSettings(store, 'policies', { refundUndoWindowMinutes: 0 });
    try {
      const { order, payment } = await place(500, { paymentMethodId: 'pm_card_refundFail' });
      await sendWebhook(t, paymentSucceeded(order));
      const refund = await t.request(`/api/orders/${order.id}/refunds`, { apiKey: store.admin, body: { lines: [{ lineItemId: order.lineItems[0].lineItemId, quantity: 1 }] } });
      expect(refund.status, refund.text).toBe(201);
      expect(refund.body.data.status).toBe('failed');
      const after = await orderWithPayments(order.id);
      expect(after).toMatchObject({ refundedAmount: 0, paymentStatus: 'paid', payments: [{ refundedAmount: 0, status: 'captured' }] });
      expect(after.lineItems[0].refundedQuantity).toBe(0);
      const retry = await t.request(`/api/orders/${order.id}/refunds/${refund.body.data.id}/retry`, { apiKey: store.admin, body: {} });
      expect(retry.status, retry.text).toBe(200);
      expect(retry.body.data.status).toBe('failed');
      const log = (t.app.services.payments.provider as unknown as { log: Array<{ kind: string; idempotencyKey: string }> }).log;
      expect(log.filter((c) => c.kind === 'refund' && c.idempotencyKey.startsWith(payment.id)).map((c) => c.idempotencyKey.split(':').at(-1))).toEqual(['1', '2']);
      expect((await orderWithPayments(order.id)).refundedAmount).toBe(0);
      expect((await t.request(`/api/orders/${order.id}/refunds/${refund.body.data.id}/retry`, { apiKey: store.storefront, body: {} })).status).toBe(403);
    } finally {
      await setSettings(store, 'policies', { refundUndoWindowMinutes: null });
    }
  });

  it('a refund paid out lowers the payment: refunded amount and status', async () => {
    await setSettings(store, 'policies', { refundUndoWindowMinutes: 0 });
    try {
      const { order } = await place(500, { quantity: 2 });
      await sendWebhook(t, paymentSucceeded(order));
      const refund = await t.request(`/api/orders/${order.id}/refunds`, { apiKey: store.admin, body: { lines: [{ lineItemId: order.lineItems[0].lineItemId, quantity: 1 }] } });
      expect(refund.body.data.status).toBe('succeeded');
      expect(await orderWithPayments(order.id)).toMatchObject({
        paymentStatus: 'partially_refunded',
        payments: [{ status: 'partially_refunded', refundedAmount: refund.body.data.amount }],
      });
    } finally {
      await setSettings(store, 'policies', { refundUndoWindowMinutes: null });
    }
  });
});
