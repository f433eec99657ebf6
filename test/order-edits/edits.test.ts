// Order edits (issue 27): preview → confirm | cancel over REST and GraphQL; totals recomputed by
// checkout's pricing; reservations moved in the confirm's transaction; the payment difference
// (refund, awaiting the difference, a new intent); stale previews and illegal moves 409; only
// staff with orders:update; the timeline's before/after, audit entries and orders.edit events.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { race } from '../support/race.js';
import { ORDER_TEST_CONFIG, ADDRESS, available, events, openStore, pay, placeOrder, processingOrder, product, sendWebhook, setStatus, type Store } from '../orders/helpers.js';

let t: TestApp;
let store: Store;

beforeAll(async () => {
  t = await startTestApp(ORDER_TEST_CONFIG);
  store = await openStore(t);
});
afterAll(() => t?.close());

function edit(orderId: string, body: Record<string, unknown>, auth: { apiKey?: string; bearer?: string } = {}) {
  return t.request(`/api/orders/${orderId}/edits`, { apiKey: auth.bearer ? undefined : (auth.apiKey ?? store.admin), bearer: auth.bearer, body });
}
function move(orderId: string, editId: string, action: 'confirm' | 'cancel', apiKey = store.admin) {
  return t.request(`/api/orders/${orderId}/edits/${editId}/${action}`, { method: 'POST', apiKey });
}
async function getOrder(id: string) {
  return (await t.request(`/api/orders/${id}`, { apiKey: store.admin })).body.data;
}
async function withPayments(id: string) {
  const res = await t.request(`/api/orders/${id}?include=payments`, { apiKey: store.admin });
  expect(res.status, res.text).toBe(200);
  return res.body.data;
}
/** The provider's signed "authorized, capturable" event for an order placed with manual capture. */
function authorized(order: { id: string; paymentIntentId: string; grandTotal: number }) {
  const amount = order.grandTotal;
  return {
    id: `evt_auth_${Math.random().toString(36).slice(2)}`,
    object: 'event',
    type: 'payment_intent.amount_capturable_updated',
    data: { object: { id: order.paymentIntentId, object: 'payment_intent', amount, amount_capturable: amount, metadata: { orderId: order.id } } },
  };
}
/** A staff checkout in manual capture mode, authorized by the provider's event: confirmed, paymentStatus authorized. */
async function authorizedOrder(price: number, quantity: number) {
  const p = await product(store, { price, stock: 10 });
  const order = await placeOrder(store, [{ entityId: p, quantity }], { apiKey: store.admin, body: { captureMode: 'manual' } });
  const res = await sendWebhook(t, authorized(order));
  expect(res.status, res.text).toBe(200);
  const got = await withPayments(order.id);
  expect(got).toMatchObject({ status: 'confirmed', paymentStatus: 'authorized', payments: [{ status: 'authorized', captureMode: 'manual', authorizedAmount: order.grandTotal }] });
  return got;
}

