// `node --import tsx bench/profile.ts <scenario>`: a V8 CPU profile of the bench server
// (bench/support/server.ts under node --cpu-prof) while autocannon loads one scenario, then a
// summary of where its CPU went: self time by package/file and by function. For finding what to
// cut in the request path (issue 30); the ratios to the floors come from `npm run bench`.
//   scenarios: settings, entity, list, cached (the list for a storefront key: warm response cache hits), cached-graphql
//   (the same as a persisted GraphQL query), graphql-list, card-rest, card-graphql,
//   graphql-settings, graphql-entity (bench:peer's trivial read and by-id read on /graphql)
//   BENCH_SECONDS (10), BENCH_CONNECTIONS (20), BENCH_PROFILE_DIR (.bench-profiles), BENCH_TOP (40)
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { load, startTarget, type Scenario } from './support/driver.js';
import { printProfileSummary } from './support/profile-summary.js';

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
const LIST_QUERY =
  '{ catalogEntities(limit: 20) { data { id slug type status metadata createdAt updatedAt attributes { locale title description seoTitle seoDescription } variants { id sku title options metadata } pricing { id currency amount variantId } } } }';
const scenarios: Record<string, Partial<Scenario>> = {
  settings: { url: `${app.info.url}/api/settings/general` },
  entity: { url: `${app.info.url}/api/catalog/entities/${app.info.entityId}` },
  list: { url: list('variants,attributes,pricing') },
  cached: { url: list('variants,attributes,pricing'), headers: { 'x-api-key': app.info.storefrontKey! } },
  // The same list as a persisted query (hash only) of a storefront key: warm cache hits on /graphql.
  'cached-graphql': {
    url: `${app.info.url}/graphql`,
    method: 'POST',
    headers: { 'x-api-key': app.info.storefrontKey!, 'content-type': 'application/json' },
    body: JSON.stringify({ extensions: { persistedQuery: { version: 1, sha256Hash: createHash('sha256').update(LIST_QUERY).digest('hex') } } }),
  },
  'graphql-list': graphql(LIST_QUERY),
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
// A persisted query is registered once with its document, as a storefront's first request does.
if (which === 'cached-graphql') {
  await (await fetch(scenario.url, { method: 'POST', headers: scenario.headers, body: JSON.stringify({ ...JSON.parse(scenario.body!), query: LIST_QUERY }) })).text();
}
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
printProfileSummary(dir, from, to, result.total, 'request', top);
