// The relations added after the first graph pass: order → customer, order → invoices,
// customer → orders, customer → addresses, webhook delivery ↔ job. Each is selected without any
// `include`, checked for its data, and costs the same SQL statements for 10 parents as for 100.
// Each carries its REST route's rule: a customer reaches only their own record, orders and
// addresses through any path; staff without customers:read get null and a FORBIDDEN error for
// order.customer; a key without jobs:admin gets null for delivery.job.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_API_KEY_SCOPES, DEFAULT_ROLES } from '../../src/config/schema.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { inBatches } from '../catalog/helpers.js';
import { checkoutBody, ORDER_TEST_CONFIG, openStore, product, type Store } from '../orders/helpers.js';

let t: TestApp;
let store: Store;
let productId: string;
const shoppers: Array<{ token: string; userId: string; email: string; orderIds: string[] }> = [];
const invoiced: string[] = [];

async function customerOrder(token: string): Promise<any> {
  const cart = await t.request('/api/carts', { bearer: token, body: { currency: 'USD' } });
  expect(cart.status, cart.text).toBe(201);
  const added = await t.request(`/api/carts/${cart.body.data.id}/items`, { bearer: token, body: { entityId: productId, quantity: 1 } });
  expect(added.status, added.text).toBe(201);
  const order = await t.request('/api/checkout', { bearer: token, body: checkoutBody({ id: cart.body.data.id }) });
  expect(order.status, order.text).toBe(201);
  return order.body.data;
}

beforeAll(async () => {
  t = await startTestApp({
    ...ORDER_TEST_CONFIG,
    // A clerk reads orders but not customers; a hooks key manages webhooks but not jobs.
    auth: { roles: { ...DEFAULT_ROLES, clerk: ['orders:read'] } },
    apiKeyScopes: {
      ...DEFAULT_API_KEY_SCOPES,
      hooks: { prefix: 'cs_hooks_', permissions: { webhooks: ['manage'] } },
    },
    webhooks: { maxAttempts: 1, timeoutMs: 1000 },
  });
  store = await openStore(t);
  productId = await product(store, { price: 1200, stock: 1000 });
  // 101 customers, each with one saved address and one order (the first with a second order).
  // Sign-ups one at a time (each is a password hash and a transaction); the rest in parallel.
  const accounts: Array<Awaited<ReturnType<TestApp['signIn']>>> = [];
  for (let i = 0; i < 101; i += 1) accounts.push(await t.signIn('customer'));
  await inBatches(
    Array.from({ length: 101 }, (_, i) => i),
    4,
    async (i) => {
      const shopper = accounts[i]!;
      const address = await t.request('/api/me/addresses', {
        bearer: shopper.token,
        body: { firstName: 'Ada', lastName: `No${i}`, line1: `${i} Main St`, city: `City ${i}`, postalCode: '62701', country: 'US', isDefaultShipping: true },
      });
      expect(address.status, address.text).toBe(201);
      const orders = [await customerOrder(shopper.token)];
      if (i === 0) orders.push(await customerOrder(shopper.token));
      shoppers[i] = { ...shopper, orderIds: orders.map((o) => o.id) };
    },
  );
  // Three orders get their invoice issued (the first invoice document issues the number).
  for (const shopper of shoppers.slice(0, 3)) {
    const res = await t.request(`/api/orders/${shopper.orderIds[0]}/invoice.html`, { apiKey: store.admin });
    expect(res.status, res.text).toBe(200);
    invoiced.push(shopper.orderIds[0]!);
  }
}, 600_000);
afterAll(() => t?.close());

/** Statements of a query, the fewer of two runs (a background write can land inside one). */
async function measured(query: string, variables: Record<string, unknown>, options: Parameters<TestApp['graphql']>[2]) {
  const run = async () => {
    const before = t.statements();
    const res = await t.graphql(query, variables, options);
    expect(res.body.errors, JSON.stringify(res.body.errors)).toBeUndefined();
    return { count: t.statements() - before, res };
  };
  const a = await run();
  const b = await run();
  return a.count <= b.count ? a : b;
}

async function sameAtTenAndHundred(query: string, options: Parameters<TestApp['graphql']>[2] = { apiKey: store.admin }) {
  await t.graphql(query, { limit: 1 }, options);
  const ten = await measured(query, { limit: 10 }, options);
  const hundred = await measured(query, { limit: 100 }, options);
  expect(hundred.count).toBe(ten.count);
  return { ten, hundred };
}

