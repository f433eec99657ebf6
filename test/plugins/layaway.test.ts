// plugins/layaway over HTTP: plans reserve stock at creation (no oversell under concurrency),
// installments are recorded once per idempotency key and never overshoot the balance, full
// payment completes the plan into one order, forfeiture and the expiry job release the stock,
// illegal moves are 422 INVALID_TRANSITION, and every route checks its permission.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { available, ORDER_TEST_CONFIG, openStore, product, setStatus, type Store } from '../orders/helpers.js';
import { layaway } from '../../plugins/layaway/index.js';

let t: TestApp;
let store: Store;
let clerk: string;

const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString();

beforeAll(async () => {
  t = await startTestApp({
    ...ORDER_TEST_CONFIG,
    plugins: [layaway()],
    // A till's key: opens plans and takes installments, cannot forfeit.
    apiKeyScopes: { clerk: { prefix: 'cs_clerk_', description: 'till', permissions: { layaway: ['operate'], orders: ['create'] } } },
  });
  store = await openStore(t);
  clerk = await t.apiKey('clerk');
});
afterAll(() => t?.close());

async function open(entityId: string, body: Record<string, unknown> = {}, apiKey = clerk) {
  return t.request('/api/layaways', {
    apiKey,
    body: { customerEmail: 'saver@example.com', currency: 'USD', lines: [{ entityId, quantity: 1 }], deposit: 2000, expiresAt: inDays(30), ...body },
  });
}

