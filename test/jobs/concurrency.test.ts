// Several runners (each with its own connection pool, as separate processes would have) polling
// one queue: every job runs once, an exclusive key never has two jobs processing, different keys
// run in parallel, and supersedes keeps at most one pending job per key.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defineTask } from '../../src/jobs/tasks.js';
import type { JobRunner } from '../../src/jobs/runner.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { defaultOrgId, latch, separateRunner, sleep } from './support.js';

let t: TestApp;
let org: string;
const runners: Array<{ runner: JobRunner; close(): Promise<void> }> = [];

// Bookkeeping of the exclusive task: who is running per key right now, and the worst seen.
const runningByKey = new Map<string, number>();
let maxConcurrentPerKey = 0;
let dbProcessingViolations = 0;
const runs: Array<{ id: string; key: string | null; n: number }> = [];

defineTask({
  slug: 'test-conc/exclusive',
  concurrency: { key: (input) => (input.key ? String(input.key) : null) },
  async handler(input, ctx) {
    const key = input.key ? String(input.key) : null;
    if (key) {
      const now = (runningByKey.get(key) ?? 0) + 1;
      runningByKey.set(key, now);
      maxConcurrentPerKey = Math.max(maxConcurrentPerKey, now);
      const processing = await ctx.db.job.count({ where: { organizationId: ctx.organizationId, concurrencyKey: key, status: 'processing' } });
      if (processing !== 1) dbProcessingViolations += 1;
    }
    await sleep(5 + Math.floor(Math.random() * 15));
    runs.push({ id: ctx.job.id, key, n: Number(input.n) });
    if (key) runningByKey.set(key, runningByKey.get(key)! - 1);
    return null;
  },
});

const bStarted = latch();
defineTask({
  slug: 'test-conc/parallel',
  concurrency: { key: (input) => String(input.key) },
  async handler(input) {
    if (input.key === 'b') {
      bStarted.open();
      return 'b';
    }
    // Key a finishes only once key b has started: if the keys could not run in parallel, this times out.
    await Promise.race([bStarted.promise, sleep(10_000).then(() => Promise.reject(new Error('key b never ran alongside key a')))]);
    return 'a';
  },
});

const supersededRuns: number[] = [];
let supersedeRunning = 0;
let supersedeMaxRunning = 0;
defineTask({
  slug: 'test-conc/supersede',
  concurrency: { key: (input) => `sync:${String(input.store)}`, supersedes: true },
  async handler(input) {
    supersedeRunning += 1;
    supersedeMaxRunning = Math.max(supersedeMaxRunning, supersedeRunning);
    await sleep(3 + Math.floor(Math.random() * 10));
    supersededRuns.push(Number(input.version));
    supersedeRunning -= 1;
    return null;
  },
});

beforeAll(async () => {
  t = await startTestApp();
  org = await defaultOrgId(t);
  for (let i = 0; i < 4; i++) runners.push(separateRunner(t));
});
afterAll(async () => {
  await Promise.all(runners.map((r) => r.close()));
  await t?.close();
});

/** Every runner polls `queue` until `done()` says stop. */
async function drain(queue: string, done: () => Promise<boolean>, limit = 3): Promise<void> {
  await Promise.all(
    runners.map(async ({ runner }) => {
      while (!(await done())) {
        const report = await runner.runBatch({ queue, limit });
        if (report.claimed === 0) await sleep(5);
      }
    }),
  );
}

async function pendingOrProcessing(queue: string): Promise<number> {
  return t.app.db.job.count({ where: { queue, status: { in: ['pending', 'processing'] } } });
}

