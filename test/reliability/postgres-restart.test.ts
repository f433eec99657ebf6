// PostgreSQL restarted under load. The test runs its own embedded PostgreSQL (own data directory
// under the OS temp dir, own port), whatever DATABASE_URL says: the suite also runs against the
// machine's server, which must never be stopped. On it: the API (`src/server.ts`) and a worker
// (`src/worker.ts`) as real child processes with COMMERCE_SLOW_TESTS=1, so a crash or a hang on
// the outage shows as what a deployment would see (a dead process, a request with no answer),
// and "recovers on its own" means the same pid serves again. Without it the same test runs
// the app and the worker loop inside the test process (same code, no process start-up: the
// quick variant that always runs). Load: catalog writes (each records a catalog.create event
// that a webhook endpoint on 127.0.0.1 subscribes to, so each 2xx write becomes an outbox event,
// a delivery job and an HTTP delivery) and catalog reads, from several loops at once.
//
// While the server is down every request is answered 503 SERVICE_UNAVAILABLE in the error
// envelope with Retry-After (never 500, never a hang); once it is back both processes recover
// without a restart, and nothing a 2xx promised is lost: every created entity's event is
// dispatched and delivered, every job ends succeeded.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReceiver, type Receiver } from '../webhooks/receiver.js';
import {
  cleanup,
  eventually,
  logLines,
  migratedDatabase,
  operator,
  ownPostgres,
  request,
  sleep,
  spawnProcess,
  startInProcess,
  type Child,
  type InProcess,
  type Operator,
  type OwnPostgres,
} from './support.js';

const SLOW = process.env.COMMERCE_SLOW_TESTS === '1';
/** How long the database stays down; and the load loops. */
const OUTAGE_MS = SLOW ? 4000 : 3000;
const LOOPS = SLOW ? 6 : 4;

interface Call {
  kind: 'write' | 'read' | 'graphql' | 'signin';
  started: number;
  ended: number;
  status: number | 'timeout' | 'network';
  body: any;
  retryAfter: string | null;
  entityId?: string;
}

let pgServer: OwnPostgres;
let op: Operator;
let api: Child | InProcess;
let worker: Child | InProcess;
let receiver: Receiver;
let adminKey: string;

const jobsConfig = {
  // A short poll and fast reaping: the worker writes outcomes the outage held up once the
  // database is back (job-outcome-after-restart.test.ts); the reaper is the fallback.
  pollIntervalMs: 1000,
  heartbeatIntervalMs: 250,
  staleAfterMs: 2500,
  reapIntervalMs: 500,
  shutdownGraceMs: 1000,
};

beforeAll(async () => {
  const t0 = Date.now();
  pgServer = await ownPostgres();
  const databaseUrl = await migratedDatabase(pgServer.adminUrl, 'commerce_faults');
  console.info(`own cluster and migrations ${Date.now() - t0} ms`);
  op = await operator(databaseUrl);
  adminKey = await op.apiKey('admin');
  receiver = await startReceiver();
  // The sign-ins stand for many clients but all come from 127.0.0.1: lift the per-address budget.
  const config = { jobs: jobsConfig, webhooks: { retryDelayMs: 200, maxAttempts: 20, timeoutMs: 3000 }, rateLimit: { authAddress: { points: 1_000_000, durationSeconds: 60 } } };
  const start = SLOW ? spawnProcess : startInProcess;
  [api, worker] = await Promise.all([start('server', { databaseUrl, config }), start('worker', { databaseUrl, config })]);
  const endpoint = await request(api.url, '/api/webhooks', { apiKey: adminKey, body: { url: `${receiver.url}/hook`, events: ['catalog.create'] } });
  expect(endpoint.status, endpoint.text).toBe(201);
  receiver.secret('/hook', endpoint.body.data.secret);
  console.info(`set-up (own cluster, migrations, API and worker ${SLOW ? 'processes' : 'in the test process'}) ${Date.now() - t0} ms`);
}, 300_000);

afterAll(async () => {
  await receiver?.close();
  // The test's own handle first: it holds connections to the cluster cleanup() stops.
  await op?.close().catch(() => undefined);
  await cleanup();
});