describe('layaway plans', () => {
  it('are in /api/doc', async () => {
    const doc = await t.request('/api/doc');
    expect(
      Object.keys(doc.body.paths)
        .filter((p) => p.startsWith('/api/layaways'))
        .sort(),
    ).toEqual(['/api/layaways', '/api/layaways/{id}', '/api/layaways/{id}/forfeit', '/api/layaways/{id}/payments']);
  });

  it('reserve stock at creation and never oversell under concurrency', async () => {
    const entityId = await product(store, { price: 10_000, stock: 3 });
    const results = await Promise.all(Array.from({ length: 5 }, () => open(entityId)));
    const created = results.filter((r) => r.status === 201);
    expect(created).toHaveLength(3);
    for (const r of results.filter((x) => x.status !== 201)) {
      expect([409, 422]).toContain(r.status);
      expect(r.body.error.code).toBeTruthy();
    }
    const plan = created[0]!.body.data;
    expect(plan).toMatchObject({ status: 'active', total: 10_000, paidAmount: 2000, balance: 8000, depositAmount: 2000 });
    expect(plan.payments).toEqual([expect.objectContaining({ amount: 2000, idempotencyKey: 'deposit' })]);
    expect(await available(store, entityId)).toMatchObject({ onHand: 3, reserved: 3, available: 0 });
  });

  it('reject bad input and a schedule that does not add up, writing nothing', async () => {
    const entityId = await product(store, { price: 10_000, stock: 5 });
    const bad = await open(entityId, { deposit: -1, lines: [] });
    expect(bad.status, bad.text).toBe(422);
    const fields = bad.body.error.details.map((d: { field: string }) => d.field);
    expect(fields).toEqual(expect.arrayContaining(['deposit', 'lines']));
    const past = await open(entityId, { expiresAt: inDays(-1) });
    expect(past.status).toBe(422);
    expect(past.body.error.details[0].field).toBe('expiresAt');
    const tooMuch = await open(entityId, { deposit: 20_000 });
    expect(tooMuch.status).toBe(422);
    expect(tooMuch.body.error.details[0].field).toBe('deposit');
    const schedule = await open(entityId, { installments: [{ dueAt: inDays(10), amount: 3000 }] });
    expect(schedule.status).toBe(422);
    expect(schedule.body.error.details[0].field).toBe('installments');
    expect(await available(store, entityId)).toMatchObject({ reserved: 0, available: 5 });
  });

  it('record one payment per idempotency key and never overshoot the balance', async () => {
    const entityId = await product(store, { price: 10_000, stock: 5 });
    const plan = (await open(entityId)).body.data;
    const pay = (amount: number, key: string) => t.request(`/api/layaways/${plan.id}/payments`, { apiKey: clerk, body: { amount, idempotencyKey: key, method: 'card' } });

    const same = await Promise.all([pay(1000, 'k1'), pay(1000, 'k1')]);
    expect(same.map((r) => r.status)).toEqual([200, 200]);
    const afterSame = (await t.request(`/api/layaways/${plan.id}`, { apiKey: clerk })).body.data;
    expect(afterSame.paidAmount).toBe(3000);
    expect(afterSame.payments.filter((p: { idempotencyKey: string }) => p.idempotencyKey === 'k1')).toHaveLength(1);

    // balance 7000: 5000 and 5000 cannot both be taken
    const two = await Promise.all([pay(5000, 'k2'), pay(5000, 'k3')]);
    expect(two.map((r) => r.status).sort()).toEqual([200, 422]);
    const afterTwo = (await t.request(`/api/layaways/${plan.id}`, { apiKey: clerk })).body.data;
    expect(afterTwo.paidAmount).toBe(8000);
    expect(afterTwo.balance).toBe(2000);

    const reused = await pay(1500, 'k1');
    expect(reused.status).toBe(409);
  });

  it('complete into exactly one order at full payment; then take no more payments', async () => {
    const entityId = await product(store, { price: 10_000, stock: 5 });
    const plan = (await open(entityId)).body.data;
    const finals = await Promise.all([
      t.request(`/api/layaways/${plan.id}/payments`, { apiKey: clerk, body: { amount: 8000, idempotencyKey: 'final' } }),
      t.request(`/api/layaways/${plan.id}/payments`, { apiKey: clerk, body: { amount: 8000, idempotencyKey: 'final' } }),
    ]);
    expect(finals.map((r) => r.status)).toEqual([200, 200]);
    const done = finals[0]!.body.data;
    expect(done.status).toBe('completed');
    expect(done.orderId).toBeTruthy();
    expect(finals[1]!.body.data.orderId).toBe(done.orderId);

    const order = await t.request(`/api/orders/${done.orderId}`, { apiKey: store.admin });
    expect(order.status, order.text).toBe(200);
    expect(order.body.data).toMatchObject({ status: 'confirmed', paymentStatus: 'paid', grandTotal: 10_000, customerEmail: 'saver@example.com' });
    const orders = await t.request('/api/orders?limit=100', { apiKey: store.admin });
    expect(orders.body.data.filter((o: { id: string }) => o.id === done.orderId)).toHaveLength(1);
    // the stock stays held, now by the order
    expect(await available(store, entityId)).toMatchObject({ reserved: 1, available: 4 });

    const more = await t.request(`/api/layaways/${plan.id}/payments`, { apiKey: clerk, body: { amount: 1, idempotencyKey: 'late' } });
    expect(more.status).toBe(422);
    expect(more.body.error.code).toBe('INVALID_TRANSITION');
    const forfeit = await t.request(`/api/layaways/${plan.id}/forfeit`, { apiKey: store.admin, body: {} });
    expect(forfeit.status).toBe(422);
    expect(forfeit.body.error.code).toBe('INVALID_TRANSITION');

    // the order owns the held stock like a checkout's order: cancelling it puts the stock back
    const cancelled = await setStatus(store, done.orderId, 'cancelled');
    expect(cancelled.status, cancelled.text).toBe(200);
    expect(await available(store, entityId)).toMatchObject({ reserved: 0, available: 5 });
  });

  it('forfeit releases the stock and splits the money per the policy (layaway:manage only)', async () => {
    const entityId = await product(store, { price: 5000, stock: 4 });
    const plan = (await open(entityId, { lines: [{ entityId, quantity: 2 }], deposit: 1000 })).body.data;
    await t.request(`/api/layaways/${plan.id}/payments`, { apiKey: clerk, body: { amount: 3000, idempotencyKey: 'p1' } });
    expect(await available(store, entityId)).toMatchObject({ reserved: 2, available: 2 });

    const denied = await t.request(`/api/layaways/${plan.id}/forfeit`, { apiKey: clerk, body: {} });
    expect(denied.status).toBe(403);
    const res = await t.request(`/api/layaways/${plan.id}/forfeit`, { apiKey: store.admin, body: { reason: 'customer changed their mind' } });
    expect(res.status, res.text).toBe(200);
    expect(res.body.data).toMatchObject({ status: 'forfeited', paidAmount: 4000, retainedAmount: 1000, refundDue: 3000, forfeitReason: 'customer changed their mind' });
    expect(await available(store, entityId)).toMatchObject({ reserved: 0, available: 4 });
    const again = await t.request(`/api/layaways/${plan.id}/forfeit`, { apiKey: store.admin, body: {} });
    expect(again.body.error.code).toBe('INVALID_TRANSITION');
  });

  it('expire through the layaway/expire job, releasing the stock', async () => {
    const entityId = await product(store, { price: 3000, stock: 2 });
    const plan = (await open(entityId, { deposit: 500, expiresAt: new Date(Date.now() + 1500).toISOString(), forfeitPolicy: 'refund_all' })).body.data;
    await new Promise((r) => setTimeout(r, 1600));
    const org = await t.app.services.organizations.defaultOrganization();
    await t.app.services.jobs.enqueue({ task: 'layaway/expire', organizationId: org.id });
    const run = await t.request('/api/jobs/run', { apiKey: store.admin });
    expect(run.status, run.text).toBe(200);
    const after = (await t.request(`/api/layaways/${plan.id}`, { apiKey: clerk })).body.data;
    expect(after).toMatchObject({ status: 'forfeited', forfeitReason: 'expired', retainedAmount: 0, refundDue: 500 });
    expect(await available(store, entityId)).toMatchObject({ reserved: 0, available: 2 });
  });

  it('list by status with a clamped page, over REST and GraphQL, scoped by permission', async () => {
    const list = await t.request('/api/layaways?status=forfeited&limit=1000', { apiKey: clerk });
    expect(list.status, list.text).toBe(200);
    expect(list.body.meta.limit).toBe(100);
    expect(list.body.data.length).toBeGreaterThan(0);
    expect(list.body.data.every((p: { status: string }) => p.status === 'forfeited')).toBe(true);
    const gql = await t.graphql(
      '{ layaways(status: active, limit: 5) { data { id status balance lines { sku quantity } payments { amount } } meta { total limit offset } } }',
      {},
      { apiKey: clerk },
    );
    expect(gql.body.errors, JSON.stringify(gql.body.errors)).toBeUndefined();
    expect((gql.body.data as any).layaways.data.every((p: { status: string }) => p.status === 'active')).toBe(true);
    expect((await t.request('/api/layaways', { apiKey: store.storefront })).status).toBe(403);
    expect((await t.request('/api/layaways/00000000-0000-4000-8000-000000000000', { apiKey: clerk })).status).toBe(404);
  });
});