describe('several concurrent runners', () => {
  it('run every job exactly once, one job per exclusive key at a time, each key in enqueue order', async () => {
    const created: Array<{ id: string; key: string | null; n: number }> = [];
    for (let n = 0; n < 48; n++) {
      const key = n % 4 === 3 ? null : `key-${n % 4}`;
      const job = await t.app.services.jobs.enqueue({ task: 'test-conc/exclusive', organizationId: org, queue: 'conc', input: { key, n } });
      created.push({ id: job.id, key, n });
    }
    await drain('conc', async () => (await pendingOrProcessing('conc')) === 0);

    const counts = new Map<string, number>();
    for (const run of runs) counts.set(run.id, (counts.get(run.id) ?? 0) + 1);
    expect(counts.size).toBe(created.length);
    expect([...counts.values()].every((c) => c === 1)).toBe(true);
    expect(maxConcurrentPerKey).toBe(1);
    expect(dbProcessingViolations).toBe(0);
    for (const key of ['key-0', 'key-1', 'key-2']) {
      const order = runs.filter((r) => r.key === key).map((r) => r.n);
      expect(order).toEqual([...order].sort((a, b) => a - b));
    }
    expect(await t.app.db.job.count({ where: { queue: 'conc', status: 'succeeded', attempts: 1 } })).toBe(created.length);
    expect(await t.app.db.jobKeyLock.count()).toBe(0);
  });

  it('run jobs with different keys in parallel, across runners', async () => {
    const a = await t.app.services.jobs.enqueue({ task: 'test-conc/parallel', organizationId: org, queue: 'parallel', input: { key: 'a' } });
    const b = await t.app.services.jobs.enqueue({ task: 'test-conc/parallel', organizationId: org, queue: 'parallel', input: { key: 'b' } });
    const [first, second] = runners;
    const one = first!.runner.runBatch({ queue: 'parallel', limit: 1 });
    await expect.poll(async () => (await t.app.db.job.findUniqueOrThrow({ where: { id: a.id } })).status).toBe('processing');
    const two = await second!.runner.runBatch({ queue: 'parallel', limit: 1 });
    expect(two.jobs).toEqual([expect.objectContaining({ id: b.id, status: 'succeeded' })]);
    expect((await one).jobs).toEqual([expect.objectContaining({ id: a.id, status: 'succeeded' })]);
  });

  it('concurrent supersede enqueues leave exactly one pending job for the key', async () => {
    const enqueued = await Promise.all(
      Array.from({ length: 20 }, (_, version) =>
        t.app.services.jobs.enqueue({ task: 'test-conc/supersede', organizationId: org, queue: 'supersede-burst', input: { store: 'burst', version } }),
      ),
    );
    expect(enqueued).toHaveLength(20);
    const pending = await t.app.db.job.findMany({ where: { queue: 'supersede-burst', status: 'pending' } });
    expect(pending).toHaveLength(1);
  });

  it('supersedes while runners run: never two pending, the latest version always runs, none runs twice', async () => {
    const versions = 40;
    let producing = true;
    const producer = (async () => {
      for (let version = 0; version < versions; version++) {
        await t.app.services.jobs.enqueue({ task: 'test-conc/supersede', organizationId: org, queue: 'supersede', input: { store: 's1', version } });
        const pending = await t.app.db.job.count({ where: { queue: 'supersede', status: 'pending' } });
        expect(pending).toBeLessThanOrEqual(1);
        if (version % 5 === 0) await sleep(10);
      }
      producing = false;
    })();
    await Promise.all([producer, drain('supersede', async () => !producing && (await pendingOrProcessing('supersede')) === 0, 2)]);

    expect(supersededRuns.at(-1)).toBe(versions - 1);
    expect(new Set(supersededRuns).size).toBe(supersededRuns.length);
    expect(supersededRuns).toEqual([...supersededRuns].sort((a, b) => a - b));
    expect(supersedeMaxRunning).toBe(1);
    const rows = await t.app.db.job.findMany({ where: { queue: 'supersede' } });
    expect(rows.every((r) => r.status === 'succeeded' && r.attempts === 1)).toBe(true);
    expect(rows.length).toBe(supersededRuns.length);
  });
});
