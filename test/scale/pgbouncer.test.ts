// Behind PgBouncer in transaction mode (Debian's pgbouncer, started by scripts/pgbouncer.mjs in
// front of the test server): the app's pool goes through it (`?pgbouncer=true`, Prisma's
// convention), LISTEN and migrations go to DATABASE_DIRECT_URL.
//
// - Named prepared statements (the job queue's hot statements, through sqlPool): the installed
//   PgBouncer is 1.18, which does not track protocol-level prepared statements (1.21+ with
//   max_prepared_statements does), so a name parsed on one server connection is unknown on the
//   next. With the flag they go unnamed: many named statements over many connections pass.
// - LISTEN: an outbox event committed through PgBouncer notifies the app's cache listener on
//   the direct connection (the next storefront read is a miss).
// - Migrations: two concurrent runs on the direct URL serialize on the advisory lock and leave
//   no lock behind; the app booted with migrate on starts.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createApp, type App } from '../../src/app.js';
import { resolveConfig } from '../../src/config/index.js';
import { sqlPool } from '../../src/db/client.js';
import { applyMigrations } from '../../src/db/migrations.js';
import { listen, type Listening } from '../../src/http/listen.js';
import { mintApiKey } from '../../src/auth/accounts.js';
import { MIGRATIONS_DIR, PACKAGE_ROOT } from '../../src/paths.js';
import { createTestDatabase, databaseUrl } from '../support/app.js';

const HAS_PGBOUNCER = fs.existsSync('/usr/sbin/pgbouncer') || fs.existsSync('/usr/bin/pgbouncer');
// Against the machine's PostgreSQL server (DATABASE_URL): the embedded server wants a password,
// which the generated PgBouncer ini does not pass on.
const ON_SERVER = !!process.env.DATABASE_URL;
const MIGRATION_LOCK = 72707369;

let bouncer: { port: number; pid: number; dir: string };
let database: Awaited<ReturnType<typeof createTestDatabase>>;
let viaBouncer: string;
let direct: string;
let app: App;
let server: Listening;

describe.runIf(HAS_PGBOUNCER && ON_SERVER)('through PgBouncer (transaction mode)', () => {
  beforeAll(async () => {
    // In .ci/run's server run the suite itself is behind a PgBouncer: this one goes in front of
    // the server directly (DATABASE_DIRECT_URL), and so do the direct connections below.
    const upstream = new URL(process.env.DATABASE_DIRECT_URL ?? inject('adminUrl'));
    const out = execFileSync(
      'node',
      [path.join(PACKAGE_ROOT, 'scripts/pgbouncer.mjs'), `${upstream.hostname}:${upstream.port || 5432}`, decodeURIComponent(upstream.username) || 'postgres'],
      { encoding: 'utf8' },
    ).trim();
    const [port, pid, dir] = out.split(' ');
    bouncer = { port: Number(port), pid: Number(pid), dir: dir! };
    database = await createTestDatabase();
    direct = process.env.DATABASE_DIRECT_URL ? databaseUrl(process.env.DATABASE_DIRECT_URL, database.name) : database.url;
    const bounced = new URL(direct);
    bounced.port = String(bouncer.port);
    bounced.hostname = '127.0.0.1';
    bounced.searchParams.set('pgbouncer', 'true');
    viaBouncer = bounced.toString();
    const config = resolveConfig({
      env: 'test',
      baseUrl: 'http://localhost:3000',
      databaseUrl: viaBouncer,
      databaseDirectUrl: direct,
      dataDir: path.join(PACKAGE_ROOT, '.test-data'),
      logLevel: 'silent',
      auth: { secret: 'test-secret-test-secret-test-secret-0123456789' },
      jobs: { autorun: { intervalMs: 60_000 } },
    });
    app = await createApp(config, { migrate: true });
    server = await listen(app.http, 0, '127.0.0.1');
  });

  afterAll(async () => {
    await server?.close();
    await app?.close();
    await database?.drop();
    if (bouncer) {
      try {
        process.kill(bouncer.pid, 'SIGTERM');
      } catch {
        /* gone */
      }
      fs.rmSync(bouncer.dir, { recursive: true, force: true });
    }
  });

  it('named prepared statements of the fast paths work over pooled server connections', async () => {
    const pool = sqlPool(app.db)!;
    const results = await Promise.all(Array.from({ length: 200 }, (_, i) => pool.query({ name: `commerce_probe_${i % 5}`, text: `select $1::int + ${i % 5} as n`, values: [i] })));
    expect(results.map((r) => (r.rows[0] as { n: number }).n)).toEqual(Array.from({ length: 200 }, (_, i) => i + (i % 5)));
    // The job queue's own hot statements (claim, complete) run through the same path: a job
    // enqueued through PgBouncer is run by the in-process worker and succeeds.
    const organizationId = (await app.services.organizations.defaultOrganization()).id;
    const job = await app.services.jobs.enqueue({ organizationId, task: 'retention/prune', input: {} });
    const started = Date.now();
    let status = '';
    while (Date.now() - started < 20_000) {
      status = (await app.db.job.findUnique({ where: { id: job.id }, select: { status: true } }))!.status;
      if (status === 'succeeded' || status === 'failed') break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(status).toBe('succeeded');
  });

  it('LISTEN on the direct connection hears a write committed through PgBouncer (cache invalidation)', async () => {
    const organizationId = (await app.services.organizations.defaultOrganization()).id;
    const key = (await mintApiKey({ auth: app.auth, config: app.config, db: app.db }, { scope: 'storefront', organizationId })).key;
    const read = async () => (await fetch(`${server.url}/api/catalog/entities?limit=2`, { headers: { 'x-api-key': key } })).headers.get('x-cache');
    await read();
    expect(await read()).toBe('hit');
    const client = new pg.Client({ connectionString: viaBouncer.replace('?pgbouncer=true', '') });
    await client.connect();
    try {
      await client.query(`insert into events (id, organization_id, type, payload) values (gen_random_uuid(), $1::uuid, 'catalog.update', '{}'::jsonb)`, [organizationId]);
    } finally {
      await client.end();
    }
    const started = Date.now();
    let outcome: string | null = 'hit';
    while (outcome === 'hit' && Date.now() - started < 1000) {
      await new Promise((r) => setTimeout(r, 20));
      outcome = await read();
    }
    expect(outcome).toBe('miss');
  });

  it('migrations on the direct URL serialize on their advisory lock and leave none behind', async () => {
    const runs = await Promise.all([applyMigrations(direct, MIGRATIONS_DIR), applyMigrations(direct, MIGRATIONS_DIR)]);
    expect(runs.map((r) => r.applied.length)).toEqual([0, 0]);
    const client = new pg.Client({ connectionString: direct });
    await client.connect();
    try {
      const locks = await client.query(`select count(*)::int as n from pg_locks where locktype = 'advisory' and objid = $1`, [MIGRATION_LOCK]);
      expect(locks.rows[0].n).toBe(0);
    } finally {
      await client.end();
    }
  });
});
