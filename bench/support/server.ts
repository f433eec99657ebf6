// A bench target: boots the real app in its own process (so the load generator does not share
// its event loop) on a fresh database, mints an admin API key, and prints
// `{"url", "key"}` as one JSON line. On SIGUSR2 it prints `{"statements": n}` (SQL statements
// sent so far), which the driver turns into statements per request.
import pg from 'pg';
import { createApp } from '../../src/app.js';
import { loadConfig } from '../../src/config/index.js';
import { resolveDatabase } from '../../src/db/client.js';
import { mintApiKey } from '../../src/auth/accounts.js';
import { listen } from '../../src/http/listen.js';

const base = await loadConfig({ logLevel: 'silent', dataDir: process.env.DATA_DIR ?? '.data-bench' });
const server = await resolveDatabase(base);
// A database of its own, recreated each run.
const url = new URL(server.url);
const name = `commerce_bench_${process.pid}`;
const admin = new pg.Client({ connectionString: server.url });
await admin.connect();
await admin.query(`create database ${name}`);
await admin.end();
url.pathname = `/${name}`;

const config = await loadConfig({
  logLevel: 'silent',
  databaseUrl: url.toString(),
  dataDir: process.env.DATA_DIR ?? '.data-bench',
  // The bench measures throughput, not the limiter's refusals.
  rateLimit: { authenticated: { points: 10_000_000, durationSeconds: 60 }, anonymous: { points: 10_000_000, durationSeconds: 60 } },
});
const app = await createApp(config, { countStatements: true });
const organization = await app.services.organizations.defaultOrganization();
const { key } = await mintApiKey({ auth: app.auth, config, db: app.db }, { scope: 'admin', organizationId: organization.id });
await app.db.setting.create({ data: { organizationId: organization.id, group: 'general', values: { currency: 'USD', timezone: 'UTC', locale: 'en' } } });
const listening = await listen(app.http, 0, '127.0.0.1');
console.log(JSON.stringify({ url: listening.url, key, databaseUrl: url.toString() }));

process.on('SIGUSR2', () => console.log(JSON.stringify({ statements: app.counter.statements })));
process.on('SIGTERM', async () => {
  await listening.close();
  await app.close();
  const c = new pg.Client({ connectionString: server.url });
  await c.connect();
  await c.query(`drop database if exists ${name} with (force)`);
  await c.end();
  await server.release();
  process.exit(0);
});
