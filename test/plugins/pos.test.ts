// plugins/pos over HTTP: PINs (set, rotate, never shown), PIN login into a per-shift key of the
// plugin's own scope, the per-operator rate limit and lockout that never tell whether an operator
// exists, single-use short-lived manager overrides audited with both actors, and exchanges made in
// one transaction — a declined charge, missing stock or a used override leave nothing behind.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import SwaggerParser from '@apidevtools/swagger-parser';
import { startTestApp, type TestApp } from '../support/app.js';
import { available, events, ORDER_TEST_CONFIG, openStore, pay, processingOrder, product, placeOrder, setSettings, type Store } from '../orders/helpers.js';
import { moveReturn, openReturn, restockAll } from '../returns/helpers.js';
import { pos } from '../../plugins/pos/index.js';

let t: TestApp;
let store: Store;
/** A register device's own key: pos:operate only (it signs operators in). */
let till: string;
/** Every log line the app writes at debug level and above (a PIN must never be in one). */
const logLines: string[] = [];
const logger = pino(
  { level: 'debug' },
  new Writable({
    write(chunk, _encoding, done) {
      logLines.push(String(chunk));
      done();
    },
  }),
);

const MAX_FAILURES = 3;
const ATTEMPTS = 6;

beforeAll(async () => {
  t = await startTestApp(
    {
      ...ORDER_TEST_CONFIG,
      plugins: [pos({ maxFailures: MAX_FAILURES, pinAttempts: { points: ATTEMPTS, durationSeconds: 600 }, cashierRefundCap: 1000 })],
      apiKeyScopes: { till: { prefix: 'cs_till_', description: 'register device', permissions: { pos: ['operate'] } } },
    },
    { logger },
  );
  store = await openStore(t);
  till = await t.apiKey('till');
});
afterAll(() => t?.close());

const setPin = (operatorId: string, pin: string, apiKey = store.admin) => t.request('/api/pos/auth/pin', { method: 'PUT', apiKey, body: { operatorId, pin } });
const login = (operatorId: string, pin: string, extra: Record<string, unknown> = {}, apiKey = till) =>
  t.request('/api/pos/auth/pin-login', { apiKey, body: { operatorId, pin, registerId: 'till-1', ...extra } });
const override = (apiKey: string, managerId: string, pin: string, action = 'price_override') =>
  t.request('/api/pos/auth/override', { apiKey, body: { managerId, pin, action, reason: 'customer complaint', registerId: 'till-1' } });
/** A manager's no_receipt_return override for these lines and this amount (PIN 2468). */
const approveReturn = (apiKey: string, managerId: string, approval: { currency: string; amount: number; lines: Array<Record<string, unknown>> }, action = 'no_receipt_return') =>
  t.request('/api/pos/auth/override', { apiKey, body: { managerId, pin: '2468', action, ...approval } });

async function operator(role = 'staff', pin = '4321') {
  const user = await t.signIn(role);
  const res = await setPin(user.userId, pin);
  expect(res.status, res.text).toBe(200);
  return user;
}

async function auditEntries(event: string) {
  return t.app.db.auditEntry.findMany({ where: { event }, orderBy: { createdAt: 'asc' } });
}

describe('point-of-sale routes', () => {
  it('are in /api/doc under the pos tag', async () => {
    const doc = await t.request('/api/doc');
    expect(
      Object.keys(doc.body.paths)
        .filter((p) => p.startsWith('/api/pos'))
        .sort(),
    ).toEqual(['/api/pos/auth/override', '/api/pos/auth/pin', '/api/pos/auth/pin-login', '/api/pos/exchanges', '/api/pos/returns']);
    expect(doc.body.paths['/api/pos/auth/pin'].put.tags).toEqual(['pos']);
    expect(JSON.stringify(doc.body.paths['/api/pos/exchanges'].post)).toContain('pos:manage');
    // The document with the plugin's routes is still a valid OpenAPI document.
    await expect(SwaggerParser.validate(structuredClone(doc.body))).resolves.toBeTruthy();
  });
});

describe('PUT /pos/auth/pin', () => {
  it('sets a PIN as a salted scrypt hash, never answering or auditing it; pos:admin only', async () => {
    const cashier = await t.signIn('staff');
    const res = await setPin(cashier.userId, '250107');
    expect(res.status, res.text).toBe(200);
    expect(res.body.data).toEqual({ operatorId: cashier.userId, pinVersion: 1, rotated: false, revokedShiftKeys: 0 });
    expect(res.text).not.toContain('250107');
    const row = await t.app.db.posOperatorPin.findFirstOrThrow({ where: { userId: cashier.userId } });
    expect(row.pinHash).toMatch(/^scrypt\$16384\$8\$1\$[\w-]{22}\$[\w-]{43}$/);
    expect(row.pinHash).not.toContain('250107');
    // Same PIN for another operator: another salt, another hash.
    const other = await operator('staff', '250107');
    const otherRow = await t.app.db.posOperatorPin.findFirstOrThrow({ where: { userId: other.userId } });
    expect(otherRow.pinHash).not.toBe(row.pinHash);
    const [entry] = (await auditEntries('pos.pinSet')).filter((e) => e.entityId === cashier.userId);
    expect(entry).toBeDefined();
    expect(JSON.stringify(entry)).not.toContain('250107');

    for (const bad of ['123', '123456789', '12a4', ' 1234']) {
      const refused = await setPin(cashier.userId, bad);
      expect(refused.status, bad).toBe(422);
      expect(refused.body.error.details.map((d: { field: string }) => d.field)).toEqual(['pin']);
      expect(refused.text).not.toContain(bad.trim() || 'x');
    }
    expect((await setPin('no-such-user', '1234')).status).toBe(404);
    const shopper = await t.signIn('customer');
    expect((await setPin(shopper.userId, '1234')).status).toBe(422);
    expect((await setPin(cashier.userId, '1234', till)).status).toBe(403);
    expect((await t.request('/api/pos/auth/pin', { method: 'PUT', body: { operatorId: cashier.userId, pin: '1234' } })).status).toBe(401);
    // Nothing of the refused calls changed the PIN.
    expect((await login(cashier.userId, '250107')).status).toBe(201);
  });
});

