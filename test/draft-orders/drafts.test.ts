// Draft orders (issue 27): create for a guest or a customer, custom prices with reasons, a manual
// discount, cursor list, PATCH/DELETE while open, complete into a real order (stock reserved only
// then; paymentPending for invoice terms); illegal moves 409; drafts:manage only.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { race } from '../support/race.js';
import { ADDRESS, ORDER_TEST_CONFIG, available, events, openStore, pay, product, type Store } from '../orders/helpers.js';

let t: TestApp;
let store: Store;

beforeAll(async () => {
  t = await startTestApp(ORDER_TEST_CONFIG);
  store = await openStore(t);
});
afterAll(() => t?.close());

function create(body: Record<string, unknown>, auth: { apiKey?: string; bearer?: string } = {}) {
  return t.request('/api/draft-orders', { apiKey: auth.bearer ? undefined : (auth.apiKey ?? store.admin), bearer: auth.bearer, body: { currency: 'USD', ...body } });
}
function complete(id: string, body: Record<string, unknown> = { paymentPending: true }) {
  return t.request(`/api/draft-orders/${id}/complete`, { apiKey: store.admin, body });
}

describe('draft orders', () => {
  it('builds a draft with a custom price and a manual discount; completing it reserves stock and writes the order', async () => {
    const a = await product(store, { price: 1000, stock: 10 });
    const b = await product(store, { price: 300, stock: 10 });
    const res = await create({
      email: 'guest@example.com',
      lines: [
        { entityId: a, quantity: 2, unitPrice: 800, priceReason: 'loyal customer' },
        { entityId: b, quantity: 1 },
      ],
      discount: { amount: 100, reason: 'goodwill' },
      shippingAddress: ADDRESS,
      note: 'phone order',
    });
    expect(res.status, res.text).toBe(201);
    const draft = res.body.data;
    expect(draft).toMatchObject({ status: 'open', email: 'guest@example.com', orderId: null, discount: { amount: 100, reason: 'goodwill' } });
    expect(draft.lines[0]).toMatchObject({ unitPrice: 800, priceReason: 'loyal customer' });
    expect(draft.lines[1]).toMatchObject({ unitPrice: null, priceReason: null });
    // Nothing reserved while it is a draft.
    expect((await available(store, a)).reserved).toBe(0);

    const done = await complete(draft.id);
    expect(done.status, done.text).toBe(201);
    const order = done.body.data;
    expect(order).toMatchObject({
      status: 'pending',
      paymentStatus: 'awaiting_payment',
      subtotal: 1600 + 300,
      discountTotal: 100,
      customerEmail: 'guest@example.com',
      paymentIntentId: null,
    });
    expect(order.orderNumber).toMatch(/^ORD-\d{4}-\d{6}$/);
    expect(order.lineItems.map((l: any) => l.unitPrice)).toEqual([800, 300]);
    expect((await available(store, a)).reserved).toBe(2);
    expect((await available(store, b)).reserved).toBe(1);
    const got = (await t.request(`/api/draft-orders/${draft.id}`, { apiKey: store.admin })).body.data;
    expect(got).toMatchObject({ status: 'completed', orderId: order.id });
    expect((await events(t, 'orders.create')).some((e) => e.payload.order.id === order.id)).toBe(true);
    const audit = await t.app.db.auditEntry.findMany({ where: { entityId: draft.id }, orderBy: { createdAt: 'asc' } });
    expect(audit.map((e) => e.event)).toEqual(['drafts.create', 'drafts.complete']);
  });

  it('charges paymentMethodId when not paymentPending; the order is then paid like a checkout', async () => {
    const p = await product(store, { price: 500, stock: 10 });
    const draft = (await create({ email: 'x@example.com', lines: [{ entityId: p, quantity: 1 }], shippingAddress: ADDRESS })).body.data;
    const done = await complete(draft.id, { paymentMethodId: 'pm_card_visa' });
    expect(done.status, done.text).toBe(201);
    expect(done.body.data.paymentIntentId).toBeTruthy();
    // Authorized through the configured provider as at checkout: a pending payment record.
    const started = (await t.request(`/api/orders/${done.body.data.id}?include=payments`, { apiKey: store.admin })).body.data;
    expect(started.payments).toMatchObject([
      { status: 'pending', provider: 'offline', captureMode: 'automatic', amount: done.body.data.grandTotal, providerReference: done.body.data.paymentIntentId },
    ]);
    const paid = await pay(store, done.body.data);
    expect(paid).toMatchObject({ status: 'confirmed', paymentStatus: 'paid', capturedAmount: done.body.data.grandTotal });
    const settled = (await t.request(`/api/orders/${done.body.data.id}?include=payments`, { apiKey: store.admin })).body.data;
    expect(settled.payments).toMatchObject([{ status: 'captured', capturedAmount: done.body.data.grandTotal }]);
    const declined = (await create({ email: 'x@example.com', lines: [{ entityId: p, quantity: 1 }], shippingAddress: ADDRESS })).body.data;
    const refused = await complete(declined.id, { paymentMethodId: 'pm_card_chargeDeclined' });
    expect(refused.status).toBe(422);
    expect((await t.request(`/api/draft-orders/${declined.id}`, { apiKey: store.admin })).body.data.status).toBe('open');
  });

  it('PATCH and DELETE while open; every move of a completed draft is 409', async () => {
    const p = await product(store, { price: 500, stock: 10 });
    const draft = (await create({ email: 'x@example.com', lines: [{ entityId: p, quantity: 1 }] })).body.data;
    const patched = await t.request(`/api/draft-orders/${draft.id}`, {
      method: 'PATCH',
      apiKey: store.admin,
      body: { lines: [{ entityId: p, quantity: 3 }], shippingAddress: ADDRESS },
    });
    expect(patched.status, patched.text).toBe(200);
    expect(patched.body.data.lines[0].quantity).toBe(3);
    expect((await complete(draft.id)).status).toBe(201);
    for (const [method, path, body] of [
      ['PATCH', `/api/draft-orders/${draft.id}`, { note: 'x' }],
      ['DELETE', `/api/draft-orders/${draft.id}`, undefined],
      ['POST', `/api/draft-orders/${draft.id}/complete`, { paymentPending: true }],
    ] as const) {
      const res = await t.request(path, { method, apiKey: store.admin, body });
      expect(res.status, `${method} ${res.text}`).toBe(409);
      expect(res.body.error.details).toMatchObject({ reason: 'INVALID_TRANSITION', from: 'completed' });
    }
    const other = (await create({ email: 'x@example.com', lines: [{ entityId: p, quantity: 1 }] })).body.data;
    const deleted = await t.request(`/api/draft-orders/${other.id}`, { method: 'DELETE', apiKey: store.admin });
    expect(deleted.status).toBe(200);
    expect((await t.request(`/api/draft-orders/${other.id}`, { apiKey: store.admin })).status).toBe(404);
  });

  it('lists newest first with cursors', async () => {
    const p = await product(store, { price: 500, stock: 10 });
    const ids: string[] = [];
    for (let i = 0; i < 3; i += 1) ids.push((await create({ email: `l${i}@example.com`, lines: [{ entityId: p, quantity: 1 }] })).body.data.id);
    const first = await t.request('/api/draft-orders?first=2', { apiKey: store.admin });
    expect(first.status, first.text).toBe(200);
    expect(first.body.data.map((d: any) => d.id)).toEqual([ids[2], ids[1]]);
    const next = await t.request(`/api/draft-orders?first=2&after=${first.body.meta.pagination.endCursor}`, { apiKey: store.admin });
    expect(next.body.data[0].id).toBe(ids[0]);
  });

  it.each([
    [{ lines: [] }, 'lines'],
    [{ email: 'a@example.com', lines: [{ entityId: '00000000-0000-4000-8000-000000000000', quantity: 1, unitPrice: 5 }] }, 'lines.0.priceReason'],
    [{ lines: [{ entityId: '00000000-0000-4000-8000-000000000000', quantity: 1 }] }, 'email'],
    [{ customerId: '00000000-0000-4000-8000-000000000000', lines: [{ entityId: '00000000-0000-4000-8000-000000000000', quantity: 1 }] }, 'customerId'],
    [{ email: 'a@example.com', lines: [{ entityId: '00000000-0000-4000-8000-000000000000', quantity: 1 }], discount: { amount: -1 } }, 'discount'],
  ])('refuses bad input %# with 422', async (body, field) => {
    const res = await create(body);
    expect(res.status, res.text).toBe(422);
    expect(JSON.stringify(res.body.error)).toContain(field);
  });

  it('refuses completion without an address, or with missing stock (409, nothing kept)', async () => {
    const scarce = await product(store, { price: 500, stock: 1 });
    const noAddress = (await create({ email: 'x@example.com', lines: [{ entityId: scarce, quantity: 1 }] })).body.data;
    expect((await complete(noAddress.id)).status).toBe(422);
    const tooMany = (await create({ email: 'x@example.com', lines: [{ entityId: scarce, quantity: 2 }], shippingAddress: ADDRESS })).body.data;
    expect((await complete(tooMany.id)).status).toBe(409);
    expect((await available(store, scarce)).reserved).toBe(0);
  });

  it('two completions of one draft racing: exactly one order', async () => {
    const p = await product(store, { price: 500, stock: 10 });
    const draft = (await create({ email: 'x@example.com', lines: [{ entityId: p, quantity: 1 }], shippingAddress: ADDRESS })).body.data;
    const answers = await race(
      t.url,
      [1, 2].map(() => ({ path: `/api/draft-orders/${draft.id}/complete`, apiKey: store.admin, body: { paymentPending: true } })),
    );
    expect(answers.map((a) => a.status).sort(), answers.map((a) => a.text).join('\n')).toEqual([201, 409]);
    expect((await available(store, p)).reserved).toBe(1);
  });

  it('needs drafts:manage: customers and storefront keys get 403; works over GraphQL', async () => {
    const p = await product(store, { price: 500, stock: 10 });
    const customer = await t.signIn('customer');
    expect((await create({ email: 'a@example.com', lines: [{ entityId: p, quantity: 1 }] }, { bearer: customer.token })).status).toBe(403);
    expect((await create({ email: 'a@example.com', lines: [{ entityId: p, quantity: 1 }] }, { apiKey: store.storefront })).status).toBe(403);
    const staff = await t.signIn('staff');
    expect((await create({ customerId: customer.userId, lines: [{ entityId: p, quantity: 1 }] }, { bearer: staff.token })).status).toBe(201);
    const gql = await t.graphql(
      'mutation($l: [DraftOrderLineInput!]!) { draftOrderCreate(currency: "USD", email: "g@example.com", lines: $l) { id status lines { unitPrice priceReason } } }',
      { l: [{ entityId: p, quantity: 1, unitPrice: 1, priceReason: 'sample' }] },
      { apiKey: store.admin },
    );
    expect(gql.body.errors, gql.text).toBeUndefined();
    const id = gql.body.data.draftOrderCreate.id;
    const completed = await t.graphql('mutation($id: UUID!) { draftOrderComplete(id: $id, paymentPending: true) { grandTotal status } }', { id }, { apiKey: store.admin });
    expect(completed.body.errors?.[0]?.extensions?.code).toBe('VALIDATION_FAILED'); // no shipping address yet
    const updated = await t.graphql(
      'mutation($id: UUID!, $a: AddressInput) { draftOrderUpdate(id: $id, shippingAddress: $a) { id } }',
      { id, a: ADDRESS },
      { apiKey: store.admin },
    );
    expect(updated.body.errors, updated.text).toBeUndefined();
    const ok = await t.graphql('mutation($id: UUID!) { draftOrderComplete(id: $id, paymentPending: true) { subtotal status } }', { id }, { apiKey: store.admin });
    expect(ok.body.errors, ok.text).toBeUndefined();
    expect(ok.body.data.draftOrderComplete).toEqual({ subtotal: 1, status: 'pending' });
    const twice = await t.graphql('mutation($id: UUID!) { draftOrderDelete(id: $id) { id } }', { id }, { apiKey: store.admin });
    expect(twice.body.errors?.[0]?.extensions?.code).toBe('CONFLICT');
  });
});
