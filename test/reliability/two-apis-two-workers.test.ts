// Running more than one process (README "Running more than one process"): two API processes and
// two worker processes on one database and one Redis (REDIS_URL, default the local one).
//
// 1. Webhook deliveries: catalog writes spread over both APIs each record a catalog.create event
//    that an endpoint on a local receiver subscribes to; one worker is SIGKILLed while deliveries
//    are in flight (the receiver answers slowly). Every event still reaches the receiver. The
//    spec does not define delivery semantics; the implementation promises at-least-once with the
//    Standard Webhooks `webhook-id` header as the idempotency key, so that is what is asserted:
//    each event arrives at least once, a repeat carries the same webhook-id, and every delivery
//    and job ends succeeded.
// 2. One rate budget: a credential's requests alternate between the two APIs; X-RateLimit-
//    Remaining falls by one per request across both, and the request after the configured limit
//    gets 429 from either. The limiter's Redis keys carry a prefix unique to this run
//    (rateLimit.keyPrefix), so parallel CI runs on one Redis do not share budgets.
//
// Four processes start: behind COMMERCE_SLOW_TESTS=1 (set by .ci/run). Without it the shared
// budget is still checked, with two apps inside the test process (each its own limiter and
// Redis connection).
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../support/app.js';
import { startReceiver, type Receiver } from '../webhooks/receiver.js';
import { cleanup, eventually, logLines, operator, request, spawnProcess, startInProcess, type Child, type InProcess, type Operator } from './support.js';

const SLOW = process.env.COMMERCE_SLOW_TESTS === '1';
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const LIMIT = 12;
const EVENTS = 60;
const KEY_PREFIX = `rl-faults-${process.pid}-${randomBytes(4).toString('hex')}`;

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let op: Operator;
let apis: Array<Child | InProcess> = [];
let workers: Child[] = [];
let receiver: Receiver;
let adminKey: string;
let writerKeys: string[] = [];

const config = {
  // A small per-credential budget (the rate test spends one); the webhook writes spread over
  // several keys so they stay within theirs.
  // graphqlCostPerPoint high: every request costs one point, so the budget counts requests.
  rateLimit: { keyPrefix: KEY_PREFIX, authenticated: { points: LIMIT, durationSeconds: 300 }, graphqlCostPerPoint: 1_000_000 },
  jobs: { pollIntervalMs: 1000, heartbeatIntervalMs: 250, staleAfterMs: 2500, reapIntervalMs: 500, shutdownGraceMs: 1000, concurrency: 4 },
  webhooks: { retryDelayMs: 200, maxAttempts: 20, timeoutMs: 5000 },
};

async function redisKeys(): Promise<string[]> {
  const redis = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 1 });
  try {
    await redis.connect();
    return await redis.keys(`${KEY_PREFIX}*`);
  } finally {
    redis.disconnect();
  }
}

