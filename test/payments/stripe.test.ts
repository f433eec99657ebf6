// The Stripe provider against a Stripe-compatible fake (fake-stripe.ts): manual capture with
// partial captures (capture_method manual, final_capture), 3-D Secure next_action mapping, and a
// capture and a refund whose answers are lost: retried with the same idempotency key, the money
// moves once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { WEBHOOK_SECRET, checkout, guestCart, openStore, product, sendWebhook, setSettings, type Store } from '../orders/helpers.js';
import { startFakeStripe, type FakeStripe } from './fake-stripe.js';

let t: TestApp;
let store: Store;
let stripe: FakeStripe;

beforeAll(async () => {
  stripe = await startFakeStripe();
  t = await startTestApp({ payments: { provider: 'stripe', stripeSecretKey: 'sk_test_fake', webhookSecret: WEBHOOK_SECRET, stripeApiBase: stripe.url, timeoutMs: 5_000 } });
  store = await openStore(t);
});
afterAll(async () => {
  await t?.close();
  await stripe?.close();
});

async function place(price: number, paymentMethodId = 'pm_card_visa') {
  const p = await product(store, { price, stock: 10 });
  const cart = await guestCart(store, [{ entityId: p }]);
  const res = await checkout(store, cart, { paymentMethodId, body: { returnUrl: 'https://storefront.example/return' } });
  expect(res.status, res.text).toBe(201);
  return { order: res.body.data, payment: res.body.payment };
}

function authorized(order: { id: string; paymentIntentId: string; grandTotal: number }) {
  return {
    id: `evt_${Math.random().toString(36).slice(2)}`,
    object: 'event',
    type: 'payment_intent.amount_capturable_updated',
    data: { object: { id: order.paymentIntentId, object: 'payment_intent', amount_capturable: order.grandTotal, metadata: { orderId: order.id } } },
  };
}

