// Jobs throughput: no-op jobs per second with 1 and with 4 runner processes on the PostgreSQL of
// DATABASE_URL (default postgresql://postgres@127.0.0.1:5432/postgres), checking — not
// assuming — that every job ran exactly once: each process reports the ids its handler ran, and
// the table must show every job succeeded after one attempt.
//
//   node --import tsx bench/jobs-throughput.ts [--jobs 5000] [--processes 1,4] [--concurrency 32]
//
// Works on a scratch database created (and dropped) on that server. Each run stops after 15 s.
import { fork, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import pg from 'pg';
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

interface Child {
  process: ChildProcess;
  report(): Promise<string[]>;
}

function spawnRunner(): Promise<Child> {
  return new Promise((resolve, reject) => {
    const child = fork(path.join(here, 'jobs-runner.ts'), [], {
      execArgv: ['--import', 'tsx'],
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
            child.once('message', (message: { ran: string[] }) => {
              reported = true;
              done(message.ran);
            });
            child.send('report');
          }),
      }),
    );
  });
}

async function listeners(): Promise<number> {
  return admin(async (client) => {
    const { rows } = await client.query<{ n: number }>(
      "select count(*)::int as n from pg_stat_activity where datname = $1 and application_name = 'commerce-jobs-listener' and query ilike 'listen%'",
      [scratch],
    );
    return rows[0]!.n;
  });
}

async function runOnce(processes: number, organizationId: string): Promise<{ processes: number; jobs: number; seconds: number; perSecond: number; exactlyOnce: boolean; detail: string }> {
  await admin((client) => client.query('truncate jobs cascade'), benchUrl);
  const children = await Promise.all(Array.from({ length: processes }, spawnRunner));
  while ((await listeners()) < processes) await new Promise((r) => setTimeout(r, 50));

  const db = new pg.Client({ connectionString: benchUrl });
  db.on('error', () => undefined); // the scratch database is dropped with (force) at the end
  await db.connect();
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

  const reports = await Promise.all(children.map((c) => c.report()));
  const ran = reports.flat();
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
    detail: `handler runs ${ran.length} (distinct ${unique.size}) per process [${reports.map((r) => r.length).join(', ')}]; table ${rows.map((r) => `${r.status}×${r.attempts}:${r.n}`).join(' ')}`,
  };
}

async function main(): Promise<void> {
  await admin((client) => client.query(`create database ${client.escapeIdentifier(scratch)}`));
  try {
    await applyMigrations(benchUrl, MIGRATIONS_DIR);
    const organizationId = await admin(async (client) => {
      const { rows } = await client.query<{ id: string }>("insert into organizations (id, slug, name, updated_at) values (gen_random_uuid(), 'bench', 'Bench', now()) returning id");
      return rows[0]!.id;
    }, benchUrl);
    console.log(`jobs throughput: ${JOBS} no-op jobs, ${values.concurrency} concurrent jobs per process, PostgreSQL at ${new URL(serverUrl).host}`);
    for (const processes of PROCESS_COUNTS) {
      const result = await runOnce(processes, organizationId);
      console.log(
        `${processes} process${processes === 1 ? ' ' : 'es'}: ${result.jobs}/${JOBS} jobs in ${result.seconds}s = ${result.perSecond} jobs/s; ` +
          `exactly once: ${result.exactlyOnce ? 'yes' : 'NO'} (${result.detail})`,
      );
      if (!result.exactlyOnce || result.jobs !== JOBS) process.exitCode = 1;
    }
  } finally {
    await admin((client) => client.query(`drop database if exists ${client.escapeIdentifier(scratch)} with (force)`));
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