describe('order → customer', () => {
  const QUERY = `query($limit: Int) { orders(limit: $limit) { data { id customerId customer { id email ordersCount } } } }`;

  it('resolves the customer of each order, same statements for 10 and 100 orders', async () => {
    const { hundred } = await sameAtTenAndHundred(QUERY);
    const orders = hundred.res.body.data.orders.data;
    expect(orders).toHaveLength(100);
    const byId = new Map(shoppers.map((s) => [s.userId, s]));
    for (const order of orders) {
      expect(order.customer.id).toBe(order.customerId);
      expect(order.customer.email).toBe(byId.get(order.customerId)!.email);
      expect(order.customer.ordersCount).toBe(byId.get(order.customerId)!.orderIds.length);
    }
    console.info(`order → customer: ${hundred.count} statements at 10 and 100 orders`);
  });

  it('is null with a FORBIDDEN error for staff without customers:read; a customer sees only their own record', async () => {
    const clerk = await t.signIn('clerk');
    const res = await t.graphql(`{ orders(limit: 3) { data { id customer { id } } } }`, {}, { bearer: clerk.token });
    expect(res.body.data.orders.data).toHaveLength(3);
    for (const order of res.body.data.orders.data) expect(order.customer).toBeNull();
    expect(res.body.errors!.map((e: any) => e.extensions.code)).toEqual(['FORBIDDEN', 'FORBIDDEN', 'FORBIDDEN']);

    const alice = shoppers[0]!;
    const own = await t.graphql(`{ orders(limit: 100) { data { id customer { id email orders { id } addresses { city } } } } }`, {}, { bearer: alice.token });
    expect(own.body.errors).toBeUndefined();
    expect(own.body.data.orders.data.map((o: any) => o.id).sort()).toEqual([...alice.orderIds].sort());
    for (const order of own.body.data.orders.data) {
      expect(order.customer.id).toBe(alice.userId);
      expect(order.customer.orders.map((o: any) => o.id).sort()).toEqual([...alice.orderIds].sort());
      expect(order.customer.addresses.map((a: any) => a.city)).toEqual(['City 0']);
    }
  });
});

describe('order → invoices', () => {
  it('lists the issued invoice (none until issued), same statements for 10 and 100 orders', async () => {
    const { hundred } = await sameAtTenAndHundred(`query($limit: Int) { orders(limit: $limit) { data { id invoiceNumber invoices { invoiceNumber issuedAt pdfUrl htmlUrl } } } }`);
    const orders = hundred.res.body.data.orders.data;
    const withInvoice = orders.filter((o: any) => o.invoices.length);
    expect(withInvoice.map((o: any) => o.id).sort()).toEqual(invoiced.filter((id) => orders.some((o: any) => o.id === id)).sort());
    for (const order of orders) {
      if (!order.invoices.length) {
        expect(order.invoiceNumber).toBeNull();
        continue;
      }
      expect(order.invoices).toEqual([
        { invoiceNumber: order.invoiceNumber, issuedAt: expect.any(String), pdfUrl: `/api/orders/${order.id}/invoice.pdf`, htmlUrl: `/api/orders/${order.id}/invoice.html` },
      ]);
      expect(order.invoiceNumber).toMatch(/^INV-\d{4}-\d{6}$/);
    }
    // Reading the field issued nothing.
    expect(await t.app.db.order.count({ where: { invoiceNumber: { not: null } } })).toBe(invoiced.length);
  });
});

