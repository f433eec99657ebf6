// Returns (RMA): opening a return (staff; the customer for their own order within
// policies.returnWindowDays), the quantity rule (fulfilled − returned), every legal and illegal
// move of the state table over REST and GraphQL, receipt (restock or damaged) with its stock,
// the refund through the refund service (its cap applies), events, audit and the list.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { available, events, ORDER_TEST_CONFIG, openStore, placeOrder, product, setSettings, type Store } from '../orders/helpers.js';
import { customerOrder, moveReturn, openReturn, restockAll, ship, shippedOrder } from './helpers.js';

let t: TestApp;
let store: Store;

beforeAll(async () => {
  t = await startTestApp(ORDER_TEST_CONFIG);
  store = await openStore(t);
});
afterAll(() => t?.close());

function offlineRefundCount(): number {
  return (t.app.services.payments.provider as unknown as { log: Array<{ kind: string }> }).log.filter((c) => c.kind === 'refund').length;
}

const RETURN_FIELDS =
  'id orderId orderNumber status reasonCode customerNote staffNote requestedVia currency refundId refundAmount refundMethod lines { lineItemId quantity disposition warehouseId sku }';

describe('opening a return', () => {
  it('opens a requested return of fulfilled units, emits return.created and is audited', async () => {
    const p = await product(store, { price: 1000, stock: 10 });
    const order = await shippedOrder(store, [{ entityId: p, quantity: 3 }]);
    const line = order.lineItems[0].lineItemId;
    const res = await openReturn(store, order.id, [{ lineItemId: line, quantity: 2 }], { customerNote: 'stopped working' });
    expect(res.status, res.text).toBe(201);
    expect(res.body.data).toMatchObject({
      orderId: order.id,
      orderNumber: order.number,
      status: 'requested',
      reasonCode: 'defective',
      customerNote: 'stopped working',
      staffNote: null,
      requestedVia: 'staff',
      currency: 'USD',
      refundId: null,
      refundAmount: 0,
      refundMethod: null,
      lines: [{ lineItemId: line, quantity: 2, disposition: null, warehouseId: null, entityId: p }],
    });
    const created = (await events(t, 'return.created')).filter((e) => e.payload.return.id === res.body.data.id);
    expect(created).toHaveLength(1);
    expect(created[0]!.payload.return.status).toBe('requested');
    const audit = await t.app.db.auditEntry.findMany({ where: { entityId: res.body.data.id } });
    expect(audit.map((a) => a.event)).toEqual(['returns.create']);
  });

  it('refuses more than the line (422), more than fulfilled − returned (409), and frees units of rejected and cancelled returns', async () => {
    const p = await product(store, { price: 500, stock: 10 });
    const placed = await placeOrder(store, [{ entityId: p, quantity: 3 }]);
    const order = await ship(store, placed, [{ lineItemId: placed.lineItems[0].lineItemId, quantity: 2 }]);
    const line = order.lineItems[0].lineItemId;

    const tooMany = await openReturn(store, order.id, [{ lineItemId: line, quantity: 4 }]);
    expect(tooMany.status).toBe(422);
    expect(tooMany.body.error.details[0].field).toBe('lines.0.quantity');
    // 3 ordered, 2 shipped: the third is not returnable.
    const unshipped = await openReturn(store, order.id, [{ lineItemId: line, quantity: 3 }]);
    expect(unshipped.status, unshipped.text).toBe(409);
    expect(unshipped.body.error.details).toMatchObject({
      reason: 'quantity_not_returnable',
      lines: [{ lineItemId: line, requested: 3, fulfilled: 2, returned: 0, returnable: 2 }],
    });
    // The same line twice counts together.
    expect(
      (
        await openReturn(store, order.id, [
          { lineItemId: line, quantity: 1 },
          { lineItemId: line, quantity: 2 },
        ])
      ).status,
    ).toBe(409);

    const first = await openReturn(store, order.id, [{ lineItemId: line, quantity: 2 }]);
    expect(first.status).toBe(201);
    const none = await openReturn(store, order.id, [{ lineItemId: line, quantity: 1 }]);
    expect(none.status).toBe(409);
    expect(none.body.error.details.lines[0]).toMatchObject({ returned: 2, returnable: 0 });
    expect((await moveReturn(store, first.body.data.id, 'reject', { note: 'outside policy' })).status).toBe(200);
    const again = await openReturn(store, order.id, [{ lineItemId: line, quantity: 2 }]);
    expect(again.status).toBe(201);
    expect((await moveReturn(store, again.body.data.id, 'cancel')).status).toBe(200);
    expect((await openReturn(store, order.id, [{ lineItemId: line, quantity: 1 }])).status).toBe(201);
  });

  it.each([
    [{ lines: [] }, 'lines'],
    [{ reasonCode: 'bored' }, 'reasonCode'],
    [{ customerNote: 'x'.repeat(2001) }, 'customerNote'],
    [{ lines: [{ lineItemId: '00000000-0000-4000-8000-000000000000', quantity: 1 }] }, 'lines.0.lineItemId'],
    [{ lines: [{ lineItemId: 'nope', quantity: 1 }] }, 'lines.0.lineItemId'],
    [{ lines: [{ quantity: 0 }] }, 'lines.0.quantity'],
  ])('refuses bad input %# with 422 naming the field', async (patch, field) => {
    const p = await product(store, { price: 100, stock: 5 });
    const order = await shippedOrder(store, [{ entityId: p }]);
    const lines = [{ lineItemId: order.lineItems[0].lineItemId, quantity: 1 }];
    const body: Record<string, unknown> = { lines, reasonCode: 'other', ...patch };
    if (Array.isArray(body.lines) && body.lines[0] && !(body.lines[0] as any).lineItemId) body.lines = [{ ...lines[0], ...(body.lines[0] as object) }];
    const res = await t.request(`/api/orders/${order.id}/returns`, { apiKey: store.admin, body });
    expect(res.status, res.text).toBe(422);
    expect(res.body.error.code).toBe('VALIDATION_FAILED');
    expect(JSON.stringify(res.body.error.details)).toContain(field);
  });

  it('answers 404 for an unknown order or one of another organization', async () => {
    const other = await t.app.services.organizations.create({ slug: `returns-other-${Date.now()}`, name: 'Other' });
    const otherStore = await openStore(t, { organizationId: other.id });
    const p = await product(otherStore, { price: 100, stock: 5 });
    // 404 comes before any quantity rule: the other organization's order need not have shipped.
    const theirs = await placeOrder(otherStore, [{ entityId: p }]);
    const res = await openReturn(store, theirs.id, [{ lineItemId: theirs.lineItems[0].lineItemId, quantity: 1 }]);
    expect(res.status).toBe(404);
    expect((await openReturn(store, '00000000-0000-4000-8000-000000000000', [{ lineItemId: theirs.lineItems[0].lineItemId, quantity: 1 }])).status).toBe(404);
  });
});