describe('POST /pos/auth/pin-login', () => {
  it('mints a per-shift key of the pos scope (own prefix, pos:operate, one shift by default), shown once', async () => {
    const cashier = await operator();
    const before = Date.now();
    const res = await login(cashier.userId, '4321');
    expect(res.status, res.text).toBe(201);
    const shift = res.body.data;
    expect(shift).toMatchObject({ operatorId: cashier.userId, registerId: 'till-1', scope: 'pos' });
    expect(shift.apiKey).toMatch(/^cs_pos_shift_/);
    const ttl = new Date(shift.expiresAt).getTime() - before;
    expect(ttl).toBeGreaterThan(8 * 3600_000 - 60_000);
    expect(ttl).toBeLessThanOrEqual(8 * 3600_000 + 60_000);
    const row = await t.app.db.apikey.findUniqueOrThrow({ where: { id: shift.apiKeyId } });
    expect(row).toMatchObject({ configId: 'pos', referenceId: cashier.userId, enabled: true });
    expect(row.key).not.toBe(shift.apiKey); // only the hash is stored: the answer was the one showing
    const [entry] = (await auditEntries('pos.pinLogin')).filter((e) => e.entityId === shift.shiftId);
    expect(entry).toMatchObject({ actorType: 'apiKey' });
    expect(JSON.stringify(entry)).not.toContain(shift.apiKey);

    // The key acts as the operator with pos:operate and nothing more.
    const asShift = await login(cashier.userId, '4321', {}, shift.apiKey);
    expect(asShift.status, asShift.text).toBe(201);
    expect((await setPin(cashier.userId, '9999', shift.apiKey)).status).toBe(403);
    expect((await t.request('/api/orders', { apiKey: shift.apiKey })).status).toBe(403);

    // The scope's minimum expiry is 1/96 day (15 minutes).
    const short = await login(cashier.userId, '4321', { shiftMinutes: 15 });
    expect(short.status, short.text).toBe(201);
    expect(new Date(short.body.data.expiresAt).getTime() - Date.now()).toBeLessThanOrEqual(15 * 60_000);
    const tooShort = await login(cashier.userId, '4321', { shiftMinutes: 14 });
    expect(tooShort.status).toBe(422);
    expect(tooShort.body.error.details[0].field).toBe('shiftMinutes');
  });

  it('rotating the PIN revokes the keys minted with the old one', async () => {
    const cashier = await operator('staff', '1111');
    const first = (await login(cashier.userId, '1111')).body.data.apiKey;
    const second = (await login(cashier.userId, '1111', { registerId: 'till-2' })).body.data.apiKey;
    expect((await login(cashier.userId, '1111', {}, first)).status).toBe(201); // works (and is cached)
    const rotated = await setPin(cashier.userId, '2222');
    expect(rotated.body.data).toMatchObject({ pinVersion: 2, rotated: true });
    expect(rotated.body.data.revokedShiftKeys).toBeGreaterThanOrEqual(3);
    for (const key of [first, second]) {
      const refused = await login(cashier.userId, '2222', {}, key);
      expect(refused.status).toBe(401);
    }
    expect((await login(cashier.userId, '1111')).status).toBe(401);
    const fresh = await login(cashier.userId, '2222');
    expect(fresh.status).toBe(201);
    expect((await login(cashier.userId, '2222', {}, fresh.body.data.apiKey)).status).toBe(201);
    expect((await auditEntries('pos.pinRotate')).some((e) => e.entityId === cashier.userId)).toBe(true);
  });

  it('answers an unknown operator, an operator without a PIN and a wrong PIN alike, and locks any id after N wrong PINs', async () => {
    const real = await operator('staff', '8642');
    const noPin = await t.signIn('staff');
    const unknown = `ghost-${Date.now()}`;
    const sequences: Record<string, Array<{ status: number; body: unknown }>> = {};
    for (const [name, id] of [
      ['real', real.userId],
      ['noPin', noPin.userId],
      ['unknown', unknown],
    ] as const) {
      sequences[name] = [];
      for (let i = 0; i < MAX_FAILURES + 1; i += 1) {
        const res = await login(id, '0000');
        sequences[name]!.push({ status: res.status, body: res.body });
      }
    }
    // 401 until the lock, 403 from the N-th failure on: the same statuses and bodies for all three.
    expect(sequences.real!.map((r) => r.status)).toEqual([401, 401, 403, 403]);
    expect(sequences.noPin).toEqual(sequences.real);
    expect(sequences.unknown).toEqual(sequences.real);
    expect((sequences.real![0]!.body as any).error.code).toBe('UNAUTHORIZED');
    expect((sequences.real![0]!.body as any).error.message).not.toMatch(/exist|unknown|no pin/i);

    // Locked: even the right PIN is refused, and the lock is audited.
    expect((await login(real.userId, '8642')).status).toBe(403);
    const locks = (await auditEntries('pos.operatorLock')).filter((e) => e.entityId === real.userId);
    expect(locks).toHaveLength(1);
    expect(locks[0]!.after).toMatchObject({ failures: MAX_FAILURES, maxFailures: MAX_FAILURES });
    // A pos:admin setting the PIN again unlocks.
    expect((await setPin(real.userId, '8642')).status).toBe(200);
    expect((await login(real.userId, '8642')).status).toBe(201);
  });

  it('rate-limits wrong PINs per operator id, even when a good PIN keeps resetting the lockout', async () => {
    const cashier = await operator('staff', '5555');
    const statuses: number[] = [];
    // Two wrong, one right, ...: never MAX_FAILURES in a row, so only the budget of wrong PINs runs out.
    for (let i = 0; i < 9 && statuses.filter((s) => s === 401).length < ATTEMPTS; i += 1) statuses.push((await login(cashier.userId, i % 3 === 2 ? '5555' : '0000')).status);
    expect(statuses).toEqual([401, 401, 201, 401, 401, 201, 401, 401]);
    const limited = await login(cashier.userId, '5555');
    expect(limited.status).toBe(429);
    expect(limited.body.error.code).toBe('TOO_MANY_REQUESTS');
    expect(limited.body.error.details.retryAfter).toBeGreaterThan(0);
    // Another operator's budget is untouched, and good PINs cost nothing (a busy manager is never limited).
    const other = await operator('staff', '6666');
    for (let i = 0; i < ATTEMPTS + 2; i += 1) expect((await login(other.userId, '6666')).status).toBe(201);
  });

  it('never writes a PIN to the logs, whether it is set, accepted, refused or malformed', async () => {
    const pin = '80561937';
    const cashier = await operator('staff', pin);
    expect((await login(cashier.userId, pin)).status).toBe(201);
    expect((await login(cashier.userId, '80561938')).status).toBe(401);
    expect((await setPin(cashier.userId, `${pin}x`)).status).toBe(422);
    expect(logLines.length).toBeGreaterThan(0);
    expect(logLines.filter((line) => line.includes('8056193'))).toEqual([]);
  });

  it('works over GraphQL too: posPinLogin returns the key, a wrong PIN is an UNAUTHORIZED error', async () => {
    const cashier = await operator('staff', '3141');
    const q = 'mutation($o: String!, $p: String!) { posPinLogin(operatorId: $o, pin: $p, registerId: "till-9") { shiftId operatorId registerId apiKeyId scope expiresAt apiKey } }';
    const ok = await t.graphql(q, { o: cashier.userId, p: '3141' }, { apiKey: till });
    expect(ok.body.errors).toBeUndefined();
    expect((ok.body.data as any).posPinLogin).toMatchObject({ operatorId: cashier.userId, registerId: 'till-9', scope: 'pos' });
    expect((ok.body.data as any).posPinLogin.apiKey).toMatch(/^cs_pos_shift_/);
    const bad = await t.graphql(q, { o: cashier.userId, p: '0000' }, { apiKey: till });
    expect(bad.body.errors?.[0]?.extensions?.code).toBe('UNAUTHORIZED');
    expect((bad.body.data as any)?.posPinLogin ?? null).toBeNull();
  });

  it('needs pos:operate', async () => {
    const cashier = await operator('staff', '7777');
    expect((await login(cashier.userId, '7777', {}, store.storefront)).status).toBe(403);
    expect((await t.request('/api/pos/auth/pin-login', { body: { operatorId: cashier.userId, pin: '7777', registerId: 'x' } })).status).toBe(401);
  });
});

