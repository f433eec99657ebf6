// Jobs throughput: no-op jobs per second with 1 and with 4 runner processes on the PostgreSQL of
// DATABASE_URL (default postgresql://postgres@127.0.0.1:5432/postgres), checking — not
// assuming — that every job ran exactly once: each process reports the ids its handler ran, and
// the table must show every job succeeded after one attempt.
//
//   node --import tsx bench/jobs-throughput.ts [--jobs 5000] [--processes 1,4] [--concurrency 32]
//
// Works on a scratch database created (and dropped) on that server. Each run stops after 15 s.
//
// The yardstick is graphile-worker (a devDependency) in the same run, with its documented
// throughput settings (localQueue, batched completions): the same jobs, process counts and
// concurrency, one-statement enqueue, rounds alternating between the two (BENCH_ROUNDS, default
// 3), medians and the ratio ours / graphile-worker. Both get a local queue of BENCH_LOCAL_QUEUE
// (500) jobs. Besides jobs/s, each round reports CPU per job — the runner processes' (from a
// mark sent just before the enqueue to their report) and the PostgreSQL backends' (from /proc;
// the bench's own connection excluded) — which says more than jobs/s on a shared machine.
import { fork, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { readFileSync } from 'node:fs';
import pg from 'pg';
import { runMigrations } from 'graphile-worker';
import { applyMigrations } from '../src/db/migrations.js';
import { MIGRATIONS_DIR } from '../src/paths.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const { values } = parseArgs({
  options: {
    jobs: { type: 'string', default: '5000' },
    processes: { type: 'string', default: '1,4' },
    concurrency: { type: 'string', default: '32' },
  },
});
const JOBS = Number(values.jobs);
const PROCESS_COUNTS = values.processes!.split(',').map(Number);
const RUN_LIMIT_MS = 15_000;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
// Pause between "every runner is ready" and the enqueue, for both kinds: a process that has just
// booted is still compiling and collecting its start-up garbage on other threads, and on a small
// machine four of them doing so would be measured as queue throughput.
const SETTLE_MS = Number(process.env.BENCH_SETTLE_MS ?? 1000);
type Kind = 'ours' | 'graphile';

const serverUrl = process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
const scratch = `jobs_bench_${process.pid}`;
const withDatabase = (database: string) => {
  const url = new URL(serverUrl);
  url.pathname = `/${database}`;
  return url.toString();
};
const benchUrl = withDatabase(scratch);

async function admin<T>(fn: (client: pg.Client) => Promise<T>, url = withDatabase('postgres')): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

interface Report {
  ran: string[];
  /** The runner process's CPU from ready to report. */
  cpuMs: number;
}

interface Child {
  process: ChildProcess;
  report(): Promise<Report>;
}

