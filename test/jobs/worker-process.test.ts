// `npm run worker` as a real child process: woken by NOTIFY, killed with SIGKILL and reaped,
// stopped with SIGTERM (finish or release), and a slow but live job never taken away from it.
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../../src/paths.js';
import { reapStaleJobs } from '../../src/jobs/store.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { defaultOrgId, eventually, job, runner, sleep } from './support.js';
import './fixtures/tasks.js';

let t: TestApp;
let org: string;
const children = new Set<ChildProcess>();

beforeAll(async () => {
  t = await startTestApp();
  org = await defaultOrgId(t);
});
afterAll(async () => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  await t?.close();
});

interface Worker {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

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

/** Spawns `npm run worker`'s entry on the test database and waits until it listens. */
async function startWorker(env: Record<string, string> = {}): Promise<Worker> {
  const before = await listenerConnections();
  // Vite puts BASE_URL='/' into the test process's environment; the worker reads BASE_URL as its public origin.
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
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  await eventually(
    async () => {
      if (child.exitCode !== null) throw new Error(`worker exited early:\n${output}`);
      return (await listenerConnections()) > before;
    },
    30_000,
    50,
  );
  return { child, output: () => output, exited };
}

describe('npm run worker', () => {
  describe('a running worker', () => {
    let worker: Worker;
    beforeAll(async () => {
      worker = await startWorker();
      await sleep(300); // let the start-up passes finish: from here on only a notification wakes it promptly
    });

    it('runs a job as soon as it is enqueued (LISTEN/NOTIFY), not at its 60 s poll interval', async () => {
      const created = await t.app.services.jobs.enqueue({ task: 'test-worker/quick', organizationId: org, queue: 'worker-test' });
      const done = await eventually(async () => {
        const row = await job(t, created.id);
        return row.status === 'succeeded' ? row : null;
      }, 10_000);
      expect(done.output).toEqual({ pid: worker.child.pid });
    });

    it('keeps a slow job alive with heartbeats: the reaper never takes it, it runs once', async () => {
      const slow = await t.app.services.jobs.enqueue({ task: 'test-worker/slow', organizationId: org, queue: 'worker-test', maxAttempts: 3, input: { ms: 2500 } });
      await eventually(async () => (await job(t, slow.id)).status === 'processing');
      const reapedMeanwhile: string[] = [];
      while ((await job(t, slow.id)).status === 'processing') {
        reapedMeanwhile.push(...(await reapStaleJobs(t.app.db, { staleAfterMs: 700 })).map((j) => j.id));
        await sleep(100);
      }
      expect(reapedMeanwhile).toEqual([]);
      expect(await job(t, slow.id)).toMatchObject({ status: 'succeeded', attempts: 1, output: { pid: worker.child.pid, attempt: 1 } });
    });

    it('exits 0 on SIGTERM when idle', async () => {
      worker.child.kill('SIGTERM');
      expect(await worker.exited).toBe(0);
    });
  });

  it('jobs of a killed worker stay processing until the reaper returns them; then they run again', async () => {
    const worker = await startWorker();
    const retryable = await t.app.services.jobs.enqueue({
      task: 'test-worker/crash-victim',
      organizationId: org,
      queue: 'worker-test',
      maxAttempts: 2,
      input: { key: 'store-crash' },
    });
    const lastChance = await t.app.services.jobs.enqueue({ task: 'test-worker/crash-victim', organizationId: org, queue: 'worker-test', maxAttempts: 1 });
    await eventually(async () => (await job(t, retryable.id)).status === 'processing' && (await job(t, lastChance.id)).status === 'processing');
    expect((await job(t, retryable.id)).lockedBy).toContain(`:${worker.child.pid}:`);
    expect(await t.app.db.jobKeyLock.count({ where: { concurrencyKey: 'store-crash' } })).toBe(1);

    worker.child.kill('SIGKILL');
    await worker.exited;
    // Nobody released them: a crash looks exactly like a very slow job, except that the heartbeat stops.
    expect((await job(t, retryable.id)).status).toBe('processing');
    expect(await reapStaleJobs(t.app.db, { staleAfterMs: 60_000 })).toEqual([]);

    // The two heartbeats stopped at slightly different moments, so one sweep may take back only
    // one of them; keep sweeping until both are back.
    const reaped: string[] = [];
    await eventually(async () => {
      reaped.push(...(await reapStaleJobs(t.app.db, { staleAfterMs: 700 })).map((j) => j.id));
      return reaped.length >= 2 ? reaped : null;
    });
    expect(reaped.sort()).toEqual([retryable.id, lastChance.id].sort());
    expect(await job(t, retryable.id)).toMatchObject({ status: 'pending', attempts: 1, lockToken: null });
    expect((await job(t, retryable.id)).error).toMatch(/stopped heartbeating during attempt 1/);
    expect(await job(t, lastChance.id)).toMatchObject({ status: 'failed', attempts: 1 });
    expect(await t.app.db.jobKeyLock.count({ where: { concurrencyKey: 'store-crash' } })).toBe(0);

    const rerun = await runner(t).runBatch({ queue: 'worker-test', limit: 10 });
    expect(rerun.jobs).toEqual([expect.objectContaining({ id: retryable.id, status: 'succeeded', attempts: 2 })]);
    expect((await job(t, retryable.id)).output).toEqual({ pid: process.pid, attempt: 2 });
  });

  it('SIGTERM lets a job that finishes within the grace period complete, then exits 0', async () => {
    const worker = await startWorker({ TEST_SHUTDOWN_GRACE_MS: '5000' });
    const slow = await t.app.services.jobs.enqueue({ task: 'test-worker/slow', organizationId: org, queue: 'worker-test', input: { ms: 800 } });
    await eventually(async () => (await job(t, slow.id)).status === 'processing');
    worker.child.kill('SIGTERM');
    expect(await worker.exited).toBe(0);
    expect(await job(t, slow.id)).toMatchObject({ status: 'succeeded', attempts: 1 });
  });

  it('SIGTERM releases a job that outlasts the grace period back to pending, its attempt given back', async () => {
    const worker = await startWorker({ TEST_SHUTDOWN_GRACE_MS: '300' });
    const long = await t.app.services.jobs.enqueue({ task: 'test-worker/slow', organizationId: org, queue: 'worker-test', input: { ms: 60_000 } });
    await eventually(async () => (await job(t, long.id)).status === 'processing');
    worker.child.kill('SIGTERM');
    expect(await worker.exited).toBe(0);
    expect(await job(t, long.id)).toMatchObject({ status: 'pending', attempts: 0, lockToken: null, processingStartedAt: null });
    expect(worker.output()).toMatch(/released running jobs back to pending/);
    await t.app.db.job.delete({ where: { id: long.id } });
  });
});

describe('npm run worker with METRICS_PORT', () => {
  it('serves its own /metrics on 127.0.0.1: jobs it ran, by task and outcome', async () => {
    const worker = await startWorker({ METRICS_PORT: '0' });
    try {
      const url = await eventually(async () => /"url":"(http:\/\/127\.0\.0\.1:\d+\/metrics)"/.exec(worker.output())?.[1] ?? null, 10_000);
      const created = await t.app.services.jobs.enqueue({ task: 'test-worker/quick', organizationId: org, queue: 'worker-test' });
      await eventually(async () => (await job(t, created.id)).status === 'succeeded', 10_000);
      const response = await fetch(url);
      expect(response.status).toBe(200);
      const text = await response.text();
      expect(text).toMatch(/commerce_job_duration_seconds_count\{task="test-worker\/quick",outcome="succeeded"\} [1-9]/);
      expect(text).toContain('commerce_jobs_oldest_pending_age_seconds');
      expect(text).toContain('commerce_outbox_lag_seconds');
    } finally {
      worker.child.kill('SIGTERM');
      expect(await worker.exited).toBe(0);
    }
  });
});
