// Refunds: amounts from the order's own prices, quantity limits, the daily cap per operator in
// the organization's timezone, the undo window, and settlement through the payment provider.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { ORDER_TEST_CONFIG, openStore, pay, placeOrder, product, setSettings, unique, type Store } from './helpers.js';

let t: TestApp;
let store: Store;

beforeAll(async () => {
  t = await startTestApp(ORDER_TEST_CONFIG);
  store = await openStore(t);
});
afterAll(() => t?.close());

function refund(orderId: string, lines: Array<{ lineItemId: string; quantity: number }>, options: { reason?: string; apiKey?: string; bearer?: string } = {}) {
  return t.request(`/api/orders/${orderId}/refunds`, {
    apiKey: options.bearer ? undefined : (options.apiKey ?? store.admin),
    bearer: options.bearer,
    body: { lines, ...(options.reason !== undefined ? { reason: options.reason } : {}) },
  });
}

async function paidOrder(items: Array<{ entityId: string; quantity?: number }>, body?: Record<string, unknown>) {
  return pay(store, await placeOrder(store, items, body ? { body } : {}));
}

function offlineLog() {
  return (t.app.services.payments.provider as unknown as { log: Array<{ kind: string; idempotencyKey: string; input: Record<string, unknown> }> }).log;
}

describe('refund amounts and limits', () => {
  it('derives the amount from the line price, its discount share and its tax; all units add up to the line', async () => {
    const tax = await t.request('/api/tax/classes', { apiKey: store.admin, body: { name: unique('vat').toLowerCase(), rateBps: 1000 } });
    const p = await product(store, { price: 333, stock: 10, taxClassId: tax.body.data.id });
    const order = await paidOrder([{ entityId: p, quantity: 3 }]);
    const line = order.lineItems[0];
    // 3 × 333 = 999, tax 10 % = 99.9 → 100: the line is worth 1099.
    expect(line).toMatchObject({ totalPrice: 999, taxTotal: 100, discountTotal: 0 });

    const one = await refund(order.id, [{ lineItemId: line.lineItemId, quantity: 1 }], { reason: 'damaged' });
    expect(one.status, one.text).toBe(201);
    expect(one.body.data).toMatchObject({ amount: 366, currency: 'USD', reason: 'damaged', status: 'pending', lines: [{ lineItemId: line.lineItemId, quantity: 1, amount: 366 }] });
    const two = await refund(order.id, [{ lineItemId: line.lineItemId, quantity: 2 }]);
    expect(two.body.data.amount).toBe(1099 - 366);

    const after = (await t.request(`/api/orders/${order.id}`, { apiKey: store.admin })).body.data;
    expect(after.lineItems[0].refundedQuantity).toBe(3);
    expect(after.refundedAmount).toBe(1099);
  });

  it('refuses a line above quantity − refundedQuantity with 422', async () => {
    const p = await product(store, { price: 100, stock: 10 });
    const order = await paidOrder([{ entityId: p, quantity: 2 }]);
    const line = order.lineItems[0].lineItemId;
    const over = await refund(order.id, [{ lineItemId: line, quantity: 3 }]);
    expect(over.status).toBe(422);
    expect(over.body.error.code).toBe('VALIDATION_FAILED');
    expect(over.body.error.details[0].field).toBe('lines.0.quantity');
    expect((await refund(order.id, [{ lineItemId: line, quantity: 2 }])).status).toBe(201);
    expect((await refund(order.id, [{ lineItemId: line, quantity: 1 }])).status).toBe(422);
    // The same line twice in one request counts together.
    const other = await paidOrder([{ entityId: p, quantity: 2 }]);
    const twice = await refund(other.id, [
      { lineItemId: other.lineItems[0].lineItemId, quantity: 1 },
      { lineItemId: other.lineItems[0].lineItemId, quantity: 2 },
    ]);
    expect(twice.status).toBe(422);
  });

  it.each([
    [{ lines: [] }, 'lines'],
    [{ lines: [{ lineItemId: '00000000-0000-4000-8000-000000000000', quantity: 1 }] }, 'lines.0.lineItemId'],
    [{ lines: 'all' }, 'lines'],
    [{ reason: 'x'.repeat(501) }, 'reason'],
  ])('refuses bad input %# with 422', async (patch, field) => {
    const p = await product(store, { price: 100, stock: 10 });
    const order = await paidOrder([{ entityId: p }]);
    const res = await t.request(`/api/orders/${order.id}/refunds`, {
      apiKey: store.admin,
      body: { lines: [{ lineItemId: order.lineItems[0].lineItemId, quantity: 1 }], ...patch },
    });
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe('VALIDATION_FAILED');
    expect(JSON.stringify(res.body.error)).toContain(field);
  });

  it('accepts a reason of exactly 500 characters', async () => {
    const p = await product(store, { price: 100, stock: 10 });
    const order = await paidOrder([{ entityId: p }]);
    expect((await refund(order.id, [{ lineItemId: order.lineItems[0].lineItemId, quantity: 1 }], { reason: 'x'.repeat(500) })).status).toBe(201);
  });

  it('never refunds more than was captured: nothing before payment (409)', async () => {
    const p = await product(store, { price: 100, stock: 10 });
    const unpaid = await placeOrder(store, [{ entityId: p }]);
    const res = await refund(unpaid.id, [{ lineItemId: unpaid.lineItems[0].lineItemId, quantity: 1 }]);
    expect(res.status).toBe(409);
  });

  it('needs orders:update; customers cannot refund', async () => {
    const p = await product(store, { price: 100, stock: 10 });
    const order = await paidOrder([{ entityId: p }]);
    const customer = await t.signIn('customer');
    expect((await refund(order.id, [{ lineItemId: order.lineItems[0].lineItemId, quantity: 1 }], { bearer: customer.token })).status).toBe(403);
    expect((await t.request(`/api/orders/${order.id}/refunds`, { body: { lines: [] } })).status).toBe(401);
  });
});