describe(SLOW ? 'two API processes and two workers on one database and one Redis' : 'two APIs on one database and one Redis (quick variant)', () => {
  beforeAll(async () => {
    // Fail with a clear message rather than fall back to per-process memory budgets.
    await redisKeys().catch((error: unknown) => {
      throw new Error(`this test needs Redis at REDIS_URL (${REDIS_URL}): ${(error as Error).message}`);
    });
    database = await createTestDatabase();
    op = await operator(database.url, {}, database.directUrl);
    adminKey = await op.apiKey('admin');
    writerKeys = await Promise.all(Array.from({ length: Math.ceil(EVENTS / (LIMIT - 2)) }, () => op.apiKey('admin')));
    receiver = await startReceiver({ delayMs: 300 });
    if (SLOW) {
      const env = { REDIS_URL };
      // All four at once: the database is a migrated clone and its default organization exists
      // (the operator made it), so none of them has anything to create.
      const started = await Promise.all([
        spawnProcess('server', { databaseUrl: database.url, directUrl: database.directUrl, config, env }),
        spawnProcess('server', { databaseUrl: database.url, directUrl: database.directUrl, config, env }),
        spawnProcess('worker', { databaseUrl: database.url, directUrl: database.directUrl, config, env }),
        spawnProcess('worker', { databaseUrl: database.url, directUrl: database.directUrl, config, env }),
      ]);
      apis = started.slice(0, 2);
      workers = started.slice(2);
    } else {
      // Quick variant (the shared budget only): two apps in the test process, each with its own
      // limiter and Redis connection, as two processes would have.
      apis = await Promise.all(
        [0, 1].map(() => startInProcess('server', { databaseUrl: database.url, directUrl: database.directUrl, config: { ...config, redisUrl: REDIS_URL } })),
      );
    }
  }, 400_000);

  afterAll(async () => {
    // The budgets this run counted (they would expire on their own after the window).
    const redis = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 1 });
    await redis
      .connect()
      .then(async () => {
        const keys = await redis.keys(`${KEY_PREFIX}*`);
        if (keys.length) await redis.del(...keys);
      })
      .catch(() => undefined);
    redis.disconnect();
    await receiver?.close();
    await op?.close().catch(() => undefined);
    await cleanup();
    await database?.drop().catch(() => undefined);
  });

  it.skipIf(!SLOW)(
    'every event is delivered although a worker is SIGKILLed mid-run (at least once, repeats share the webhook-id)',
    async () => {
      const endpoint = await request(apis[0]!.url, '/api/webhooks', { apiKey: adminKey, body: { url: `${receiver.url}/multi`, events: ['catalog.create'] } });
      expect(endpoint.status, endpoint.text).toBe(201);
      receiver.secret('/multi', endpoint.body.data.secret);

      const created: string[] = [];
      let busy = 0;
      // Ten writers, as a client fleet would send them; a 503 (a saturated pool on a loaded
      // machine: nothing was written) is retried after its Retry-After, as the SDK's queue does.
      async function write(i: number) {
        for (let attempt = 1; ; attempt += 1) {
          const res = await request(apis[i % 2]!.url, '/api/catalog/entities', {
            apiKey: writerKeys[i % writerKeys.length],
            body: { type: 'product', slug: `multi-${i}-${KEY_PREFIX}`, status: 'active' },
          });
          if (res.status === 503 && attempt < 5) {
            busy += 1;
            await new Promise((r) => setTimeout(r, Number(res.headers.get('retry-after') ?? 1) * 1000));
            continue;
          }
          if (res.status === 201) created.push(res.body.data.id);
          return res;
        }
      }
      const queue = Array.from({ length: EVENTS }, (_, i) => i);
      const writes = Promise.all(
        Array.from({ length: 10 }, async () => {
          const answers = [];
          for (let i = queue.shift(); i !== undefined; i = queue.shift()) answers.push(await write(i));
          return answers;
        }),
      ).then((lists) => lists.flat());
      // Kill a worker once deliveries are flowing and while it holds one (sent or being sent,
      // outcome not yet recorded).
      const [victim, survivor] = workers as [Child, Child];
      const db = op.runtime.db;
      await eventually(async () => receiver.received.length >= EVENTS / 8, 60_000, 10, 'the first deliveries');
      const holding = await eventually(
        async () => (await db.job.count({ where: { status: 'processing', lockedBy: { contains: `:${victim.pid}:` } } })) || null,
        60_000,
        10,
        'a delivery job held by the victim',
      );
      victim.child.kill('SIGKILL');
      expect((await victim.exited).signal).toBe('SIGKILL');
      const receivedAtKill = receiver.received.length;
      const failedWrites = (await writes).filter((res) => res.status !== 201);
      if (failedWrites.length)
        console.error(
          apis
            .flatMap((api) => logLines(api, 50))
            .map((l) => JSON.stringify(l).slice(0, 1500))
            .join('\n'),
        );
      expect(failedWrites.map((res) => res.text)).toEqual([]);

      await eventually(
        async () => {
          const delivered = new Set(receiver.received.filter((r) => r.verified).map((r) => r.json?.data?.entity?.id));
          const pendingJobs = await db.job.count({ where: { status: { not: 'succeeded' } } });
          return created.length === EVENTS && created.every((id) => delivered.has(id)) && pendingJobs === 0;
        },
        60_000,
        250,
        'every created entity delivered and every job succeeded',
      );
      expect(survivor.alive()).toBe(true);
      expect(await db.domainEvent.count({ where: { type: 'catalog.create', dispatchedAt: null } })).toBe(0);
      expect(await db.webhookDelivery.count({ where: { status: 'succeeded' } })).toBe(EVENTS);
      expect(await db.webhookDelivery.count()).toBe(EVENTS);

      const idsByEvent = new Map<string, Set<string>>();
      for (const r of receiver.received) idsByEvent.set(r.json.id, (idsByEvent.get(r.json.id) ?? new Set()).add(String(r.headers['webhook-id'])));
      expect(idsByEvent.size).toBe(EVENTS);
      expect([...idsByEvent.values()].filter((ids) => ids.size !== 1)).toEqual([]);
      expect(receiver.received.every((r) => r.verified)).toBe(true);
      // Both workers took part; the survivor finished (or, for work the victim held, re-ran) the rest.
      const jobs = await db.job.findMany({ where: { taskSlug: 'webhooks/deliver' }, select: { lockedBy: true } });
      const finishedBy = (pid: number) => jobs.filter((j) => j.lockedBy?.includes(`:${pid}:`)).length;
      expect(finishedBy(survivor.pid)).toBeGreaterThan(0);
      // What the victim held when it died came back through the survivor's reaper.
      const reaped = logLines(survivor)
        .filter((l) => l.msg === 'reaped jobs of stopped workers')
        .flatMap((l) => l.jobs ?? []).length;
      expect(reaped).toBeGreaterThanOrEqual(1);
      console.info(
        `deliveries recorded by the victim ${finishedBy(victim.pid)}, by the survivor ${finishedBy(survivor.pid)}; jobs the survivor reaped from the victim ${reaped}; ` +
          `${EVENTS} events written through 2 APIs (${busy} writes retried after a 503); worker ${victim.pid} killed holding ${holding} job(s), after ${receivedAtKill} deliveries; ` +
          `${receiver.received.length} deliveries received (${receiver.received.length - EVENTS} repeats with the same webhook-id); events lost: 0`,
      );
    },
    150_000,
  );

  it('one rate budget across both APIs: Remaining falls across them, and the request after the limit is 429 on either', async () => {
    const key = await op.apiKey('admin');
    const seen: Array<{ api: number; status: number; remaining: number; limit: number; retryAfter: string | null }> = [];
    for (let i = 0; i < LIMIT + 1; i += 1) {
      const api = i % 2;
      const res = await request(apis[api]!.url, '/api/catalog/entities?limit=1', { apiKey: key });
      seen.push({
        api,
        status: res.status,
        remaining: Number(res.headers.get('x-ratelimit-remaining')),
        limit: Number(res.headers.get('x-ratelimit-limit')),
        retryAfter: res.headers.get('retry-after'),
      });
    }
    // And once more on the other API: the budget is spent there too.
    const other = seen.at(-1)!.api === 0 ? 1 : 0;
    const again = await request(apis[other]!.url, '/api/catalog/entities?limit=1', { apiKey: key });
    seen.push({
      api: other,
      status: again.status,
      remaining: Number(again.headers.get('x-ratelimit-remaining')),
      limit: Number(again.headers.get('x-ratelimit-limit')),
      retryAfter: again.headers.get('retry-after'),
    });
    console.info(`rate budget ${LIMIT} over 2 APIs: ${seen.map((s) => `${s.api}:${s.status}/${s.remaining}`).join(' ')}`);

    expect(seen.slice(0, LIMIT).map((s) => [s.status, s.remaining, s.limit])).toEqual(Array.from({ length: LIMIT }, (_, i) => [200, LIMIT - 1 - i, LIMIT]));
    expect(seen.slice(LIMIT).map((s) => [s.api, s.status, s.remaining])).toEqual([
      [LIMIT % 2, 429, 0],
      [(LIMIT + 1) % 2, 429, 0],
    ]);
    for (const s of seen.slice(LIMIT)) expect(Number(s.retryAfter)).toBeGreaterThan(0);
    // Counted in Redis, under this run's prefix.
    expect((await redisKeys()).length).toBeGreaterThan(0);
  });
});