describe('preview and confirm', () => {
  it('previews new totals without touching the order or the stock, then applies lines, totals and reservations on confirm', async () => {
    const a = await product(store, { price: 1000, stock: 20 });
    const b = await product(store, { price: 250, stock: 20 });
    const c = await product(store, { price: 400, stock: 20 });
    const order = await placeOrder(store, [
      { entityId: a, quantity: 2 },
      { entityId: b, quantity: 1 },
    ]);
    const [lineA, lineB] = order.lineItems;
    const before = { a: await available(store, a), b: await available(store, b), c: await available(store, c) };

    const created = await edit(order.id, {
      quantities: [{ lineItemId: lineA.lineItemId, quantity: 3 }],
      removeLineIds: [lineB.lineItemId],
      addLines: [{ entityId: c, quantity: 2 }],
      reason: 'customer called',
    });
    expect(created.status, created.text).toBe(201);
    const preview = created.body.data;
    expect(preview).toMatchObject({ orderId: order.id, status: 'pending', paymentAction: null, reason: 'customer called' });
    expect(preview.before.grandTotal).toBe(order.grandTotal);
    expect(preview.after).toMatchObject({ subtotal: 3 * 1000 + 2 * 400 });
    expect(preview.after.lineItems.map((l: any) => [l.lineItemId, l.quantity, l.unitPrice])).toEqual([
      [lineA.lineItemId, 3, 1000],
      [null, 2, 400],
    ]);
    expect(preview.difference).toBe(preview.after.grandTotal - order.grandTotal);

    // The preview wrote nothing on the order and reserved nothing.
    expect((await getOrder(order.id)).grandTotal).toBe(order.grandTotal);
    expect(await available(store, c)).toEqual(before.c);

    const confirmed = await move(order.id, preview.id, 'confirm');
    expect(confirmed.status, confirmed.text).toBe(200);
    expect(confirmed.body.data).toMatchObject({ status: 'confirmed', paymentAction: 'reissued_intent' });
    const after = await getOrder(order.id);
    expect(after.grandTotal).toBe(preview.after.grandTotal);
    expect(after.subtotal).toBe(3800);
    expect(after.lineItems.map((l: any) => [l.entityId, l.quantity])).toEqual([
      [a, 3],
      [c, 2],
    ]);
    expect(confirmed.body.data.after.lineItems.map((l: any) => l.lineItemId)).toEqual(after.lineItems.map((l: any) => l.lineItemId));
    // An order awaiting payment gets an intent for its new total.
    expect(after.paymentIntentId).not.toBe(order.paymentIntentId);
    expect(await available(store, a)).toMatchObject({ reserved: before.a.reserved + 1 });
    expect(await available(store, b)).toMatchObject({ reserved: before.b.reserved - 1 });
    expect(await available(store, c)).toMatchObject({ reserved: before.c.reserved + 2 });

    // Timeline shows before and after; audited; outbox events.
    const timeline = (await t.request(`/api/orders/${order.id}/timeline`, { apiKey: store.admin })).body.data;
    const entry = timeline.find((e: any) => e.type === 'edit');
    expect(entry.data.before.grandTotal).toBe(order.grandTotal);
    expect(entry.data.after.grandTotal).toBe(after.grandTotal);
    const audit = await t.app.db.auditEntry.findMany({ where: { entityId: order.id, event: { startsWith: 'orders.edit' } }, orderBy: { createdAt: 'asc' } });
    expect(audit.map((e) => e.event)).toEqual(['orders.editCreate', 'orders.editConfirm']);
    const emitted = (await events(t, 'orders.edit')).filter((e) => e.payload.edit.id === preview.id).map((e) => e.payload.action);
    expect(emitted).toEqual(['created', 'confirmed']);

    // The edited order is paid through the new intent and fulfils the new lines.
    const paid = await pay(store, after);
    expect(paid).toMatchObject({ paymentStatus: 'paid', capturedAmount: after.grandTotal });
  }, 120_000);

  it('changes the shipping address (tax recomputed on the new destination) and lists edits newest first', async () => {
    const p = await product(store, { price: 1000, stock: 5 });
    const order = await placeOrder(store, [{ entityId: p }]);
    const first = await edit(order.id, { shippingAddress: { ...ADDRESS, line1: '2 Elm St' } });
    expect(first.status, first.text).toBe(201);
    expect(first.body.data.after.shippingAddress.line1).toBe('2 Elm St');
    expect(first.body.data.difference).toBe(0);
    expect((await move(order.id, first.body.data.id, 'confirm')).body.data.paymentAction).toBe('none');
    expect((await getOrder(order.id)).shippingAddress.line1).toBe('2 Elm St');
    const second = await edit(order.id, { quantities: [{ lineItemId: order.lineItems[0].lineItemId, quantity: 2 }] });
    const list = await t.request(`/api/orders/${order.id}/edits`, { apiKey: store.admin });
    expect(list.status).toBe(200);
    expect(list.body.data.map((e: any) => e.id)).toEqual([second.body.data.id, first.body.data.id]);
  });
});

