// Exchanges (issue 27 item 2): a return opened with exchangeLines. Creation prices and reserves the
// outbound lines in its transaction (409 without stock, nothing written); reject, cancel and close
// release the reservation; exchange (received → exchanged) makes the replacement order holding that
// reservation and settles the difference: even (nothing moves through the provider), positive
// (authorized through the provider, the provider's event confirms the replacement), negative
// (refunded through the refund service). The state table of an exchange, every legal and illegal
// move over REST and GraphQL; the customer portal (own orders only); the race for the last unit.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { race } from '../support/race.js';
import { available, events, ORDER_TEST_CONFIG, openStore, pay, product, setSettings, type Store } from '../orders/helpers.js';
import { customerOrder, moveReturn, openReturn, restockAll, ship, shippedOrder } from './helpers.js';
import { otherOrganization } from '../inventory/helpers.js';

let t: TestApp;
let store: Store;

beforeAll(async () => {
  t = await startTestApp(ORDER_TEST_CONFIG);
  store = await openStore(t);
  await setSettings(store, 'policies', { refundUndoWindowMinutes: 0 });
});
afterAll(() => t?.close());

type Call = { kind: string; input: Record<string, any> };
function providerLog(): Call[] {
  return (t.app.services.payments.provider as unknown as { log: Call[] }).log;
}

/** The returned line's net (tax and discount included): what the refund rules credit for all its units. */
const lineNet = (line: any) => line.totalPrice - line.discountTotal + line.taxTotal;

function openExchange(orderId: string, lines: Array<{ lineItemId: string; quantity: number }>, exchangeLines: Array<{ entityId: string; quantity: number }>) {
  return openReturn(store, orderId, lines, { exchangeLines });
}

async function receivedExchange(order: any, outbound: string, quantity = 1): Promise<any> {
  const opened = await openExchange(order.id, [{ lineItemId: order.lineItems[0].lineItemId, quantity: 1 }], [{ entityId: outbound, quantity }]);
  expect(opened.status, opened.text).toBe(201);
  expect((await moveReturn(store, opened.body.data.id, 'approve')).status).toBe(200);
  const received = await moveReturn(store, opened.body.data.id, 'receive', restockAll(opened.body.data, store.warehouseId));
  expect(received.status, received.text).toBe(200);
  return received.body.data;
}

