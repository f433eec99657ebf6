// Checkout bench: 20 concurrent shoppers (guest carts, anonymous, with their cart token) each
// loop: create a cart, add 3 items, check out with pm_card_visa. New visits start for BENCH_SECONDS
// (default 12; the visits in flight then finish, so the run stays within 15 s) against the real
// app in its own process. Before the load, one checkout runs alone to count its SQL statements
// (Prisma's query log: BEGIN and the SAVEPOINTs of nested service transactions are not in it).
//   node --import tsx bench/checkout.ts      (BENCH_SECONDS, BENCH_CLIENTS, BENCH_PRODUCTS, BENCH_CPU_PROF)
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { call as callAt } from './support/checkout-visits.js';
import { startTarget } from './support/driver.js';
import { goalLine } from './support/goals.js';

const seconds = Number(process.env.BENCH_SECONDS ?? 12);
const clients = Number(process.env.BENCH_CLIENTS ?? 20);
/** Shoppers pick 3 of these at random: hot products contend on their stock rows. */
const productCount = Number(process.env.BENCH_PRODUCTS ?? 30);

// BENCH_CPU_PROF=dir writes a V8 CPU profile of the server (node --cpu-prof) when it stops.
const server = await startTarget('bench/support/server.ts', process.env, process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : []);
const base = server.info.url!;
const admin = { 'x-api-key': server.info.key!, 'content-type': 'application/json' };

function call(path: string, init: Parameters<typeof callAt>[2] = {}): Promise<{ status: number; body: any }> {
  return callAt(base, path, init);
}