describe('the payment difference', () => {
  it('an order awaiting payment: the old payment is voided and the new total authorized through the provider (a new payment record)', async () => {
    const p = await product(store, { price: 600, stock: 10 });
    const order = await placeOrder(store, [{ entityId: p }]);
    const e = (await edit(order.id, { quantities: [{ lineItemId: order.lineItems[0].lineItemId, quantity: 2 }] })).body.data;
    const confirmed = await move(order.id, e.id, 'confirm');
    expect(confirmed.status, confirmed.text).toBe(200);
    expect(confirmed.body.data.paymentAction).toBe('reissued_intent');
    const after = await withPayments(order.id);
    expect(after).toMatchObject({ status: 'pending', paymentStatus: 'awaiting_payment', grandTotal: order.grandTotal + 600 });
    expect(after.payments).toMatchObject([
      { status: 'voided', amount: order.grandTotal, providerReference: order.paymentIntentId },
      { status: 'pending', amount: after.grandTotal, captureMode: 'automatic', providerReference: after.paymentIntentId },
    ]);
    // The provider's event for the new payment confirms the order, as after a checkout.
    const paid = await pay(store, after);
    expect(paid).toMatchObject({ status: 'confirmed', paymentStatus: 'paid', capturedAmount: after.grandTotal });
  });

  it('an authorized order (manual capture) whose total goes down keeps its authorization; the capture takes the new total only', async () => {
    const order = await authorizedOrder(450, 2);
    const e = (await edit(order.id, { quantities: [{ lineItemId: order.lineItems[0].lineItemId, quantity: 1 }] })).body.data;
    const confirmed = await move(order.id, e.id, 'confirm');
    expect(confirmed.status, confirmed.text).toBe(200);
    expect(confirmed.body.data.paymentAction).toBe('authorization_covers');
    const after = await withPayments(order.id);
    expect(after).toMatchObject({ paymentStatus: 'authorized', grandTotal: order.grandTotal - 450, payments: [{ status: 'authorized', authorizedAmount: order.grandTotal }] });
    const captured = await t.request(`/api/orders/${order.id}/capture`, { apiKey: store.admin, body: {} });
    expect(captured.status, captured.text).toBe(200);
    expect(captured.body.data).toMatchObject({
      captured: after.grandTotal,
      order: { paymentStatus: 'paid', capturedAmount: after.grandTotal },
      payments: [{ status: 'captured', capturedAmount: after.grandTotal, capturableAmount: 0 }],
    });
  });

  it('an authorized order whose total goes above the authorization is re-authorized for the new total, keeping its capture mode', async () => {
    const order = await authorizedOrder(450, 1);
    const e = (await edit(order.id, { quantities: [{ lineItemId: order.lineItems[0].lineItemId, quantity: 2 }] })).body.data;
    const confirmed = await move(order.id, e.id, 'confirm');
    expect(confirmed.status, confirmed.text).toBe(200);
    expect(confirmed.body.data.paymentAction).toBe('reissued_intent');
    const after = await withPayments(order.id);
    expect(after).toMatchObject({ paymentStatus: 'awaiting_payment', grandTotal: order.grandTotal + 450 });
    expect(after.payments).toMatchObject([{ status: 'voided' }, { status: 'pending', captureMode: 'manual', amount: after.grandTotal }]);
  });

  it('a paid order whose total goes down is refunded the difference through the refund service', async () => {
    const p = await product(store, { price: 700, stock: 10 });
    const order = await pay(store, await placeOrder(store, [{ entityId: p, quantity: 3 }]));
    const e = (await edit(order.id, { quantities: [{ lineItemId: order.lineItems[0].lineItemId, quantity: 1 }] })).body.data;
    expect(e.difference).toBe(-1400);
    const confirmed = await move(order.id, e.id, 'confirm');
    expect(confirmed.status, confirmed.text).toBe(200);
    expect(confirmed.body.data).toMatchObject({ paymentAction: 'refund' });
    const refunds = (await t.request(`/api/orders/${order.id}/refunds`, { apiKey: store.admin })).body.data;
    expect(refunds).toHaveLength(1);
    expect(refunds[0]).toMatchObject({ id: confirmed.body.data.refundId, amount: 1400, status: 'pending', lines: [] });
    const after = await getOrder(order.id);
    // Money conserved: captured − refunded = the new total.
    expect(after.capturedAmount - after.refundedAmount).toBe(after.grandTotal);
  });

  it('a paid order whose total goes up becomes partially_paid, awaiting the difference', async () => {
    const p = await product(store, { price: 500, stock: 10 });
    const order = await pay(store, await placeOrder(store, [{ entityId: p }]));
    const e = (await edit(order.id, { quantities: [{ lineItemId: order.lineItems[0].lineItemId, quantity: 2 }] })).body.data;
    const confirmed = await move(order.id, e.id, 'confirm');
    expect(confirmed.body.data.paymentAction).toBe('awaiting_difference');
    const after = await getOrder(order.id);
    expect(after).toMatchObject({ paymentStatus: 'partially_paid', capturedAmount: order.grandTotal, grandTotal: order.grandTotal + 500 });
    // Editing back down to what was paid makes it paid again without a refund.
    const back = (await edit(order.id, { quantities: [{ lineItemId: order.lineItems[0].lineItemId, quantity: 1 }] })).body.data;
    expect((await move(order.id, back.id, 'confirm')).body.data.paymentAction).toBe('none');
    expect((await getOrder(order.id)).paymentStatus).toBe('paid');
  });
});

