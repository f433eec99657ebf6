// Analytics bench: 100,000 orders (1-3 lines each) over the last year for two organizations,
// seeded with SQL; then, against the real app in its own process, p50/p99 of a 30-day daily
// revenue query and of each report, each beside a raw node:http yardstick in alternating rounds
// (ratios of medians are what compare across machines), their SQL statement counts, and whether
// PostgreSQL's plan for the query reads orders through the organization/time index.
//   node --import tsx bench/analytics.ts      (BENCH_ORDERS, BENCH_ROUNDS, BENCH_REQUESTS)
import pg from 'pg';
import { performance } from 'node:perf_hooks';
import { startTarget } from './support/driver.js';
import { api, statementsOfOne } from './support/probe.js';
import { compileQuery } from '../src/modules/analytics/compile.js';
import '../src/modules/analytics/models.js';

const ORDERS = Number(process.env.BENCH_ORDERS ?? 100_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 10);

const target = await startTarget('bench/support/server.ts');
const baseline = await startTarget('bench/support/baseline.ts');
const orgId = target.info.organizationId!;
const db = new pg.Client({ connectionString: target.info.databaseUrl! });
await db.connect();

// ── data ──
const t0 = performance.now();
const other = (await db.query(`insert into organizations (id, slug, name, updated_at) values (gen_random_uuid(), 'bench-other', 'Other', now()) returning id`)).rows[0]
  .id as string;
await db.query(
  `insert into orders (id, organization_id, number, customer_email, status, payment_status, currency, subtotal, tax_total, grand_total, captured_amount, placed_at, created_at, updated_at)
   select gen_random_uuid(), case when i % 2 = 0 then $1::uuid else $2::uuid end, 'ORD-B-' || i, 'c' || (i % 5000) || '@example.com',
     (array['pending','confirmed','processing','fulfilled','cancelled'])[1 + i % 5]::order_status,
     (array['awaiting_payment','paid','paid','paid','voided'])[1 + i % 5]::payment_status,
     'USD', 1000 + i % 9000, (1000 + i % 9000) / 10, 1000 + i % 9000 + (1000 + i % 9000) / 10, 0,
     now() - (i::float8 / $3) * interval '365 days', now(), now()
   from generate_series(1, $3::int) as i`,
  [orgId, other, ORDERS],
);
await db.query(
  `insert into order_lines (id, organization_id, order_id, position, entity_id, entity_type, sku, title, quantity, unit_price, total_price, tax_rate_bps, tax_total)
   select gen_random_uuid(), o.organization_id, o.id, n, gen_random_uuid(), 'product', 'SKU-' || (abs(hashtext(o.number)) % 200), 'Item', 1 + n, 500, 500 * (1 + n), 1000, 50 * (1 + n)
   from orders o cross join lateral generate_series(0, abs(hashtext(o.number)) % 3) as n`,
);
await db.query('analyze');
const lines = Number((await db.query('select count(*) from order_lines')).rows[0].count);
const seedSeconds = (performance.now() - t0) / 1000;
// Some stock for the inventory reports, through the API like a merchant.
const warehouse = await api(target, '/api/inventory/warehouses', { name: 'Bench', code: 'BENCH' });
for (let i = 0; i < 20; i += 1) {
  const entity = await api(target, '/api/catalog/entities', { type: 'product', slug: `bench-${i}`, status: 'active' });
  await api(target, '/api/inventory/adjust', { entityId: entity.id, warehouseId: warehouse.id, type: 'restock', quantity: 5 + i * 10 });
}

// ── scenarios ──
const today = new Date().toISOString().slice(0, 10);
const monthAgo = new Date(Date.now() - 29 * 86_400_000).toISOString().slice(0, 10);
const dailyRevenue = { measures: ['Orders.revenue', 'Orders.count'], timeDimensions: [{ dimension: 'Orders.placedAt', granularity: 'day', dateRange: [monthAgo, today] }] };
const headers = { 'x-api-key': target.info.key!, 'content-type': 'application/json' };
interface Scenario {
  name: string;
  send: () => Promise<Response>;
}
const scenarios: Scenario[] = [
  {
    name: 'POST /analytics/query: 30-day daily revenue',
    send: () => fetch(`${target.info.url}/api/analytics/query`, { method: 'POST', headers, body: JSON.stringify(dailyRevenue) }),
  },
  ...['daily-journal', 'tax-summary', 'inventory-aging', 'sell-through', 'reorder-needed', 'staff-sales'].map((name) => ({
    name: `GET /analytics/reports/${name}`,
    send: () => fetch(`${target.info.url}/api/analytics/reports/${name}${name === 'daily-journal' ? '' : `?from=${monthAgo}&to=${today}`}`, { headers }),
  })),
];
const yardstick: Scenario = { name: 'raw node:http', send: () => fetch(baseline.info.url!) };

async function timed(s: Scenario): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < REQUESTS; i += 1) {
    const started = performance.now();
    const res = await s.send();
    await res.arrayBuffer();
    if (!res.ok) throw new Error(`${s.name}: ${res.status}`);
    out.push(performance.now() - started);
  }
  return out;
}
const pct = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
};

const statements = new Map<string, number>();
for (const s of scenarios) statements.set(s.name, await statementsOfOne(target, s.send));

// Alternating rounds: yardstick, then each scenario, ROUNDS times; medians of the per-round p50s.
const perRound = new Map<string, number[]>();
const all = new Map<string, number[]>();
for (let round = 0; round < ROUNDS; round += 1) {
  for (const s of [yardstick, ...scenarios]) {
    const samples = await timed(s);
    perRound.set(s.name, [...(perRound.get(s.name) ?? []), pct(samples, 50)]);
    all.set(s.name, [...(all.get(s.name) ?? []), ...samples]);
  }
}

// The plan of the 30-day query as the app compiles it.
const compiled = compileQuery({ dimensions: [], filters: [], segments: [], ...dailyRevenue } as never, { kind: 'organization' }, orgId);
const plan = JSON.stringify((await db.query(`explain (format json) ${compiled.sql.text}`, compiled.sql.values as unknown[])).rows[0]);
const indexName = /"Index Name":\s*"(orders_organization_id_placed_at_idx|orders_organization_id_status_placed_at_idx)"/.exec(plan)?.[1] ?? null;

await db.end();
await baseline.stop();
await target.stop();

const base = pct(perRound.get(yardstick.name)!, 50);
console.log(
  `\nanalytics bench: ${ORDERS} orders, ${lines} lines, 2 organizations, seeded in ${seedSeconds.toFixed(1)} s; ${ROUNDS} alternating rounds × ${REQUESTS} sequential requests`,
);
console.log('| scenario | p50 ms | p99 ms | p50 ÷ yardstick p50 | SQL statements |');
console.log('|---|---:|---:|---:|---:|');
console.log(`| ${yardstick.name} (yardstick) | ${base.toFixed(2)} | ${pct(all.get(yardstick.name)!, 99).toFixed(2)} | 1 | — |`);
for (const s of scenarios) {
  const p50 = pct(perRound.get(s.name)!, 50);
  console.log(`| ${s.name} | ${p50.toFixed(1)} | ${pct(all.get(s.name)!, 99).toFixed(1)} | ${(p50 / base).toFixed(0)}× | ${statements.get(s.name)} |`);
}
console.log(`\n30-day query plan reads orders through the organization/time index: ${indexName ? `yes (${indexName})` : 'NO'}`);
