// Store credit over REST and GraphQL: staff credit/debit with reasons, the customer's own view,
// organization scoping, and two debits racing for the last credit on separate connections.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { race } from '../support/race.js';
import { eventsWhere, otherOrganization } from '../inventory/helpers.js';

let t: TestApp;
let admin: string;

beforeAll(async () => {
  t = await startTestApp();
  admin = await t.apiKey('admin');
});
afterAll(() => t?.close());

const move = (customerId: string, body: Record<string, unknown>, apiKey = admin) =>
  t.request(`/api/customers/${customerId}/store-credit`, { apiKey, body: { type: 'credit', currency: 'USD', reason: 'goodwill', ...body } });

describe('staff moves and the customer view', () => {
  it('credits and debits with reasons; the ledger never goes negative', async () => {
    const customer = await t.signIn('customer');
    const credited = await move(customer.userId, { amount: 1500 });
    expect(credited.status, credited.text).toBe(200);
    expect(credited.body.data.balances).toEqual([{ currency: 'USD', balance: 1500 }]);
    const debited = await move(customer.userId, { type: 'debit', amount: 500, reason: 'used in store' });
    expect(debited.body.data.balances).toEqual([{ currency: 'USD', balance: 1000 }]);
    const short = await move(customer.userId, { type: 'debit', amount: 1001 });
    expect(short.status).toBe(409);
    expect(short.body.error.details).toMatchObject({ reason: 'INSUFFICIENT_STORE_CREDIT', available: 1000, requested: 1001 });
    const none = await move(customer.userId, { type: 'debit', amount: 1, currency: 'EUR' });
    expect(none.status).toBe(409);

    const mine = await t.request('/api/me/store-credit', { bearer: customer.token });
    expect(mine.status, mine.text).toBe(200);
    expect(mine.body.data.balances).toEqual([{ currency: 'USD', balance: 1000 }]);
    expect(mine.body.data.entries.map((e: any) => [e.amount, e.balanceAfter, e.reason, e.sourceType])).toEqual([
      [-500, 1000, 'used in store', 'staff'],
      [1500, 1500, 'goodwill', 'staff'],
    ]);
    const staffView = await t.request(`/api/customers/${customer.userId}/store-credit`, { apiKey: admin });
    expect(staffView.body.data).toEqual(mine.body.data);
    const events = await eventsWhere(t, 'storecredit.move', (p) => p.customerId === customer.userId);
    expect(events.map((e) => e.amount)).toEqual([1500, -500]);
  });

  it('refuses bad input with 422 and an unknown customer with 404', async () => {
    const customer = await t.signIn('customer');
    for (const body of [{ amount: 0 }, { amount: -5 }, { amount: 1.5 }, { type: 'gift' }, { reason: '' }, { currency: 'dollars' }]) {
      const res = await move(customer.userId, { amount: 100, ...body });
      expect(res.status, JSON.stringify(body)).toBe(422);
    }
    expect((await move('00000000-0000-4000-8000-000000000000', { amount: 100 })).status).toBe(404);
    expect((await move('no-such-customer', { amount: 100 })).status).toBe(422);
  });

  it('a customer sees only their own credit; staff routes refuse customers; another org sees nothing', async () => {
    const alice = await t.signIn('customer');
    const bob = await t.signIn('customer');
    await move(alice.userId, { amount: 900 });
    const bobs = await t.request('/api/me/store-credit', { bearer: bob.token });
    expect(bobs.body.data).toEqual({ customerId: bob.userId, balances: [], entries: [] });
    expect((await t.request(`/api/customers/${alice.userId}/store-credit`, { bearer: bob.token })).status).toBe(403);
    expect((await t.request(`/api/customers/${alice.userId}/store-credit`, { bearer: bob.token, body: { type: 'credit', amount: 1, currency: 'USD', reason: 'x' } })).status).toBe(
      403,
    );
    expect((await t.request('/api/me/store-credit', { apiKey: admin })).status).toBe(403);
    const other = await otherOrganization(t);
    expect((await t.request(`/api/customers/${alice.userId}/store-credit`, { apiKey: other.admin })).status).toBe(404);
    expect((await move(alice.userId, { amount: 100 }, other.admin)).status).toBe(404);
  });

  it('answers over GraphQL', async () => {
    const customer = await t.signIn('customer');
    const moved = await t.graphql(
      'mutation($id: UUID!) { customerStoreCreditMove(id: $id, type: credit, amount: 300, currency: "USD", reason: "sorry") { balances { currency balance } } }',
      { id: customer.userId },
      { apiKey: admin },
    );
    expect(moved.body.errors).toBeUndefined();
    expect(moved.body.data.customerStoreCreditMove.balances).toEqual([{ currency: 'USD', balance: 300 }]);
    const mine = await t.graphql('{ meStoreCredit { balances { balance } entries { amount reason } } }', {}, { bearer: customer.token });
    expect(mine.body.data.meStoreCredit).toEqual({ balances: [{ balance: 300 }], entries: [{ amount: 300, reason: 'sorry' }] });
  });
});

describe('concurrency', () => {
  it('two debits racing for the last credit on separate connections: one wins', async () => {
    const customer = await t.signIn('customer');
    await move(customer.userId, { amount: 1000 });
    const results = await race(
      t.url,
      [0, 1].map(() => ({ path: `/api/customers/${customer.userId}/store-credit`, apiKey: admin, body: { type: 'debit', amount: 700, currency: 'USD', reason: 'race' } })),
    );
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
    const after = await t.request(`/api/customers/${customer.userId}/store-credit`, { apiKey: admin });
    expect(after.body.data.balances).toEqual([{ currency: 'USD', balance: 300 }]);
  });

  it('two first credits racing create one account holding both', async () => {
    const customer = await t.signIn('customer');
    const results = await race(
      t.url,
      [0, 1].map(() => ({ path: `/api/customers/${customer.userId}/store-credit`, apiKey: admin, body: { type: 'credit', amount: 250, currency: 'USD', reason: 'race' } })),
    );
    expect(results.map((r) => r.status)).toEqual([200, 200]);
    const after = await t.request(`/api/customers/${customer.userId}/store-credit`, { apiKey: admin });
    expect(after.body.data.balances).toEqual([{ currency: 'USD', balance: 500 }]);
  });
});
