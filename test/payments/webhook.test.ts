// POST /api/payments/webhook: Stripe-signed events from the payment adapter (here the offline
// test adapter, configured with a known webhook secret).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { ORDER_TEST_CONFIG, openStore, paymentSucceeded, placeOrder, product, sendWebhook, signedEvent, events, type Store } from '../orders/helpers.js';

let t: TestApp;
let store: Store;
let entityId: string;

beforeAll(async () => {
  t = await startTestApp(ORDER_TEST_CONFIG);
  store = await openStore(t);
  entityId = await product(store, { price: 2500, stock: 50 });
});
afterAll(() => t?.close());

async function orderOf(id: string) {
  return (await t.request(`/api/orders/${id}`, { apiKey: store.admin })).body.data;
}

describe('payment webhook', () => {
  it('payment_intent.succeeded with metadata.orderId confirms an order awaiting payment', async () => {
    const order = await placeOrder(store, [{ entityId }]);
    expect(order.status).toBe('pending');
    expect(order.paymentStatus).toBe('awaiting_payment');
    expect(order.paymentIntentId).toMatch(/^pi_/);

    const res = await sendWebhook(t, paymentSucceeded(order));
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ received: true, duplicate: false, type: 'payment_intent.succeeded', outcome: 'confirmed', orderId: order.id });
    const after = await orderOf(order.id);
    expect(after.status).toBe('confirmed');
    expect(after.paymentStatus).toBe('paid');
    expect(after.capturedAmount).toBe(order.grandTotal);
    const changes = (await events(t, 'orders.statusChange')).filter((e) => e.payload.order.id === order.id);
    expect(changes.map((e) => [e.payload.from, e.payload.to, e.payload.trigger])).toEqual([['pending', 'confirmed', 'payment']]);
  });

  it('refuses a missing or bad signature with 400 and changes nothing', async () => {
    const order = await placeOrder(store, [{ entityId }]);
    const event = paymentSucceeded(order);
    const signed = signedEvent(event);

    const missing = await t.request('/api/payments/webhook', { method: 'POST', rawBody: signed.body, headers: { 'content-type': 'application/json' } });
    expect(missing.status).toBe(400);
    expect(missing.body.error.code).toBe('BAD_REQUEST');

    const wrongSecret = signedEvent(event, 'whsec_not_the_right_one');
    const bad = await t.request('/api/payments/webhook', {
      method: 'POST',
      rawBody: wrongSecret.body,
      headers: { 'content-type': 'application/json', 'stripe-signature': wrongSecret.signature },
    });
    expect(bad.status).toBe(400);

    // A body changed after signing.
    const tampered = await t.request('/api/payments/webhook', {
      method: 'POST',
      rawBody: signed.body.replace('payment_intent.succeeded', 'payment_intent.succeeded '),
      headers: { 'content-type': 'application/json', 'stripe-signature': signed.signature },
    });
    expect(tampered.status).toBe(400);

    // A replay of an old delivery (outside Stripe's 5-minute tolerance).
    const old = signedEvent(event, undefined, Math.floor(Date.now() / 1000) - 3600);
    const stale = await t.request('/api/payments/webhook', {
      method: 'POST',
      rawBody: old.body,
      headers: { 'content-type': 'application/json', 'stripe-signature': old.signature },
    });
    expect(stale.status).toBe(400);

    const after = await orderOf(order.id);
    expect(after.status).toBe('pending');
    expect(after.paymentStatus).toBe('awaiting_payment');
    expect(await t.app.db.paymentEvent.count({ where: { eventId: event.id } })).toBe(0);
  });

  it('ignores a duplicate event id', async () => {
    const order = await placeOrder(store, [{ entityId }]);
    const event = paymentSucceeded(order);
    const first = await sendWebhook(t, event);
    expect(first.body.data.outcome).toBe('confirmed');
    const second = await sendWebhook(t, event);
    expect(second.status).toBe(200);
    expect(second.body.data).toMatchObject({ received: true, duplicate: true, outcome: 'duplicate' });
    const changes = (await events(t, 'orders.statusChange')).filter((e) => e.payload.order.id === order.id);
    expect(changes).toHaveLength(1);
  });

  it('processes concurrent redeliveries of one event once', async () => {
    const order = await placeOrder(store, [{ entityId }]);
    const event = paymentSucceeded(order);
    const results = await Promise.all(Array.from({ length: 5 }, () => sendWebhook(t, event)));
    expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    expect(results.filter((r) => r.body.data.duplicate === false)).toHaveLength(1);
    expect((await events(t, 'orders.statusChange')).filter((e) => e.payload.order.id === order.id)).toHaveLength(1);
  });

  it('answers 404 without recording an event whose order is unknown, so the provider retries', async () => {
    const event = paymentSucceeded({ id: '00000000-0000-4000-8000-000000000000', paymentIntentId: 'pi_unknown', grandTotal: 100 });
    const res = await sendWebhook(t, event);
    expect(res.status).toBe(404);
    expect(await t.app.db.paymentEvent.count({ where: { eventId: event.id } })).toBe(0);
  });

  it('ignores (records, 200) an event whose metadata.orderId is not an order UUID: another system on the same provider account', async () => {
    const event = paymentSucceeded({ id: 'ord_from_another_app', paymentIntentId: 'pi_elsewhere', grandTotal: 100 });
    const res = await sendWebhook(t, event);
    expect(res.status, res.text).toBe(200);
    expect(res.body.data).toMatchObject({ outcome: expect.stringMatching(/^ignored: metadata.orderId/), orderId: null });
    expect(await t.app.db.paymentEvent.count({ where: { eventId: event.id } })).toBe(1);
  });

  it("records but does not act on other event types, and on an intent that is not the order's", async () => {
    const order = await placeOrder(store, [{ entityId }]);
    const other = await sendWebhook(t, { id: `evt_other_${Date.now()}`, type: 'charge.updated', data: { object: { id: 'ch_1' } } });
    expect(other.status).toBe(200);
    expect(other.body.data.outcome).toMatch(/^ignored/);
    const mismatch = await sendWebhook(t, paymentSucceeded({ ...order, paymentIntentId: 'pi_someone_else' }));
    expect(mismatch.status).toBe(200);
    expect(mismatch.body.data.outcome).toMatch(/does not match/);
    expect((await orderOf(order.id)).status).toBe('pending');
  });

  it('does not confirm a cancelled order', async () => {
    const order = await placeOrder(store, [{ entityId }]);
    const cancel = await t.request(`/api/orders/${order.id}/status`, { method: 'PATCH', apiKey: store.admin, body: { status: 'cancelled' } });
    expect(cancel.status).toBe(200);
    const res = await sendWebhook(t, paymentSucceeded(order));
    expect(res.status).toBe(200);
    expect(res.body.data.outcome).toMatch(/^ignored/);
    expect((await orderOf(order.id)).status).toBe('cancelled');
  });

  it('works through the GraphQL twin with the raw payload and signature', async () => {
    const order = await placeOrder(store, [{ entityId }]);
    const signed = signedEvent(paymentSucceeded(order));
    const res = await t.graphql('mutation($p: String!, $s: String!) { paymentWebhookReceive(payload: $p, signature: $s) { received duplicate outcome orderId } }', {
      p: signed.body,
      s: signed.signature,
    });
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.paymentWebhookReceive).toEqual({ received: true, duplicate: false, outcome: 'confirmed', orderId: order.id });
    const bad = await t.graphql('mutation($p: String!, $s: String!) { paymentWebhookReceive(payload: $p, signature: $s) { received } }', { p: signed.body, s: 't=1,v1=00' });
    expect(bad.body.errors![0].extensions.code).toBe('BAD_REQUEST');
  });

  it("acts in the organization of the payment it names, whichever organization's host received it", async () => {
    // One provider account and webhook secret serve the deployment: Stripe sends every event to every endpoint.
    const org = await t.app.services.organizations.create({ slug: `other-${Date.now()}`, name: 'Other' });
    const other = await openStore(t, { organizationId: org.id });
    const otherProduct = await product(other, { price: 900, stock: 5 });
    const foreign = await placeOrder(other, [{ entityId: otherProduct }]);
    const res = await sendWebhook(t, paymentSucceeded(foreign));
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ received: true, duplicate: false, outcome: 'confirmed', orderId: foreign.id });
    expect((await t.request(`/api/orders/${foreign.id}`, { apiKey: other.admin })).body.data.status).toBe('confirmed');
    // The default organization still cannot read it, and the redelivery changes nothing.
    expect((await t.request(`/api/orders/${foreign.id}`, { apiKey: store.admin })).status).toBe(404);
    const event = paymentSucceeded(foreign);
    expect((await sendWebhook(t, event)).body.data).toMatchObject({ duplicate: false, outcome: expect.stringMatching(/^ignored|paid|confirmed/) });
    expect((await sendWebhook(t, event)).body.data).toMatchObject({ duplicate: true });
  });
});
