// `npm run bench:production`: the process an operator runs. `npm run build`, then `npm start`
// (which runs that compiled build) on an existing, seeded database, measured for the issue's
// start-up and memory goals:
//   - time from spawn to `GET /api/health/ready` answering 200 (median of BENCH_STARTS, 3),
//   - RSS when idle after start,
//   - RSS after each of three 60 s runs of the catalog list load (BENCH_RSS_SECONDS), to show
//     whether memory settles or grows.
// The database and an admin key come from bench/support/server.ts (which seeds it and then idles).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { load, startTarget } from './support/driver.js';
import { NPM_START_ARGS } from '../scripts/node-flags.js';
import { goalLine } from './support/goals.js';

const starts = Number(process.env.BENCH_STARTS ?? 3);
const loadSeconds = Number(process.env.BENCH_RSS_SECONDS ?? 60);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);

function rssMb(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Math.round(Number(/VmRSS:\s+(\d+)/.exec(status)![1]) / 1024);
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

// One auth secret for both processes: API keys carry a grant signed with it.
const secret = randomBytes(32).toString('hex');
// Compiled first, so `npm start` runs dist/ (it falls back to the TypeScript source when the build is stale).
const build = spawnSync(process.execPath, ['scripts/build.mjs'], { stdio: ['ignore', 'ignore', 'inherit'] });
if (build.status !== 0) throw new Error('npm run build failed');
const seeded = await startTarget('bench/support/server.ts', { ...process.env, BETTER_AUTH_SECRET: secret, BENCH_PRODUCTS: process.env.BENCH_PRODUCTS ?? '100' });
const configFile = path.join(os.tmpdir(), `commerce-bench-production-${process.pid}.json`);
// The bench measures throughput, not the limiter's refusals; everything else is the default.
fs.writeFileSync(configFile, JSON.stringify({ rateLimit: { enabled: false } }));
const port = 20_000 + (process.pid % 20_000);
const env = {
  ...process.env,
  DATABASE_URL: seeded.info.databaseUrl,
  PORT: String(port),
  HOST: '127.0.0.1',
  NODE_ENV: 'production',
  BETTER_AUTH_SECRET: secret,
  PUBLIC_URL: `http://127.0.0.1:${port}`,
  COMMERCE_CONFIG: configFile,
  LOG_LEVEL: 'warn',
};

async function startProduction(): Promise<{ child: ChildProcess; ms: number }> {
  const started = performance.now();
  const child = spawn(process.execPath, [...NPM_START_ARGS], { env, stdio: ['ignore', 'ignore', 'inherit'] });
  for (;;) {
    if (child.exitCode !== null) throw new Error(`npm start exited with ${child.exitCode}`);
    try {
      const res = await fetch(`http://127.0.0.1:${port}/api/health/ready`);
      if (res.status === 200) return { child, ms: Math.round(performance.now() - started) };
    } catch {
      /* not listening yet */
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

async function stop(child: ChildProcess): Promise<void> {
  await new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

const startMs: number[] = [];
for (let i = 0; i < starts - 1; i++) {
  const { child, ms } = await startProduction();
  startMs.push(ms);
  await stop(child);
}
const { child, ms } = await startProduction();
startMs.push(ms);
await new Promise((resolve) => setTimeout(resolve, 3000));
const idle = rssMb(child.pid!);
const list = { name: 'list', url: `http://127.0.0.1:${port}/api/catalog/entities?limit=20&include=variants,attributes,pricing`, headers: { 'x-api-key': seeded.info.key! } };
// Probe once so a broken setup fails loudly instead of measuring an error page.
const probe = await fetch(list.url, { headers: list.headers });
if (probe.status !== 200) {
  await stop(child);
  await seeded.stop();
  throw new Error(`probe: ${probe.status} ${(await probe.text()).slice(0, 300)}`);
}
await probe.arrayBuffer();
const afterRuns: Array<{ rss: number; rps: number; failed: number }> = [];
for (let run = 0; run < 3; run++) {
  const result = await load(list, loadSeconds, connections);
  afterRuns.push({ rss: rssMb(child.pid!), rps: result.requestsPerSecond, failed: result.errors + result.non2xx });
}
await stop(child);
await seeded.stop();
fs.rmSync(configFile, { force: true });

const load1 = os
  .loadavg()
  .map((n) => n.toFixed(1))
  .join(' / ');
console.log(`\nnpm start on the compiled build, load average ${load1}, ${os.cpus().length} cores`);
console.log('| measure | value |');
console.log('|---|---:|');
console.log(`| start to healthy on an existing database, ms (median of ${startMs.length}: ${startMs.join(', ')}) | ${median(startMs)} |`);
console.log(`| idle RSS after start, MB | ${idle} |`);
afterRuns.forEach((r, i) => console.log(`| RSS after list-with-includes load run ${i + 1} (${loadSeconds} s, ${r.rps} req/s, ${r.failed} failed), MB | ${r.rss} |`));
// Goal 5 (issue 30): start to ready on an existing database within 2 s.
const startMedian = median(startMs);
console.log(
  goalLine({
    goal: '5',
    name: 'npm start to ready on an existing database',
    measured: startMedian,
    floor: 2000,
    rule: '≤ 2000 ms',
    ratio: null,
    unit: 'ms',
    pass: startMedian <= 2000,
  }),
);
