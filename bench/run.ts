// `npm run bench`: the HTTP scenarios of issue 14 side by side with a raw node:http yardstick,
// all in one process tree (this process drives autocannon; the baseline and the app each run
// in a child of their own so neither shares the load generator's event loop).
//
// The machine is shared and noisy, so absolute req/s mean little: every scenario alternates
// rounds with the baseline (raw, scenario, raw, scenario, ...; BENCH_ROUNDS each, default 3)
// and the table reports medians, the median of the per-round ratios to raw, SQL statements per
// request (the app's statement counter over the measured rounds) and the app's RSS after the
// scenario. After the app's scenarios come the floors (bench/support/floors.ts), measured the
// same way: what node:http + node-postgres doing only the same reads reaches, and what the fixed
// stack's server adapter and Yoga reach doing nothing, so every goal can be read against what
// this machine allows at all. Then the checkout and job-queue benches run as they do alone.
//
// The scenario named "storefront key, warm shared cache: GET /api/catalog/entities?limit=20&include=
// variants,attributes,pricing" (keep the name: goal 3 reads it) is the list page of goal 2 asked
// for with a storefront API key, whose catalog reads the shared response cache (src/cache) keeps:
// the probe asks twice and requires `x-cache: hit` on the second answer, so every measured request
// is a warm hit (goal 3: with the cache warm, the list page ≥ 0.15× raw in req/s).
//
//   npm run bench            BENCH_SECONDS (5), BENCH_CONNECTIONS (50), BENCH_ROUNDS (3),
//                            BENCH_PRODUCTS (100), BENCH_ONLY=http to skip checkout, jobs and the production start/RSS run,
//                            BENCH_SCENARIOS=settings,entities/:id,entity,adapter to run only the scenarios and floors whose name
//                            holds one of these words (the goals of the others then read "not measured")
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import { load, startTarget, type Result, type Scenario, type Target } from './support/driver.js';
import { statementCounter } from './support/probe.js';
import { goalLine, parseGoalLines, printGoals, type Goal } from './support/goals.js';

const seconds = Number(process.env.BENCH_SECONDS ?? 5);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const products = Number(process.env.BENCH_PRODUCTS ?? 100);
const only = (process.env.BENCH_SCENARIOS ?? '')
  .split(',')
  .map((word) => word.trim())
  .filter(Boolean);
/** Whether BENCH_SCENARIOS (unset: everything) selects the scenario of this name. */
const selected = (name: string) => !only.length || only.some((word) => name.includes(word));

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

function rssMb(pid: number | undefined): number {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    return Math.round(Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024);
  } catch {
    return Math.round(process.memoryUsage().rss / 1024 / 1024);
  }
}

/**
 * CPU time (user + system) a process has used so far, in ms, from /proc (Linux). Throughput on a
 * shared machine swings with whatever else runs; the CPU a server spends per request does much
 * less, so the table reports it beside req/s, and its ratio to the baseline's.
 */
function cpuMs(pid: number | undefined): number | null {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    // After "pid (comm) ": state is field 0, utime field 11, stime field 12 (clock ticks, 100/s).
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return null;
  }
}

interface Row {
  name: string;
  /** Server CPU ms per request: ours, the raw baseline's, and raw ÷ ours. */
  cpuPerRequest: number | null;
  rawCpuPerRequest: number | null;
  cpuRatio: number | null;
  rps: number;
  rawRps: number;
  ratio: number;
  p50: number;
  p99: number;
  failures: number;
  statements: number | null;
  rssMb: number;
  /** Size of the answer's body. */
  bytes?: number;
}

