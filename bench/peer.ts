// `npm run bench:peer`: Vendure 3.7.3 and this service side by side on this machine, both in
// production mode, both seeded with the same 100 products × 6 variants, the same autocannon
// settings for both, and the figure that a shared machine disturbs least: server CPU ms per
// request (the server process's user + system time from /proc/<pid>/stat, before and after,
// divided by the requests), median of BENCH_ROUNDS alternating rounds. Beside it the raw
// yardsticks of bench/run.ts: a bare node:http server (bench/support/baseline.ts) and node:http +
// node-postgres doing only the same reads (bench/support/floors.ts).
//
// Vendure is installed from the npm registry into os.tmpdir()/commerce-bench-peer-vendure-3.7.3
// once (bench/peer/vendure.ts), seeded in a database of its own (commerce_bench_peer_vendure,
// kept between runs) on the PostgreSQL at DATABASE_URL (default postgres@127.0.0.1:5432).
//
// Each round of a read scenario sends a fixed number of requests (BENCH_SECONDS worth at the
// rate the warm-up reached), so every request counted has finished and no CPU of an unfinished
// one is counted. The checkout row runs BENCH_CLIENTS concurrent guest shoppers for
// BENCH_CHECKOUT_SECONDS per round and divides by the orders placed.
//
//   npm run bench:peer     BENCH_SECONDS (5), BENCH_CONNECTIONS (10), BENCH_ROUNDS (3), BENCH_CLIENTS (10),
//                          BENCH_CHECKOUT_SECONDS (10), BENCH_PEER_FRESH=1 (reseed Vendure's database)
import os from 'node:os';
import autocannon from 'autocannon';
import { startTarget, type Scenario } from './support/driver.js';
import { oursBySlug, oursList, oursTrivial, oursVisit, REST_INCLUDE, startOurs } from './peer/ours.js';
import { cpuMs, median, productSlug, shoppers } from './peer/shared.js';
import { installVendure, seedVendure, startVendure, VENDURE_VERSION, vendureBySlug, vendureList, vendureTrivial, vendureVariantIds, vendureVisit } from './peer/vendure.js';

const seconds = Number(process.env.BENCH_SECONDS ?? 5);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 10);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const clients = Number(process.env.BENCH_CLIENTS ?? 10);
const checkoutSeconds = Number(process.env.BENCH_CHECKOUT_SECONDS ?? 10);
const GOAL = 3;

const loadAverage = () =>
  os
    .loadavg()
    .map((n) => n.toFixed(1))
    .join(' / ');
console.log(`bench:peer — Vendure ${VENDURE_VERSION} vs ours; load average at start ${loadAverage()} (${os.cpus().length} cores, shared)`);

process.env.DATABASE_URL ??= 'postgresql://postgres@127.0.0.1:5432/postgres';
const adminUrl = new URL(process.env.DATABASE_URL);
adminUrl.pathname = '/postgres';

installVendure();
await seedVendure(adminUrl.toString());
const ours = await startOurs();
const vendure = await startVendure(adminUrl.toString());
const baseline = await startTarget('bench/support/baseline.ts');
const sample = 7;
const oursEntity = (await (await fetch(`${ours.url}/api/catalog/entities/${productSlug(sample)}`, { headers: { 'x-api-key': ours.key } })).json()) as { data: { id: string } };
const floors = await startTarget('bench/support/floors.ts', {
  ...process.env,
  FLOOR_DATABASE_URL: ours.seeded.info.databaseUrl,
  FLOOR_ORGANIZATION_ID: ours.seeded.info.organizationId,
  FLOOR_ENTITY_ID: oursEntity.data.id,
});
// A failure anywhere below must not leave the servers running (the seeding server drops its database on SIGTERM).
process.on('exit', () => {
  for (const child of [vendure.child, ours.child, ours.seeded.child, baseline.child, floors.child]) if (child.exitCode === null) child.kill('SIGTERM');
});

interface Side {
  label: string;
  pid: number;
  scenario: Scenario;
}

const gql = (url: string, query: string, headers: Record<string, string> = {}): Scenario => ({
  name: 'graphql',
  url,
  method: 'POST',
  headers: { 'content-type': 'application/json', ...headers },
  body: JSON.stringify({ query }),
});
const key = { 'x-api-key': ours.key };
const vendurePid = vendure.child.pid!;
const oursPid = ours.child.pid!;
const rawSide: Side = { label: 'raw node:http', pid: baseline.child.pid!, scenario: { name: 'raw', url: baseline.info.url! } };

