// A process killed after the payment provider authorized and before the transaction committed:
// the retry of the same request reuses that authorization instead of making a second one
// (payments/attempts.ts). The API runs as a child process (`src/server.ts`) against a
// Stripe-compatible fake (test/payments/fake-stripe.ts, which keeps its intents and honours
// idempotency keys as Stripe does) that outlives the kill. To land the kill at exactly that point
// without anything in the product knowing about it, the test database gets a trigger on `payments`
// that, while armed, waits for an advisory lock this test holds: the request authorizes, then
// blocks on its payment row's insert inside the open transaction; the test sees the new intent at
// the provider and the waiting backend, SIGKILLs the server, has PostgreSQL drop the dead
// client's backend (rolling the transaction back) and starts a new server on the same database.
// The same request is then sent again: it succeeds, with one payment whose providerReference is the
// one intent the provider made. Checkout (with and without an idempotency key), order-edit
// confirmation and exchange settlement each go through this.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../support/app.js';
import { startFakeStripe, type FakeStripe } from '../payments/fake-stripe.js';
import { WEBHOOK_SECRET, checkoutBody, guestCart, openStore, pay, placeOrder, product, setStatus, type Store } from '../orders/helpers.js';
import { cleanup, eventually, operator, remoteApp, request, spawnProcess, type Child, type Operator } from './support.js';

const LOCK = 272727;
/** Each drill kills and starts a server: generous on a loaded machine (nothing is timed). */
const RESTART_BUDGET_MS = 240_000;

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let op: Operator;
let server: Child;
let store: Store;
let fake: FakeStripe;
let holder: pg.Client;
let config: Record<string, unknown>;

beforeAll(async () => {
  fake = await startFakeStripe();
  database = await createTestDatabase();
  config = { payments: { provider: 'stripe', stripeSecretKey: 'sk_test_killed_authorization', webhookSecret: WEBHOOK_SECRET, stripeApiBase: fake.url } };
  op = await operator(database.url, {}, database.directUrl);
  server = await spawnProcess('server', { databaseUrl: database.url, directUrl: database.directUrl, config });
  store = await openStore(
    remoteApp(
      () => server.url,
      (scope) => op.apiKey(scope),
    ),
  );
  // The fault: armed, an insert of a provider's payment waits for LOCK, which `holder` takes before each drill.
  holder = new pg.Client({ connectionString: database.directUrl });
  await holder.connect();
  await holder.query(`
    create table fault_drill (armed boolean not null);
    insert into fault_drill values (false);
    create function fault_drill_hold() returns trigger language plpgsql as $$
    begin
      -- Only the provider's payment (an exchange writes its credit's payment row before asking the provider).
      if new.provider = 'stripe' and (select armed from fault_drill) then perform pg_advisory_xact_lock_shared(${LOCK}); end if;
      return new;
    end $$;
    create trigger fault_drill_hold before insert on payments for each row execute function fault_drill_hold();`);
}, 300_000);

afterAll(async () => {
  await holder?.end().catch(() => undefined);
  await op?.close().catch(() => undefined);
  await cleanup();
  await database?.drop().catch(() => undefined);
  await fake?.close();
});

/**
 * Sends `send()` with the fault armed, waits until the provider made an intent and the request is
 * blocked on its payment insert, kills the server there, and starts a new one. Answers the intents
 * the provider made meanwhile.
 */
async function killAfterAuthorization(send: () => Promise<unknown>): Promise<string[]> {
  const before = new Set(fake.intents.keys());
  await holder.query('select pg_advisory_lock($1)', [LOCK]);
  await holder.query('update fault_drill set armed = true');
  const inFlight = send().then(
    () => 'answered',
    () => 'cut',
  );
  const blocked = await eventually(
    async () => {
      const { rows } = await holder.query<{ pid: number }>(
        `select pid from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid() and wait_event_type = 'Lock' and wait_event = 'advisory'`,
      );
      return rows.length ? rows : null;
    },
    60_000,
    50,
    'the request blocked on its payment insert',
  );
  const made = [...fake.intents.keys()].filter((id) => !before.has(id));
  expect(made).toHaveLength(1);
  const victim = server;
  victim.child.kill('SIGKILL');
  expect((await victim.exited).signal).toBe('SIGKILL');
  expect(await inFlight).toBe('cut');
  // PostgreSQL notices a dead client when it next talks to it; the drill ends its backend now (the
  // transaction rolls back), then disarms the fault.
  await holder.query('update fault_drill set armed = false');
  for (const row of blocked) await holder.query('select pg_terminate_backend($1)', [row.pid]);
  await holder.query('select pg_advisory_unlock($1)', [LOCK]);
  server = await spawnProcess('server', { databaseUrl: database.url, directUrl: database.directUrl, config });
  return made;
}

async function paymentsWithReference(reference: string) {
  return op.runtime.db.payment.findMany({ where: { providerReference: reference } });
}