describe('the customer portal', () => {
  it("lets a customer return their own order within the window, not another customer's, not with an API key", async () => {
    const p = await product(store, { price: 800, stock: 10 });
    const alice = await t.signIn('customer');
    const bob = await t.signIn('customer');
    const order = await ship(store, await customerOrder(t, alice.token, [{ entityId: p, quantity: 2 }]));
    const line = order.lineItems[0].lineItemId;
    const body = { lines: [{ lineItemId: line, quantity: 1 }], reasonCode: 'size_or_fit', customerNote: 'too small' };

    expect((await t.request(`/api/me/orders/${order.id}/returns`, { bearer: bob.token, body })).status).toBe(404);
    expect((await t.request(`/api/me/orders/${order.id}/returns`, { apiKey: store.admin, body })).status).toBe(403);
    expect((await t.request(`/api/me/orders/${order.id}/returns`, { body })).status).toBe(401);
    const mine = await t.request(`/api/me/orders/${order.id}/returns`, { bearer: alice.token, body });
    expect(mine.status, mine.text).toBe(201);
    expect(mine.body.data).toMatchObject({ status: 'requested', requestedVia: 'customer', customerNote: 'too small', reasonCode: 'size_or_fit' });

    const gql = await t.graphql(
      `mutation($orderId: UUID!, $lines: [OrderReturnLineInput!]!) { meOrderReturnCreate(orderId: $orderId, lines: $lines, reasonCode: other) { ${RETURN_FIELDS} } }`,
      { orderId: order.id, lines: [{ lineItemId: line, quantity: 1 }] },
      { bearer: alice.token },
    );
    expect(gql.body.errors, JSON.stringify(gql.body.errors)).toBeUndefined();
    expect(gql.body.data.meOrderReturnCreate.requestedVia).toBe('customer');
    // An API key is not a customer session over GraphQL either (403 FORBIDDEN before the input is read).
    const keyed = await t.graphql(
      'mutation($orderId: UUID!) { meOrderReturnCreate(orderId: $orderId, lines: [], reasonCode: other) { id } }',
      { orderId: order.id },
      { apiKey: store.admin },
    );
    expect(keyed.body.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    const keyedList = await t.graphql('query($orderId: UUID!) { meOrderReturns(orderId: $orderId) { id } }', { orderId: order.id }, { apiKey: store.admin });
    expect(keyedList.body.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');

    const list = await t.request(`/api/me/orders/${order.id}/returns`, { bearer: alice.token });
    expect(list.status).toBe(200);
    expect(list.body.data.map((r: any) => r.id)).toEqual([gql.body.data.meOrderReturnCreate.id, mine.body.data.id]);
    expect((await t.request(`/api/me/orders/${order.id}/returns`, { bearer: bob.token })).status).toBe(404);
    // A customer does not reach the staff routes.
    expect((await t.request(`/api/returns/${mine.body.data.id}`, { bearer: alice.token })).status).toBe(403);
    expect((await t.request(`/api/returns/${mine.body.data.id}/approve`, { bearer: alice.token, body: {} })).status).toBe(403);
  });

  it('refuses a customer after policies.returnWindowDays (403 return_window_closed); staff are not bound', async () => {
    const p = await product(store, { price: 800, stock: 10 });
    const alice = await t.signIn('customer');
    const order = await ship(store, await customerOrder(t, alice.token, [{ entityId: p, quantity: 2 }]));
    const lines = [{ lineItemId: order.lineItems[0].lineItemId, quantity: 1 }];
    // Shipped 40 days ago, window 30 days.
    await t.app.db.orderFulfillment.updateMany({ where: { orderId: order.id }, data: { createdAt: new Date(Date.now() - 40 * 86_400_000) } });
    const late = await t.request(`/api/me/orders/${order.id}/returns`, { bearer: alice.token, body: { lines, reasonCode: 'other' } });
    expect(late.status, late.text).toBe(403);
    expect(late.body.error.details).toMatchObject({ reason: 'return_window_closed', returnWindowDays: 30 });
    await setSettings(store, 'policies', { returnWindowDays: 60 });
    try {
      expect((await t.request(`/api/me/orders/${order.id}/returns`, { bearer: alice.token, body: { lines, reasonCode: 'other' } })).status).toBe(201);
      const settings = await t.request('/api/settings/policies', { apiKey: store.admin });
      expect(settings.body.data.returnWindowDays ?? settings.body.data.values?.returnWindowDays).toBe(60);
    } finally {
      await setSettings(store, 'policies', { returnWindowDays: null });
    }
    expect((await openReturn(store, order.id, lines)).status).toBe(201);
    const bad = await t.request('/api/settings/policies', { method: 'PATCH', apiKey: store.admin, body: { returnWindowDays: -1 } });
    expect(bad.status).toBe(422);
  });
});

describe('receive and refund', () => {
  it('restocks the restocked lines only, refunds through the refund service and records every step', async () => {
    await setSettings(store, 'policies', { refundUndoWindowMinutes: 0 });
    try {
      const a = await product(store, { price: 1200, stock: 10 });
      const b = await product(store, { price: 300, stock: 10 });
      const order = await shippedOrder(store, [
        { entityId: a, quantity: 2 },
        { entityId: b, quantity: 1 },
      ]);
      const [la, lb] = order.lineItems;
      const opened = await openReturn(store, order.id, [
        { lineItemId: la.lineItemId, quantity: 2 },
        { lineItemId: lb.lineItemId, quantity: 1 },
      ]);
      const id = opened.body.data.id;
      const approved = await moveReturn(store, id, 'approve', { note: 'ok to send back' });
      expect(approved.status, approved.text).toBe(200);
      expect(approved.body.data).toMatchObject({ status: 'approved', staffNote: 'ok to send back' });

      const before = { a: await available(store, a), b: await available(store, b) };
      const received = await moveReturn(store, id, 'receive', {
        lines: [
          { lineItemId: la.lineItemId, disposition: 'restock', warehouseId: store.warehouseId },
          { lineItemId: lb.lineItemId, disposition: 'damaged' },
        ],
      });
      expect(received.status, received.text).toBe(200);
      expect(received.body.data.status).toBe('received');
      expect(received.body.data.lines).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ lineItemId: la.lineItemId, disposition: 'restock', warehouseId: store.warehouseId }),
          expect.objectContaining({ lineItemId: lb.lineItemId, disposition: 'damaged', warehouseId: null }),
        ]),
      );
      expect((await available(store, a)).onHand).toBe(before.a.onHand + 2);
      expect((await available(store, b)).onHand).toBe(before.b.onHand);

      const refunded = await moveReturn(store, id, 'refund', { method: 'original_payment' });
      expect(refunded.status, refunded.text).toBe(200);
      expect(refunded.body.data).toMatchObject({ status: 'refunded', refundMethod: 'original_payment', refundAmount: 2700 });
      const refunds = await t.request(`/api/orders/${order.id}/refunds`, { apiKey: store.admin });
      expect(refunds.body.data).toHaveLength(1);
      expect(refunds.body.data[0]).toMatchObject({ id: refunded.body.data.refundId, amount: 2700, status: 'succeeded' });
      const after = (await t.request(`/api/orders/${order.id}`, { apiKey: store.admin })).body.data;
      expect(after.refundedAmount).toBe(2700);
      expect(after.lineItems.map((l: any) => l.refundedQuantity)).toEqual([2, 1]);

      for (const [type, status] of [
        ['return.approved', 'approved'],
        ['return.received', 'received'],
        ['return.refunded', 'refunded'],
      ] as const) {
        const found = (await events(t, type)).filter((e) => e.payload.return.id === id);
        expect(found, type).toHaveLength(1);
        expect(found[0]!.payload.return.status).toBe(status);
      }
      const audit = await t.app.db.auditEntry.findMany({ where: { entityId: id }, orderBy: { createdAt: 'asc' } });
      expect(audit.map((e) => e.event)).toEqual(['returns.create', 'returns.approve', 'returns.receive', 'returns.refund']);
    } finally {
      await setSettings(store, 'policies', { refundUndoWindowMinutes: null });
    }
  });

  it("refunds a customer's return as store credit through the refund rules; a guest order cannot take store credit (422)", async () => {
    await setSettings(store, 'policies', { refundUndoWindowMinutes: 0 });
    try {
      const p = await product(store, { price: 1500, stock: 10 });
      const alice = await t.signIn('customer');
      const order = await ship(store, await customerOrder(t, alice.token, [{ entityId: p, quantity: 2 }]));
      const opened = await openReturn(store, order.id, [{ lineItemId: order.lineItems[0].lineItemId, quantity: 2 }]);
      const id = opened.body.data.id;
      await moveReturn(store, id, 'approve');
      await moveReturn(store, id, 'receive', restockAll(opened.body.data, store.warehouseId));
      const before = offlineRefundCount();
      const credited = await moveReturn(store, id, 'refund', { method: 'store_credit' });
      expect(credited.status, credited.text).toBe(200);
      expect(credited.body.data).toMatchObject({ status: 'refunded', refundMethod: 'store_credit', refundAmount: 3000 });
      const refund = (await t.request(`/api/orders/${order.id}/refunds`, { apiKey: store.admin })).body.data[0];
      expect(refund).toMatchObject({ id: credited.body.data.refundId, destination: 'store_credit', status: 'succeeded', amount: 3000, providerRefundId: null });
      // No provider call: the money went to the ledger.
      expect(offlineRefundCount()).toBe(before);
      const entries = await t.app.db.storeCreditEntry.findMany({ where: { sourceId: refund.id } });
      expect(entries.map((e) => [Number(e.amount), e.customerId, e.sourceType])).toEqual([[3000, order.customerId, 'refund']]);
      const account = await t.app.db.storeCreditAccount.findFirst({ where: { customerId: order.customerId, currency: 'USD' } });
      expect(Number(account!.balance)).toBe(3000);

      const guest = await shippedOrder(store, [{ entityId: p }]);
      const guestReturn = await openReturn(store, guest.id, [{ lineItemId: guest.lineItems[0].lineItemId, quantity: 1 }]);
      await moveReturn(store, guestReturn.body.data.id, 'approve');
      await moveReturn(store, guestReturn.body.data.id, 'receive', restockAll(guestReturn.body.data, store.warehouseId));
      const refused = await moveReturn(store, guestReturn.body.data.id, 'refund', { method: 'store_credit' });
      expect(refused.status, refused.text).toBe(422);
      expect(refused.body.error.details[0].field).toBe('destination');
      expect((await t.request(`/api/returns/${guestReturn.body.data.id}`, { apiKey: store.admin })).body.data.status).toBe('received');
    } finally {
      await setSettings(store, 'policies', { refundUndoWindowMinutes: null });
    }
  });

  it('refuses a receipt that misses a line, names one twice, or gives a damaged line a warehouse (422), leaving stock as it was', async () => {
    const a = await product(store, { price: 100, stock: 10 });
    const b = await product(store, { price: 100, stock: 10 });
    const order = await shippedOrder(store, [{ entityId: a }, { entityId: b }]);
    const [la, lb] = order.lineItems;
    const opened = await openReturn(store, order.id, [
      { lineItemId: la.lineItemId, quantity: 1 },
      { lineItemId: lb.lineItemId, quantity: 1 },
    ]);
    const id = opened.body.data.id;
    await moveReturn(store, id, 'approve');
    const before = await available(store, a);
    for (const lines of [
      [{ lineItemId: la.lineItemId, disposition: 'restock' }],
      [
        { lineItemId: la.lineItemId, disposition: 'restock' },
        { lineItemId: la.lineItemId, disposition: 'damaged' },
      ],
      [
        { lineItemId: la.lineItemId, disposition: 'restock' },
        { lineItemId: lb.lineItemId, disposition: 'damaged', warehouseId: store.warehouseId },
      ],
    ]) {
      const res = await moveReturn(store, id, 'receive', { lines });
      expect(res.status, res.text).toBe(422);
    }
    const unknownWarehouse = await moveReturn(store, id, 'receive', {
      lines: [
        { lineItemId: la.lineItemId, disposition: 'restock', warehouseId: '00000000-0000-4000-8000-000000000000' },
        { lineItemId: lb.lineItemId, disposition: 'damaged' },
      ],
    });
    expect([404, 422]).toContain(unknownWarehouse.status);
    expect((await available(store, a)).onHand).toBe(before.onHand);
    expect((await t.request(`/api/returns/${id}`, { apiKey: store.admin })).body.data.status).toBe('approved');
  });

  it('keeps the return received when the refund service refuses (daily cap: 403)', async () => {
    const p = await product(store, { price: 5000, stock: 5 });
    const order = await shippedOrder(store, [{ entityId: p }]);
    const opened = await openReturn(store, order.id, [{ lineItemId: order.lineItems[0].lineItemId, quantity: 1 }]);
    const id = opened.body.data.id;
    await moveReturn(store, id, 'approve');
    await moveReturn(store, id, 'receive', restockAll(opened.body.data, store.warehouseId));
    await setSettings(store, 'policies', { refundDailyCap: 100 });
    try {
      const capped = await moveReturn(store, id, 'refund');
      expect(capped.status, capped.text).toBe(403);
      expect((await t.request(`/api/returns/${id}`, { apiKey: store.admin })).body.data).toMatchObject({ status: 'received', refundId: null });
      expect((await t.request(`/api/orders/${order.id}/refunds`, { apiKey: store.admin })).body.data).toHaveLength(0);
    } finally {
      await setSettings(store, 'policies', { refundDailyCap: null });
    }
    const ok = await moveReturn(store, id, 'refund');
    expect(ok.status, ok.text).toBe(200);
    expect(ok.body.data).toMatchObject({ status: 'refunded', refundAmount: 5000 });
  });
});