describe('opening an exchange', () => {
  it('prices the outbound lines, reserves their stock in the same transaction and emits return.created', async () => {
    const shirt = await product(store, { price: 1000, stock: 5 });
    const other = await product(store, { price: 1500, stock: 3 });
    const order = await shippedOrder(store, [{ entityId: shirt, quantity: 1 }]);
    const res = await openExchange(order.id, [{ lineItemId: order.lineItems[0].lineItemId, quantity: 1 }], [{ entityId: other, quantity: 2 }]);
    expect(res.status, res.text).toBe(201);
    expect(res.body.data).toMatchObject({
      status: 'requested',
      isExchange: true,
      exchangeTotal: 3000,
      exchangeCredit: 0,
      exchangeDifference: 0,
      exchangePaymentId: null,
      exchangeLines: [{ entityId: other, quantity: 2, unitPrice: 1500, totalPrice: 3000, reservedQuantity: 2 }],
    });
    expect(res.body.data.exchangeOrderId).toMatch(/^[0-9a-f-]{36}$/);
    expect(await available(store, other)).toMatchObject({ onHand: 3, reserved: 2, available: 1 });
    const created = (await events(t, 'return.created')).filter((e) => e.payload.return.id === res.body.data.id);
    expect(created[0]!.payload.return.exchangeLines).toHaveLength(1);

    // A plain return says so.
    const plain = await openReturn(store, order.id, [{ lineItemId: order.lineItems[0].lineItemId, quantity: 1 }]);
    expect(plain.status, plain.text).toBe(409); // the only unit is in the exchange
  });

  it('refuses an outbound line without stock (409) or unsellable (422), writing nothing', async () => {
    const shirt = await product(store, { price: 1000, stock: 5 });
    const scarce = await product(store, { price: 1000, stock: 1 });
    const order = await shippedOrder(store, [{ entityId: shirt, quantity: 1 }]);
    const lines = [{ lineItemId: order.lineItems[0].lineItemId, quantity: 1 }];
    const short = await openExchange(order.id, lines, [{ entityId: scarce, quantity: 2 }]);
    expect(short.status, short.text).toBe(409);
    expect(short.body.error.details.reason).toBe('insufficient_stock');
    const unknown = await openExchange(order.id, lines, [{ entityId: '00000000-0000-4000-8000-000000000000', quantity: 1 }]);
    expect(unknown.status, unknown.text).toBe(422);
    expect(unknown.body.error.details[0].field).toBe('exchangeLines.0.entityId');
    const zero = await openExchange(order.id, lines, [{ entityId: scarce, quantity: 0 }]);
    expect(zero.status).toBe(422);
    expect(await t.app.db.orderReturn.count({ where: { orderId: order.id } })).toBe(0);
    expect(await available(store, scarce)).toMatchObject({ onHand: 1, reserved: 0 });
  });

  for (const [end, path] of [
    ['reject', []],
    ['cancel', ['approve']],
    ['close', ['approve', 'receive']],
  ] as const) {
    it(`${end} releases the outbound reservation`, async () => {
      const shirt = await product(store, { price: 1000, stock: 5 });
      const other = await product(store, { price: 900, stock: 4 });
      const order = await shippedOrder(store, [{ entityId: shirt, quantity: 1 }]);
      const opened = await openExchange(order.id, [{ lineItemId: order.lineItems[0].lineItemId, quantity: 1 }], [{ entityId: other, quantity: 3 }]);
      expect(opened.status, opened.text).toBe(201);
      expect((await available(store, other)).reserved).toBe(3);
      for (const action of path)
        expect((await moveReturn(store, opened.body.data.id, action, action === 'receive' ? restockAll(opened.body.data, store.warehouseId) : {})).status).toBe(200);
      const ended = await moveReturn(store, opened.body.data.id, end);
      expect(ended.status, ended.text).toBe(200);
      expect(ended.body.data.exchangeLines[0].reservedQuantity).toBe(0);
      expect(await available(store, other)).toMatchObject({ onHand: 4, reserved: 0, available: 4 });
      // Nothing was made: no replacement order.
      expect(await t.app.db.order.count({ where: { id: opened.body.data.exchangeOrderId } })).toBe(0);
    });
  }
});