/** Measures `scenario` served by `app` (statements counted when it is the commerce app) against the raw baseline. */
async function measure(baseline: Target, app: Target, scenario: Scenario, expectFailures = false, countStatements = true): Promise<Row> {
  await load(scenario, 1, connections); // warm-up: JIT, pools, caches
  const ours: Result[] = [];
  const raw: Result[] = [];
  const ratios: number[] = [];
  let statements = 0;
  let requests = 0;
  let rawRequests = 0;
  let cpu = 0;
  let rawCpu = 0;
  for (let round = 0; round < rounds; round += 1) {
    const rawCpuBefore = cpuMs(baseline.child.pid);
    const r = await load({ name: 'raw', url: baseline.info.url! }, seconds, connections);
    rawCpu += (cpuMs(baseline.child.pid) ?? 0) - (rawCpuBefore ?? 0);
    rawRequests += r.total;
    const before = countStatements ? await statementCounter(app) : 0;
    const cpuBefore = cpuMs(app.child.pid);
    const o = await load(scenario, seconds, connections);
    cpu += (cpuMs(app.child.pid) ?? 0) - (cpuBefore ?? 0);
    if (countStatements) statements += (await statementCounter(app)) - before;
    requests += o.total;
    raw.push(r);
    ours.push(o);
    ratios.push(o.requestsPerSecond / Math.max(1, r.requestsPerSecond));
  }
  const failures = ours.reduce((n, r) => n + r.errors + (expectFailures ? 0 : r.non2xx), 0);
  const cpuPerRequest = requests && cpu ? cpu / requests : null;
  const rawCpuPerRequest = rawRequests && rawCpu ? rawCpu / rawRequests : null;
  return {
    name: scenario.name,
    cpuPerRequest,
    rawCpuPerRequest,
    cpuRatio: cpuPerRequest && rawCpuPerRequest ? rawCpuPerRequest / cpuPerRequest : null,
    rps: median(ours.map((r) => r.requestsPerSecond)),
    rawRps: median(raw.map((r) => r.requestsPerSecond)),
    ratio: median(ratios),
    p50: median(ours.map((r) => r.p50)),
    p99: median(ours.map((r) => r.p99)),
    failures,
    statements: countStatements && requests ? Math.round((statements / requests) * 100) / 100 : null,
    rssMb: rssMb(app.child.pid),
  };
}

interface CardPair {
  /** CPU ms per request of A and B over all their rounds. */
  a: number | null;
  b: number | null;
  ratio: number | null;
  median: number | null;
  rounds: number[];
}

/**
 * Two of our own scenarios compared with each other (the storefront card: GraphQL against REST):
 * measured in rounds that alternate them, in turn order A B, B A, ..., so drift in the machine's
 * speed (which moves a scenario's CPU per request by ±10% between the table's separate windows)
 * falls on both alike. Returns B's CPU per request over A's, of the sums and the per-round median.
 */
async function paired(app: Target, a: Scenario, b: Scenario): Promise<CardPair> {
  await load(a, 1, connections);
  await load(b, 1, connections);
  const sums = { a: { cpu: 0, requests: 0 }, b: { cpu: 0, requests: 0 } };
  const perRound: number[] = [];
  const run = async (scenario: Scenario, into: { cpu: number; requests: number }) => {
    const before = cpuMs(app.child.pid) ?? 0;
    const result = await load(scenario, seconds, connections);
    const cpu = (cpuMs(app.child.pid) ?? 0) - before;
    into.cpu += cpu;
    into.requests += result.total;
    return result.total ? cpu / result.total : null;
  };
  for (let round = 0; round < rounds * 2; round += 1) {
    const order = round % 2 === 0 ? (['a', 'b'] as const) : (['b', 'a'] as const);
    const cost: Record<'a' | 'b', number | null> = { a: null, b: null };
    for (const side of order) cost[side] = await run(side === 'a' ? a : b, sums[side]);
    if (cost.a && cost.b) perRound.push(cost.b / cost.a);
  }
  const perRequest = (side: { cpu: number; requests: number }) => (side.requests && side.cpu ? side.cpu / side.requests : null);
  const pa = perRequest(sums.a);
  const pb = perRequest(sums.b);
  return { a: pa, b: pb, ratio: pa && pb ? pb / pa : null, median: perRound.length ? median(perRound) : null, rounds: perRound };
}