describe('killed between the provider authorization and the commit', () => {
  it(
    'checkout with an idempotency key: the retry is one order and one payment on the one intent',
    async () => {
      const entityId = await product(store, { price: 1500, stock: 5 });
      const cart = await guestCart(store, [{ entityId }]);
      const send = () => request(server.url, '/api/checkout', { apiKey: store.storefront, headers: cart.headers, body: checkoutBody(cart, { idempotencyKey: 'killed-1' }) });
      const [intent] = await killAfterAuthorization(send);
      expect(await op.runtime.db.order.count({ where: { cartId: cart.id } })).toBe(0);

      const intentsBefore = fake.intents.size;
      const retry = await send();
      expect(retry.status, retry.text).toBe(201);
      expect(fake.intents.size).toBe(intentsBefore);
      expect(retry.body.data.paymentIntentId).toBe(intent);
      const payments = await paymentsWithReference(intent!);
      expect(payments.map((p) => [p.orderId, p.amount])).toEqual([[retry.body.data.id, 1500n]]);
      // The reused authorization confirms the order as any would.
      expect(await pay(store, retry.body.data)).toMatchObject({ status: 'confirmed', paymentStatus: 'paid' });
    },
    RESTART_BUDGET_MS,
  );

  it(
    'checkout without a key: the cart names the attempt, and the retry reuses the intent too',
    async () => {
      const entityId = await product(store, { price: 700, stock: 5 });
      const cart = await guestCart(store, [{ entityId, quantity: 2 }]);
      const send = () => request(server.url, '/api/checkout', { apiKey: store.storefront, headers: cart.headers, body: checkoutBody(cart) });
      const [intent] = await killAfterAuthorization(send);
      const intentsBefore = fake.intents.size;
      const retry = await send();
      expect(retry.status, retry.text).toBe(201);
      expect(fake.intents.size).toBe(intentsBefore);
      expect(retry.body.data.paymentIntentId).toBe(intent);
      expect(await paymentsWithReference(intent!)).toHaveLength(1);
    },
    RESTART_BUDGET_MS,
  );

  it(
    'order-edit confirmation: the retry confirms the edit with one new payment on the one intent',
    async () => {
      const shirt = await product(store, { price: 1000, stock: 10 });
      const extra = await product(store, { price: 450, stock: 10 });
      const order = await placeOrder(store, [{ entityId: shirt }]);
      const created = await store.t.request(`/api/orders/${order.id}/edits`, { apiKey: store.admin, body: { addLines: [{ entityId: extra, quantity: 1 }] } });
      expect(created.status, created.text).toBe(201);
      const send = () => request(server.url, `/api/orders/${order.id}/edits/${created.body.data.id}/confirm`, { method: 'POST', apiKey: store.admin });
      const [intent] = await killAfterAuthorization(send);
      expect((await op.runtime.db.orderEdit.findUniqueOrThrow({ where: { id: created.body.data.id } })).status).toBe('pending');

      const intentsBefore = fake.intents.size;
      const retry = await send();
      expect(retry.status, retry.text).toBe(200);
      expect(retry.body.data).toMatchObject({ status: 'confirmed', paymentAction: 'reissued_intent' });
      expect(fake.intents.size).toBe(intentsBefore);
      const payments = await paymentsWithReference(intent!);
      expect(payments.map((p) => [p.orderId, p.amount])).toEqual([[order.id, BigInt(order.grandTotal + 450)]]);
      expect(fake.intents.get(intent!)?.amount).toBe(order.grandTotal + 450);
    },
    RESTART_BUDGET_MS,
  );

  it(
    'exchange settlement: the retry settles with one payment of the difference on the one intent',
    async () => {
      const shirt = await product(store, { price: 1200, stock: 5 });
      const pricier = await product(store, { price: 2000, stock: 5 });
      const placed = await placeOrder(store, [{ entityId: shirt }]);
      const paid = await pay(store, placed);
      expect((await setStatus(store, paid.id, 'processing')).status).toBe(200);
      const shipped = await store.t.request(`/api/orders/${paid.id}/fulfillments`, { apiKey: store.admin, body: {} });
      expect(shipped.status, shipped.text).toBe(201);
      const opened = await store.t.request(`/api/orders/${paid.id}/returns`, {
        apiKey: store.admin,
        body: { lines: [{ lineItemId: paid.lineItems[0].lineItemId, quantity: 1 }], reasonCode: 'defective', exchangeLines: [{ entityId: pricier, quantity: 1 }] },
      });
      expect(opened.status, opened.text).toBe(201);
      const ret = opened.body.data;
      expect((await store.t.request(`/api/returns/${ret.id}/approve`, { apiKey: store.admin, body: {} })).status).toBe(200);
      const received = await store.t.request(`/api/returns/${ret.id}/receive`, {
        apiKey: store.admin,
        body: { lines: ret.lines.map((l: any) => ({ lineItemId: l.lineItemId, disposition: 'restock', warehouseId: store.warehouseId })) },
      });
      expect(received.status, received.text).toBe(200);

      const send = () => request(server.url, `/api/returns/${ret.id}/exchange`, { method: 'POST', apiKey: store.admin, body: {} });
      const [intent] = await killAfterAuthorization(send);
      expect((await op.runtime.db.orderReturn.findUniqueOrThrow({ where: { id: ret.id } })).status).toBe('received');

      const intentsBefore = fake.intents.size;
      const retry = await send();
      expect(retry.status, retry.text).toBe(200);
      expect(retry.body.data.status).toBe('exchanged');
      expect(fake.intents.size).toBe(intentsBefore);
      const payments = await paymentsWithReference(intent!);
      expect(payments.map((p) => [p.id, p.orderId, p.amount])).toEqual([[retry.body.data.exchangePaymentId, ret.exchangeOrderId, BigInt(retry.body.data.exchangeDifference)]]);
      expect(retry.body.data.exchangeDifference).toBeGreaterThan(0);
    },
    RESTART_BUDGET_MS,
  );
});