describe('daily refund cap', () => {
  it('gives 403 past the operator cap and reports usage at /orders/refunds/cap', async () => {
    await setSettings(store, 'general', { timezone: 'Pacific/Auckland' });
    await setSettings(store, 'policies', { refundDailyCap: 500 });
    const operator = await t.signIn('staff');
    const other = await t.signIn('staff');
    const p = await product(store, { price: 200, stock: 20 });
    const order = await paidOrder([{ entityId: p, quantity: 5 }]);
    const line = order.lineItems[0].lineItemId;

    expect((await refund(order.id, [{ lineItemId: line, quantity: 2 }], { bearer: operator.token })).status).toBe(201);
    const capped = await refund(order.id, [{ lineItemId: line, quantity: 1 }], { bearer: operator.token });
    expect(capped.status).toBe(403);
    expect(capped.body.error.code).toBe('FORBIDDEN');
    expect(capped.body.error.details).toMatchObject({ cap: 500, used: 400, requested: 200, remaining: 100 });

    const status = await t.request('/api/orders/refunds/cap', { bearer: operator.token });
    expect(status.status).toBe(200);
    const dayInAuckland = new Intl.DateTimeFormat('en-CA', { timeZone: 'Pacific/Auckland', year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date());
    expect(status.body.data).toMatchObject({ operatorId: operator.userId, cap: 500, used: 400, remaining: 100, timezone: 'Pacific/Auckland', day: dayInAuckland });
    expect(new Date(status.body.data.resetsAt).getTime()).toBeGreaterThan(Date.now());

    // The cap is per operator.
    expect((await refund(order.id, [{ lineItemId: line, quantity: 2 }], { bearer: other.token })).status).toBe(201);
    expect((await t.request('/api/orders/refunds/cap', { bearer: other.token })).body.data.used).toBe(400);
    await setSettings(store, 'policies', { refundDailyCap: null });
    await setSettings(store, 'general', { timezone: null });
  });

  it('holds the cap under concurrent refunds of one operator', async () => {
    await setSettings(store, 'policies', { refundDailyCap: 300 });
    const operator = await t.signIn('staff');
    const p = await product(store, { price: 100, stock: 50 });
    const orders = await Promise.all(Array.from({ length: 6 }, () => paidOrder([{ entityId: p }])));
    const results = await Promise.all(orders.map((o) => refund(o.id, [{ lineItemId: o.lineItems[0].lineItemId, quantity: 1 }], { bearer: operator.token })));
    expect(results.filter((r) => r.status === 201)).toHaveLength(3);
    expect(results.filter((r) => r.status === 403)).toHaveLength(3);
    await setSettings(store, 'policies', { refundDailyCap: null });
  });

  it('reports no cap when none is configured', async () => {
    const res = await t.request('/api/orders/refunds/cap', { apiKey: store.admin });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ cap: null, remaining: null });
    expect((await t.request('/api/orders/refunds/cap', { apiKey: store.storefront })).status).toBe(403);
  });
});