describe('who may reach the layaway routes', () => {
  it("a customer, a storefront key and another organization's admin reach no plan of this store", async () => {
    const entityId = await product(store, { price: 5000, stock: 5 });
    const plan = (await open(entityId)).body.data;
    expect(plan.id).toBeTruthy();
    const customer = await t.signIn('customer');
    const other = await t.app.db.organization.create({ data: { slug: `layaway-other-${Date.now()}`, name: 'Other store' } });
    const otherAdmin = await t.apiKey('admin', { organizationId: other.id });
    const callers: Array<[string, Record<string, string>, number]> = [
      ['customer', { bearer: customer.token }, 403],
      ['storefront key', { apiKey: store.storefront }, 403],
      ["another organization's admin", { apiKey: otherAdmin }, 404],
    ];
    for (const [who, credential, status] of callers) {
      expect((await t.request(`/api/layaways/${plan.id}`, credential)).status, `${who} GET`).toBe(status);
      expect((await t.request(`/api/layaways/${plan.id}/payments`, { ...credential, body: { amount: 1000, idempotencyKey: `k-${who}` } })).status, `${who} pay`).toBe(status);
      expect((await t.request(`/api/layaways/${plan.id}/forfeit`, { ...credential, body: { reason: 'x' } })).status, `${who} forfeit`).toBe(status);
    }
    // The other organization's list holds none of this store's plans.
    const theirs = await t.request('/api/layaways', { apiKey: otherAdmin });
    expect(theirs.status).toBe(200);
    expect(theirs.body.data).toEqual([]);
    // Nothing changed on the plan.
    const after = await t.request(`/api/layaways/${plan.id}`, { apiKey: clerk });
    expect(after.body.data).toMatchObject({ status: plan.status, paidAmount: plan.paidAmount });
  });
});

