// Read replicas (db/replicas.ts) against a real streaming standby started from the machine's
// PostgreSQL 15 binaries (pg15.ts: initdb a primary with wal_level=replica, pg_basebackup -R a
// standby). Replica lag is made by pausing the standby's replay (pg_wal_replay_pause()): a
// storefront read then answers the old row (it went to the replica), the writer's own reads the
// new one (read-your-writes sends them to the primary for the window), and once the window is
// over the writer reads the replica too. A standby stopped hard fails reads over to the primary;
// restarted, it is used again after its health check passes. A second app with a small
// replicaMaxLagMs leaves the paused (lagging) standby out until it has caught up.
//
// About 10–20 s (two clusters, migrations): behind COMMERCE_SLOW_TESTS=1.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp, type App } from '../../src/app.js';
import { configFromEnv, resolveConfig } from '../../src/config/index.js';
import { applyMigrations } from '../../src/db/migrations.js';
import { listen, type Listening } from '../../src/http/listen.js';
import { mintApiKey } from '../../src/auth/accounts.js';
import { MIGRATIONS_DIR, PACKAGE_ROOT } from '../../src/paths.js';
import { hasPg15, removeClusters, startPrimary, startStandby, type Cluster } from './pg15.js';

const SLOW = process.env.COMMERCE_SLOW_TESTS === '1';
const WINDOW_MS = 1500;

let primary: Cluster & { root: string };
let standby: Cluster;
let app: App;
let server: Listening;
let config: ReturnType<typeof resolveConfig>;
let admin: string;
let storefront: string;
let entityId: string;

async function call(urlPath: string, key: string, init: { method?: string; body?: unknown; base?: string } = {}) {
  const res = await fetch((init.base ?? server.url) + urlPath, {
    method: init.method ?? (init.body ? 'POST' : 'GET'),
    headers: { 'x-api-key': key, ...(init.body ? { 'content-type': 'application/json' } : {}) },
    body: init.body ? JSON.stringify(init.body) : undefined,
  });
  const text = await res.text();
  return { status: res.status, text, body: text ? JSON.parse(text) : null };
}

const nameOf = async (key: string, base?: string) => {
  const res = await call(`/api/catalog/entities/${entityId}`, key, { base });
  expect(res.status, res.text).toBe(200);
  return res.body.data.slug as string;
};

async function until(check: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > timeoutMs) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 50));
  }
}

const replayed = (name: string) => async () => (await standby.query<{ slug: string }>(`select slug from catalog_entities where id = '${entityId}'`, 'commerce'))[0]?.slug === name;