describe('illegal moves and stale previews', () => {
  it('a confirmed or cancelled edit does not move again (409); cancel leaves the order untouched', async () => {
    const p = await product(store, { price: 300, stock: 10 });
    const order = await placeOrder(store, [{ entityId: p }]);
    const e1 = (await edit(order.id, { quantities: [{ lineItemId: order.lineItems[0].lineItemId, quantity: 2 }] })).body.data;
    const cancelled = await move(order.id, e1.id, 'cancel');
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.data.status).toBe('cancelled');
    expect((await getOrder(order.id)).lineItems[0].quantity).toBe(1);
    for (const action of ['confirm', 'cancel'] as const) {
      const again = await move(order.id, e1.id, action);
      expect(again.status).toBe(409);
      expect(again.body.error).toMatchObject({ code: 'CONFLICT', details: { reason: 'INVALID_TRANSITION', from: 'cancelled' } });
    }
    const e2 = (await edit(order.id, { quantities: [{ lineItemId: order.lineItems[0].lineItemId, quantity: 2 }] })).body.data;
    expect((await move(order.id, e2.id, 'confirm')).status).toBe(200);
    const twice = await move(order.id, e2.id, 'confirm');
    expect(twice.status).toBe(409);
    expect(twice.body.error.details).toMatchObject({ reason: 'INVALID_TRANSITION', from: 'confirmed' });
    expect((await move(order.id, e2.id, 'cancel')).status).toBe(409);
  });

  it('refuses a preview whose order changed since (another edit, a payment) with 409 EDIT_STALE', async () => {
    const p = await product(store, { price: 300, stock: 10 });
    const order = await placeOrder(store, [{ entityId: p }]);
    const line = order.lineItems[0].lineItemId;
    const a = (await edit(order.id, { quantities: [{ lineItemId: line, quantity: 2 }] })).body.data;
    const b = (await edit(order.id, { quantities: [{ lineItemId: line, quantity: 3 }] })).body.data;
    expect((await move(order.id, a.id, 'confirm')).status).toBe(200);
    const staleB = await move(order.id, b.id, 'confirm');
    expect(staleB.status).toBe(409);
    expect(staleB.body.error.details.reason).toBe('EDIT_STALE');
    const c = (await edit(order.id, { quantities: [{ lineItemId: line, quantity: 1 }] })).body.data;
    await pay(store, await getOrder(order.id));
    expect((await move(order.id, c.id, 'confirm')).body.error.details.reason).toBe('EDIT_STALE');
  });

  it('refuses to edit an order with fulfilled units, or a cancelled order (409)', async () => {
    const p = await product(store, { price: 300, stock: 10 });
    const shipped = await processingOrder(store, [{ entityId: p }]);
    const pendingEdit = (await edit(shipped.id, { quantities: [{ lineItemId: shipped.lineItems[0].lineItemId, quantity: 2 }] })).body.data;
    expect((await t.request(`/api/orders/${shipped.id}/fulfillments`, { apiKey: store.admin, body: {} })).status).toBe(201);
    const refused = await edit(shipped.id, { quantities: [{ lineItemId: shipped.lineItems[0].lineItemId, quantity: 2 }] });
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe('CONFLICT');
    expect((await move(shipped.id, pendingEdit.id, 'confirm')).status).toBe(409);

    const cancelled = await placeOrder(store, [{ entityId: p }]);
    expect((await setStatus(store, cancelled.id, 'cancelled')).status).toBe(200);
    expect((await edit(cancelled.id, { shippingAddress: ADDRESS })).status).toBe(409);
  });

  it('refuses more added units than the stock has (409) and rolls everything back', async () => {
    const scarce = await product(store, { price: 100, stock: 1 });
    const p = await product(store, { price: 300, stock: 10 });
    const order = await placeOrder(store, [{ entityId: p }]);
    const e = (await edit(order.id, { addLines: [{ entityId: scarce, quantity: 2 }] })).body.data;
    const res = await move(order.id, e.id, 'confirm');
    expect(res.status, res.text).toBe(409);
    expect(await available(store, scarce)).toMatchObject({ reserved: 0 });
    expect((await getOrder(order.id)).lineItems).toHaveLength(1);
    expect((await t.request(`/api/orders/${order.id}/edits`, { apiKey: store.admin })).body.data[0].status).toBe('pending');
  });
});

