// A bench target: boots the real app in its own process (so the load generator does not share
// its event loop) on a fresh database, mints an admin API key and a storefront one (as
// `commerce api-keys create --scope storefront` does), and prints `{"url", "key", "storefrontKey"}`
// as one JSON line. On SIGUSR2 it prints `{"statements": n, "roundTrips": m}`
// (SQL statements and round trips sent so far), which the driver turns into statements per request.
import pg from 'pg';
import { createApp } from '../../src/app.js';
import { startTracing } from '../../src/observability/tracing.js';
import { loadConfig } from '../../src/config/index.js';
import { resolveDatabase } from '../../src/db/client.js';
import { processAlive } from '../../src/db/embedded.js';
import { mintApiKey } from '../../src/auth/accounts.js';
import { listen } from '../../src/http/listen.js';
import { createEntity } from '../../src/modules/catalog/entities/service.js';
import { setAttributes } from '../../src/modules/catalog/attributes/service.js';
import { bulkVariants } from '../../src/modules/catalog/variants/service.js';
import { createPrice } from '../../src/modules/pricing/prices.service.js';

const base = await loadConfig({ logLevel: 'silent', dataDir: process.env.DATA_DIR ?? '.data-bench' });
const server = await resolveDatabase(base);
// A database of its own, recreated each run.
const url = new URL(server.url);
const name = `commerce_bench_${process.pid}`;
const admin = new pg.Client({ connectionString: server.url });
await admin.connect();
// A bench server that was killed (not stopped with SIGTERM) leaves its database behind: drop
// those whose process is gone, so repeated runs do not fill the server.
const leftovers = await admin.query<{ datname: string }>(`select datname from pg_database where datname ~ '^commerce_bench_[0-9]+$'`);
for (const { datname } of leftovers.rows) {
  if (!processAlive(Number(datname.slice('commerce_bench_'.length)))) await admin.query(`drop database if exists ${datname} with (force)`).catch(() => undefined);
}
await admin.query(`create database ${name}`);
await admin.end();
url.pathname = `/${name}`;

const config = await loadConfig({
  logLevel: 'silent',
  databaseUrl: url.toString(),
  dataDir: process.env.DATA_DIR ?? '.data-bench',
  // The bench measures throughput, not the limiter's refusals.
  // BENCH_ANONYMOUS_POINTS=0 makes every anonymous request a refusal (the limiter's floor).
  rateLimit: {
    authenticated: { points: 10_000_000, durationSeconds: 60 },
    anonymous: { points: Number(process.env.BENCH_ANONYMOUS_POINTS ?? 10_000_000), durationSeconds: 60 },
  },
});
// OTEL_EXPORTER_OTLP_ENDPOINT set (bench/tracing.ts): traced as `npm start` would be.
await startTracing({ serviceName: 'commerce-bench' });
const app = await createApp(config, { countStatements: true });
const organization = await app.services.organizations.defaultOrganization();
const { key } = await mintApiKey({ auth: app.auth, config, db: app.db }, { scope: 'admin', organizationId: organization.id });
// The storefront's key: its catalog reads are the shared response cache's (src/cache).
const { key: storefrontKey } = await mintApiKey({ auth: app.auth, config, db: app.db }, { scope: 'storefront', organizationId: organization.id });
await app.db.setting.create({ data: { organizationId: organization.id, group: 'general', values: { currency: 'USD', timezone: 'UTC', locale: 'en' } } });
// BENCH_PRODUCTS=n: n active products with 6 variants (size × color), English attributes and
// a USD price each, written through the services so the rows are what the API would write.
const products = Number(process.env.BENCH_PRODUCTS ?? 0);
const sample: string[] = [];
if (products > 0) {
  const ctx = { db: app.db, organization, actor: null, requestId: 'bench' };
  for (let start = 0; start < products; start += 10) {
    await Promise.all(
      Array.from({ length: Math.min(10, products - start) }, async (_, k) => {
        const i = start + k;
        const entity = await createEntity(ctx as never, { type: 'product', slug: `bench-item-${i}`, status: 'active', locale: 'en' });
        await setAttributes(ctx as never, entity.id, 'en', { title: `Bench item ${i}`, description: 'A product for the load scenario.' });
        await bulkVariants(ctx as never, entity.id, { axes: { size: ['S', 'M', 'L'], color: ['red', 'blue'] } });
        await createPrice(ctx as never, { entityId: entity.id, currency: 'USD', amount: 1000 + i });
        sample.push(entity.id);
      }),
    );
  }
}
const listening = await listen(app.http, 0, '127.0.0.1');
// databaseUrl: benches that need bulk data (bench/analytics.ts) seed it with SQL straight into this database.
console.log(JSON.stringify({ url: listening.url, key, storefrontKey, databaseUrl: url.toString(), organizationId: organization.id, entityId: sample[0] ?? '' }));

// cpuMicros: the process's CPU time so far (bench/tracing.ts: CPU per request, which a busy
// machine disturbs far less than req/s).
process.on('SIGUSR2', () => {
  const cpu = process.cpuUsage();
  console.log(JSON.stringify({ statements: app.counter.statements, roundTrips: app.counter.roundTrips, cpuMicros: cpu.user + cpu.system }));
});
process.on('SIGTERM', async () => {
  await listening.close();
  await app.close();
  const c = new pg.Client({ connectionString: server.url });
  c.on('error', () => undefined);
  try {
    await c.connect();
    await c.query(`drop database if exists ${name} with (force)`);
  } catch {
    // The embedded server is already stopping (the bench process that started it released it
    // first): its database goes with it, or the next bench server's sweep above drops it.
  } finally {
    await c.end().catch(() => undefined);
  }
  await server.release();
  process.exit(0);
});