function spawnRunner(kind: Kind): Promise<Child> {
  return new Promise((resolve, reject) => {
    const child = fork(path.join(here, kind === 'ours' ? 'jobs-runner.ts' : 'jobs-graphile-runner.ts'), [], {
      execArgv: ['--import', 'tsx', ...(process.env.BENCH_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE}`] : [])],
      env: { ...process.env, DATABASE_URL: benchUrl, BENCH_CONCURRENCY: values.concurrency },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    let exited: string | null = null;
    let reported = false;
    child.once('error', reject);
    child.once('exit', (code, signal) => {
      if (reported) return;
      exited = `runner ${child.pid} exited early (code ${code}, signal ${signal})`;
      console.error(exited);
      reject(new Error(exited));
    });
    child.once('message', () =>
      resolve({
        process: child,
        report: () =>
          new Promise((done, fail) => {
            if (exited) return fail(new Error(exited));
            child.once('exit', () => fail(new Error(exited ?? 'runner exited')));
            child.once('message', (message: Report) => {
              reported = true;
              done(message);
            });
            child.send('report');
          }),
      }),
    );
  });
}

async function listeners(): Promise<number> {
  return admin(async (client) => {
    const { rows } = await client.query<{ n: number }>("select count(distinct pid)::int as n from pg_stat_activity where datname = $1 and query ilike 'listen%'", [scratch]);
    return rows[0]!.n;
  });
}

/** CPU (ms, from /proc; 0 where unreadable) of the scratch database's backends but the caller's own. */
async function backendCpu(db: pg.Client): Promise<Map<number, number>> {
  const { rows } = await db.query<{ pid: number }>('select pid from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()', [scratch]);
  const ticks = new Map<number, number>();
  for (const { pid } of rows) {
    try {
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
      ticks.set(pid, (Number(fields[11]) + Number(fields[12])) * 10); // utime + stime, 100 ticks/s
    } catch {
      ticks.set(pid, 0);
    }
  }
  return ticks;
}

function cpuSpent(before: Map<number, number>, after: Map<number, number>): number {
  let ms = 0;
  for (const [pid, value] of after) ms += value - (before.get(pid) ?? 0);
  return ms;
}

interface RunResult {
  processes: number;
  jobs: number;
  seconds: number;
  perSecond: number;
  exactlyOnce: boolean;
  /** Jobs per process, smallest / largest share: 1 is perfectly even. */
  evenness: number;
  detail: string;
  /** Runner processes' CPU per job, µs. */
  nodeUs: number;
  /** PostgreSQL backends' CPU per job (the bench's own polling connection excluded), µs. */
  pgUs: number;
}

async function runGraphile(processes: number): Promise<RunResult> {
  await admin((client) => client.query('delete from graphile_worker._private_jobs'), benchUrl);
  const children = await Promise.all(Array.from({ length: processes }, () => spawnRunner('graphile')));
  while ((await listeners()) < processes) await new Promise((r) => setTimeout(r, 50));
  await new Promise((r) => setTimeout(r, SETTLE_MS));
  const db = new pg.Client({ connectionString: benchUrl });
  db.on('error', () => undefined);
  await db.connect();
  const pgBefore = await backendCpu(db);
  for (const child of children) child.process.send('mark');
  const started = performance.now();
  await db.query(
    `select graphile_worker.add_jobs(array(
       select json_populate_record(null::graphile_worker.job_spec, json_build_object('identifier', 'noop', 'payload', json_build_object('n', n)))
       from generate_series(1, $1) n))`,
    [JOBS],
  );
  let left = JOBS;
  while (performance.now() - started < RUN_LIMIT_MS) {
    // graphile-worker deletes a job when it succeeds.
    left = (await db.query<{ n: number }>('select count(*)::int as n from graphile_worker._private_jobs')).rows[0]!.n;
    if (left === 0) break;
    await new Promise((r) => setTimeout(r, 10));
  }
  const seconds = (performance.now() - started) / 1000;
  const pgAfter = await backendCpu(db);
  const reports = await Promise.all(children.map((c) => c.report()));
  await db.end();
  const ran = reports.flatMap((r) => r.ran);
  const unique = new Set(ran);
  const done = JOBS - left;
  const shares = reports.map((r) => r.ran.length);
  return {
    processes,
    jobs: done,
    seconds: Math.round(seconds * 100) / 100,
    perSecond: Math.round(done / seconds),
    exactlyOnce: left === 0 && ran.length === JOBS && unique.size === JOBS,
    evenness: Math.round((Math.min(...shares) / Math.max(1, Math.max(...shares))) * 100) / 100,
    detail: `handler runs ${ran.length} (distinct ${unique.size}) per process [${shares.join(', ')}]`,
    nodeUs: Math.round((reports.reduce((sum, r) => sum + r.cpuMs, 0) * 1000) / Math.max(1, done)),
    pgUs: Math.round((cpuSpent(pgBefore, pgAfter) * 1000) / Math.max(1, done)),
  };
}

async function runOnce(processes: number, organizationId: string): Promise<RunResult> {
  await admin((client) => client.query('truncate jobs cascade'), benchUrl);
  const children = await Promise.all(Array.from({ length: processes }, () => spawnRunner('ours')));
  while ((await listeners()) < processes) await new Promise((r) => setTimeout(r, 50));
  await new Promise((r) => setTimeout(r, SETTLE_MS));

  const db = new pg.Client({ connectionString: benchUrl });
  db.on('error', () => undefined); // the scratch database is dropped with (force) at the end
  await db.connect();
  const pgBefore = await backendCpu(db);
  for (const child of children) child.process.send('mark');
  const started = performance.now();
  // One statement: all jobs become visible at once, and the NOTIFY trigger wakes every runner.
  await db.query(
    `insert into jobs (id, organization_id, queue, task_slug, input, updated_at)
     select gen_random_uuid(), $1, 'bench', 'bench/noop', jsonb_build_object('n', n), now() from generate_series(1, $2) n`,
    [organizationId, JOBS],
  );
  let done = 0;
  while (performance.now() - started < RUN_LIMIT_MS) {
    done = (await db.query<{ n: number }>("select count(*)::int as n from jobs where status = 'succeeded'")).rows[0]!.n;
    if (done === JOBS) break;
    await new Promise((r) => setTimeout(r, 10));
  }
  const seconds = (performance.now() - started) / 1000;
  const pgAfter = await backendCpu(db);

  const reports = await Promise.all(children.map((c) => c.report()));
  const ran = reports.flatMap((r) => r.ran);
  const unique = new Set(ran);
  const rows = (await db.query<{ status: string; attempts: number; n: number }>('select status, attempts, count(*)::int as n from jobs group by 1, 2')).rows;
  await db.end();
  const allSucceededOnce = rows.length === 1 && rows[0]!.status === 'succeeded' && rows[0]!.attempts === 1 && rows[0]!.n === JOBS;
  const exactlyOnce = ran.length === JOBS && unique.size === JOBS && allSucceededOnce;
  return {
    processes,
    jobs: done,
    seconds: Math.round(seconds * 100) / 100,
    perSecond: Math.round(done / seconds),
    exactlyOnce,
    evenness: Math.round((Math.min(...reports.map((r) => r.ran.length)) / Math.max(1, ...reports.map((r) => r.ran.length))) * 100) / 100,
    detail: `handler runs ${ran.length} (distinct ${unique.size}) per process [${reports.map((r) => r.ran.length).join(', ')}]; table ${rows.map((r) => `${r.status}×${r.attempts}:${r.n}`).join(' ')}`,
    nodeUs: Math.round((reports.reduce((sum, r) => sum + r.cpuMs, 0) * 1000) / Math.max(1, done)),
    pgUs: Math.round((cpuSpent(pgBefore, pgAfter) * 1000) / Math.max(1, done)),
  };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

async function main(): Promise<void> {
  await admin((client) => client.query(`create database ${client.escapeIdentifier(scratch)}`));
  try {
    await applyMigrations(benchUrl, MIGRATIONS_DIR);
    await runMigrations({ connectionString: benchUrl, logger: undefined });
    const organizationId = await admin(async (client) => {
      const { rows } = await client.query<{ id: string }>(
        "insert into organizations (id, slug, name, updated_at) values (gen_random_uuid(), 'bench', 'Bench', now()) returning id",
      );
      return rows[0]!.id;
    }, benchUrl);
    console.log(`jobs throughput: ${JOBS} no-op jobs, ${values.concurrency} concurrent jobs per process, ${ROUNDS} alternating rounds, PostgreSQL at ${new URL(serverUrl).host}`);
    const summary: string[] = [];
    for (const processes of PROCESS_COUNTS) {
      const ours: RunResult[] = [];
      const theirs: RunResult[] = [];
      for (let round = 0; round < ROUNDS; round += 1) {
        for (const kind of ['graphile', 'ours'] as const) {
          const result = kind === 'ours' ? await runOnce(processes, organizationId) : await runGraphile(processes);
          (kind === 'ours' ? ours : theirs).push(result);
          console.log(
            `  round ${round + 1} ${kind === 'ours' ? 'commerce       ' : 'graphile-worker'} ${processes}p: ${result.jobs}/${JOBS} in ${result.seconds}s = ${result.perSecond} jobs/s; ` +
              `CPU/job node ${result.nodeUs} µs, PostgreSQL ${result.pgUs} µs; exactly once: ${result.exactlyOnce ? 'yes' : 'NO'}; evenness ${result.evenness} (${result.detail})`,
          );
          if (!result.exactlyOnce || result.jobs !== JOBS) process.exitCode = 1;
        }
      }
      const a = median(ours.map((r) => r.perSecond));
      const b = median(theirs.map((r) => r.perSecond));
      const cpu = (runs: RunResult[]) => `${median(runs.map((r) => r.nodeUs))} + ${median(runs.map((r) => r.pgUs))}`;
      summary.push(
        `| ${processes} | ${a} | ${b} | ${(a / Math.max(1, b)).toFixed(2)}× | ${median(ours.map((r) => r.evenness))} | ${median(theirs.map((r) => r.evenness))} | ${cpu(ours)} | ${cpu(theirs)} |`,
      );
    }
    console.log(
      '\n| processes | commerce jobs/s | graphile-worker jobs/s | ratio | evenness (min/max share) | graphile evenness | commerce CPU µs/job (node + PostgreSQL) | graphile CPU µs/job |',
    );
    console.log('|---:|---:|---:|---:|---:|---:|---:|---:|');
    for (const line of summary) console.log(line);
  } finally {
    await admin((client) => client.query(`drop database if exists ${client.escapeIdentifier(scratch)} with (force)`));
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
