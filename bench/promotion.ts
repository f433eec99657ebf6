// `node --import tsx bench/promotion.ts`: how much of what a request allocates outlives V8's
// young generation. The bench server runs with --trace-gc-nvp; for each scenario, the scavenges
// that happen while autocannon loads it say how many bytes were allocated and how many were
// promoted to the old generation, and how many full (mark-compact) collections followed. A
// request's objects should die young: promotion means something kept them past two scavenges
// (graphql/request-caches.ts has the case that promoted a whole request), and promoted garbage
// costs a copy in each scavenge and then a full collection.
//   BENCH_SECONDS (8), BENCH_CONNECTIONS (50), BENCH_SCENARIOS (words matched against the names)
import readline from 'node:readline';
import { load, startTarget, type Scenario } from './support/driver.js';

const seconds = Number(process.env.BENCH_SECONDS ?? 8);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);
const only = (process.env.BENCH_SCENARIOS ?? '').split(',').filter(Boolean);

const app = await startTarget('bench/support/server.ts', { ...process.env, BENCH_PRODUCTS: process.env.BENCH_PRODUCTS ?? '100' }, ['--trace-gc-nvp']);
interface Collection {
  kind: string;
  allocated: number;
  promoted: number;
}
let collections: Collection[] = [];
// One line per collection: `... gc=s ... allocated=N promoted=N ...` (mark-compacts: gc=mc).
readline.createInterface({ input: app.child.stdout! }).on('line', (line) => {
  const kind = /\bgc=(\w+)/.exec(line)?.[1];
  if (!kind) return;
  const field = (name: string) => Number(new RegExp(`\\b${name}=(\\d+)`).exec(line)?.[1] ?? 0);
  collections.push({ kind, allocated: field('allocated'), promoted: field('promoted') });
});

const auth = { 'x-api-key': app.info.key! };
const graphql = (query: string): Partial<Scenario> => ({
  url: `${app.info.url}/graphql`,
  method: 'POST',
  headers: { ...auth, 'content-type': 'application/json' },
  body: JSON.stringify({ query }),
});
const list = `${app.info.url}/api/catalog/entities?limit=20&include=variants,attributes,pricing`;
const scenarios: Array<Partial<Scenario> & { name: string }> = [
  { name: 'GET /api/settings/general', url: `${app.info.url}/api/settings/general` },
  { name: 'GET /api/catalog/entities/:id', url: `${app.info.url}/api/catalog/entities/${app.info.entityId}` },
  { name: 'GET /api/catalog/entities?limit=20&include=variants,attributes,pricing', url: list },
  { name: 'POST /graphql settingsGroup', ...graphql('{ settingsGroup(group: "general") }') },
  {
    name: 'POST /graphql catalogEntities(limit: 20) with embeds',
    ...graphql(
      '{ catalogEntities(limit: 20) { data { id slug type status metadata createdAt updatedAt attributes { locale title description seoTitle seoDescription } variants { id sku title options metadata } pricing { id currency amount variantId } } } }',
    ),
  },
];

console.log('| scenario | requests | allocated KB / request | promoted KB / request | promoted share | scavenges | mark-compacts |');
console.log('|---|---:|---:|---:|---:|---:|---:|');
for (const chosen of scenarios.filter((s) => !only.length || only.some((word) => s.name.includes(word)))) {
  const scenario = { headers: auth, ...chosen } as Scenario;
  await load(scenario, 2, connections); // warm-up: compiled code, pools, caches
  collections = [];
  const result = await load(scenario, seconds, connections);
  if (result.non2xx || result.errors) throw new Error(`${scenario.name}: non-2xx ${result.non2xx}, errors ${result.errors}`);
  const scavenges = collections.filter((c) => c.kind === 's');
  const allocated = scavenges.reduce((sum, c) => sum + c.allocated, 0);
  const promoted = scavenges.reduce((sum, c) => sum + c.promoted, 0);
  const kb = (bytes: number) => (bytes / result.total / 1024).toFixed(bytes / result.total < 10_240 ? 2 : 1);
  const share = allocated ? `${((100 * promoted) / allocated).toFixed(2)}%` : '–';
  console.log(`| ${scenario.name} | ${result.total} | ${kb(allocated)} | ${kb(promoted)} | ${share} | ${scavenges.length} | ${collections.length - scavenges.length} |`);
}
await app.stop();