async function must(path: string, init: Parameters<typeof call>[1], expected = [200, 201]): Promise<any> {
  const res = await call(path, init);
  if (!expected.includes(res.status)) throw new Error(`${init?.method ?? 'POST'} ${path} → ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data;
}

async function counters(): Promise<{ statements: number; roundTrips: number }> {
  server.child.kill('SIGUSR2');
  const line = await server.nextLine();
  return { statements: Number(line.statements), roundTrips: Number(line.roundTrips) };
}

/** CPU time (user + system) the server process has used, ms (Linux: /proc/<pid>/stat, 100 ticks/s). */
function serverCpuMs(): number {
  const fields = readFileSync(`/proc/${server.child.pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

// ── store setup: a warehouse, products with a price, plenty of stock, a tax class ──
const warehouse = await must('/api/inventory/warehouses', { headers: admin, body: { name: 'Bench', code: 'BENCH' } });
const taxClass = await must('/api/tax/classes', { headers: admin, body: { name: 'standard', rateBps: 2000, isDefault: true } });
const products: string[] = [];
for (let i = 0; i < productCount; i += 1) {
  const entity = await must('/api/catalog/entities', { headers: admin, body: { type: 'product', slug: `bench-${i}`, status: 'active', taxClassId: taxClass.id } });
  await must('/api/pricing/prices', { headers: admin, body: { entityId: entity.id, currency: 'USD', amount: 1000 + i * 10 } });
  await must('/api/inventory/adjust', { headers: admin, body: { entityId: entity.id, warehouseId: warehouse.id, type: 'restock', quantity: 1_000_000 } });
  products.push(entity.id);
}

const address = { line1: '1 Main St', city: 'Springfield', postalCode: '62701', country: 'US' };

function pick3(): string[] {
  const chosen = new Set<string>();
  while (chosen.size < Math.min(3, products.length)) chosen.add(products[Math.floor(Math.random() * products.length)]!);
  return [...chosen];
}

/** One shopper's visit; returns the checkout call's latency and the whole visit's. */
let unitsOrdered = 0;
async function visit(): Promise<{ checkoutMs: number; flowMs: number; status: number }> {
  const started = performance.now();
  const cart = await must('/api/carts', { body: { currency: 'USD' } });
  const headers = { 'x-cart-token': cart.cartToken };
  for (const entityId of pick3()) await must(`/api/carts/${cart.id}/items`, { headers, body: { entityId, quantity: 1 } });
  const before = performance.now();
  const res = await call('/api/checkout', {
    headers,
    body: { cartId: cart.id, paymentMethodId: 'pm_card_visa', currency: 'USD', shippingAddress: address, email: 'bench@example.com' },
  });
  const end = performance.now();
  if (res.status === 201) unitsOrdered += 3;
  return { checkoutMs: end - before, flowMs: end - started, status: res.status };
}

// Warm-up: JIT, pools, caches.
await Promise.all(Array.from({ length: 5 }, () => visit()));

// One checkout alone: its SQL statements (the counter is process-wide, so nothing else may run).
const cart = await must('/api/carts', { body: { currency: 'USD' } });
const headers = { 'x-cart-token': cart.cartToken };
for (const entityId of pick3()) await must(`/api/carts/${cart.id}/items`, { headers, body: { entityId, quantity: 1 } });
const s0 = await counters();
await must('/api/checkout', { headers, body: { cartId: cart.id, paymentMethodId: 'pm_card_visa', currency: 'USD', shippingAddress: address } });
unitsOrdered += 3;
const s1 = await counters();
await visit();
const s2 = await counters();
const checkoutStatements = s1.statements - s0.statements;
const checkoutRoundTrips = s1.roundTrips - s0.roundTrips;
const flowStatements = s2.statements - s1.statements;
const flowRoundTrips = s2.roundTrips - s1.roundTrips;

// The load.
const checkoutLatencies: number[] = [];
const flowLatencies: number[] = [];
let orders = 0;
let failures = 0;
const deadline = performance.now() + seconds * 1000;
const started = performance.now();
const cpuBefore = serverCpuMs();
await Promise.all(
  Array.from({ length: clients }, async () => {
    while (performance.now() < deadline) {
      try {
        const result = await visit();
        if (result.status === 201) {
          orders += 1;
          checkoutLatencies.push(result.checkoutMs);
          flowLatencies.push(result.flowMs);
        } else failures += 1;
      } catch {
        failures += 1;
      }
    }
  }),
);
const elapsed = (performance.now() - started) / 1000;
const cpuMs = serverCpuMs() - cpuBefore;
// No oversell, no lost reservation: every unit of every placed order is reserved, no more.
const stock = await must(`/api/inventory/check?entityIds=${products.join(',')}`, { headers: admin, method: 'GET' });
const reserved = (stock as Array<{ reserved: number }>).reduce((sum, row) => sum + row.reserved, 0);
await server.stop();

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return Math.round(sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0);
}

console.log(`\ncheckout bench: ${clients} concurrent shoppers for ${elapsed.toFixed(1)} s, ${productCount} products, 3 items per cart`);
console.log('| measure | value |');
console.log('|---|---:|');
console.log(`| orders per second | ${(orders / elapsed).toFixed(1)} |`);
console.log(`| orders placed / failed visits | ${orders} / ${failures} |`);
console.log(`| POST /checkout p50 / p99 ms | ${percentile(checkoutLatencies, 50)} / ${percentile(checkoutLatencies, 99)} |`);
console.log(`| whole visit (5 requests) p50 / p99 ms | ${percentile(flowLatencies, 50)} / ${percentile(flowLatencies, 99)} |`);
console.log(`| server CPU ms per order (whole visit) | ${(cpuMs / Math.max(1, orders)).toFixed(1)} |`);
console.log(`| SQL statements / round trips of one checkout (3 lines) | ${checkoutStatements} / ${checkoutRoundTrips} |`);
console.log(`| SQL statements / round trips of one whole visit | ${flowStatements} / ${flowRoundTrips} |`);
console.log(`| units reserved / units in placed orders | ${reserved} / ${unitsOrdered} |`);
// Goal 4 (issue 30): server CPU per order visit (cart, 3 items, checkout) at most 12 ms.
const cpuPerVisit = orders ? cpuMs / orders : null;
console.log(
  goalLine({
    goal: '4',
    name: 'checkout: server CPU per order visit (cart, 3 items, checkout)',
    measured: cpuPerVisit,
    floor: 12,
    rule: '≤ 12 ms',
    ratio: null,
    unit: 'ms',
    pass: cpuPerVisit !== null && cpuPerVisit <= 12,
  }),
);
if (reserved !== unitsOrdered) {
  console.error('reserved stock does not match the orders placed');
  process.exitCode = 1;
}