describe('settling an exchange', () => {
  it('even: the credit pays the replacement, which is confirmed and paid; nothing moves through the provider', async () => {
    const shirt = await product(store, { price: 1200, stock: 5 });
    const order = await shippedOrder(store, [{ entityId: shirt, quantity: 1 }]);
    const ret = await receivedExchange(order, shirt);
    const calls = providerLog().length;
    const res = await moveReturn(store, ret.id, 'exchange');
    expect(res.status, res.text).toBe(200);
    const credit = lineNet(order.lineItems[0]);
    expect(res.body.data).toMatchObject({ status: 'exchanged', exchangeCredit: credit, exchangeDifference: 1200 - credit, refundId: null });
    if (credit === 1200) expect(providerLog().length).toBe(calls);
    const replacement = (await t.request(`/api/orders/${ret.exchangeOrderId}`, { apiKey: store.admin })).body.data;
    expect(replacement).toMatchObject({ status: 'confirmed', paymentStatus: 'paid', grandTotal: 1200, capturedAmount: 1200 });
    expect(replacement.lineItems).toMatchObject([{ entityId: shirt, quantity: 1, unitPrice: 1200 }]);
    const original = (await t.request(`/api/orders/${order.id}`, { apiKey: store.admin })).body.data;
    expect(original.lineItems[0].refundedQuantity).toBe(1);
    expect(original.refundedAmount).toBe(credit);
    // The reservation became the replacement's: stock 5 − 1 shipped + 1 restocked, 1 reserved.
    expect(await available(store, shirt)).toMatchObject({ onHand: 5, reserved: 1 });
    // It ships like any order.
    expect((await t.request(`/api/orders/${replacement.id}/status`, { method: 'PATCH', apiKey: store.admin, body: { status: 'processing' } })).status).toBe(200);
    const fulfilled = await t.request(`/api/orders/${replacement.id}/fulfillments`, { apiKey: store.admin, body: {} });
    expect(fulfilled.status, fulfilled.text).toBe(201);
    expect(await available(store, shirt)).toMatchObject({ onHand: 4, reserved: 0 });
    const exchanged = (await events(t, 'return.exchanged')).filter((e) => e.payload.return.id === ret.id);
    expect(exchanged).toHaveLength(1);
    const audit = await t.app.db.auditEntry.findMany({ where: { entityId: ret.id }, orderBy: { createdAt: 'asc' } });
    expect(audit.map((a) => a.event)).toContain('returns.exchange');
  });

  it('positive: the difference is authorized through the provider on the replacement, whose event confirms it', async () => {
    const cheap = await product(store, { price: 1000, stock: 5 });
    const dear = await product(store, { price: 2500, stock: 5 });
    const order = await shippedOrder(store, [{ entityId: cheap, quantity: 1 }]);
    const ret = await receivedExchange(order, dear);
    const res = await moveReturn(store, ret.id, 'exchange');
    expect(res.status, res.text).toBe(200);
    const credit = lineNet(order.lineItems[0]);
    const difference = 2500 - credit;
    expect(difference).toBeGreaterThan(0);
    expect(res.body.data).toMatchObject({ status: 'exchanged', exchangeCredit: credit, exchangeDifference: difference });
    const authorize = providerLog().filter((c) => c.kind === 'authorize' && c.input.orderId === ret.exchangeOrderId);
    expect(authorize).toHaveLength(1);
    expect(authorize[0]!.input.amount).toBe(difference);
    const payments = (await t.request(`/api/orders/${ret.exchangeOrderId}?include=payments`, { apiKey: store.admin })).body.data.payments as any[];
    expect(payments.find((p) => p.id === res.body.data.exchangePaymentId)).toMatchObject({ amount: difference, status: 'pending' });
    expect(payments.find((p) => p.provider === 'exchange_credit')).toMatchObject({ amount: credit, capturedAmount: credit, status: 'captured' });
    let replacement = (await t.request(`/api/orders/${ret.exchangeOrderId}`, { apiKey: store.admin })).body.data;
    expect(replacement).toMatchObject({ status: 'pending', grandTotal: 2500, capturedAmount: credit });
    replacement = await pay(store, { id: replacement.id, paymentIntentId: replacement.paymentIntentId, grandTotal: difference });
    expect(replacement).toMatchObject({ status: 'confirmed', paymentStatus: 'paid', capturedAmount: 2500 });
  });

  it('positive without a payment method to charge: 422, the return stays received', async () => {
    const cheap = await product(store, { price: 1000, stock: 5 });
    const dear = await product(store, { price: 2500, stock: 5 });
    const order = await shippedOrder(store, [{ entityId: cheap, quantity: 1 }]);
    await t.app.db.order.update({ where: { id: order.id }, data: { paymentMethodId: null } });
    const ret = await receivedExchange(order, dear);
    const res = await moveReturn(store, ret.id, 'exchange');
    expect(res.status, res.text).toBe(422);
    expect(res.body.error.details[0].field).toBe('paymentMethodId');
    expect((await t.request(`/api/returns/${ret.id}`, { apiKey: store.admin })).body.data.status).toBe('received');
    expect(await t.app.db.order.count({ where: { id: ret.exchangeOrderId } })).toBe(0);
    const charged = await moveReturn(store, ret.id, 'exchange', { paymentMethodId: 'pm_card_visa' });
    expect(charged.status, charged.text).toBe(200);
  });

  it('negative: the credit above the replacement is refunded through the refund service', async () => {
    const dear = await product(store, { price: 3000, stock: 5 });
    const cheap = await product(store, { price: 1000, stock: 5 });
    const order = await shippedOrder(store, [{ entityId: dear, quantity: 1 }]);
    const ret = await receivedExchange(order, cheap);
    const res = await moveReturn(store, ret.id, 'exchange');
    expect(res.status, res.text).toBe(200);
    const credit = lineNet(order.lineItems[0]);
    expect(res.body.data).toMatchObject({
      status: 'exchanged',
      exchangeCredit: credit,
      exchangeDifference: 1000 - credit,
      refundAmount: credit - 1000,
      refundMethod: 'original_payment',
    });
    const refunds = (await t.request(`/api/orders/${order.id}/refunds`, { apiKey: store.admin })).body.data as any[];
    const paidBack = refunds.find((r) => r.id === res.body.data.refundId);
    expect(paidBack).toMatchObject({ amount: credit - 1000, status: 'succeeded' });
    const sent = providerLog().filter((c) => c.kind === 'refund' && c.input.metadata?.orderId === order.id);
    expect(sent.reduce((sum, c) => sum + c.input.amount, 0)).toBe(credit - 1000);
    const original = (await t.request(`/api/orders/${order.id}`, { apiKey: store.admin })).body.data;
    expect(original.refundedAmount).toBe(credit);
    const replacement = (await t.request(`/api/orders/${ret.exchangeOrderId}`, { apiKey: store.admin })).body.data;
    expect(replacement).toMatchObject({ status: 'confirmed', paymentStatus: 'paid', capturedAmount: 1000 });
  });

  it('a plain refund already took the returned units: the exchange is refused (422) and the return stays received', async () => {
    const shirt = await product(store, { price: 1000, stock: 5 });
    const order = await shippedOrder(store, [{ entityId: shirt, quantity: 1 }]);
    const ret = await receivedExchange(order, shirt);
    expect(
      (await t.request(`/api/orders/${order.id}/refunds`, { apiKey: store.admin, body: { lines: [{ lineItemId: order.lineItems[0].lineItemId, quantity: 1 }] } })).status,
    ).toBe(201);
    const res = await moveReturn(store, ret.id, 'exchange');
    expect(res.status, res.text).toBe(422);
    expect((await t.request(`/api/returns/${ret.id}`, { apiKey: store.admin })).body.data.status).toBe('received');
    // Closing it gives the outbound stock back.
    expect((await moveReturn(store, ret.id, 'close')).status).toBe(200);
    expect((await available(store, shirt)).reserved).toBe(0);
  });
});