// ── the state table ──

// exchange is an exchange's move only (test/returns/exchanges.test.ts has their table): a plain return refuses it.
const ACTIONS = ['approve', 'reject', 'cancel', 'receive', 'refund', 'close', 'exchange'] as const;
const LEGAL: Record<string, Record<string, string>> = {
  requested: { approve: 'approved', reject: 'rejected', cancel: 'cancelled' },
  approved: { cancel: 'cancelled', receive: 'received' },
  received: { refund: 'refunded', close: 'closed' },
  rejected: {},
  refunded: {},
  closed: {},
  cancelled: {},
};
const PATH_TO: Record<string, string[]> = {
  requested: [],
  approved: ['approve'],
  rejected: ['reject'],
  cancelled: ['cancel'],
  received: ['approve', 'receive'],
  refunded: ['approve', 'receive', 'refund'],
  closed: ['approve', 'receive', 'close'],
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

describe('state table', () => {
  let product1: string;
  let order: any;
  beforeAll(async () => {
    product1 = await product(store, { price: 200, stock: 200 });
    order = await shippedOrder(store, [{ entityId: product1, quantity: 100 }]);
  });

  async function returnIn(status: string): Promise<any> {
    const opened = await openReturn(store, order.id, [{ lineItemId: order.lineItems[0].lineItemId, quantity: 1 }]);
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

  function argsOf(action: string, ret: any): { rest: Record<string, unknown>; gqlArgs: string; vars: Record<string, unknown> } {
    if (action === 'receive') {
      const lines = restockAll(ret, store.warehouseId).lines;
      return { rest: { lines }, gqlArgs: ', lines: $lines', vars: { lines } };
    }
    return { rest: {}, gqlArgs: '', vars: {} };
  }

  for (const from of Object.keys(LEGAL)) {
    for (const action of ACTIONS) {
      const to = LEGAL[from]![action];
      for (const transport of ['REST', 'GraphQL'] as const) {
        it(`${from} --${action}--> ${to ?? '422 INVALID_TRANSITION'} over ${transport}`, async () => {
          const ret = await returnIn(from);
          const { rest, gqlArgs, vars } = argsOf(action, ret);
          if (transport === 'REST') {
            const res = await moveReturn(store, ret.id, action, rest);
            if (to) {
              expect(res.status, res.text).toBe(200);
              expect(res.body.data.status).toBe(to);
            } else {
              expect(res.status, res.text).toBe(422);
              expect(res.body.error).toMatchObject({ code: 'INVALID_TRANSITION', details: { from, action } });
            }
          } else {
            const decl = action === 'receive' ? ', $lines: [OrderReturnReceiveLineInput!]!' : '';
            const res = await t.graphql(`mutation($id: UUID!${decl}) { ${GQL_FIELD[action]}(id: $id${gqlArgs}) { id status } }`, { id: ret.id, ...vars }, { apiKey: store.admin });
            if (to) {
              expect(res.body.errors, JSON.stringify(res.body.errors)).toBeUndefined();
              expect(res.body.data![GQL_FIELD[action]!].status).toBe(to);
            } else {
              expect(res.body.errors?.[0]?.extensions?.code).toBe('INVALID_TRANSITION');
            }
          }
          const after = (await t.request(`/api/returns/${ret.id}`, { apiKey: store.admin })).body.data;
          expect(after.status).toBe(to ?? from);
        });
      }
    }
  }
});

describe('list and read', () => {
  it('lists newest first, filters by status and order, pages by cursor, over REST and GraphQL', async () => {
    const p = await product(store, { price: 100, stock: 50 });
    const order = await shippedOrder(store, [{ entityId: p, quantity: 5 }]);
    const line = order.lineItems[0].lineItemId;
    const ids: string[] = [];
    for (let i = 0; i < 4; i += 1) ids.push((await openReturn(store, order.id, [{ lineItemId: line, quantity: 1 }])).body.data.id);
    await moveReturn(store, ids[0]!, 'approve');

    const all = await t.request(`/api/returns?orderId=${order.id}`, { apiKey: store.admin });
    expect(all.status, all.text).toBe(200);
    expect(all.body.data.map((r: any) => r.id)).toEqual([...ids].reverse());
    const approved = await t.request(`/api/returns?orderId=${order.id}&status=approved`, { apiKey: store.admin });
    expect(approved.body.data.map((r: any) => r.id)).toEqual([ids[0]]);
    const page1 = await t.request(`/api/returns?orderId=${order.id}&first=2`, { apiKey: store.admin });
    expect(page1.body.data).toHaveLength(2);
    const page2 = await t.request(`/api/returns?orderId=${order.id}&first=2&after=${page1.body.meta.pagination.endCursor}`, { apiKey: store.admin });
    expect([...page1.body.data, ...page2.body.data].map((r: any) => r.id)).toEqual([...ids].reverse());
    expect((await t.request('/api/returns?status=lost', { apiKey: store.admin })).status).toBe(422);

    const gql = await t.graphql(
      `query($orderId: UUID) { orderReturns(orderId: $orderId, status: requested) { data { ${RETURN_FIELDS} } meta { pagination { total } } } }`,
      { orderId: order.id },
      { apiKey: store.admin },
    );
    expect(gql.body.errors, JSON.stringify(gql.body.errors)).toBeUndefined();
    expect(gql.body.data.orderReturns.meta.pagination.total).toBe(3);
    const one = await t.graphql(`query($id: UUID!) { orderReturn(id: $id) { ${RETURN_FIELDS} } }`, { id: ids[1] }, { apiKey: store.admin });
    expect(one.body.data.orderReturn).toMatchObject({ id: ids[1], status: 'requested', lines: [{ lineItemId: line, quantity: 1 }] });
    expect((await t.request('/api/returns/00000000-0000-4000-8000-000000000000', { apiKey: store.admin })).status).toBe(404);
  });

  it('costs the same number of SQL statements for a page of 2 as for a page of 20', async () => {
    const p = await product(store, { price: 100, stock: 100 });
    const order = await shippedOrder(store, [{ entityId: p, quantity: 25 }]);
    for (let i = 0; i < 22; i += 1) await openReturn(store, order.id, [{ lineItemId: order.lineItems[0].lineItemId, quantity: 1 }]);
    // The counter is the whole app's: background work (event dispatch after the returns above, an
    // API key's throttled last-use write) can land inside one window. The fewest of three reads is
    // the list's own cost; a per-row query would still show in every one of them.
    const cost = async (limit: number) => {
      const counts: number[] = [];
      for (let round = 0; round < 3; round += 1) {
        const start = t.statements();
        const res = await t.request(`/api/returns?orderId=${order.id}&limit=${limit}`, { apiKey: store.admin });
        expect(res.body.data).toHaveLength(limit);
        counts.push(t.statements() - start);
      }
      return Math.min(...counts);
    };
    const small = await cost(2);
    const large = await cost(20);
    expect(large).toBe(small);
    console.log(`GET /returns: ${small} statements for 2 rows, ${large} for 20`);
  });
});
