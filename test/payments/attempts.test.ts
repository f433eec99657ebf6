// Payment attempts that end without a payment (payments/attempts.ts): a payment's id and provider
// key are derived from its logical attempt so that a retry after a crash reuses the provider's
// authorization (test/reliability/killed-authorization.test.ts). An attempt that ended while the
// process lived must not be reused: a decline (the provider would answer its stored decline to
// the same key, even after the shopper topped up the card) and an authorization given back when
// the transaction rolled back (a voided authorization must not carry the next order). Both are
// recorded, and the next try asks the provider afresh under a new key. The offline provider keeps
// Stripe's idempotency (same key → the stored answer, not logged again), so its call log shows
// what really reached it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { ORDER_TEST_CONFIG, checkout, guestCart, openStore, product, type Store } from '../orders/helpers.js';

let t: TestApp;
let store: Store;

beforeAll(async () => {
  t = await startTestApp(ORDER_TEST_CONFIG);
  store = await openStore(t);
});
afterAll(() => t?.close());

type Call = { kind: string; idempotencyKey: string; input: Record<string, unknown>; result: Record<string, unknown> };
const providerLog = () => (t.app.services.payments.provider as unknown as { log: Call[] }).log;

describe('payment attempts', () => {
  it('a decline ends the attempt: the same checkout again asks the provider again, under a new key', async () => {
    const entityId = await product(store, { price: 900, stock: 5 });
    const cart = await guestCart(store, [{ entityId }]);
    const from = providerLog().length;
    for (let i = 0; i < 2; i += 1) {
      const res = await checkout(store, cart, { paymentMethodId: 'pm_card_chargeDeclined', body: { idempotencyKey: 'declined-twice' } });
      expect(res.status, res.text).toBe(422);
      expect(res.body.error.details).toMatchObject({ step: 'payment', paymentCode: 'card_declined' });
    }
    const calls = providerLog()
      .slice(from)
      .filter((c) => c.kind === 'authorize');
    expect(calls.map((c) => c.result.status)).toEqual(['failed', 'failed']);
    expect(new Set(calls.map((c) => c.idempotencyKey)).size).toBe(2);
    expect(await t.app.db.paymentAttemptEnd.count({ where: { reason: 'declined' } })).toBeGreaterThanOrEqual(2);
  });

  it('a transaction that fails after the authorization gives it back and ends the attempt: the retry authorizes anew', async () => {
    const entityId = await product(store, { price: 1100, stock: 5 });
    const cart = await guestCart(store, [{ entityId }]);
    // The fault: the first insert of a payment row raises (a sequence, so the count outlives the rollback).
    await t.app.db.$executeRawUnsafe('create sequence attempts_fault');
    await t.app.db.$executeRawUnsafe(`
      create function attempts_fault() returns trigger language plpgsql as $$
      begin
        if nextval('attempts_fault') = 1 then raise exception 'fault drill: the payment insert fails once'; end if;
        return new;
      end $$`);
    await t.app.db.$executeRawUnsafe('create trigger attempts_fault before insert on payments for each row execute function attempts_fault()');
    try {
      const from = providerLog().length;
      const failed = await checkout(store, cart, { body: { idempotencyKey: 'rolled-back' } });
      expect(failed.status, failed.text).toBe(500);
      expect(await t.app.db.order.count({ where: { cartId: cart.id } })).toBe(0);
      const retry = await checkout(store, cart, { body: { idempotencyKey: 'rolled-back' } });
      expect(retry.status, retry.text).toBe(201);
      const calls = providerLog().slice(from);
      expect(calls.map((c) => c.kind)).toEqual(['authorize', 'void', 'authorize']);
      const [first, voided, second] = calls as [Call, Call, Call];
      expect(voided.input.providerReference).toBe(first.result.providerReference);
      expect(second.idempotencyKey).not.toBe(first.idempotencyKey);
      expect(retry.body.data.paymentIntentId).toBe(second.result.providerReference);
      const payments = await t.app.db.payment.findMany({ where: { orderId: retry.body.data.id } });
      expect(payments.map((p) => p.providerReference)).toEqual([second.result.providerReference]);
    } finally {
      await t.app.db.$executeRawUnsafe('drop trigger attempts_fault on payments');
    }
  });
});