// ── exchanges ──

async function handedOver(items: Array<{ entityId: string; quantity?: number }>) {
  const order = await processingOrder(store, items);
  const shipped = await t.request(`/api/orders/${order.id}/fulfillments`, { apiKey: store.admin, body: {} });
  expect(shipped.status, shipped.text).toBe(201);
  return (await t.request(`/api/orders/${order.id}`, { apiKey: store.admin })).body.data;
}

let seq = 0;
const exchange = (body: Record<string, unknown>, apiKey = store.admin) =>
  t.request('/api/pos/exchanges', { apiKey, body: { idempotencyKey: `ex-${Date.now()}-${(seq += 1)}`, registerId: 'till-1', ...body } });

async function snapshot(order: any, entityIds: string[]) {
  const [orders, exchanges, refunds, overrides] = await Promise.all([
    t.app.db.order.count(),
    t.app.db.posExchange.count(),
    t.app.db.orderRefund.count(),
    t.app.db.posOverride.findMany({ select: { id: true, consumedAt: true }, orderBy: { id: 'asc' } }),
  ]);
  const current = (await t.request(`/api/orders/${order.id}`, { apiKey: store.admin })).body.data;
  const stock = await Promise.all(entityIds.map((id) => available(store, id)));
  return { orders, exchanges, refunds, overrides, paymentStatus: current.paymentStatus, refunded: current.lineItems.map((l: any) => l.refundedQuantity), stock };
}