function printRows(rows: Row[]): void {
  console.log(
    `\nload average ${os
      .loadavg()
      .map((n) => n.toFixed(1))
      .join(' / ')}, ${os.cpus().length} cores, ${connections} connections, ${rounds} alternating rounds of ${seconds} s, medians`,
  );
  console.log('\n| scenario | req/s | raw req/s | ratio to raw | p50 ms | p99 ms | failed | SQL/request | body bytes | RSS MB | CPU ms/request | raw CPU ms/request | CPU ratio |');
  console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
  const fmt = (n: number | null, digits: number) => (n === null ? '—' : n.toFixed(digits));
  for (const r of rows) {
    console.log(
      `| ${r.name} | ${r.rps} | ${r.rawRps} | ${r.ratio.toFixed(4)}× | ${r.p50} | ${r.p99} | ${r.failures} | ${r.statements ?? '—'} | ${r.bytes ?? '—'} | ${r.rssMb} | ${fmt(r.cpuPerRequest, 3)} | ${fmt(r.rawCpuPerRequest, 4)} | ${r.cpuRatio === null ? '—' : `${r.cpuRatio.toFixed(4)}×`} |`,
    );
  }
}

/**
 * One request first, so a broken scenario fails loudly instead of benchmarking an error page;
 * returns the body's size. `cacheHit`: a second request must be answered from the response cache.
 */
async function probe(scenario: Scenario, expectFailures = false, cacheHit = false): Promise<number> {
  const send = () => fetch(scenario.url, { method: scenario.method ?? 'GET', headers: scenario.headers, body: scenario.body });
  const res = await send();
  const text = await res.text();
  if (!expectFailures && (res.status !== 200 || text.includes('"errors"'))) throw new Error(`${scenario.name}: ${res.status} ${text.slice(0, 300)}`);
  if (cacheHit) {
    const again = await send();
    const cached = await again.text();
    if (again.status !== 200 || again.headers.get('x-cache') !== 'hit' || cached !== text) {
      throw new Error(`${scenario.name}: the second answer was not a cache hit (status ${again.status}, x-cache ${again.headers.get('x-cache')})`);
    }
  }
  return Buffer.byteLength(text);
}

const SETTINGS = 'GET /api/settings/general';
const ENTITY = 'GET /api/catalog/entities/:id';
const LIST_REST = 'GET /api/catalog/entities?limit=20&include=variants,attributes,pricing';
const LIST_GRAPHQL = 'POST /graphql catalogEntities(limit: 20) same fields';
const LIST_CACHED = 'storefront key, warm shared cache: GET /api/catalog/entities?limit=20&include=variants,attributes,pricing';
const LIST_CACHED_GRAPHQL = 'storefront key, warm shared cache: POST /graphql persisted catalogEntities(limit: 20), same fields as the GraphQL list';
const CARD_REST = 'storefront card, REST: GET /api/catalog/entities?limit=20&include=variants,attributes,pricing,categories,brands,inventory';
const CARD_GRAPHQL = 'storefront card, GraphQL: catalogEntities(limit: 20) with per-variant price(currency) and stock, categories, brands';
const FLOOR_SETTINGS = 'floor: node:http + pg, the settings read and nothing else';
const FLOOR_ENTITY = 'floor: node:http + pg, the entity read and nothing else';
const FLOOR_LIST = 'floor: node:http + pg, the list page with the same embeds (5 statements)';
const FLOOR_KEPT = 'floor: node:http sending the kept list page (the cached bytes and headers, from memory)';
const FLOOR_ADAPTER = "floor: @whatwg-node/server (Yoga's adapter) answering a fixed body";

/**
 * Goals 1, 2 and 3 (and the card comparison) from the table: server CPU per request against the
 * floors of this run. A goal whose scenario or floor completed no request is still listed, as
 * not measured and FAIL.
 */