describe('the LayawayPlans analytics model', () => {
  it("is listed by /analytics/meta and queryable, counting only the caller organization's plans; customers do not see it", async () => {
    const admin = store.admin;
    const meta = await t.request('/api/analytics/meta', { apiKey: admin });
    expect(meta.status, meta.text).toBe(200);
    const model = meta.body.data.find((m: { name: string }) => m.name === 'LayawayPlans');
    expect(model, 'LayawayPlans in /analytics/meta').toBeDefined();
    expect(model.measures.map((m: { name: string }) => m.name)).toContain('LayawayPlans.outstandingBalance');
    expect(model.dimensions).toContainEqual(expect.objectContaining({ name: 'LayawayPlans.createdAt', title: 'Opened at', type: 'time' }));

    // Another organization with a plan of its own: it must not show up in this one's numbers.
    const other = await t.app.db.organization.create({ data: { slug: `layaway-analytics-${Date.now()}`, name: 'Other store' } });
    const otherStore = await openStore(t, { organizationId: other.id });
    const otherEntity = await product(otherStore, { price: 7777, stock: 2 });
    const otherPlan = await t.request('/api/layaways', {
      apiKey: otherStore.admin,
      body: { customerEmail: 'elsewhere@example.com', currency: 'USD', lines: [{ entityId: otherEntity, quantity: 1 }], deposit: 777, expiresAt: inDays(30) },
    });
    expect(otherPlan.status, otherPlan.text).toBe(201);

    const body = {
      measures: ['LayawayPlans.count', 'LayawayPlans.totalValue', 'LayawayPlans.paidAmount', 'LayawayPlans.outstandingBalance'],
      dimensions: ['LayawayPlans.status'],
      order: { 'LayawayPlans.status': 'asc' },
    };
    const res = await t.request('/api/analytics/query', { apiKey: admin, body });
    expect(res.status, res.text).toBe(200);
    const orgId = (await t.app.services.organizations.defaultOrganization()).id;
    const expected = await t.app.db.$queryRaw<Array<{ status: string; count: number; total: number; paid: number; outstanding: number }>>`
      select status, count(*)::float8 as count, sum(total)::float8 as total, sum(paid_amount)::float8 as paid,
             coalesce(sum(total - paid_amount) filter (where status = 'active'), 0)::float8 as outstanding
      from plugin_layaway_plans where organization_id = ${orgId}::uuid group by status order by status`;
    expect(expected.length).toBeGreaterThan(1);
    expect(res.body.data).toEqual(
      expected.map((r) => ({
        'LayawayPlans.status': r.status,
        'LayawayPlans.count': r.count,
        'LayawayPlans.totalValue': r.total,
        'LayawayPlans.paidAmount': r.paid,
        'LayawayPlans.outstandingBalance': r.outstanding,
      })),
    );
    expect(res.body.meta.annotation.measures['LayawayPlans.totalValue']).toMatchObject({ shortTitle: 'Value of the goods on layaway', format: 'currency' });

    // The other organization sees its one plan only.
    const theirs = await t.request('/api/analytics/query', { apiKey: otherStore.admin, body: { measures: ['LayawayPlans.count', 'LayawayPlans.totalValue'] } });
    expect(theirs.status, theirs.text).toBe(200);
    expect(theirs.body.data).toEqual([{ 'LayawayPlans.count': 1, 'LayawayPlans.totalValue': 7777 }]);

    // A customer's meta leaves it out and a query naming it is 422 naming the member.
    const customer = await t.signIn('customer');
    const theirMeta = await t.request('/api/analytics/meta', { bearer: customer.token });
    expect(theirMeta.status).toBe(200);
    expect(theirMeta.body.data.map((m: { name: string }) => m.name)).not.toContain('LayawayPlans');
    const refused = await t.request('/api/analytics/query', { bearer: customer.token, body: { measures: ['LayawayPlans.count'] } });
    expect(refused.status).toBe(422);
    expect(refused.body.error.details[0]).toMatchObject({ field: 'measures.0' });
    expect(refused.body.error.details[0].message).toMatch(/not visible/);
  });
});