describe('undo and settlement', () => {
  it('undoes a refund inside the window; the quantities come back and the cap is freed', async () => {
    const p = await product(store, { price: 100, stock: 10 });
    const order = await paidOrder([{ entityId: p, quantity: 2 }]);
    const line = order.lineItems[0].lineItemId;
    const created = await refund(order.id, [{ lineItemId: line, quantity: 2 }]);
    expect(created.body.data.status).toBe('pending');
    const deadline = new Date(created.body.data.undoDeadline).getTime();
    expect(deadline - new Date(created.body.data.createdAt).getTime()).toBe(15 * 60_000);

    const undone = await t.request(`/api/orders/${order.id}/refunds/${created.body.data.id}/undo`, { method: 'POST', apiKey: store.admin });
    expect(undone.status).toBe(200);
    expect(undone.body.data.status).toBe('undone');
    expect(undone.body.data.undoneAt).toBeTruthy();
    const after = (await t.request(`/api/orders/${order.id}`, { apiKey: store.admin })).body.data;
    expect(after.lineItems[0].refundedQuantity).toBe(0);
    expect(after.refundedAmount).toBe(0);
    expect((await t.request(`/api/orders/${order.id}/refunds/${created.body.data.id}/undo`, { method: 'POST', apiKey: store.admin })).status).toBe(409);
    // Nothing reached the provider.
    expect(offlineLog().some((c) => c.kind === 'refund' && c.input.refundId === created.body.data.id)).toBe(false);

    const list = await t.request(`/api/orders/${order.id}/refunds`, { apiKey: store.admin });
    expect(list.body.data.map((r: any) => [r.id, r.status])).toEqual([[created.body.data.id, 'undone']]);
  });

  it('blocks the undo after the window (here a window of 0) and settles through the adapter at once', async () => {
    await setSettings(store, 'policies', { refundUndoWindowMinutes: 0 });
    const p = await product(store, { price: 100, stock: 10 });
    const order = await paidOrder([{ entityId: p, quantity: 2 }]);
    const created = await refund(order.id, [{ lineItemId: order.lineItems[0].lineItemId, quantity: 2 }]);
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({ status: 'succeeded' });
    expect(created.body.data.providerRefundId).toMatch(/^re_/);
    const call = offlineLog().find((c) => c.kind === 'refund' && c.input.refundId === created.body.data.id);
    expect(call?.input).toMatchObject({ providerReference: order.paymentIntentId, amount: 200, currency: 'USD' });
    // The key is derived from our records: <payment>:refund:<refund>:<attempt>.
    expect(call?.idempotencyKey).toBe(`${call?.input.paymentId}:refund:${created.body.data.id}:1`);
    const blocked = await t.request(`/api/orders/${order.id}/refunds/${created.body.data.id}/undo`, { method: 'POST', apiKey: store.admin });
    expect(blocked.status).toBe(409);
    expect(blocked.body.error.message).toMatch(/undo window/);
    expect((await t.request(`/api/orders/${order.id}`, { apiKey: store.admin })).body.data.paymentStatus).toBe('refunded');
    await setSettings(store, 'policies', { refundUndoWindowMinutes: null });
  });

  it('pays a refund out through the orders/settle-refund job once its window has closed', async () => {
    const p = await product(store, { price: 100, stock: 10 });
    const order = await paidOrder([{ entityId: p, quantity: 2 }]);
    const created = await refund(order.id, [{ lineItemId: order.lineItems[0].lineItemId, quantity: 1 }]);
    const id = created.body.data.id;
    const job = await t.app.db.job.findFirst({ where: { taskSlug: 'orders/settle-refund', input: { path: ['refundId'], equals: id } } });
    expect(job).not.toBeNull();
    expect(job!.waitUntil!.getTime()).toBeGreaterThan(Date.now() + 14 * 60_000);
    // Time travel: the window closed and the job is due.
    await t.app.db.orderRefund.update({ where: { id }, data: { undoDeadline: new Date(Date.now() - 1000) } });
    await t.app.db.job.update({ where: { id: job!.id }, data: { waitUntil: new Date(Date.now() - 1000) } });
    const run = await t.request('/api/jobs/run?limit=50', { apiKey: store.admin });
    expect(run.status, run.text).toBe(200);
    const ran = await t.app.db.job.findUniqueOrThrow({ where: { id: job!.id } });
    expect(ran.status, `${ran.error} ${run.text}`).toBe('succeeded');
    const settled = (await t.request(`/api/orders/${order.id}/refunds`, { apiKey: store.admin })).body.data[0];
    expect(settled).toMatchObject({ id, status: 'succeeded' });
    expect(offlineLog().filter((c) => c.kind === 'refund' && c.input.refundId === id)).toHaveLength(1);
    expect((await t.request(`/api/orders/${order.id}`, { apiKey: store.admin })).body.data.paymentStatus).toBe('partially_refunded');
    expect((await t.request(`/api/orders/${order.id}/refunds/${id}/undo`, { method: 'POST', apiKey: store.admin })).status).toBe(409);
  });

  it('answers 404 for a refund of another order', async () => {
    const p = await product(store, { price: 100, stock: 10 });
    const a = await paidOrder([{ entityId: p }]);
    const b = await paidOrder([{ entityId: p }]);
    const created = await refund(a.id, [{ lineItemId: a.lineItems[0].lineItemId, quantity: 1 }]);
    expect((await t.request(`/api/orders/${b.id}/refunds/${created.body.data.id}/undo`, { method: 'POST', apiKey: store.admin })).status).toBe(404);
  });

  it('refunds over GraphQL', async () => {
    const p = await product(store, { price: 100, stock: 10 });
    const order = await paidOrder([{ entityId: p }]);
    const res = await t.graphql(
      'mutation($id: String!, $lines: [OrderLineQuantityInput!]!) { orderRefundCreate(id: $id, lines: $lines, reason: "gql") { amount status lines { quantity } } }',
      { id: order.number, lines: [{ lineItemId: order.lineItems[0].lineItemId, quantity: 1 }] },
      { apiKey: store.admin },
    );
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.orderRefundCreate).toMatchObject({ amount: 100, status: 'pending', lines: [{ quantity: 1 }] });
  });
});
