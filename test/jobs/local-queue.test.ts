// jobs.localQueueSize: a worker claims jobs ahead into its local queue. Buffered jobs are claimed
// like running ones: they heartbeat, a killed worker's buffered jobs are reaped and run again
// elsewhere, a stopping worker releases them with their attempt given back. Several workers
// share a burst between them, each job running once.
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../../src/paths.js';
import { createDb } from '../../src/db/client.js';
import { defineTask } from '../../src/jobs/tasks.js';
import { enqueueMany } from '../../src/jobs/enqueue.js';
import { reapStaleJobs } from '../../src/jobs/store.js';
import { startJobWorker, workerOptionsFrom } from '../../src/jobs/worker.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { defaultOrgId, eventually, job, latch, runner, sleep } from './support.js';
import './fixtures/tasks.js';

let t: TestApp;
let org: string;
const children = new Set<ChildProcess>();

const gate = latch();
defineTask({ slug: 'test-lq/blocked', handler: () => gate.promise.then(() => 'done') });
/** Handler runs per job id (the workers run in this process; locked_by says which one). */
const runs = new Map<string, number>();
defineTask({
  slug: 'test-lq/record',
  handler(_input, ctx) {
    runs.set(ctx.job.id, (runs.get(ctx.job.id) ?? 0) + 1);
    return null;
  },
});

beforeAll(async () => {
  t = await startTestApp();
  org = await defaultOrgId(t);
});
afterAll(async () => {
  gate.open();
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  await t?.close();
});

async function listenerConnections(): Promise<number> {
  const client = new pg.Client({ connectionString: t.app.databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ n: number }>(
      "select count(*)::int as n from pg_stat_activity where datname = current_database() and application_name = 'commerce-jobs-listener' and query ilike 'listen%'",
    );
    return rows[0]!.n;
  } finally {
    await client.end();
  }
}

/** LISTEN needs a session of its own: the direct URL, never the pooler (.ci/run's PgBouncer pass). */
function deps(db = t.app.db) {
  return { db, config: t.app.config, logger: t.app.logger, services: t.app.services, databaseUrl: t.app.directUrl };
}