describe('input and permissions', () => {
  it.each([
    [{}, 'addLines'],
    [{ removeLineIds: ['00000000-0000-4000-8000-000000000000'] }, 'removeLineIds.0'],
    [{ quantities: [{ lineItemId: '00000000-0000-4000-8000-000000000000', quantity: 1 }] }, 'quantities.0.lineItemId'],
    [{ quantities: [{ lineItemId: '00000000-0000-4000-8000-000000000000', quantity: 0 }] }, 'quantities'],
    [{ addLines: [{ entityId: '00000000-0000-4000-8000-000000000000', quantity: 1 }] }, 'addLines.0.entityId'],
    [{ shippingAddress: { line1: 'x' } }, 'shippingAddress'],
  ])('refuses bad input %# with 422', async (body, field) => {
    const p = await product(store, { price: 100, stock: 10 });
    const order = await placeOrder(store, [{ entityId: p }]);
    const res = await edit(order.id, body);
    expect(res.status, res.text).toBe(422);
    expect(res.body.error.code).toBe('VALIDATION_FAILED');
    expect(JSON.stringify(res.body.error)).toContain(field);
  });

  it('refuses removing every line and adding an unpriced item with 422', async () => {
    const p = await product(store, { price: 100, stock: 10 });
    const unpriced = await product(store, { price: null, stock: 10 });
    const order = await placeOrder(store, [{ entityId: p }]);
    expect((await edit(order.id, { removeLineIds: [order.lineItems[0].lineItemId] })).status).toBe(422);
    const res = await edit(order.id, { addLines: [{ entityId: unpriced, quantity: 1 }] });
    expect(res.status).toBe(422);
    expect(res.body.error.details[0].field).toBe('addLines.0.entityId');
  });

  it('a customer and the storefront key cannot edit (403); an unknown order is 404', async () => {
    const p = await product(store, { price: 100, stock: 10 });
    const order = await placeOrder(store, [{ entityId: p }]);
    const customer = await t.signIn('customer');
    expect((await edit(order.id, { shippingAddress: ADDRESS }, { bearer: customer.token })).status).toBe(403);
    expect((await edit(order.id, { shippingAddress: ADDRESS }, { apiKey: store.storefront })).status).toBe(403);
    const e = (await edit(order.id, { shippingAddress: ADDRESS })).body.data;
    expect((await move(order.id, e.id, 'confirm', store.storefront)).status).toBe(403);
    expect((await edit('00000000-0000-4000-8000-000000000000', { shippingAddress: ADDRESS })).status).toBe(404);
    expect((await move(order.id, '00000000-0000-4000-8000-000000000000', 'confirm')).status).toBe(404);
  });
});