describe('customer → orders and addresses', () => {
  it('resolves each customer’s orders (newest first, limited) at the same statements for 10 and 100 customers', async () => {
    const { hundred } = await sameAtTenAndHundred(`query($limit: Int) { customers(limit: $limit) { data { id orders(limit: 5) { id customerId placedAt } } } }`);
    const customers = hundred.res.body.data.customers.data;
    expect(customers).toHaveLength(100);
    const byId = new Map(shoppers.map((s) => [s.userId, s]));
    for (const customer of customers) {
      const expected = byId.get(customer.id)!.orderIds;
      expect(customer.orders.map((o: any) => o.id).sort()).toEqual([...expected].sort());
      for (const order of customer.orders) expect(order.customerId).toBe(customer.id);
      const placed = customer.orders.map((o: any) => o.placedAt);
      expect(placed).toEqual([...placed].sort().reverse());
    }
    const limited = await t.graphql(`{ customer(id: "${shoppers[0]!.userId}") { orders(limit: 1) { id } } }`, {}, { apiKey: store.admin });
    expect(limited.body.data.customer.orders).toHaveLength(1);
    console.info(`customer → orders: ${hundred.count} statements at 10 and 100 customers`);
  });

  it('resolves each customer’s addresses at the same statements for 10 and 100 customers', async () => {
    const { hundred } = await sameAtTenAndHundred(`query($limit: Int) { customers(limit: $limit) { data { id addresses { id city isDefaultShipping } } } }`);
    const customers = hundred.res.body.data.customers.data;
    const byId = new Map(shoppers.map((s, i) => [s.userId, i]));
    for (const customer of customers) expect(customer.addresses).toEqual([{ id: expect.any(String), city: `City ${byId.get(customer.id)}`, isDefaultShipping: true }]);
    console.info(`customer → addresses: ${hundred.count} statements at 10 and 100 customers`);
  });

  it("a customer's own profile leads to their own orders and addresses only", async () => {
    const bob = shoppers[1]!;
    const res = await t.graphql(
      `{ meProfile { id orders { id customerId } addresses { city } } meOrders(limit: 100) { data { id customer { id orders { id } } } } }`,
      {},
      { bearer: bob.token },
    );
    expect(res.body.errors, JSON.stringify(res.body.errors)).toBeUndefined();
    expect(res.body.data.meProfile.orders.map((o: any) => o.id)).toEqual(bob.orderIds);
    expect(res.body.data.meProfile.addresses).toEqual([{ city: 'City 1' }]);
    expect(res.body.data.meOrders.data.map((o: any) => o.id)).toEqual(bob.orderIds);
    expect(res.body.data.meOrders.data[0].customer.orders.map((o: any) => o.id)).toEqual(bob.orderIds);
    // No path to another customer: the customer queries are staff-only.
    const other = await t.graphql(`{ customer(id: "${shoppers[0]!.userId}") { orders { id } addresses { city } } }`, {}, { bearer: bob.token });
    expect(other.body.data?.customer ?? null).toBeNull();
    expect(other.body.errors![0].extensions.code).toBe('FORBIDDEN');
  });
});

describe('webhook delivery ↔ job', () => {
  let hooksKey: string;

  beforeAll(async () => {
    hooksKey = await t.apiKey('hooks');
    // Deliveries to a closed port fail at once (one attempt allowed): 101 failed deliver jobs.
    const endpoint = await t.request('/api/webhooks', { apiKey: store.admin, body: { url: 'http://127.0.0.1:9/hook', events: ['catalog.create'] } });
    expect(endpoint.status, endpoint.text).toBe(201);
    await inBatches(
      Array.from({ length: 101 }, (_, i) => i),
      6,
      (i) => product(store, { price: 100 + i, stock: 1 }),
    );
    for (let i = 0; i < 60; i += 1) {
      const run = await t.request('/api/jobs/run', { apiKey: store.admin });
      expect(run.status, run.text).toBe(200);
      if (run.body.data.claimed === 0 && run.body.data.dispatchedEvents === 0) break;
    }
    expect(await t.app.db.webhookDelivery.count()).toBeGreaterThanOrEqual(101);
  }, 600_000);

  it('delivery → job → delivery: same statements for 10 and 100 deliveries', async () => {
    const { hundred } = await sameAtTenAndHundred(
      `query($limit: Int) { webhookDeliveries(limit: $limit) { data { id status job { id taskSlug status webhookDelivery { id } } } } }`,
    );
    const deliveries = hundred.res.body.data.webhookDeliveries.data;
    expect(deliveries).toHaveLength(100);
    for (const delivery of deliveries) {
      expect(delivery.job).toMatchObject({ taskSlug: 'webhooks/deliver', webhookDelivery: { id: delivery.id } });
    }
    console.info(`delivery → job → delivery: ${hundred.count} statements at 10 and 100 deliveries`);
  });

  it('job → delivery from the failed jobs list: same statements for 10 and 100 jobs', async () => {
    const { hundred } = await sameAtTenAndHundred(`query($limit: Int) { failedJobs(limit: $limit) { data { id taskSlug webhookDelivery { id status } } } }`);
    const jobs = hundred.res.body.data.failedJobs.data;
    expect(jobs.length).toBe(100);
    for (const job of jobs) expect(job.webhookDelivery).toMatchObject({ status: 'failed' });
  });

  it('a key without jobs:admin gets null and FORBIDDEN for delivery.job', async () => {
    const res = await t.graphql(`{ webhookDeliveries(limit: 2) { data { id job { id } } } }`, {}, { apiKey: hooksKey });
    expect(res.body.data.webhookDeliveries.data).toHaveLength(2);
    for (const delivery of res.body.data.webhookDeliveries.data) expect(delivery.job).toBeNull();
    expect(res.body.errors!.map((e: any) => e.extensions.code)).toEqual(['FORBIDDEN', 'FORBIDDEN']);
  });
});