describe('Stripe provider', () => {
  it('automatic capture: a PaymentIntent with capture_method automatic and our metadata', async () => {
    const { order, payment } = await place(1100);
    const intent = stripe.intents.get(order.paymentIntentId)!;
    expect(intent).toMatchObject({ capture_method: 'automatic', status: 'succeeded', metadata: { orderId: order.id, paymentId: payment.id } });
    expect(payment).toMatchObject({ provider: 'stripe', status: 'pending' });
  });

  it("a declined card is 422 CHECKOUT_FAILED with Stripe's codes", async () => {
    const p = await product(store, { price: 100, stock: 5 });
    const cart = await guestCart(store, [{ entityId: p }]);
    const res = await checkout(store, cart, { paymentMethodId: 'pm_card_chargeDeclined' });
    expect(res.status).toBe(422);
    expect(res.body.error.details).toMatchObject({ paymentCode: 'card_declined', declineCode: 'generic_decline' });
  });

  it('3-D Secure: next_action redirect_to_url becomes a redirect, use_stripe_sdk becomes sdk with the client secret', async () => {
    const redirect = await place(500, 'pm_card_threeDSecureRequired');
    expect(redirect.payment).toMatchObject({
      status: 'requires_action',
      nextAction: { type: 'redirect', url: `https://hooks.stripe.test/3d_secure/${redirect.order.paymentIntentId}` },
    });
    const sdk = await place(500, 'pm_card_sdkAction');
    expect(sdk.payment.nextAction).toMatchObject({ type: 'sdk', clientSecret: expect.stringContaining('_secret_') });
    // The shopper authenticated: confirm reads the intent from Stripe.
    const intent = stripe.intents.get(redirect.order.paymentIntentId)!;
    Object.assign(intent, { status: 'succeeded', amount_received: intent.amount, next_action: null });
    const confirmed = await t.request(`/api/payments/${redirect.payment.id}/confirm`, { apiKey: store.storefront, body: { params: { payment_intent: intent.id } } });
    expect(confirmed.body.data).toMatchObject({ status: 'captured', capturedAmount: intent.amount });
  });

  it('manual capture: two partial captures (final_capture false, then the rest); a lost capture answer retried moves the money once', async () => {
    await setSettings(store, 'payments', { capture: 'manual' });
    try {
      const { order } = await place(1000);
      expect(stripe.intents.get(order.paymentIntentId)).toMatchObject({ capture_method: 'manual', status: 'requires_capture' });
      expect((await sendWebhook(t, authorized(order))).body.data.outcome).toBe('confirmed');

      const first = await t.request(`/api/orders/${order.id}/capture`, { apiKey: store.admin, body: { amount: 400 } });
      expect(first.status, first.text).toBe(200);
      expect(stripe.intents.get(order.paymentIntentId)).toMatchObject({ status: 'requires_capture', amount_received: 400 });

      // Every attempt of the SDK (1 + 2 network retries) loses its answer: 503, nothing recorded.
      stripe.dropAnswers('/capture', 3);
      const lost = await t.request(`/api/orders/${order.id}/capture`, { apiKey: store.admin, body: {} });
      expect(lost.status, lost.text).toBe(503);
      expect((await t.request(`/api/orders/${order.id}?include=payments`, { apiKey: store.admin })).body.data.payments[0]).toMatchObject({
        capturedAmount: 400,
        status: 'partially_captured',
      });
      // The retry carries the same key: Stripe answers the first call's result.
      const retried = await t.request(`/api/orders/${order.id}/capture`, { apiKey: store.admin, body: {} });
      expect(retried.status, retried.text).toBe(200);
      expect(retried.body.data).toMatchObject({ captured: order.grandTotal - 400, order: { paymentStatus: 'paid', capturedAmount: order.grandTotal } });
      expect(stripe.moves.filter((m) => m.intent === order.paymentIntentId).map((m) => m.amount)).toEqual([400, order.grandTotal - 400]);
      expect(stripe.intents.get(order.paymentIntentId)).toMatchObject({ status: 'succeeded', amount_received: order.grandTotal });
    } finally {
      await setSettings(store, 'payments', { capture: null });
    }
  }, 60_000);

  it('a refund whose answer is lost is paid out once by the retried settlement', async () => {
    await setSettings(store, 'policies', { refundUndoWindowMinutes: 0 });
    try {
      const { order } = await place(900);
      await sendWebhook(t, {
        id: `evt_${Date.now()}`,
        object: 'event',
        type: 'payment_intent.succeeded',
        data: { object: { id: order.paymentIntentId, object: 'payment_intent', amount_received: order.grandTotal, metadata: { orderId: order.id } } },
      });
      stripe.dropAnswers('/v1/refunds', 3);
      const refund = await t.request(`/api/orders/${order.id}/refunds`, { apiKey: store.admin, body: { lines: [{ lineItemId: order.lineItems[0].lineItemId, quantity: 1 }] } });
      // The immediate settlement lost its answer: the refund stays pending for the settle job.
      expect(refund.status, refund.text).toBe(201);
      expect(refund.body.data.status).toBe('pending');
      const job = await t.app.db.job.findFirstOrThrow({ where: { taskSlug: 'orders/settle-refund', input: { path: ['refundId'], equals: refund.body.data.id } } });
      await t.app.db.job.update({ where: { id: job.id }, data: { waitUntil: new Date(Date.now() - 1000) } });
      const run = await t.request('/api/jobs/run?limit=50', { apiKey: store.admin });
      expect(run.status, run.text).toBe(200);
      const settled = (await t.request(`/api/orders/${order.id}/refunds`, { apiKey: store.admin })).body.data[0];
      expect(settled).toMatchObject({ status: 'succeeded', providerRefundId: expect.stringMatching(/^re_fake_/) });
      expect(stripe.moves.filter((m) => m.kind === 'refund' && m.intent === order.paymentIntentId)).toHaveLength(1);
    } finally {
      await setSettings(store, 'policies', { refundUndoWindowMinutes: null });
    }
  }, 60_000);
});