describe('PostgreSQL stopped and started under load', () => {
  const calls: Call[] = [];
  let outageFrom = 0; // the cluster has stopped (stop() returned)
  let outageUntil = 0; // the cluster is about to start again
  let running = true;
  let counter = 0;

  async function one(kind: Call['kind']): Promise<void> {
    const started = Date.now();
    const slug = `fault-${process.pid}-${(counter += 1)}`;
    try {
      const res =
        kind === 'write'
          ? await request(api.url, '/api/catalog/entities', { apiKey: adminKey, body: { type: 'product', slug, status: 'active' }, timeoutMs: 20_000 })
          : kind === 'read'
            ? await request(api.url, '/api/catalog/entities?limit=5', { apiKey: adminKey, timeoutMs: 20_000 })
            : kind === 'graphql'
              ? await request(api.url, '/graphql', { apiKey: adminKey, body: { query: '{ catalogEntities(limit: 3) { data { id slug } } }' }, timeoutMs: 20_000 })
              : await request(api.url, '/api/auth/sign-in/email', { body: { email: `${slug}@example.com`, password: 'not-the-password' }, timeoutMs: 20_000 });
      calls.push({
        kind,
        started,
        ended: Date.now(),
        status: res.status,
        body: res.body,
        retryAfter: res.headers.get('retry-after'),
        entityId: kind === 'write' && res.status === 201 ? res.body.data.id : undefined,
      });
    } catch (error) {
      const timeout = (error as Error).name === 'TimeoutError';
      calls.push({ kind, started, ended: Date.now(), status: timeout ? 'timeout' : 'network', body: String(error), retryAfter: null });
    }
  }

  async function loop(index: number): Promise<void> {
    const kinds: Array<Call['kind']> = index % 2 === 0 ? ['write', 'read', 'signin'] : ['write', 'graphql'];
    for (let i = 0; running; i += 1) {
      await one(kinds[i % kinds.length]!);
      // A request that failed at once must not turn the loop into a busy spin on a 2-core machine.
      await sleep(20);
    }
  }

  beforeAll(async () => {
    const loadStarted = Date.now();
    const loops = Array.from({ length: LOOPS }, (_, i) => loop(i));
    await eventually(async () => calls.filter((c) => c.status === 201).length >= 5, 30_000, 50, 'writes before the outage');
    await pgServer.stop();
    outageFrom = Date.now();
    await sleep(OUTAGE_MS);
    outageUntil = Date.now();
    await pgServer.start();
    // Load continues until writes succeed again (or the wait gives up, which the tests report).
    const back = Date.now();
    await eventually(async () => calls.filter((c) => c.kind === 'write' && c.started > back && c.status === 201).length >= 5, 40_000, 100, 'writes after the restart').catch(
      () => undefined,
    );
    running = false;
    await Promise.all(loops);
    console.info(`load ran ${Date.now() - loadStarted} ms; recovered ${Date.now() - back} ms after the restart began`);
  }, 120_000);

  it('answers every REST request during the outage 503 SERVICE_UNAVAILABLE with Retry-After: no 500, no hang', () => {
    const during = calls.filter((c) => c.started >= outageFrom && c.ended <= outageUntil);
    const rest = during.filter((c) => c.kind !== 'graphql');
    console.info(
      `outage ${outageUntil - outageFrom} ms: ${during.length} requests (${rest.length} REST), statuses ${JSON.stringify([...new Set(during.map((c) => `${c.kind} ${c.status}`))])}; ${calls.length} requests in all`,
    );
    // (On a loaded machine a request can take a second even when it fails: count few.)
    expect(rest.length).toBeGreaterThanOrEqual(3);
    expect([...new Set(rest.map((c) => c.status))]).toEqual([503]);
    for (const call of rest) {
      expect(call.body).toEqual({ error: { code: 'SERVICE_UNAVAILABLE', message: expect.stringContaining('temporarily unavailable') } });
      expect(Number(call.retryAfter)).toBeGreaterThan(0);
    }
    expect(rest.map((c) => c.kind)).toEqual(expect.arrayContaining(['write', 'read']));
  });

  it('GraphQL during the outage: errors coded SERVICE_UNAVAILABLE (200, as GraphQL answers field errors), or 503 before execution; Retry-After either way', () => {
    const graphql = calls.filter((c) => c.kind === 'graphql' && c.started >= outageFrom && c.ended <= outageUntil);
    expect(graphql.length).toBeGreaterThan(0);
    for (const call of graphql) {
      expect(Number(call.retryAfter), JSON.stringify(call)).toBeGreaterThan(0);
      if (call.status === 503) expect(call.body.error.code).toBe('SERVICE_UNAVAILABLE');
      else {
        expect(call.status).toBe(200);
        // Root fields are nullable (access can be refused), so the data is null or all-null.
        expect(
          Object.values(call.body.data ?? {}).every((value) => value === null),
          JSON.stringify(call.body),
        ).toBe(true);
        expect(call.body.errors.map((e: { extensions: { code: string } }) => e.extensions.code)).toEqual(['SERVICE_UNAVAILABLE']);
      }
    }
  });

  it('around the edges of the outage every request got 2xx or 503: none was cut, hung or answered 500', () => {
    // A request in flight as the server stopped or started may get either answer, nothing else.
    // (A sign-in with an unknown email is 401 while the database is up.)
    const others = calls.filter((c) => ![200, 201, 503].includes(c.status as number) && !(c.kind === 'signin' && c.status === 401));
    expect(others.map((c) => ({ kind: c.kind, status: c.status, body: c.body }))).toEqual([]);
  });

  it('the API process recovered on its own: same pid, writes and reads succeed again', async () => {
    expect(api.alive()).toBe(true);
    const after = calls.filter((c) => c.started > outageUntil);
    expect(after.filter((c) => c.kind === 'write' && c.status === 201).length).toBeGreaterThanOrEqual(5);
    const read = await request(api.url, '/api/catalog/entities?limit=1', { apiKey: adminKey });
    expect(read.status).toBe(200);
    const ready = await request(api.url, '/api/health/ready');
    expect(ready.status).toBe(200);
    // The outage was logged as such (warn), not as unexpected errors.
    const lines = logLines(api);
    expect(lines.filter((l) => l.msg === 'database unavailable').length).toBeGreaterThan(0);
    expect(lines.filter((l) => l.level >= 50).map((l) => l.msg)).toEqual([]);
  });

  it('no outbox event and no job is lost: every 2xx write is dispatched and delivered, every job succeeds', async () => {
    const created = calls.filter((c) => c.entityId).map((c) => c.entityId!);
    const db = op.runtime.db;
    await eventually(
      async () => {
        const undispatched = await db.domainEvent.count({ where: { dispatchedAt: null } });
        const unfinished = await db.job.count({ where: { status: { not: 'succeeded' } } });
        const delivered = new Set(receiver.received.filter((r) => r.verified).map((r) => r.json?.data?.entity?.id));
        const missing = created.filter((id) => !delivered.has(id));
        return undispatched === 0 && unfinished === 0 && missing.length === 0 ? true : (console.info({ undispatched, unfinished, missing: missing.length }), false);
      },
      45_000,
      500,
      'every event dispatched, every job succeeded, every created entity delivered',
    );
    expect(worker.alive()).toBe(true);
    // The worker's LISTEN connection is back (not only its poll): it reconnected on its own.
    // (Its reconnect backs off up to 10 s, so give it that long.)
    await eventually(
      async () => {
        const listeners = await op.runtime.db.$queryRaw<Array<{ n: number }>>`
        select count(*)::int as n from pg_stat_activity
        where datname = current_database() and application_name = 'commerce-jobs-listener' and query ilike 'listen%'`;
        return listeners[0]!.n === 1;
      },
      15_000,
      200,
      'the worker listening again',
    );
    // Each created entity has exactly one event, and each event exactly one delivery row.
    const events = await db.domainEvent.findMany({ where: { type: 'catalog.create' } });
    const eventEntityIds = events.map((e) => (e.payload as { entity: { id: string } }).entity.id);
    expect(eventEntityIds).toEqual(expect.arrayContaining(created));
    expect(await db.webhookDelivery.count()).toBe(events.length);
    expect(await db.webhookDelivery.count({ where: { status: { not: 'succeeded' } } })).toBe(0);
    // At least once: a delivery whose outcome was lost in the outage is sent again with the same
    // webhook-id, which is how a receiver recognises the repeat.
    const byEvent = new Map<string, Set<string>>();
    for (const r of receiver.received) byEvent.set(r.json.id, (byEvent.get(r.json.id) ?? new Set()).add(String(r.headers['webhook-id'])));
    expect([...byEvent.values()].every((ids) => ids.size === 1)).toBe(true);
    const repeats = receiver.received.length - byEvent.size;
    console.info(`writes answered 201: ${created.length}; events ${events.length}; deliveries received ${receiver.received.length} (${repeats} repeats); events lost: 0`);
  }, 60_000);
});
