// Load scenario: GET /api/catalog/entities?limit=20&include=variants,attributes with a storefront
// API key, against an in-process server. Database: a dedicated `commerce_bench_catalog`
// database on DATABASE_URL's server, or the embedded PostgreSQL under .data/bench.
//
//   node --import tsx bench/catalog-list.ts [--duration 10] [--connections 20] [--include variants,attributes] [--cache off|on]
//
// `--cache on` measures the shared response cache (src/cache) warm: every request after the
// first is a hit. Off by default, so the figure stays the list's own cost.
//
// Rate limiting is switched off (this measures the list, not the limiter). The pricing include
// is not available until the pricing module registers it; the scenario uses what exists.
import path from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { createApp } from '../src/app.js';
import { parseConfig } from '../src/config/index.js';
import { ensureDatabase } from '../src/db/embedded.js';
import { mintApiKey } from '../src/auth/accounts.js';
import { listen } from '../src/http/listen.js';
import { createLogger } from '../src/logger.js';
import { PACKAGE_ROOT } from '../src/paths.js';
import { seedCatalog } from '../src/modules/catalog/seed.js';
import { createEntity } from '../src/modules/catalog/entities/service.js';
import { setAttributes } from '../src/modules/catalog/attributes/service.js';
import { bulkVariants } from '../src/modules/catalog/variants/service.js';

const { values: args } = parseArgs({
  options: {
    duration: { type: 'string', default: '10' },
    connections: { type: 'string', default: '20' },
    include: { type: 'string', default: 'variants,attributes' },
    cache: { type: 'string', default: 'off' },
  },
});
const PATH = `/api/catalog/entities?limit=20${args.include ? `&include=${args.include}` : ''}`;
const BENCH_DATABASE = 'commerce_bench_catalog';

async function databaseUrl(): Promise<string | undefined> {
  if (!process.env.DATABASE_URL) return undefined;
  const admin = new URL(process.env.DATABASE_URL);
  admin.pathname = '/postgres';
  await ensureDatabase(admin.toString(), BENCH_DATABASE);
  const url = new URL(process.env.DATABASE_URL);
  url.pathname = `/${BENCH_DATABASE}`;
  return url.toString();
}

async function main(): Promise<void> {
  const config = parseConfig({
    env: 'production',
    databaseUrl: await databaseUrl(),
    dataDir: path.join(PACKAGE_ROOT, '.data', 'bench'),
    logLevel: 'silent',
    auth: { secret: 'bench-secret-bench-secret-bench-secret-0123' },
    rateLimit: { enabled: false },
    cache: { enabled: args.cache === 'on' },
  });
  const app = await createApp(config, { migrate: true, countStatements: true, logger: createLogger('silent') });
  try {
    const organization = await app.services.organizations.defaultOrganization();
    await seedCatalog(app, organization);
    // The demo catalog has 12 products; add enough for a full page of 20.
    const ctx = { db: app.db, organization, actor: null, requestId: 'bench' };
    for (let i = 0; i < 20; i += 1) {
      const slug = `bench-item-${i}`;
      if (await app.db.catalogEntity.findFirst({ where: { organizationId: organization.id, slug }, select: { id: true } })) continue;
      const entity = await createEntity(ctx, { type: 'product', slug, status: 'active', locale: 'en' });
      await setAttributes(ctx, entity.id, 'en', { title: `Bench item ${i}`, description: 'A product for the load scenario.' });
      await bulkVariants(ctx, entity.id, { axes: { size: ['S', 'M', 'L'], color: ['red', 'blue'] } });
    }
    const { key } = await mintApiKey({ auth: app.auth, config, db: app.db }, { scope: 'storefront', organizationId: organization.id });
    const server = await listen(app.http, 0, '127.0.0.1');
    try {
      const headers = { 'x-api-key': key };
      const probe = await fetch(server.url + PATH, { headers });
      const body = (await probe.json()) as { data: Array<{ variants: unknown[] }> };
      if (probe.status !== 200 || body.data.length !== 20) throw new Error(`probe failed: ${probe.status}`);
      const before = app.counter.statements;
      await fetch(server.url + PATH, { headers }).then((r) => r.arrayBuffer());
      const statements = app.counter.statements - before;

      const result = await autocannon({
        url: server.url + PATH,
        headers,
        connections: Number(args.connections),
        duration: Number(args.duration),
      });
      const summary = {
        scenario: `GET ${PATH}`,
        responseCache: args.cache === 'on' ? 'on (warm)' : 'off',
        database: config.databaseUrl ? 'DATABASE_URL server' : 'embedded',
        connections: Number(args.connections),
        durationSeconds: Number(args.duration),
        requestsPerSecond: Math.round(result.requests.average),
        latencyMs: { p50: result.latency.p50, p99: result.latency.p99, max: result.latency.max },
        non2xx: result.non2xx,
        errors: result.errors,
        sqlStatementsPerRequest: statements,
        variantsPerPage: body.data.reduce((n, e) => n + (e.variants?.length ?? 0), 0),
      };
      console.log(JSON.stringify(summary, null, 2));
    } finally {
      await server.close();
    }
  } finally {
    await app.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