interface ReadRow {
  name: string;
  vendure: Side;
  graphql: Side;
  rest: Side;
  floor: Side;
}
const rows: ReadRow[] = [
  {
    name: 'storefront list of 20 (name, slug, description, categories + brands, variants with options, price, stock)',
    vendure: { label: 'Vendure shop-api products(take: 20)', pid: vendurePid, scenario: gql(`${vendure.url}/shop-api`, vendureList) },
    graphql: { label: 'ours POST /graphql catalogEntities(limit: 20)', pid: oursPid, scenario: gql(`${ours.url}/graphql`, oursList, key) },
    rest: {
      label: `ours GET /api/catalog/entities?limit=20&include=${REST_INCLUDE}`,
      pid: oursPid,
      scenario: { name: 'rest', url: `${ours.url}/api/catalog/entities?limit=20&include=${REST_INCLUDE}`, headers: key },
    },
    floor: { label: 'node:http + pg list (5 statements)', pid: floors.child.pid!, scenario: { name: 'floor', url: `${floors.info.sql}/sql/list` } },
  },
  {
    name: 'one product by slug, same fields',
    vendure: { label: 'Vendure shop-api product(slug)', pid: vendurePid, scenario: gql(`${vendure.url}/shop-api`, vendureBySlug(productSlug(sample))) },
    graphql: { label: 'ours POST /graphql catalogEntity(idOrSlug)', pid: oursPid, scenario: gql(`${ours.url}/graphql`, oursBySlug(productSlug(sample)), key) },
    rest: {
      label: 'ours GET /api/catalog/entities/:slug',
      pid: oursPid,
      scenario: { name: 'rest', url: `${ours.url}/api/catalog/entities/${productSlug(sample)}?include=${REST_INCLUDE}`, headers: key },
    },
    floor: { label: 'node:http + pg entity read', pid: floors.child.pid!, scenario: { name: 'floor', url: `${floors.info.sql}/sql/entity` } },
  },
  {
    name: 'trivial read',
    vendure: { label: 'Vendure shop-api activeChannel', pid: vendurePid, scenario: gql(`${vendure.url}/shop-api`, vendureTrivial) },
    graphql: { label: 'ours POST /graphql settingsGroup(general)', pid: oursPid, scenario: gql(`${ours.url}/graphql`, oursTrivial, key) },
    rest: { label: 'ours GET /api/settings/general', pid: oursPid, scenario: { name: 'rest', url: `${ours.url}/api/settings/general`, headers: key } },
    floor: { label: 'node:http + pg settings read', pid: floors.child.pid!, scenario: { name: 'floor', url: `${floors.info.sql}/sql/settings` } },
  },
];

async function fire(scenario: Scenario, limit: { amount: number } | { duration: number }) {
  const result = await autocannon({
    url: scenario.url,
    method: scenario.method ?? 'GET',
    headers: scenario.headers,
    body: scenario.body,
    connections,
    timeout: 120,
    ...limit,
  });
  if (result.errors || result.non2xx || result.timeouts) throw new Error(`${scenario.url}: ${result.errors} errors, ${result.non2xx} non-2xx, ${result.timeouts} timeouts`);
  return result;
}

/** One request first, so a broken scenario fails loudly instead of measuring an error page. */
async function probe(side: Side): Promise<void> {
  const { scenario } = side;
  const res = await fetch(scenario.url, { method: scenario.method ?? 'GET', headers: scenario.headers, body: scenario.body });
  const text = await res.text();
  if (res.status !== 200 || text.includes('"errors"') || text.length < 20) throw new Error(`${side.label}: ${res.status} ${text.slice(0, 300)}`);
}

/** Warm-up (JIT, pools, caches) for BENCH_SECONDS / 2, which also sets how many requests a round sends. */
async function warm(side: Side): Promise<number> {
  await probe(side);
  const result = await fire(side.scenario, { duration: Math.max(1, seconds / 2) });
  return Math.max(connections * 2, Math.round(result.requests.average * seconds));
}

async function cpuPerRequest(side: Side, amount: number): Promise<number> {
  const before = cpuMs(side.pid);
  const result = await fire(side.scenario, { amount });
  return (cpuMs(side.pid) - before) / result.requests.total;
}