describe('GraphQL', () => {
  const fields = 'id status difference paymentAction before { grandTotal } after { grandTotal lineItems { lineItemId quantity } }';
  it('creates, confirms and refuses an illegal move the same way', async () => {
    const p = await product(store, { price: 200, stock: 10 });
    const order = await placeOrder(store, [{ entityId: p }]);
    const created = await t.graphql(
      `mutation($id: String!, $q: [OrderEditQuantityInput!]) { orderEditCreate(id: $id, quantities: $q) { ${fields} } }`,
      { id: order.id, q: [{ lineItemId: order.lineItems[0].lineItemId, quantity: 4 }] },
      { apiKey: store.admin },
    );
    expect(created.body.errors, created.text).toBeUndefined();
    const e = created.body.data.orderEditCreate;
    expect(e).toMatchObject({ status: 'pending', after: { lineItems: [{ quantity: 4 }] } });
    const confirm = `mutation($id: String!, $e: UUID!) { orderEditConfirm(id: $id, editId: $e) { ${fields} } }`;
    const ok = await t.graphql(confirm, { id: order.id, e: e.id }, { apiKey: store.admin });
    expect(ok.body.errors, ok.text).toBeUndefined();
    expect(ok.body.data.orderEditConfirm.status).toBe('confirmed');
    const again = await t.graphql(confirm, { id: order.id, e: e.id }, { apiKey: store.admin });
    expect(again.body.errors?.[0]?.extensions?.code).toBe('CONFLICT');
    const cancel = await t.graphql(`mutation($id: String!, $e: UUID!) { orderEditCancel(id: $id, editId: $e) { id } }`, { id: order.id, e: e.id }, { apiKey: store.admin });
    expect(cancel.body.errors?.[0]?.extensions?.code).toBe('CONFLICT');
    const list = await t.graphql(`query($id: String!) { orderEdits(id: $id) { id status } }`, { id: order.id }, { apiKey: store.admin });
    expect(list.body.data.orderEdits).toEqual([{ id: e.id, status: 'confirmed' }]);
    const customer = await t.signIn('customer');
    const denied = await t.graphql(
      `mutation($id: String!) { orderEditCreate(id: $id, shippingAddress: ${'{ line1: "1 A St", city: "X", postalCode: "1", country: "US" }'}) { id } }`,
      { id: order.id },
      { bearer: customer.token },
    );
    expect(denied.body.errors?.[0]?.extensions?.code).toMatch(/FORBIDDEN|UNAUTHORIZED/);
  });
});

describe('locks under parallel requests on separate connections', () => {
  const ROUNDS = 6;
  it(`confirming an edit racing with a fulfillment: one wins, ${ROUNDS} rounds`, async () => {
    const p = await product(store, { price: 100, stock: ROUNDS * 4 });
    const outcomes: string[] = [];
    for (let round = 0; round < ROUNDS; round += 1) {
      const order = await processingOrder(store, [{ entityId: p }]);
      const e = (await edit(order.id, { quantities: [{ lineItemId: order.lineItems[0].lineItemId, quantity: 2 }] })).body.data;
      const [confirm, fulfil] = await race(t.url, [
        { path: `/api/orders/${order.id}/edits/${e.id}/confirm`, apiKey: store.admin },
        { path: `/api/orders/${order.id}/fulfillments`, apiKey: store.admin, body: {} },
      ]);
      expect(
        [confirm!.status, fulfil!.status].filter((s) => s >= 500),
        `${confirm!.text}\n${fulfil!.text}`,
      ).toEqual([]);
      const after = await getOrder(order.id);
      if (confirm!.status === 200) {
        // The edit went first: the fulfillment then shipped the edited quantity.
        expect(fulfil!.status).toBe(201);
        expect(after.lineItems[0]).toMatchObject({ quantity: 2, fulfilledQuantity: 2 });
        outcomes.push('edit first');
      } else {
        expect(confirm!.status).toBe(409);
        expect(fulfil!.status).toBe(201);
        expect(after.lineItems[0]).toMatchObject({ quantity: 1, fulfilledQuantity: 1 });
        outcomes.push('fulfillment first');
      }
      expect(after.status).toBe('fulfilled');
    }
    console.info(`edit vs fulfillment: ${JSON.stringify(outcomes)}`);
  }, 240_000);

  it(`two confirms (the same edit, or two edits of one order): exactly one applies, ${ROUNDS} rounds`, async () => {
    const p = await product(store, { price: 100, stock: ROUNDS * 10 });
    for (let round = 0; round < ROUNDS; round += 1) {
      const order = await placeOrder(store, [{ entityId: p }]);
      const line = order.lineItems[0].lineItemId;
      const a = (await edit(order.id, { quantities: [{ lineItemId: line, quantity: 2 }] })).body.data;
      const b = round % 2 ? a : (await edit(order.id, { quantities: [{ lineItemId: line, quantity: 3 }] })).body.data;
      const before = await available(store, p);
      const answers = await race(
        t.url,
        [a, b].map((x) => ({ path: `/api/orders/${order.id}/edits/${x.id}/confirm`, apiKey: store.admin })),
      );
      expect(answers.map((x) => x.status).sort(), answers.map((x) => x.text).join('\n')).toEqual([200, 409]);
      const winner = answers.find((x) => x.status === 200)!.body.data;
      const after = await getOrder(order.id);
      expect(after.lineItems[0].quantity).toBe(winner.after.lineItems[0].quantity);
      // Reserved exactly once for the winning edit.
      expect((await available(store, p)).reserved).toBe(before.reserved + winner.after.lineItems[0].quantity - 1);
    }
  }, 240_000);
});