function httpGoals(rows: Row[], cardPair: CardPair | null): Goal[] {
  const row = (name: string) => rows.find((r) => r.name === name);
  const cpu = (name: string) => row(name)?.cpuPerRequest ?? null;
  const fmt = (n: number | null) => (n === null ? 'not measured' : n.toFixed(3));
  const bounded = (goal: string, name: string, measured: number | null, floor: number | null, times: number, rule: string): Goal => ({
    goal,
    name,
    measured,
    floor: floor === null ? null : times * floor,
    rule,
    ratio: measured !== null && floor ? measured / floor : null,
    unit: 'ms',
    pass: measured !== null && floor !== null && measured <= times * floor,
  });
  const goals: Goal[] = [];
  const adapter = cpu(FLOOR_ADAPTER);
  for (const [name, floorName] of [
    [SETTINGS, FLOOR_SETTINGS],
    [ENTITY, FLOOR_ENTITY],
  ] as const) {
    const floor = cpu(floorName);
    const sum = floor !== null && adapter !== null ? floor + adapter : null;
    goals.push(bounded('1', `${name}: server CPU per request`, cpu(name), sum, 2, `≤ 2 × (pg floor ${fmt(floor)} + adapter floor ${fmt(adapter)})`));
    const ratio = row(name)?.rps ? (row(name)?.ratio ?? null) : null;
    goals.push({
      goal: '1',
      name: `${name}: req/s ratio to raw node:http`,
      measured: ratio,
      floor: 0.1,
      rule: '≥ 0.1×',
      ratio: null,
      unit: '×',
      pass: ratio !== null && ratio >= 0.1,
    });
  }
  const listFloor = cpu(FLOOR_LIST);
  for (const name of [LIST_REST, LIST_GRAPHQL]) {
    goals.push(bounded('2', `${name}: server CPU per request`, cpu(name), listFloor, 2, `≤ 2 × 5-statement floor ${fmt(listFloor)}`));
  }
  // Goal 3, for the list page as REST sends it and as a persisted GraphQL query. Beside it, what
  // node:http alone reaches sending the same kept bytes (ratio to floor: the share of it reached).
  const kept = row(FLOOR_KEPT);
  const keptRatio = kept?.rps ? kept.ratio : null;
  for (const name of [LIST_CACHED, LIST_CACHED_GRAPHQL]) {
    const cached = row(name);
    const cachedRatio = cached?.rps ? cached.ratio : null;
    goals.push({
      goal: '3',
      name: `${name}: req/s ratio to raw node:http`,
      measured: cachedRatio,
      floor: 0.15,
      rule: `≥ 0.15× (every answer a cache hit; node:http sending the same bytes: ${keptRatio === null ? 'not measured' : `${keptRatio.toFixed(3)}×`})`,
      ratio: cachedRatio !== null && keptRatio ? cachedRatio / keptRatio : null,
      unit: '×',
      pass: cachedRatio !== null && cachedRatio >= 0.15,
    });
  }
  // The card: GraphQL against REST in alternating rounds of their own (paired above); the table's
  // rows, measured in separate windows, are shown beside it.
  const separate = cpu(CARD_GRAPHQL) !== null && cpu(CARD_REST) ? `${((cpu(CARD_GRAPHQL) ?? 0) / (cpu(CARD_REST) ?? 1)).toFixed(2)}×` : 'not measured';
  const perRound = cardPair?.median ? `, per-round median ${cardPair.median.toFixed(2)}×` : '';
  goals.push(
    bounded(
      'card',
      'storefront card over GraphQL: server CPU per request',
      cardPair?.b ?? null,
      cardPair?.a ?? null,
      1,
      `≤ the REST full include, in alternating rounds${perRound} (the table's separate windows: ${separate})`,
    ),
  );
  return goals;
}