describe('an exchange in a store whose prices include tax', () => {
  it('credits what was paid for the returned unit (the tax is inside the price), not the price plus its tax again', async () => {
    const org = await otherOrganization(t);
    const taxed: Store = await openStore(t, { organizationId: org.id });
    await setSettings(taxed, 'policies', { refundUndoWindowMinutes: 0 });
    const cls = await t.request('/api/tax/classes', { apiKey: taxed.admin, body: { name: `incl-${Date.now()}`, rateBps: 2000, isDefault: true } });
    expect(cls.status, cls.text).toBe(201);
    await setSettings(taxed, 'general', { pricesIncludeTax: true });
    const shirt = await product(taxed, { price: 1200, stock: 5 });
    const order = await shippedOrder(taxed, [{ entityId: shirt, quantity: 2 }]);
    // 2 × 1 200 gross at 20 %: 400 of tax inside the 2 400 paid.
    expect(order).toMatchObject({ grandTotal: 2400, taxTotal: 400 });
    const opened = await openReturn(taxed, order.id, [{ lineItemId: order.lineItems[0].lineItemId, quantity: 1 }], { exchangeLines: [{ entityId: shirt, quantity: 1 }] });
    expect(opened.status, opened.text).toBe(201);
    expect((await moveReturn(taxed, opened.body.data.id, 'approve')).status).toBe(200);
    const received = await moveReturn(taxed, opened.body.data.id, 'receive', restockAll(opened.body.data, taxed.warehouseId));
    expect(received.status, received.text).toBe(200);
    const res = await moveReturn(taxed, opened.body.data.id, 'exchange');
    expect(res.status, res.text).toBe(200);
    // One unit was paid 1 200 and the same shirt costs 1 200: even, nothing refunded or charged.
    expect(res.body.data).toMatchObject({ status: 'exchanged', exchangeCredit: 1200, exchangeDifference: 0, refundId: null });
    const original = (await t.request(`/api/orders/${order.id}`, { apiKey: taxed.admin })).body.data;
    expect(original.refundedAmount).toBe(1200);
  });
});