describe('promotions and prices', () => {
  it("re-applies the order's promotion to the new lines: a preview records no use, a confirm keeps one", async () => {
    const code = `EDIT${Date.now().toString(36).toUpperCase()}`;
    const promo = await t.request('/api/promotions', {
      apiKey: store.admin,
      body: { code, name: 'Ten off', type: 'percentage_off_order', value: 10, usageLimit: 1, validFrom: new Date(Date.now() - 60_000).toISOString() },
    });
    expect(promo.status, promo.text).toBe(201);
    const p = await product(store, { price: 1000, stock: 10 });
    const q = await product(store, { price: 500, stock: 10 });
    const order = await placeOrder(store, [{ entityId: p }], { body: { promotionCodes: [code] } });
    expect(order.discountTotal).toBe(100);
    const timesUsed = async () => (await t.request(`/api/promotions/${promo.body.data.id}`, { apiKey: store.admin })).body.data.timesUsed;
    expect(await timesUsed()).toBe(1);
    const e = (await edit(order.id, { addLines: [{ entityId: q, quantity: 2 }] })).body.data;
    expect(e.after).toMatchObject({ subtotal: 2000, discountTotal: 200 });
    expect(await timesUsed()).toBe(1);
    const confirmed = await move(order.id, e.id, 'confirm');
    expect(confirmed.status, confirmed.text).toBe(200);
    expect(await timesUsed()).toBe(1);
    const after = await getOrder(order.id);
    expect(after).toMatchObject({ subtotal: 2000, discountTotal: 200 });
    expect(after.pricing.promotions).toHaveLength(1);
  }, 120_000);

  it("refuses a preview whose added line's price changed since with 409 EDIT_STALE", async () => {
    const p = await product(store, { price: 1000, stock: 10 });
    const q = await product(store, { price: 500, stock: 10 });
    const order = await placeOrder(store, [{ entityId: p }]);
    const e = (await edit(order.id, { addLines: [{ entityId: q, quantity: 1 }] })).body.data;
    const prices = await t.request(`/api/pricing/prices?entityId=${q}`, { apiKey: store.admin });
    const priceId = prices.body.data[0].id;
    expect((await t.request(`/api/pricing/prices/${priceId}`, { method: 'PATCH', apiKey: store.admin, body: { amount: 600 } })).status).toBe(200);
    const res = await move(order.id, e.id, 'confirm');
    expect(res.status).toBe(409);
    expect(res.body.error.details).toMatchObject({ reason: 'EDIT_STALE', previewGrandTotal: e.after.grandTotal });
  });
});