describe.runIf(SLOW && hasPg15())('read replicas (real streaming standby)', () => {
  beforeAll(async () => {
    primary = await startPrimary();
    await primary.query('create database commerce');
    await applyMigrations(primary.url('commerce'), MIGRATIONS_DIR);
    standby = await startStandby(primary);
    config = resolveConfig({
      env: 'test',
      baseUrl: 'http://localhost:3000',
      databaseUrl: primary.url('commerce'),
      dataDir: path.join(PACKAGE_ROOT, '.test-data'),
      logLevel: 'silent',
      auth: { secret: 'test-secret-test-secret-test-secret-0123456789' },
      // The response cache would answer repeated reads before any database: off, to see routing.
      cache: { enabled: false },
      database: { replicaUrls: [standby.url('commerce')], readYourWritesMs: WINDOW_MS, replicaHealthIntervalMs: 200, replicaConnectTimeoutMs: 500 },
    });
    app = await createApp(config, { migrate: false });
    server = await listen(app.http, 0, '127.0.0.1');
    const organizationId = (await app.services.organizations.defaultOrganization()).id;
    admin = (await mintApiKey({ auth: app.auth, config, db: app.db }, { scope: 'admin', organizationId })).key;
    storefront = (await mintApiKey({ auth: app.auth, config, db: app.db }, { scope: 'storefront', organizationId })).key;
    const created = await call('/api/catalog/entities', admin, { body: { type: 'product', slug: 'v1', status: 'active' } });
    expect(created.status, created.text).toBe(201);
    entityId = created.body.data.id;
    await until(replayed('v1'));
  }, 120_000);

  afterAll(async () => {
    await server?.close();
    await app?.close();
    if (primary) removeClusters(primary.root, [standby, primary].filter(Boolean));
  });

  it('storefront reads go to the replica (they see its lag); the writer reads its write from the primary for the window', async () => {
    await standby.query('select pg_wal_replay_pause()');
    try {
      const patched = await call(`/api/catalog/entities/${entityId}`, admin, { method: 'PATCH', body: { slug: 'v2' } });
      expect(patched.status, patched.text).toBe(200);
      expect(await nameOf(admin)).toBe('v2'); // read-your-writes: the primary
      expect(await nameOf(storefront)).toBe('v1'); // the lagging replica
      const gql = await fetch(`${server.url}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': storefront },
        body: JSON.stringify({ query: `{ catalogEntity(idOrSlug: "${entityId}") { slug } }` }),
      });
      expect(((await gql.json()) as any).data.catalogEntity.slug).toBe('v1');
      await new Promise((r) => setTimeout(r, WINDOW_MS + 100));
      expect(await nameOf(admin)).toBe('v1'); // the window is over: the writer reads the replica too
    } finally {
      await standby.query('select pg_wal_replay_resume()');
    }
    await until(replayed('v2'));
    expect(await nameOf(storefront)).toBe('v2');
  });

  it('a replica that goes down fails reads over to the primary, and is used again once it is back', async () => {
    standby.stop('immediate');
    for (let i = 0; i < 5; i++) expect(await nameOf(storefront)).toBe('v2');
    standby.start();
    // Back and healthy: prove reads reach it again by making it lag once more.
    await until(async () => (await standby.query<{ r: boolean }>('select pg_is_in_recovery() as r'))[0]?.r === true);
    await new Promise((r) => setTimeout(r, 600)); // a few health-check rounds
    // A fresh write replayed first: after its restart the standby's last replayed transaction is
    // the old v2, and its age would count as lag (replicaMaxLagMs) once replay pauses.
    expect((await call(`/api/catalog/entities/${entityId}`, admin, { method: 'PATCH', body: { slug: 'v3' } })).status).toBe(200);
    await until(replayed('v3'));
    await standby.query('select pg_wal_replay_pause()');
    try {
      const patched = await call(`/api/catalog/entities/${entityId}`, admin, { method: 'PATCH', body: { slug: 'v4' } });
      expect(patched.status, patched.text).toBe(200);
      expect(await nameOf(storefront)).toBe('v3');
    } finally {
      await standby.query('select pg_wal_replay_resume()');
    }
  });

  it('a replica lagging more than replicaMaxLagMs is left out until it catches up; one within it keeps answering', async () => {
    // A second app on the same primary and standby, with a small lag limit (the first one keeps
    // the default, 10 s). Both read with the storefront key, which wrote nothing.
    const MAX_LAG_MS = 3000;
    const strict = await createApp(resolveConfig(config, { database: { replicaMaxLagMs: MAX_LAG_MS } }), { migrate: false });
    const strictServer = await listen(strict.http, 0, '127.0.0.1');
    const rename = async (slug: string) => expect((await call(`/api/catalog/entities/${entityId}`, admin, { method: 'PATCH', body: { slug } })).status).toBe(200);
    // The lag the standby reports is the age of its last replayed transaction: a write replayed
    // just before the pause starts it near zero.
    const lagBehind = async (replayedSlug: string, pendingSlug: string) => {
      await rename(replayedSlug);
      await until(replayed(replayedSlug));
      await standby.query('select pg_wal_replay_pause()');
      await rename(pendingSlug);
    };
    try {
      await lagBehind('w1', 'w2');
      try {
        // Behind by less than the limit: the replica still answers, with its old row.
        expect(await nameOf(storefront, strictServer.url)).toBe('w1');
        // Once the lag passes the limit (and a health check saw it), the strict app reads the primary...
        await until(async () => (await nameOf(storefront, strictServer.url)) === 'w2', 20_000);
        expect(await replayed('w1')()).toBe(true); // (the standby is still behind)
        // ...while the lenient app (lag within its 10 s) still reads the replica.
        expect(await nameOf(storefront)).toBe('w1');
      } finally {
        await standby.query('select pg_wal_replay_resume()');
      }
      await until(replayed('w2'));
      await new Promise((r) => setTimeout(r, 600)); // a few health-check rounds
      // Caught up: the strict app uses the replica again, shown by making it lag (briefly) once more.
      await lagBehind('w3', 'w4');
      try {
        expect(await nameOf(storefront, strictServer.url)).toBe('w3');
      } finally {
        await standby.query('select pg_wal_replay_resume()');
      }
      await until(replayed('w4'));
    } finally {
      await strictServer.close();
      await strict.close();
    }
  });

  it('DATABASE_REPLICA_URLS, DATABASE_READ_YOUR_WRITES_MS and DATABASE_REPLICA_MAX_LAG_MS configure it', () => {
    const config = resolveConfig(
      configFromEnv({ DATABASE_REPLICA_URLS: 'postgresql://a/x, postgresql://b/x', DATABASE_READ_YOUR_WRITES_MS: '500', DATABASE_REPLICA_MAX_LAG_MS: '2500' }),
    );
    expect(config.database).toMatchObject({ replicaUrls: ['postgresql://a/x', 'postgresql://b/x'], readYourWritesMs: 500, replicaMaxLagMs: 2500 });
    expect(resolveConfig({}).database).toMatchObject({ readYourWritesMs: 2000, replicaMaxLagMs: 10_000 });
  });
});