describe('jobs.localQueueSize', () => {
  it('SIGTERM-style stop releases the buffered batch at once, attempts unchanged, and the running job after the grace period', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 5; i += 1) ids.push((await t.app.services.jobs.enqueue({ task: 'test-lq/blocked', organizationId: org, queue: 'lq-stop', maxAttempts: 1 })).id);
    const worker = startJobWorker(
      deps(),
      workerOptionsFrom(t.app.config, { queues: ['lq-stop'], concurrency: 1, localQueueSize: 5, shutdownGraceMs: 200, pollIntervalMs: 60_000, dispatch: false }),
    );
    await worker.ready;
    // One running, four buffered: all five are claimed by this worker.
    const claimed = await eventually(async () => {
      const rows = await t.app.db.job.findMany({ where: { id: { in: ids } } });
      return rows.every((r) => r.status === 'processing') ? rows : null;
    });
    expect(new Set(claimed.map((r) => r.lockedBy))).toEqual(new Set([worker.runner.workerId]));
    expect(worker.runner.heldCount).toBe(4);
    expect(worker.runner.inFlight).toBe(1);

    const { released } = await worker.stop();
    expect(released).toBe(5);
    for (const id of ids) expect(await job(t, id)).toMatchObject({ status: 'pending', attempts: 0, lockToken: null, processingStartedAt: null });
    await t.app.db.job.deleteMany({ where: { id: { in: ids } } });
  });

  it('a killed worker’s buffered jobs stay claimed and heartbeating while it lives, are reaped when it dies, and run again elsewhere', async () => {
    const before = await listenerConnections();
    const { BASE_URL: _vite, ...inherited } = process.env;
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(PACKAGE_ROOT, 'src/worker.ts')], {
      cwd: PACKAGE_ROOT,
      env: {
        ...inherited,
        DATABASE_URL: t.app.databaseUrl,
        // LISTEN on this database without the pooler (the inherited one names the server's maintenance database).
        DATABASE_DIRECT_URL: t.app.directUrl,
        COMMERCE_CONFIG: path.join(PACKAGE_ROOT, 'test/jobs/fixtures/worker.config.ts'),
        NODE_ENV: 'test',
        LOG_LEVEL: 'info',
        TEST_LOCAL_QUEUE_SIZE: '8',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.add(child);
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
    await eventually(
      async () => {
        if (child.exitCode !== null) throw new Error(`worker exited early:\n${output}`);
        return (await listenerConnections()) > before;
      },
      30_000,
      50,
    );

    // Four slow jobs fill the four slots; then three quick ones, enqueued in one statement, are
    // claimed in one batch and wait in the local queue.
    const slowIds = await enqueueMany(
      { db: t.app.db, config: t.app.config },
      Array.from({ length: 4 }, () => ({ task: 'test-worker/slow' as const, organizationId: org, queue: 'worker-test', input: { ms: 60_000 }, maxAttempts: 1 })),
    );
    await eventually(async () => (await t.app.db.job.count({ where: { id: { in: slowIds }, status: 'processing' } })) === 4);
    const quickIds = await enqueueMany(
      { db: t.app.db, config: t.app.config },
      Array.from({ length: 3 }, () => ({ task: 'test-worker/quick' as const, organizationId: org, queue: 'worker-test', maxAttempts: 2 })),
    );
    const ids = [...slowIds, ...quickIds];
    await eventually(async () => (await t.app.db.job.count({ where: { id: { in: quickIds }, status: 'processing' } })) === 3);
    for (const id of quickIds) expect((await job(t, id)).lockedBy).toContain(`:${child.pid}:`);
    // Held, not forgotten: they heartbeat with the running ones, so the reaper leaves them alone.
    for (let i = 0; i < 5; i += 1) {
      expect(await reapStaleJobs(t.app.db, { staleAfterMs: 700 })).toEqual([]);
      await sleep(200);
    }

    child.kill('SIGKILL');
    await exited;
    const reaped: string[] = [];
    await eventually(async () => {
      reaped.push(...(await reapStaleJobs(t.app.db, { staleAfterMs: 700 })).map((j) => j.id));
      return reaped.length >= ids.length ? reaped : null;
    });
    expect(reaped.sort()).toEqual([...ids].sort());
    // The claim counted an attempt (as for a running job): the slow ones had none left, the quick
    // ones have one, and another worker runs them.
    for (const id of slowIds) expect(await job(t, id)).toMatchObject({ status: 'failed', attempts: 1 });
    for (const id of quickIds) expect(await job(t, id)).toMatchObject({ status: 'pending', attempts: 1 });
    const rerun = await runner(t).runBatch({ queue: 'worker-test', limit: 3 });
    expect(rerun.jobs.map((j) => j.id).sort()).toEqual([...quickIds].sort());
    for (const id of quickIds) expect(await job(t, id)).toMatchObject({ status: 'succeeded', attempts: 2, output: { pid: process.pid } });
    await t.app.db.job.deleteMany({ where: { id: { in: ids } } });
  });

  it('four workers share a burst: every job runs exactly once and every worker takes a share', async () => {
    const workers = Array.from({ length: 4 }, (_, i) => {
      const { db } = createDb(t.app.databaseUrl, { max: 3 });
      const name = `w${i}`;
      const worker = startJobWorker(
        deps(db),
        workerOptionsFrom(t.app.config, { queues: ['lq-spread'], concurrency: 4, localQueueSize: 20, pollIntervalMs: 60_000, dispatch: false }),
      );
      return { db, name, worker };
    });
    await Promise.all(workers.map((w) => w.worker.ready));
    const byWorkerId = new Map(workers.map((w) => [w.worker.runner.workerId, w.name]));
    const total = 400;
    const ids = await enqueueMany(
      { db: t.app.db, config: t.app.config },
      Array.from({ length: total }, () => ({ task: 'test-lq/record' as const, organizationId: org, queue: 'lq-spread' })),
    );
    try {
      await eventually(async () => (await t.app.db.job.count({ where: { id: { in: ids }, status: 'succeeded' } })) === total, 20_000);
    } finally {
      await Promise.all(workers.map((w) => w.worker.stop()));
      await Promise.all(workers.map((w) => w.db.$disconnect()));
    }
    const rows = await t.app.db.job.findMany({ where: { id: { in: ids } }, select: { attempts: true, lockedBy: true } });
    expect(rows.every((r) => r.attempts === 1)).toBe(true);
    expect(ids.map((id) => runs.get(id))).toEqual(ids.map(() => 1));
    const shares = new Map<string, number>();
    for (const row of rows) shares.set(byWorkerId.get(row.lockedBy!)!, (shares.get(byWorkerId.get(row.lockedBy!)!) ?? 0) + 1);
    expect(shares.size).toBe(4);
    // Even enough: no worker idles while another takes most of the burst.
    for (const n of shares.values()) expect(n).toBeGreaterThanOrEqual(total / 16);
  });
});