describe('the customer portal', () => {
  it('a customer opens an exchange of their own order (REST and GraphQL); not of another customer; not the staff moves', async () => {
    const shirt = await product(store, { price: 800, stock: 10 });
    const alice = await t.signIn('customer');
    const bob = await t.signIn('customer');
    const order = await ship(store, await customerOrder(t, alice.token, [{ entityId: shirt, quantity: 2 }]));
    const line = order.lineItems[0].lineItemId;
    const body = { lines: [{ lineItemId: line, quantity: 1 }], reasonCode: 'size_or_fit', exchangeLines: [{ entityId: shirt, quantity: 1 }] };
    expect((await t.request(`/api/me/orders/${order.id}/returns`, { bearer: bob.token, body })).status).toBe(404);
    const mine = await t.request(`/api/me/orders/${order.id}/returns`, { bearer: alice.token, body });
    expect(mine.status, mine.text).toBe(201);
    expect(mine.body.data).toMatchObject({ requestedVia: 'customer', isExchange: true, exchangeTotal: 800 });
    const gql = await t.graphql(
      'mutation($orderId: UUID!, $lines: [OrderReturnLineInput!]!, $out: [OrderReturnExchangeLineInput!]) { meOrderReturnCreate(orderId: $orderId, lines: $lines, reasonCode: other, exchangeLines: $out) { id isExchange exchangeLines { entityId quantity reservedQuantity } } }',
      { orderId: order.id, lines: [{ lineItemId: line, quantity: 1 }], out: [{ entityId: shirt, quantity: 1 }] },
      { bearer: alice.token },
    );
    expect(gql.body.errors, JSON.stringify(gql.body.errors)).toBeUndefined();
    expect(gql.body.data.meOrderReturnCreate).toMatchObject({ isExchange: true, exchangeLines: [{ entityId: shirt, quantity: 1, reservedQuantity: 1 }] });
    // The staff moves are not the customer's.
    expect((await t.request(`/api/returns/${mine.body.data.id}/exchange`, { bearer: alice.token, body: {} })).status).toBe(403);
    expect((await t.request(`/api/returns/${mine.body.data.id}/approve`, { bearer: alice.token, body: {} })).status).toBe(403);
  });
});

// ── the state table of an exchange ──

const ACTIONS = ['approve', 'reject', 'cancel', 'receive', 'refund', 'close', 'exchange'] as const;
const LEGAL: Record<string, Record<string, string>> = {
  requested: { approve: 'approved', reject: 'rejected', cancel: 'cancelled' },
  approved: { cancel: 'cancelled', receive: 'received' },
  received: { exchange: 'exchanged', close: 'closed' },
  rejected: {},
  closed: {},
  cancelled: {},
  exchanged: {},
};
const PATH_TO: Record<string, string[]> = {
  requested: [],
  approved: ['approve'],
  rejected: ['reject'],
  cancelled: ['cancel'],
  received: ['approve', 'receive'],
  closed: ['approve', 'receive', 'close'],
  exchanged: ['approve', 'receive', 'exchange'],
};
const GQL_FIELD: Record<string, string> = {
  approve: 'orderReturnApprove',
  reject: 'orderReturnReject',
  cancel: 'orderReturnCancel',
  receive: 'orderReturnReceive',
  refund: 'orderReturnRefund',
  close: 'orderReturnClose',
  exchange: 'orderReturnExchange',
};

