// Which payment adapter runs: the offline test adapter by default, Stripe when a key is set
// (its webhook verification needs no network), and in production never the offline adapter by
// accident.
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { resolveConfig } from '../../src/config/index.js';
import { createLogger } from '../../src/logger.js';
import { createPaymentsService } from '../../src/modules/payments/service.js';
import { ConfigError } from '../../src/config/index.js';
import { checkoutBody, guestCart, openStore, paymentSucceeded, product, signedEvent } from '../orders/helpers.js';
import { PACKAGE_ROOT } from '../../src/paths.js';

let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

const silent = createLogger('silent');

describe('payment adapter selection', () => {
  it('uses the offline adapter without a Stripe key, with a webhook secret generated once under DATA_DIR', () => {
    const dataDir = path.join(PACKAGE_ROOT, '.test-data', `payments-${process.pid}-${Date.now()}`);
    const config = resolveConfig({ env: 'development', dataDir });
    const first = createPaymentsService(config, silent, {});
    const second = createPaymentsService(config, silent, {});
    expect(first.provider.name).toBe('offline');
    expect(first.webhookSecret).toMatch(/^whsec_/);
    expect(second.webhookSecret).toBe(first.webhookSecret);
  });

  it('uses Stripe when STRIPE_SECRET_KEY is set, and needs STRIPE_WEBHOOK_SECRET with it', () => {
    const config = resolveConfig({ env: 'development' });
    const stripe = createPaymentsService(config, silent, { STRIPE_SECRET_KEY: 'sk_test_123', STRIPE_WEBHOOK_SECRET: 'whsec_abc' });
    expect(stripe.provider.name).toBe('stripe');
    expect(stripe.webhookSecret).toBe('whsec_abc');
    expect(() => createPaymentsService(config, silent, { STRIPE_SECRET_KEY: 'sk_test_123' })).toThrow(ConfigError);
    expect(() => createPaymentsService(resolveConfig({ payments: { provider: 'stripe' } }), silent, {})).toThrow(/STRIPE_SECRET_KEY/);
  });

  it('verifies webhooks with the Stripe adapter against STRIPE_WEBHOOK_SECRET', async () => {
    t = await startTestApp({ payments: { provider: 'stripe', stripeSecretKey: 'sk_test_not_used', webhookSecret: 'whsec_stripe_test' } });
    expect(t.app.services.payments.provider.name).toBe('stripe');
    const event = paymentSucceeded({ id: '00000000-0000-4000-8000-000000000000', paymentIntentId: 'pi_x', grandTotal: 100 });
    const good = signedEvent(event, 'whsec_stripe_test');
    const bad = signedEvent(event, 'whsec_other');
    const refused = await t.request('/api/payments/webhook', { method: 'POST', rawBody: bad.body, headers: { 'stripe-signature': bad.signature } });
    expect(refused.status).toBe(400);
    // Verified; the order is unknown here, so it is left for the provider to retry.
    const verified = await t.request('/api/payments/webhook', { method: 'POST', rawBody: good.body, headers: { 'stripe-signature': good.signature } });
    expect(verified.status).toBe(404);
  });

  it('in production without a provider: boots, refuses every charge with the reason, refuses webhooks', async () => {
    t = await startTestApp({ env: 'production', baseUrl: 'http://localhost:3000' });
    expect(t.app.services.payments.provider.name).toBe('unconfigured');
    const store = await openStore(t);
    const p = await product(store, { price: 100, stock: 5 });
    const cart = await guestCart(store, [{ entityId: p }]);
    const res = await t.request('/api/checkout', { apiKey: store.storefront, headers: cart.headers, body: checkoutBody(cart) });
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe('CHECKOUT_FAILED');
    expect(res.body.error.details.reason).toMatch(/STRIPE_SECRET_KEY/);
    const event = signedEvent(paymentSucceeded({ id: cart.id, paymentIntentId: 'pi_x', grandTotal: 100 }), 'whsec_anything');
    expect((await t.request('/api/payments/webhook', { method: 'POST', rawBody: event.body, headers: { 'stripe-signature': event.signature } })).status).toBe(400);
  });
});
