// What disputes and returns may take back from one sub-order, over HTTP: resolutions are capped
// by what is still refundable on the sub-order (earlier disputes and received returns count), the
// vendor's debits for the sub-order never exceed its sale credit (the net amount), and the locks
// hold under truly parallel requests (separate connections, a barrier): two opens at once give
// one 201 and one 409; two resolutions at once never debit more than the credit.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../support/app.js';
import { race } from '../../support/race.js';
import type { Store } from '../../orders/helpers.js';
import { M, sale, startMarketplace, vendor, type Vendor } from './helpers.js';

let t: TestApp;
let store: Store;
let a: Vendor;
let alice: { token: string; userId: string };

const admin = () => ({ apiKey: store.admin });
const post = (path: string, auth: { apiKey?: string; bearer?: string }, body?: unknown) => t.request(`${M}${path}`, { method: 'POST', ...auth, ...(body ? { body } : {}) });
const open = async (subOrderId: string) => {
  const res = await post('/disputes', { bearer: alice.token }, { subOrderId, reason: 'broken' });
  expect(res.status, res.text).toBe(201);
  return res.body.data.id as string;
};
const resolve = (id: string, body: Record<string, unknown>) => post(`/disputes/${id}/resolve`, admin(), body);
/** What the vendor's ledger took back for this sub-order (a positive number). */
const debited = async (subOrderId: string) =>
  -(await t.app.db.marketplaceLedgerEntry.findMany({ where: { subOrderId, amount: { lt: 0 } } })).reduce((s, e) => s + Number(e.amount), 0);
const refundedOnOrder = async (orderId: string) => (await t.request(`/api/orders/${orderId}`, admin())).body.data.refundedAmount as number;

beforeAll(async () => {
  ({ t, store } = await startMarketplace());
  a = await vendor(t, store.admin, { name: 'Alpha' });
  alice = await t.signIn('customer');
  expect((await t.request(`${M}/commission-rules`, { apiKey: store.admin, body: { name: 'global', rateBps: 1000 } })).status).toBe(201);
});
afterAll(() => t?.close());

describe('dispute resolutions are capped by what is still refundable', () => {
  it('a second refund_customer on a refunded sub-order is refused; nothing more is debited', async () => {
    const { sub, order } = await sale(store, a, alice, 1_080);
    const first = await resolve(await open(sub.id), { resolution: 'refund_customer' });
    expect(first.status, first.text).toBe(200);
    expect(first.body.data.refundAmount).toBe(sub.total);
    expect(await debited(sub.id)).toBe(sub.netAmount);

    const second = await open(sub.id);
    const again = await resolve(second, { resolution: 'refund_customer' });
    expect(again.status, again.text).toBe(422);
    expect(again.body.error.code).toBe('VALIDATION_FAILED');
    expect((await resolve(second, { resolution: 'split', refundAmount: 1 })).status).toBe(422);
    expect((await resolve(second, { resolution: 'release_to_vendor' })).body.data).toMatchObject({ status: 'resolved', refundAmount: 0 });
    expect(await debited(sub.id)).toBe(sub.netAmount);
    expect(await refundedOnOrder(order.id)).toBe(sub.total);
  });

  it('splits add up to at most the sub-order total; refund_customer after a split is refused (it would refund whole lines again)', async () => {
    const { sub } = await sale(store, a, alice, 5_000);
    expect((await resolve(await open(sub.id), { resolution: 'split', refundAmount: 3_000 })).status).toBe(200);
    const d2 = await open(sub.id);
    const over = await resolve(d2, { resolution: 'split', refundAmount: 2_001 });
    expect(over.status, over.text).toBe(422);
    expect(over.body.error.message + JSON.stringify(over.body.error.details)).toContain('2000');
    expect((await resolve(d2, { resolution: 'refund_customer' })).status).toBe(422);
    expect((await resolve(d2, { resolution: 'split', refundAmount: 2_000 })).body.data).toMatchObject({ status: 'resolved', refundAmount: 2_000 });
    const d3 = await open(sub.id);
    expect((await resolve(d3, { resolution: 'split', refundAmount: 1 })).status).toBe(422);
    expect(await debited(sub.id)).toBe(sub.netAmount);
  });

  it('a return received after a split debits only what is left of the credit', async () => {
    const { sub } = await sale(store, a, alice, 2_000, 2);
    expect((await resolve(await open(sub.id), { resolution: 'split', refundAmount: 3_000 })).status).toBe(200);
    const r = await post('/returns', { bearer: alice.token }, { subOrderId: sub.id, reason: 'both broken', lines: [{ subOrderLineId: sub.lines[0].id, quantity: 2 }] });
    expect(r.status, r.text).toBe(201);
    expect((await post(`/returns/${r.body.data.id}/ship-back`, { bearer: alice.token }, { trackingNumber: 'RT' })).status).toBe(200);
    expect((await post(`/returns/${r.body.data.id}/receive`, { bearer: a.token })).status).toBe(200);
    expect(await debited(sub.id)).toBe(sub.netAmount);
  });
});