const baseline = await startTarget('bench/support/baseline.ts');
// One app process (a second one would share, and on exit stop, the embedded PostgreSQL when
// DATABASE_URL is unset). Anonymous callers get a budget of one request, so the limiter
// scenario measures refusals; keyed scenarios have their own, unlimited budget.
const app = await startTarget('bench/support/server.ts', { ...process.env, BENCH_PRODUCTS: String(products), BENCH_ANONYMOUS_POINTS: '1' });
const rows: Row[] = [];
/** The storefront card's paired comparison (paired()), when both card scenarios ran. */
let cardPair: CardPair | null = null;
try {
  const auth = { 'x-api-key': app.info.key! };
  const storefront = { 'x-api-key': app.info.storefrontKey! };
  const idleRss = rssMb(app.child.pid);
  console.log(`app idle RSS after boot and seeding: ${idleRss} MB`);
  const list = (include: string) => `${app.info.url}/api/catalog/entities?limit=20${include ? `&include=${include}` : ''}`;
  const graphqlList = JSON.stringify({
    query:
      '{ catalogEntities(limit: 20) { data { id slug type status metadata createdAt updatedAt attributes { locale title description seoTitle seoDescription } variants { id sku title options metadata } pricing { id currency amount variantId } } } }',
  });
  const graphqlCard = JSON.stringify({
    query:
      '{ catalogEntities(limit: 20) { data { id slug type status title description attributes { locale title description } categories { id slug name } brands { id slug name } pricing { id currency amount variantId } variants { id sku title options price(currency: "USD") { unitAmount currency } stock { onHand reserved available } } } } }',
  });
  const persistedList = JSON.stringify({ extensions: { persistedQuery: { version: 1, sha256Hash: createHash('sha256').update(JSON.parse(graphqlList).query).digest('hex') } } });
  const scenarios: Array<{ scenario: Scenario; expectFailures?: boolean; cacheHit?: boolean; prime?: unknown }> = [
    { scenario: { name: SETTINGS, url: `${app.info.url}/api/settings/general`, headers: auth } },
    { scenario: { name: ENTITY, url: `${app.info.url}/api/catalog/entities/${app.info.entityId}`, headers: auth } },
    { scenario: { name: 'GET /api/catalog/entities?limit=20', url: list(''), headers: auth } },
    { scenario: { name: LIST_REST, url: list('variants,attributes,pricing'), headers: auth } },
    // Goal 3: the same page for a storefront key, answered from the warm shared response cache.
    { scenario: { name: LIST_CACHED, url: list('variants,attributes,pricing'), headers: storefront }, cacheHit: true },
    {
      scenario: {
        name: LIST_GRAPHQL,
        url: `${app.info.url}/graphql`,
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        body: graphqlList,
      },
    },
    // Goal 3 over GraphQL: the list query persisted (APQ) by a storefront key, whose catalog
    // reads the shared cache keeps; the hash alone is sent, as a storefront does once registered.
    {
      scenario: {
        name: LIST_CACHED_GRAPHQL,
        url: `${app.info.url}/graphql`,
        method: 'POST',
        headers: { ...storefront, 'content-type': 'application/json' },
        body: persistedList,
      },
      cacheHit: true,
      prime: { ...JSON.parse(persistedList), query: JSON.parse(graphqlList).query },
    },
    // The storefront card (issue 30): what a product grid shows, over REST with every embed it
    // needs and over GraphQL with per-variant price(currency) and stock. The GraphQL page must
    // cost no more than REST's.
    { scenario: { name: CARD_REST, url: list('variants,attributes,pricing,categories,brands,inventory'), headers: auth } },
    {
      scenario: {
        name: CARD_GRAPHQL,
        url: `${app.info.url}/graphql`,
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        body: graphqlCard,
      },
    },
    { scenario: { name: 'anonymous request refused by the rate limiter (429)', url: `${app.info.url}/api/settings/general` }, expectFailures: true },
  ];
  for (const { scenario, expectFailures, cacheHit, prime } of scenarios) {
    if (!selected(scenario.name)) continue;
    // A persisted query is registered once with its document (the client's first request).
    if (prime) await (await fetch(scenario.url, { method: 'POST', headers: scenario.headers, body: JSON.stringify(prime) })).text();
    const bytes = await probe(scenario, expectFailures, cacheHit);
    rows.push({ ...(await measure(baseline, app, scenario, expectFailures)), bytes });
    console.error(`done: ${scenario.name}`);
  }
  // The card goal's own comparison: GraphQL against REST in alternating rounds (paired()).
  const cardScenario = (name: string) => scenarios.find((s) => s.scenario.name === name)?.scenario;
  const [restCard, graphqlCardScenario] = [cardScenario(CARD_REST), cardScenario(CARD_GRAPHQL)];
  if (restCard && graphqlCardScenario && selected(CARD_REST) && selected(CARD_GRAPHQL)) {
    cardPair = await paired(app, restCard, graphqlCardScenario);
    console.error(`done: storefront card, GraphQL against REST in alternating rounds (${cardPair.rounds.map((r) => r.toFixed(3)).join(' ')})`);
  }
  // The floors (bench/support/floors.ts) read the app's database while the app idles.
  const floors = await startTarget('bench/support/floors.ts', {
    ...process.env,
    FLOOR_DATABASE_URL: app.info.databaseUrl,
    FLOOR_ORGANIZATION_ID: app.info.organizationId,
    FLOOR_ENTITY_ID: app.info.entityId,
    FLOOR_KEPT_URL: list('variants,attributes,pricing'),
    FLOOR_KEPT_KEY: app.info.storefrontKey,
  });
  try {
    const floorScenarios: Scenario[] = [
      { name: FLOOR_SETTINGS, url: `${floors.info.sql}/sql/settings` },
      { name: FLOOR_ENTITY, url: `${floors.info.sql}/sql/entity` },
      { name: FLOOR_LIST, url: `${floors.info.sql}/sql/list` },
      { name: 'floor: node:http + pg, the same list page built as JSON by PostgreSQL (1 statement)', url: `${floors.info.sql}/sql/list-json` },
      { name: FLOOR_KEPT, url: `${floors.info.sql}/kept` },
      { name: FLOOR_ADAPTER, url: `${floors.info.adapter}/` },
      { name: 'floor: Yoga `{ __typename }`, no auth, no SQL', url: `${floors.info.graphql}/graphql?query=%7B__typename%7D` },
    ];
    for (const scenario of floorScenarios) {
      if (!selected(scenario.name)) continue;
      const bytes = await probe(scenario);
      rows.push({ ...(await measure(baseline, floors, scenario, false, false)), bytes });
      console.error(`done: ${scenario.name}`);
    }
  } finally {
    await floors.stop();
  }
} finally {
  await Promise.all([app.stop(), baseline.stop()]);
}
printRows(rows);
const goals = httpGoals(rows, cardPair);
for (const goal of goals) console.log(goalLine(goal));

if (process.env.BENCH_ONLY !== 'http') {
  // The write paths have their own drivers (shoppers, job runners); they report their own
  // yardsticks (orders/s, graphile-worker in the same run) and print their goals (checkout: 4,
  // production start: 5) as GOAL| lines, gathered here.
  for (const script of ['bench/checkout.ts', 'bench/jobs-throughput.ts', 'bench/production.ts']) {
    console.log(`\n## ${script}`);
    const child = spawnSync(process.execPath, ['--import', 'tsx', script], { stdio: ['ignore', 'pipe', 'inherit'], env: process.env, maxBuffer: 64 * 1024 * 1024 });
    const out = child.stdout?.toString() ?? '';
    process.stdout.write(out);
    goals.push(...parseGoalLines(out));
    if (child.status !== 0) console.log(`${script} exited with ${child.status}`);
  }
}
printGoals(goals);