describe('exchange state table', () => {
  let shirt: string;
  let order: any;
  beforeAll(async () => {
    shirt = await product(store, { price: 200, stock: 400 });
    order = await shippedOrder(store, [{ entityId: shirt, quantity: 100 }]);
  });

  async function exchangeIn(status: string): Promise<any> {
    const opened = await openExchange(order.id, [{ lineItemId: order.lineItems[0].lineItemId, quantity: 1 }], [{ entityId: shirt, quantity: 1 }]);
    expect(opened.status, opened.text).toBe(201);
    let ret = opened.body.data;
    for (const action of PATH_TO[status]!) {
      const res = await moveReturn(store, ret.id, action, action === 'receive' ? restockAll(ret, store.warehouseId) : {});
      expect(res.status, res.text).toBe(200);
      ret = res.body.data;
    }
    expect(ret.status).toBe(status);
    return ret;
  }

  for (const from of Object.keys(LEGAL)) {
    for (const action of ACTIONS) {
      const to = LEGAL[from]![action];
      for (const transport of ['REST', 'GraphQL'] as const) {
        it(`${from} --${action}--> ${to ?? '422 INVALID_TRANSITION'} over ${transport}`, async () => {
          const ret = await exchangeIn(from);
          const lines = restockAll(ret, store.warehouseId).lines;
          if (transport === 'REST') {
            const res = await moveReturn(store, ret.id, action, action === 'receive' ? { lines } : {});
            if (to) {
              expect(res.status, res.text).toBe(200);
              expect(res.body.data.status).toBe(to);
            } else {
              expect(res.status, res.text).toBe(422);
              expect(res.body.error).toMatchObject({ code: 'INVALID_TRANSITION', details: { from, action, kind: 'exchange' } });
            }
          } else {
            const decl = action === 'receive' ? ', $lines: [OrderReturnReceiveLineInput!]!' : '';
            const args = action === 'receive' ? ', lines: $lines' : '';
            const res = await t.graphql(
              `mutation($id: UUID!${decl}) { ${GQL_FIELD[action]}(id: $id${args}) { id status } }`,
              { id: ret.id, ...(action === 'receive' ? { lines } : {}) },
              { apiKey: store.admin },
            );
            if (to) {
              expect(res.body.errors, JSON.stringify(res.body.errors)).toBeUndefined();
              expect(res.body.data![GQL_FIELD[action]!].status).toBe(to);
            } else {
              expect(res.body.errors?.[0]?.extensions?.code).toBe('INVALID_TRANSITION');
            }
          }
          const after = (await t.request(`/api/returns/${ret.id}`, { apiKey: store.admin })).body.data;
          expect(after.status).toBe(to ?? from);
          // Held while open or exchanged (the replacement's), released otherwise.
          const held = ['requested', 'approved', 'received', 'exchanged'].includes(after.status) ? 1 : 0;
          expect(after.exchangeLines[0].reservedQuantity).toBe(held);
        });
      }
    }
  }
});

describe('the last unit of the outbound variant, under parallel requests on separate connections', () => {
  it('two exchanges racing for it: one 201, one 409 insufficient_stock, one unit reserved (5 rounds)', async () => {
    const shirt = await product(store, { price: 500, stock: 20 });
    for (let round = 0; round < 5; round += 1) {
      const last = await product(store, { price: 500, stock: 1 });
      const order = await shippedOrder(store, [{ entityId: shirt, quantity: 2 }]);
      const body = { lines: [{ lineItemId: order.lineItems[0].lineItemId, quantity: 1 }], reasonCode: 'other', exchangeLines: [{ entityId: last, quantity: 1 }] };
      const request = { path: `/api/orders/${order.id}/returns`, apiKey: store.admin, body };
      const other = await shippedOrder(store, [{ entityId: shirt, quantity: 1 }]);
      // Two different orders (no order lock in common): only the stock row decides.
      const answers = await race(t.url, [
        request,
        { ...request, path: `/api/orders/${other.id}/returns`, body: { ...body, lines: [{ lineItemId: other.lineItems[0].lineItemId, quantity: 1 }] } },
      ]);
      const statuses = answers.map((a) => a.status).sort();
      expect(statuses, answers.map((a) => a.text).join('\n')).toEqual([201, 409]);
      expect(answers.find((a) => a.status === 409)!.body.error.details.reason).toBe('insufficient_stock');
      expect(await available(store, last)).toMatchObject({ onHand: 1, reserved: 1, available: 0 });
    }
  }, 240_000);
});