describe('POST /pos/exchanges', () => {
  let shirt: string;
  let jacket: string;
  let socks: string;
  beforeAll(async () => {
    shirt = await product(store, { price: 1000, stock: 20, title: 'Shirt' });
    jacket = await product(store, { price: 1500, stock: 20, title: 'Jacket' });
    socks = await product(store, { price: 200, stock: 1, title: 'Socks' });
  });

  it('returns lines and makes the replacement order in one go, charging the difference; a replay answers the same exchange', async () => {
    const order = await handedOver([{ entityId: shirt, quantity: 2 }]);
    const before = { shirt: await available(store, shirt), jacket: await available(store, jacket) };
    const body = {
      orderId: order.number,
      returnLines: [{ lineItemId: order.lineItems[0].lineItemId, quantity: 1 }],
      newLines: [{ entityId: jacket, quantity: 1 }],
      paymentMethodId: 'pm_card_visa',
      idempotencyKey: `charge-${Date.now()}`,
    };
    const res = await exchange(body);
    expect(res.status, res.text).toBe(201);
    const made = res.body.data;
    expect(made).toMatchObject({ originalOrderId: order.id, credit: 1000, replacementTotal: 1500, difference: 500, settlement: 'charge', replayed: false });
    expect(made.providerReference).toMatch(/^pi_/);

    expect(await available(store, shirt)).toMatchObject({ onHand: before.shirt.onHand + 1 });
    // The core exchange reserves the jacket for the replacement (it was taken off the shelf, sold
    // once the replacement is fulfilled): one fewer available either way.
    expect(await available(store, jacket)).toMatchObject({ onHand: before.jacket.onHand, reserved: before.jacket.reserved + 1, available: before.jacket.available - 1 });
    const original = (await t.request(`/api/orders/${order.id}`, { apiKey: store.admin })).body.data;
    expect(original.paymentStatus).toBe('partially_refunded');
    expect(original.lineItems[0].refundedQuantity).toBe(1);
    // A charged difference is a payment like checkout's: pending until the provider's event confirms the replacement.
    let replacement = (await t.request(`/api/orders/${made.replacementOrderId}`, { apiKey: store.admin })).body.data;
    expect(replacement).toMatchObject({ status: 'pending', grandTotal: 1500, capturedAmount: 1000, currency: original.currency, paymentIntentId: made.providerReference });
    expect(replacement.number).toMatch(/^ORD-\d{4}-\d{6}$/);
    expect(replacement.lineItems).toEqual([expect.objectContaining({ entityId: jacket, quantity: 1, unitPrice: 1500 })]);
    replacement = await pay(store, { id: replacement.id, paymentIntentId: replacement.paymentIntentId, grandTotal: 500 });
    expect(replacement).toMatchObject({ status: 'confirmed', paymentStatus: 'paid', capturedAmount: 1500 });
    // The charge is a payment record of the replacement; the credit is the core exchange's exchange_credit payment: together what it captured.
    const payments = await t.app.db.payment.findMany({ where: { orderId: made.replacementOrderId }, orderBy: { amount: 'asc' } });
    expect(payments.map((p) => [p.provider === 'exchange_credit' ? 'credit' : 'charge', Number(p.amount), p.providerReference?.startsWith('pi_') ?? false])).toEqual([
      ['charge', 500, true],
      ['credit', 1000, false],
    ]);
    const [entry] = (await auditEntries('pos.exchangeCreate')).filter((e) => e.entityId === made.id);
    expect(entry).toBeDefined();

    // The same key again (here over GraphQL): the exchange already made, nothing new.
    const counts = await snapshot(order, [shirt, jacket]);
    const again = await t.graphql(
      'mutation($o: String!, $r: [PosExchangeReturnLineInput!]!, $n: [PosExchangeNewLineInput!]!, $k: String!) { posExchangeCreate(orderId: $o, returnLines: $r, newLines: $n, idempotencyKey: $k, paymentMethodId: "pm_card_visa") { id originalOrderId replacementOrderId credit replacementTotal difference settlement replayed } }',
      { o: body.orderId, r: body.returnLines, n: body.newLines, k: body.idempotencyKey },
      { apiKey: store.admin },
    );
    expect(again.body.errors, JSON.stringify(again.body.errors)).toBeUndefined();
    expect((again.body.data as any).posExchangeCreate).toMatchObject({ id: made.id, replayed: true });
    expect(await snapshot(order, [shirt, jacket])).toEqual(counts);
  });

  it('two concurrent requests with one idempotency key make one exchange', async () => {
    const order = await handedOver([{ entityId: shirt, quantity: 1 }]);
    const before = { orders: await t.app.db.order.count(), jacket: await available(store, jacket) };
    const body = {
      orderId: order.id,
      returnLines: [{ lineItemId: order.lineItems[0].lineItemId, quantity: 1 }],
      newLines: [{ entityId: jacket, quantity: 1 }],
      paymentMethodId: 'pm_card_visa',
      idempotencyKey: `twice-${Date.now()}`,
    };
    const [a, b] = await Promise.all([exchange(body), exchange(body)]);
    expect([a.status, b.status]).toEqual([201, 201]);
    expect(a.body.data.id).toBe(b.body.data.id);
    expect([a.body.data.replayed, b.body.data.replayed].sort()).toEqual([false, true]);
    expect(await t.app.db.order.count()).toBe(before.orders + 1);
    expect((await available(store, jacket)).available).toBe(before.jacket.available - 1);
    expect(await t.app.db.orderReturn.count({ where: { orderId: order.id } })).toBe(1);
  });

  it('a declined charge leaves nothing behind: stock, orders, refunds and the exchange as before', async () => {
    const order = await handedOver([{ entityId: shirt, quantity: 1 }]);
    const before = await snapshot(order, [shirt, jacket]);
    const res = await exchange({
      orderId: order.id,
      returnLines: [{ lineItemId: order.lineItems[0].lineItemId, quantity: 1 }],
      newLines: [{ entityId: jacket, quantity: 1 }],
      paymentMethodId: 'pm_card_chargeDeclined',
    });
    expect(res.status, res.text).toBe(422);
    expect(res.body.error).toMatchObject({ code: 'CHECKOUT_FAILED', details: { reason: 'payment_declined', paymentCode: 'card_declined' } });
    expect(await snapshot(order, [shirt, jacket])).toEqual(before);
  });

  it('refuses what cannot be exchanged with 4xx reasons, writing nothing', async () => {
    const order = await handedOver([{ entityId: shirt, quantity: 1 }]);
    const line = order.lineItems[0].lineItemId;
    const unpaid = await placeOrder(store, [{ entityId: shirt }]);
    const before = await snapshot(order, [shirt, socks, jacket]);
    const tooMany = await exchange({
      orderId: order.id,
      returnLines: [{ lineItemId: line, quantity: 2 }],
      newLines: [{ entityId: jacket, quantity: 1 }],
      paymentMethodId: 'pm_card_visa',
    });
    expect(tooMany.status).toBe(422);
    expect(tooMany.body.error.details).toEqual([{ field: 'returnLines.0.quantity', message: expect.stringContaining('handed over') }]);
    // Not enough socks on hand: 409 after the return was already booked inside the transaction.
    const noStock = await exchange({ orderId: order.id, returnLines: [{ lineItemId: line, quantity: 1 }], newLines: [{ entityId: socks, quantity: 5 }] });
    expect(noStock.status, noStock.text).toBe(409);
    const owes = await exchange({ orderId: order.id, returnLines: [{ lineItemId: line, quantity: 1 }], newLines: [{ entityId: jacket, quantity: 1 }] });
    expect(owes.status).toBe(422);
    expect(owes.body.error.details[0].field).toBe('paymentMethodId');
    const notPaid = await exchange({
      orderId: unpaid.id,
      returnLines: [{ lineItemId: unpaid.lineItems[0].lineItemId, quantity: 1 }],
      newLines: [{ entityId: jacket, quantity: 1 }],
      paymentMethodId: 'pm_card_visa',
    });
    expect(notPaid.status).toBe(409);
    expect(notPaid.body.error.details.reason).toBe('order_not_paid');
    expect(await snapshot(order, [shirt, socks, jacket])).toEqual(before);

    // Permissions and tenancy: a register key cannot exchange; another organization's admin finds no order.
    expect((await exchange({ orderId: order.id, returnLines: [{ lineItemId: line, quantity: 1 }], newLines: [{ entityId: jacket, quantity: 1 }] }, till)).status).toBe(403);
    const other = await t.app.db.organization.create({ data: { slug: `pos-other-${Date.now()}`, name: 'Other store' } });
    const otherAdmin = await t.apiKey('admin', { organizationId: other.id });
    expect(
      (
        await exchange(
          { orderId: order.id, returnLines: [{ lineItemId: line, quantity: 1 }], newLines: [{ entityId: jacket, quantity: 1 }], paymentMethodId: 'pm_card_visa' },
          otherAdmin,
        )
      ).status,
    ).toBe(404);
    expect(await snapshot(order, [shirt, socks, jacket])).toEqual(before);
  });
});