describe('dispute locks under truly parallel requests (20 rounds)', () => {
  it('two opens at once: one 201, one 409; two resolutions at once: one wins, debits never exceed the credit', async () => {
    const outcomes = { opens: new Map<string, number>(), resolves: new Map<string, number>() };
    const count = (m: Map<string, number>, k: string) => m.set(k, (m.get(k) ?? 0) + 1);
    for (let round = 0; round < 20; round += 1) {
      const { sub, order } = await sale(store, a, alice, 1_000 + round);
      const opens = await race(
        t.url,
        [0, 1].map(() => ({ path: `${M}/disputes`, bearer: alice.token, body: { subOrderId: sub.id, reason: `race ${round}` } })),
      );
      const statuses = opens.map((r) => r.status).sort();
      count(outcomes.opens, statuses.join('+'));
      expect(statuses, opens.map((r) => r.text).join('\n')).toEqual([201, 409]);
      const id = opens.find((r) => r.status === 201)!.body.data.id as string;
      const resolves = await race(t.url, [
        { path: `${M}/disputes/${id}/resolve`, apiKey: store.admin, body: { resolution: 'refund_customer' } },
        { path: `${M}/disputes/${id}/resolve`, apiKey: store.admin, body: { resolution: 'split', refundAmount: sub.total - 1 } },
      ]);
      const rs = resolves.map((r) => r.status).sort();
      count(outcomes.resolves, rs.join('+'));
      expect(rs, resolves.map((r) => r.text).join('\n')).toEqual([200, 422]);
      expect(await debited(sub.id)).toBeLessThanOrEqual(sub.netAmount);
      expect(await refundedOnOrder(order.id)).toBeLessThanOrEqual(sub.total);
    }
    console.info('dispute races (20 rounds):', Object.fromEntries(outcomes.opens), Object.fromEntries(outcomes.resolves));
  }, 240_000);

  it('a resolution and a return receipt of one sub-order at once: debits never exceed the credit, the order never refunds more than the sub-order', async () => {
    const outcomes = new Map<string, number>();
    for (let round = 0; round < 20; round += 1) {
      const { sub, order } = await sale(store, a, alice, 1_500 + round, 2);
      const id = await open(sub.id);
      const r = await post('/returns', { bearer: alice.token }, { subOrderId: sub.id, reason: 'one broken', lines: [{ subOrderLineId: sub.lines[0].id, quantity: 1 }] });
      expect(r.status, r.text).toBe(201);
      expect((await post(`/returns/${r.body.data.id}/ship-back`, { bearer: alice.token }, { trackingNumber: 'RT' })).status).toBe(200);
      const [resolved, received] = await race(t.url, [
        { path: `${M}/disputes/${id}/resolve`, apiKey: store.admin, body: { resolution: 'refund_customer' } },
        { path: `${M}/returns/${r.body.data.id}/receive`, bearer: a.token },
      ]);
      const key = `resolve ${resolved!.status} + receive ${received!.status}`;
      outcomes.set(key, (outcomes.get(key) ?? 0) + 1);
      expect(resolved!.status, resolved!.text).toBe(200);
      expect([200, 422], received!.text).toContain(received!.status); // 422 when the dispute already refunded both units
      expect(await debited(sub.id)).toBeLessThanOrEqual(sub.netAmount);
      expect(await refundedOnOrder(order.id)).toBeLessThanOrEqual(sub.total);
    }
    console.info('resolution vs return receipt (20 rounds):', Object.fromEntries(outcomes));
  }, 240_000);
});
