// `node --import tsx bench/profile.ts <scenario>`: a V8 CPU profile of the bench server
// (bench/support/server.ts under node --cpu-prof) while autocannon loads one scenario, then a
// summary of where its CPU went: self time by package/file and by function. For finding what to
// cut in the request path (issue 30); the ratios to the floors come from `npm run bench`.
//   scenarios: settings, entity, list, cached (the list for a storefront key: warm response cache hits), graphql-list, card-rest, card-graphql,
//   graphql-settings, graphql-entity (bench:peer's trivial read and by-id read on /graphql)
//   BENCH_SECONDS (10), BENCH_CONNECTIONS (20), BENCH_PROFILE_DIR (.bench-profiles), BENCH_TOP (40)
import fs from 'node:fs';
import path from 'node:path';
import { load, startTarget, type Scenario } from './support/driver.js';

const which = process.argv[2] ?? 'settings';
const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 20);
const dir = path.resolve(process.env.BENCH_PROFILE_DIR ?? '.bench-profiles', `${which}-${Date.now()}`);
const top = Number(process.env.BENCH_TOP ?? 40);
fs.mkdirSync(dir, { recursive: true });

const app = await startTarget('bench/support/server.ts', { ...process.env, BENCH_PRODUCTS: process.env.BENCH_PRODUCTS ?? '100' }, ['--cpu-prof', `--cpu-prof-dir=${dir}`]);
const auth = { 'x-api-key': app.info.key! };
const list = (include: string) => `${app.info.url}/api/catalog/entities?limit=20&include=${include}`;
const graphql = (query: string): Partial<Scenario> => ({
  url: `${app.info.url}/graphql`,
  method: 'POST',
  headers: { ...auth, 'content-type': 'application/json' },
  body: JSON.stringify({ query }),
});
const scenarios: Record<string, Partial<Scenario>> = {
  settings: { url: `${app.info.url}/api/settings/general` },
  entity: { url: `${app.info.url}/api/catalog/entities/${app.info.entityId}` },
  list: { url: list('variants,attributes,pricing') },
  cached: { url: list('variants,attributes,pricing'), headers: { 'x-api-key': app.info.storefrontKey! } },
  'graphql-list': graphql(
    '{ catalogEntities(limit: 20) { data { id slug type status metadata createdAt updatedAt attributes { locale title description seoTitle seoDescription } variants { id sku title options metadata } pricing { id currency amount variantId } } } }',
  ),
  'graphql-settings': graphql('{ settingsGroup(group: "general") }'),
  'graphql-entity': graphql(
    `{ catalogEntity(idOrSlug: "${app.info.entityId}") { id slug status attributes { locale title description } variants { id sku title options } pricing { id currency amount variantId } } }`,
  ),
  'card-rest': { url: list('variants,attributes,pricing,categories,brands,inventory') },
  'card-graphql': graphql(
    '{ catalogEntities(limit: 20) { data { id slug type status title description attributes { locale title description } categories { id slug name } brands { id slug name } pricing { id currency amount variantId } variants { id sku title options price(currency: "USD") { unitAmount currency } stock { onHand reserved available } } } } }',
  ),
};
const chosen = scenarios[which];
if (!chosen) throw new Error(`unknown scenario ${which}; one of ${Object.keys(scenarios).join(', ')}`);
const scenario = { name: which, headers: auth, ...chosen } as Scenario;
const probe = await fetch(scenario.url, { method: scenario.method ?? 'GET', headers: scenario.headers, body: scenario.body });
const text = await probe.text();
if (probe.status !== 200 || text.includes('"errors"')) throw new Error(`${which}: ${probe.status} ${text.slice(0, 300)}`);
await load(scenario, 2, connections); // warm-up
// V8 stamps samples with the monotonic clock in µs, as process.hrtime does: only the load's samples count (not boot and seeding).
const from = Number(process.hrtime.bigint() / 1000n);
const result = await load(scenario, seconds, connections);
const to = Number(process.hrtime.bigint() / 1000n);
await app.stop();
console.log(`${which}: ${result.requestsPerSecond} req/s, ${result.total} requests, non-2xx ${result.non2xx}`);

interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
const file = fs.readdirSync(dir).find((f) => f.endsWith('.cpuprofile'));
if (!file) throw new Error('no profile written');
const profile = JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8')) as { nodes: Node[]; samples: number[]; timeDeltas: number[]; startTime: number };
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const self = new Map<number, number>();
let at = profile.startTime;
profile.samples.forEach((id, i) => {
  const delta = profile.timeDeltas[i] ?? 0;
  at += delta;
  if (at >= from && at <= to) self.set(id, (self.get(id) ?? 0) + delta);
});
const total = [...self.values()].reduce((a, b) => a + b, 0);
const idle = [...self].filter(([id]) => ['(idle)', '(program)'].includes(byId.get(id)?.callFrame.functionName ?? '')).reduce((a, [, t]) => a + t, 0);

function where(url: string): string {
  if (!url) return '(native)';
  const nm = url.lastIndexOf('node_modules/');
  if (nm >= 0) {
    const rest = url.slice(nm + 'node_modules/'.length).split('/');
    return rest[0]!.startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0]!;
  }
  if (url.startsWith('node:')) return url;
  const src = url.indexOf('/src/');
  return src >= 0 ? url.slice(src + 1) : url;
}
// Inclusive time: each sample counts once for every distinct function on its stack.
const parent = new Map<number, number>();
for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
const inclusive = new Map<string, number>();
for (const [id, t] of self) {
  const seen = new Set<string>();
  for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
    const frame = byId.get(at)!.callFrame;
    const fn = `${frame.functionName || '(anonymous)'} ${where(frame.url)}:${frame.lineNumber + 1}`;
    if (seen.has(fn)) continue;
    seen.add(fn);
    inclusive.set(fn, (inclusive.get(fn) ?? 0) + t);
  }
}
const byPlace = new Map<string, number>();
const byFunction = new Map<string, number>();
for (const [id, t] of self) {
  const frame = byId.get(id)!.callFrame;
  const place = where(frame.url);
  byPlace.set(place, (byPlace.get(place) ?? 0) + t);
  const fn = `${frame.functionName || '(anonymous)'} ${place}:${frame.lineNumber + 1}`;
  byFunction.set(fn, (byFunction.get(fn) ?? 0) + t);
}
const busy = total - idle;
const pct = (t: number) => `${((100 * t) / busy).toFixed(1)}%`;
console.log(`busy ${(busy / 1000).toFixed(0)} ms (${(busy / 1000 / result.total).toFixed(3)} ms per request), idle/program excluded; profile in ${dir}`);
console.log('\nself time by place');
for (const [place, t] of [...byPlace].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`${pct(t).padStart(6)}  ${place}`);
console.log('\nself time by function');
for (const [fn, t] of [...byFunction].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`${pct(t).padStart(6)}  ${fn}`);
console.log('\ninclusive time by function (src/ and the stack around it)');
for (const [fn, t] of [...inclusive]
  .filter(([fn]) => !fn.startsWith('('))
  .sort((a, b) => b[1] - a[1])
  .slice(0, top * 2))
  console.log(`${pct(t).padStart(6)}  ${fn}`);