describe('POS exchanges are core exchanges', () => {
  it('makes a core return in status exchanged (GET /api/returns/:id) with the events, audit and payment rows of an exchange made through /api/returns', async () => {
    const shirt = await product(store, { price: 1000, stock: 10, title: 'Shirt' });
    const jacket = await product(store, { price: 1500, stock: 10, title: 'Jacket' });
    const atCounter = await handedOver([{ entityId: shirt, quantity: 1 }]);
    const throughCore = await handedOver([{ entityId: shirt, quantity: 1 }]);

    const res = await exchange({
      orderId: atCounter.id,
      returnLines: [{ lineItemId: atCounter.lineItems[0].lineItemId, quantity: 1 }],
      newLines: [{ entityId: jacket, quantity: 1 }],
      paymentMethodId: 'pm_card_visa',
    });
    expect(res.status, res.text).toBe(201);
    const made = res.body.data;
    expect(made.returnId).toMatch(/^[0-9a-f-]{36}$/);

    const opened = await openReturn(store, throughCore.id, [{ lineItemId: throughCore.lineItems[0].lineItemId, quantity: 1 }], {
      exchangeLines: [{ entityId: jacket, quantity: 1 }],
    });
    expect(opened.status, opened.text).toBe(201);
    expect((await moveReturn(store, opened.body.data.id, 'approve')).status).toBe(200);
    expect((await moveReturn(store, opened.body.data.id, 'receive', restockAll(opened.body.data, store.warehouseId))).status).toBe(200);
    const settled = await moveReturn(store, opened.body.data.id, 'exchange', { paymentMethodId: 'pm_card_visa' });
    expect(settled.status, settled.text).toBe(200);

    const pos = (await t.request(`/api/returns/${made.returnId}`, { apiKey: store.admin })).body.data;
    const core = settled.body.data;
    const shape = (r: any) => ({
      status: r.status,
      isExchange: r.isExchange,
      requestedVia: r.requestedVia,
      lines: r.lines.map((l: any) => ({ entityId: l.entityId, quantity: l.quantity, disposition: l.disposition })),
      exchangeLines: r.exchangeLines.map((l: any) => ({
        entityId: l.entityId,
        quantity: l.quantity,
        unitPrice: l.unitPrice,
        totalPrice: l.totalPrice,
        reservedQuantity: l.reservedQuantity,
      })),
      exchangeTotal: r.exchangeTotal,
      exchangeCredit: r.exchangeCredit,
      exchangeDifference: r.exchangeDifference,
      refundId: r.refundId,
    });
    expect(pos).toMatchObject({
      orderId: atCounter.id,
      exchangeOrderId: made.replacementOrderId,
      status: 'exchanged',
      exchangeCredit: made.credit,
      exchangeDifference: made.difference,
    });
    expect(shape(pos)).toEqual(shape(core));
    expect(shape(pos)).toMatchObject({ exchangeCredit: 1000, exchangeDifference: 500, lines: [{ disposition: 'restock' }] });

    // The same payment rows on both replacement orders: the credit carried over and the charged difference.
    const rows = async (orderId: string) =>
      (await t.app.db.payment.findMany({ where: { orderId }, orderBy: { amount: 'asc' } })).map((p) => ({
        provider: p.provider,
        amount: Number(p.amount),
        authorizedAmount: Number(p.authorizedAmount),
        capturedAmount: Number(p.capturedAmount),
        status: p.status,
        captureMode: p.captureMode,
        method: p.method,
      }));
    const counterRows = await rows(made.replacementOrderId);
    expect(counterRows).toEqual(await rows(core.exchangeOrderId));
    expect(counterRows.map((r) => [r.provider === 'exchange_credit', r.amount])).toEqual([
      [false, 500],
      [true, 1000],
    ]);
    expect(pos.exchangePaymentId).toBeTruthy();

    // The same events and the returns' own audit entries, beside the plugin's.
    for (const type of ['return.created', 'return.approved', 'return.received', 'return.exchanged']) {
      expect(
        (await events(t, type)).filter((e) => e.payload.return.id === made.returnId),
        type,
      ).toHaveLength(1);
    }
    const audit = await t.app.db.auditEntry.findMany({ where: { entityId: made.returnId }, orderBy: { createdAt: 'asc' } });
    expect(audit.map((a) => a.event)).toEqual(['returns.create', 'returns.approve', 'returns.receive', 'returns.exchange']);
    expect((await auditEntries('pos.exchangeCreate')).filter((e) => e.entityId === made.id)).toHaveLength(1);
    // The returned unit cannot come back twice: the core's returnable quantity counts the POS exchange.
    const again = await openReturn(store, atCounter.id, [{ lineItemId: atCounter.lineItems[0].lineItemId, quantity: 1 }]);
    expect(again.status, again.text).toBe(409);
  });

  it('an exchange paid by the credit is handed over at the counter: the replacement confirmed, processing and fulfilled', async () => {
    const shirt = await product(store, { price: 1000, stock: 10, title: 'Shirt' });
    const tee = await product(store, { price: 1000, stock: 10, title: 'Tee' });
    const order = await handedOver([{ entityId: shirt, quantity: 1 }]);
    const before = await available(store, tee);
    const res = await exchange({ orderId: order.id, returnLines: [{ lineItemId: order.lineItems[0].lineItemId, quantity: 1 }], newLines: [{ entityId: tee, quantity: 1 }] });
    expect(res.status, res.text).toBe(201);
    expect(res.body.data).toMatchObject({ credit: 1000, replacementTotal: 1000, difference: 0, settlement: 'none', providerReference: null });
    const replacement = (await t.request(`/api/orders/${res.body.data.replacementOrderId}`, { apiKey: store.admin })).body.data;
    expect(replacement).toMatchObject({ status: 'fulfilled', paymentStatus: 'paid', capturedAmount: 1000 });
    expect(replacement.lineItems).toEqual([expect.objectContaining({ entityId: tee, fulfillmentStatus: 'fulfilled' })]);
    expect(await available(store, tee)).toMatchObject({ onHand: before.onHand - 1, reserved: before.reserved });
    expect((await t.request(`/api/returns/${res.body.data.returnId}`, { apiKey: store.admin })).body.data.status).toBe('exchanged');
  });
});