// Checkout visits first, once each side (and as warm-up), so a broken flow fails before the long part.
const variantIds = await vendureVariantIds(vendure);
const vendureShop = () => vendureVisit(vendure, variantIds);
const oursShop = () => oursVisit(ours);
for (const visit of [vendureShop, oursShop]) for (let i = 0; i < 3; i += 1) if (!(await visit())) throw new Error('a checkout visit placed no order');

const fmt = (n: number) => (n >= 10 ? n.toFixed(1) : n.toFixed(2));
const lines: string[] = [];
for (const row of rows) {
  const sides = [row.vendure, row.graphql, row.rest, rawSide, row.floor];
  const amounts = new Map<Side, number>();
  for (const side of sides) amounts.set(side, await warm(side));
  const samples = new Map<Side, number[]>(sides.map((side) => [side, []]));
  for (let round = 0; round < rounds; round += 1) {
    for (const side of sides) samples.get(side)!.push(await cpuPerRequest(side, amounts.get(side)!));
    console.error(`${row.name.split(' (')[0]} round ${round + 1}: ${sides.map((s) => `${s.label} ${fmt(samples.get(s)!.at(-1)!)} ms`).join('; ')}`);
  }
  const [v, g, r, raw, floor] = sides.map((side) => median(samples.get(side)!)) as [number, number, number, number, number];
  const pass = v / g >= GOAL && v / r >= GOAL;
  lines.push(`| ${row.name} | ${fmt(v)} | ${fmt(g)} / ${fmt(r)} | ${(v / g).toFixed(1)}× / ${(v / r).toFixed(1)}× | ${pass ? 'PASS' : 'FAIL'} | ${fmt(raw)} | ${fmt(floor)} |`);
}

// Checkout: whole guest visits, server CPU per order placed.
const perOrder = new Map<() => Promise<boolean>, number[]>([
  [vendureShop, []],
  [oursShop, []],
]);
let failed = 0;
for (let round = 0; round < rounds; round += 1) {
  for (const [visit, pid] of [
    [vendureShop, vendurePid],
    [oursShop, oursPid],
  ] as const) {
    const before = cpuMs(pid);
    const result = await shoppers(visit, clients, checkoutSeconds);
    perOrder.get(visit)!.push((cpuMs(pid) - before) / Math.max(1, result.orders));
    failed += result.failures;
    if (result.firstError) console.error(`checkout: ${result.failures} failed visits, first: ${result.firstError}`);
  }
  console.error(`checkout round ${round + 1}: Vendure ${fmt(perOrder.get(vendureShop)!.at(-1)!)} ms, ours ${fmt(perOrder.get(oursShop)!.at(-1)!)} ms per order`);
}
const vo = median(perOrder.get(vendureShop)!);
const oo = median(perOrder.get(oursShop)!);
lines.push(
  `| checkout visit, per order placed (${failed} failed visits) | ${fmt(vo)} | — / ${fmt(oo)} | ${(vo / oo).toFixed(1)}× | ${vo / oo >= GOAL ? 'PASS' : 'FAIL'} | — | — |`,
);

await Promise.all([vendure.stop(), ours.stop(), baseline.stop(), floors.stop()]);

console.log(
  `\nserver CPU ms per request (checkout: per order), median of ${rounds} alternating rounds; ${connections} autocannon connections, ${seconds} s worth of requests a round; ` +
    `checkout ${clients} shoppers × ${checkoutSeconds} s a round; load average now ${loadAverage()}`,
);
console.log(`\n| scenario | Vendure ${VENDURE_VERSION} | ours GraphQL / REST | ours ahead by (GraphQL / REST) | ≥ ${GOAL}× | raw node:http | node:http + pg floor |`);
console.log('|---|---:|---:|---:|:-:|---:|---:|');
for (const line of lines) console.log(line);
console.log(
  '\nVendure: shop-api as an anonymous shopper (bearer session for the checkout); ours: an admin API key for the reads (inventory needs inventory:read), ' +
    'anonymous guest carts for the checkout (cart, 3 items, checkout with the offline provider). Vendure checkout: 3 × addItemToOrder, setCustomerForOrder, ' +
    'setOrderShippingAddress, eligibleShippingMethods, setOrderShippingMethod, transitionOrderToState(ArrangingPayment), addPaymentToOrder (dummy handler, settled).',
);