describe('manager overrides', () => {
  let cashierKey: string;
  let cashierId: string;
  let manager: { userId: string };
  let shirt: string;
  let scarf: string;
  beforeAll(async () => {
    const cashier = await operator('staff', '1357');
    cashierId = cashier.userId;
    cashierKey = (await login(cashier.userId, '1357')).body.data.apiKey;
    manager = await operator('admin', '2468');
    shirt = await product(store, { price: 1000, stock: 20, title: 'Shirt' });
    scarf = await product(store, { price: 800, stock: 20, title: 'Scarf' });
  });

  it('a manager PIN grants a single-use token for one action, audited with both actors; a cashier PIN does not', async () => {
    const res = await override(cashierKey, manager.userId, '2468');
    expect(res.status, res.text).toBe(201);
    expect(res.body.data).toMatchObject({ action: 'price_override', managerId: manager.userId, requestedBy: cashierId });
    expect(res.body.data.token).toMatch(/^pos_ovr_/);
    const [entry] = (await auditEntries('pos.overrideGrant')).filter((e) => e.entityId === res.body.data.overrideId);
    expect(entry).toMatchObject({ actorId: cashierId, actorType: 'apiKey' });
    expect(entry!.after).toMatchObject({ managerId: manager.userId, action: 'price_override' });
    expect(JSON.stringify(entry)).not.toContain(res.body.data.token);

    const notManager = await operator('staff', '9753');
    const refused = await override(cashierKey, notManager.userId, '9753');
    expect(refused.status).toBe(403);
    expect((await override(cashierKey, manager.userId, '0000')).status).toBe(401);
    expect((await override(cashierKey, manager.userId, '2468', 'free_lunch')).status).toBe(422);
  });

  it('a price override is consumed by the exchange that uses it: a second use is 409 and writes nothing', async () => {
    const token = (await override(cashierKey, manager.userId, '2468')).body.data.token;
    const order = await handedOver([{ entityId: shirt, quantity: 2 }]);
    const line = order.lineItems[0].lineItemId;
    const swap = (priceOverrideToken?: string) =>
      exchange({
        orderId: order.id,
        returnLines: [{ lineItemId: line, quantity: 1 }],
        newLines: [{ entityId: scarf, quantity: 1, unitPrice: 500 }],
        ...(priceOverrideToken ? { priceOverrideToken } : {}),
      });

    const without = await swap();
    expect(without.status).toBe(422);
    expect(without.body.error.details[0]).toMatchObject({ field: 'newLines.0.unitPrice' });
    const first = await swap(token);
    expect(first.status, first.text).toBe(201);
    // Credit 1000 for the shirt, 500 for the scarf at the overridden price: 500 back, under the cap.
    expect(first.body.data).toMatchObject({ credit: 1000, replacementTotal: 500, difference: -500, settlement: 'refund' });
    expect(first.body.data.overrideIds).toHaveLength(1);
    // The agreed price is the core exchange's: its outbound line and total.
    const core = (await t.request(`/api/returns/${first.body.data.returnId}`, { apiKey: store.admin })).body.data;
    expect(core).toMatchObject({ status: 'exchanged', exchangeTotal: 500, exchangeDifference: -500, exchangeLines: [{ entityId: scarf, unitPrice: 500, totalPrice: 500 }] });
    // The difference goes through the refund service: within the undo window (15 minutes here) it is pending, not yet at the provider.
    expect(first.body.data.providerReference).toBeNull();
    const refunds = (await t.request(`/api/orders/${order.id}/refunds`, { apiKey: store.admin })).body.data as any[];
    expect(refunds.find((r) => r.id === core.refundId)).toMatchObject({ amount: 500, status: 'pending' });
    const uses = (await auditEntries('pos.overrideUse')).filter((e) => e.entityId === first.body.data.overrideIds[0]);
    expect(uses).toHaveLength(1);
    expect(uses[0]!.after).toMatchObject({ managerId: manager.userId, usedFor: `exchange:${first.body.data.id}` });

    const before = await snapshot(order, [shirt, scarf]);
    const second = await swap(token);
    expect(second.status).toBe(409);
    expect(second.body.error.code).toBe('CONFLICT');
    expect(await snapshot(order, [shirt, scarf])).toEqual(before);
  });

  it('an overridden price is taxed again at the new price, and the difference is against the tax-included total', async () => {
    // A taxed scarf (its own class, 10 %) for an untaxed shirt: only the scarf's line carries tax.
    const cls = await t.request('/api/tax/classes', { apiKey: store.admin, body: { name: `pos-tax-${Date.now()}`, rateBps: 1000 } });
    expect(cls.status, cls.text).toBe(201);
    const taxedScarf = await product(store, { price: 800, stock: 5, title: 'Taxed scarf', taxClassId: cls.body.data.id });
    const token = (await override(cashierKey, manager.userId, '2468')).body.data.token;
    const order = await handedOver([{ entityId: shirt, quantity: 1 }]);
    const res = await exchange({
      orderId: order.id,
      returnLines: [{ lineItemId: order.lineItems[0].lineItemId, quantity: 1 }],
      newLines: [{ entityId: taxedScarf, quantity: 1, unitPrice: 600 }],
      priceOverrideToken: token,
    });
    expect(res.status, res.text).toBe(201);
    // 600 + 10 % = 660 for the scarf (its catalog 800 would have been 880); the shirt was paid 1000: 340 back.
    expect(res.body.data).toMatchObject({ credit: 1000, replacementTotal: 660, difference: -340, settlement: 'refund' });
    const core = (await t.request(`/api/returns/${res.body.data.returnId}`, { apiKey: store.admin })).body.data;
    expect(core).toMatchObject({
      exchangeTotal: 660,
      exchangeTaxTotal: 60,
      exchangeDifference: -340,
      exchangeLines: [{ unitPrice: 600, totalPrice: 600, discountTotal: 0, taxRateBps: 1000, taxTotal: 60 }],
    });
    const replacement = (await t.request(`/api/orders/${res.body.data.replacementOrderId}`, { apiKey: store.admin })).body.data;
    expect(replacement).toMatchObject({ subtotal: 600, taxTotal: 60, discountTotal: 0, shippingTotal: 0, grandTotal: 660, capturedAmount: 660, paymentStatus: 'paid' });
    expect(replacement.lineItems).toMatchObject([{ unitPrice: 600, taxRateBps: 1000, taxTotal: 60 }]);
  });

  it('one token, two exchanges at once: one is made, the other is 409', async () => {
    const token = (await override(cashierKey, manager.userId, '2468')).body.data.token;
    const orders = [await handedOver([{ entityId: shirt, quantity: 1 }]), await handedOver([{ entityId: shirt, quantity: 1 }])];
    const results = await Promise.all(
      orders.map((o) =>
        exchange({
          orderId: o.id,
          returnLines: [{ lineItemId: o.lineItems[0].lineItemId, quantity: 1 }],
          newLines: [{ entityId: scarf, quantity: 1, unitPrice: 900 }],
          priceOverrideToken: token,
        }),
      ),
    );
    expect(results.map((r) => r.status).sort()).toEqual([201, 409]);
    const lost = results.find((r) => r.status === 409)!;
    const lostOrder = orders[results.indexOf(lost)]!;
    const after = (await t.request(`/api/orders/${lostOrder.id}`, { apiKey: store.admin })).body.data;
    expect(after.paymentStatus).toBe('paid');
    expect(after.lineItems[0].refundedQuantity).toBe(0);
  });

  it('an expired token or one granted for another action is 422', async () => {
    const order = await handedOver([{ entityId: shirt, quantity: 1 }]);
    const line = order.lineItems[0].lineItemId;
    const expired = (await override(cashierKey, manager.userId, '2468')).body.data;
    // The token's lifetime, run out (the route would refuse it the same way two minutes from now).
    await t.app.db.posOverride.update({ where: { id: expired.overrideId }, data: { expiresAt: new Date(Date.now() - 1000) } });
    const late = await exchange({
      orderId: order.id,
      returnLines: [{ lineItemId: line, quantity: 1 }],
      newLines: [{ entityId: scarf, quantity: 1, unitPrice: 700 }],
      priceOverrideToken: expired.token,
    });
    expect(late.status).toBe(422);
    expect(late.body.error.details).toEqual([{ field: 'priceOverrideToken', message: expect.stringMatching(/^expired at/) }]);
    const refundToken = (await override(cashierKey, manager.userId, '2468', 'refund_over_cap')).body.data.token;
    const wrong = await exchange({
      orderId: order.id,
      returnLines: [{ lineItemId: line, quantity: 1 }],
      newLines: [{ entityId: scarf, quantity: 1, unitPrice: 700 }],
      priceOverrideToken: refundToken,
    });
    expect(wrong.status).toBe(422);
    expect(wrong.body.error.details[0].message).toMatch(/authorizes refund_over_cap/);
    expect((await t.app.db.posOverride.findFirstOrThrow({ where: { id: expired.overrideId } })).consumedAt).toBeNull();
  });

  it("a return without a receipt needs a manager's no_receipt_return token, consumed once with the stock and the payout", async () => {
    const ret = (overrideToken: string, apiKey = cashierKey) =>
      t.request('/api/pos/returns', {
        apiKey,
        body: {
          currency: 'USD',
          lines: [{ entityId: scarf, quantity: 2 }],
          refundMethod: 'cash',
          overrideToken,
          idempotencyKey: `ret-${Date.now()}-${(seq += 1)}`,
          registerId: 'till-1',
        },
      });
    const before = await available(store, scarf);
    const priceToken = (await override(cashierKey, manager.userId, '2468', 'price_override')).body.data.token;
    const wrongAction = await ret(priceToken);
    expect(wrongAction.status).toBe(422);
    expect(wrongAction.body.error.details[0]).toMatchObject({ field: 'overrideToken', message: 'authorizes price_override, not no_receipt_return' });
    expect((await ret('pos_ovr_made_up')).status).toBe(422);
    expect(await available(store, scarf)).toEqual(before);

    const token = (await approveReturn(cashierKey, manager.userId, { currency: 'USD', amount: 1600, lines: [{ entityId: scarf, quantity: 2 }] })).body.data;
    expect((await ret(token.token, store.storefront)).status).toBe(403);
    const taken = await ret(token.token);
    expect(taken.status, taken.text).toBe(201);
    expect(taken.body.data).toMatchObject({ amount: 1600, currency: 'USD', refundMethod: 'cash', overrideId: token.overrideId, createdBy: cashierId, replayed: false });
    expect(await available(store, scarf)).toMatchObject({ onHand: before.onHand + 2 });
    const [entry] = (await auditEntries('pos.returnCreate')).filter((e) => e.entityId === taken.body.data.id);
    expect(entry).toMatchObject({ actorId: cashierId });
    const [use] = (await auditEntries('pos.overrideUse')).filter((e) => e.entityId === token.overrideId);
    expect(use!.after).toMatchObject({ managerId: manager.userId, usedFor: `return:${taken.body.data.id}` });

    const again = await ret(token.token);
    expect(again.status).toBe(409);
    expect(await available(store, scarf)).toMatchObject({ onHand: before.onHand + 2 });
    expect(await t.app.db.posReturn.count({ where: { overrideId: token.overrideId } })).toBe(1);
  });

  it('a no_receipt_return override approves the lines and amount in its request; a return that asks for more is refused, the token kept', async () => {
    const ret = (overrideToken: string, lines: Array<Record<string, unknown>>) =>
      t.request('/api/pos/returns', {
        apiKey: cashierKey,
        body: { currency: 'USD', lines, refundMethod: 'cash', overrideToken, idempotencyKey: `ret-${Date.now()}-${(seq += 1)}` },
      });
    // The manager approves something definite: no lines or amount, no token.
    const vague = await override(cashierKey, manager.userId, '2468', 'no_receipt_return');
    expect(vague.status).toBe(422);
    expect(vague.body.error.details.map((d: { field: string }) => d.field).sort()).toEqual(['amount', 'currency', 'lines']);
    const notForThis = await approveReturn(cashierKey, manager.userId, { currency: 'USD', amount: 800, lines: [{ entityId: scarf, quantity: 1 }] }, 'price_override');
    expect(notForThis.status).toBe(422);

    const before = await available(store, scarf);
    const approved = (await approveReturn(cashierKey, manager.userId, { currency: 'USD', amount: 1600, lines: [{ entityId: scarf, quantity: 2 }] })).body.data;
    // The finding: one token refunded 2,000,000 minor units and restocked 2000 units.
    for (const lines of [
      [{ entityId: scarf, quantity: 1000 }],
      [{ entityId: scarf, quantity: 1 }],
      [{ entityId: shirt, quantity: 2 }],
      [
        { entityId: scarf, quantity: 2 },
        { entityId: shirt, quantity: 1 },
      ],
    ]) {
      const refused = await ret(approved.token, lines);
      expect(refused.status, refused.text).toBe(403);
      expect(refused.body.error.code).toBe('FORBIDDEN');
    }
    expect(await available(store, scarf)).toEqual(before);
    expect((await t.app.db.posOverride.findFirstOrThrow({ where: { id: approved.overrideId } })).consumedAt).toBeNull();
    // Exactly what was approved: taken, for the price-list value within the approved amount.
    const taken = await ret(approved.token, [{ entityId: scarf, quantity: 2 }]);
    expect(taken.status, taken.text).toBe(201);
    expect(taken.body.data.amount).toBe(1600);

    // An amount below the goods' value is a cap the return cannot exceed.
    const capped = (await approveReturn(cashierKey, manager.userId, { currency: 'USD', amount: 1000, lines: [{ entityId: scarf, quantity: 2 }] })).body.data;
    const over = await ret(capped.token, [{ entityId: scarf, quantity: 2 }]);
    expect(over.status, over.text).toBe(403);
    expect(over.body.error.message).toMatch(/1600.*1000|1000.*1600/);
    expect(await available(store, scarf)).toMatchObject({ onHand: before.onHand + 2 });
  });

  it('a refund over the cashier cap needs a refund_over_cap token', async () => {
    const order = await handedOver([{ entityId: shirt, quantity: 2 }]);
    const line = order.lineItems[0].lineItemId;
    const body = { orderId: order.id, returnLines: [{ lineItemId: line, quantity: 2 }], newLines: [{ entityId: scarf, quantity: 1 }] };
    const refused = await exchange(body);
    expect(refused.status).toBe(422);
    expect(refused.body.error.details[0]).toMatchObject({ field: 'refundOverrideToken' });
    const token = (await override(cashierKey, manager.userId, '2468', 'refund_over_cap')).body.data.token;
    // Without an undo window the refund service pays the difference out in the request.
    await setSettings(store, 'policies', { refundUndoWindowMinutes: 0 });
    const ok = await exchange({ ...body, refundOverrideToken: token });
    expect(ok.status, ok.text).toBe(201);
    expect(ok.body.data).toMatchObject({ credit: 2000, replacementTotal: 800, difference: -1200, settlement: 'refund' });
    expect(ok.body.data.providerReference).toMatch(/^re_/);
    const original = (await t.request(`/api/orders/${order.id}`, { apiKey: store.admin })).body.data;
    // Everything captured came back: 800 as credit toward the scarf, 1200 to the card. (The payment
    // status the core derives after an exchange's refund is being fixed in returns/exchange.ts; the
    // amounts are what this route owes the counter.)
    expect(original).toMatchObject({ capturedAmount: 2000, refundedAmount: 2000 });
    expect(ok.body.data.settlement).toBe('refund');
  });
});
