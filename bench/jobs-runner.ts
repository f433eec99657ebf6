// One runner process of the jobs throughput bench (bench/jobs-throughput.ts spawns 1 or 4).
// Runs the real worker loop (claim, heartbeat, complete, LISTEN/NOTIFY wake-ups) on queue
// `bench` with a no-op task that only remembers which job ids it ran; the parent collects them
// over IPC to check that every job ran exactly once.
import { parseConfig } from '../src/config/index.js';
import { createDb } from '../src/db/client.js';
import { createLogger } from '../src/logger.js';
import { createServices } from '../src/app.js';
import { startJobWorker, workerOptionsFrom } from '../src/jobs/worker.js';
import { defineTask } from '../src/jobs/tasks.js';

const databaseUrl = process.env.DATABASE_URL!;
const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 32);
// The same local queue size as graphile-worker's runner gets (bench/jobs-graphile-runner.ts).
const localQueueSize = Number(process.env.BENCH_LOCAL_QUEUE ?? 500);
const ran: string[] = [];

defineTask({
  slug: 'bench/noop',
  handler(_input, ctx) {
    ran.push(ctx.job.id);
    return null;
  },
});

const config = parseConfig({ env: 'test', databaseUrl, logLevel: 'silent', auth: { secret: 'bench-secret-bench-secret-bench-secret-000' } });
const { db } = createDb(databaseUrl, { max: Number(process.env.BENCH_POOL ?? 8) });
const logger = createLogger('warn');
const services = createServices(db, config, logger);
const worker = startJobWorker(
  { db, config, logger, services, databaseUrl },
  workerOptionsFrom(config, { queues: ['bench'], concurrency, localQueueSize, pollIntervalMs: 1000, reapIntervalMs: 3_600_000, dispatch: false }),
);

process.on('message', async (message: string) => {
  if (message === 'mark') cpuAtMark = process.cpuUsage();
  if (message === 'report') {
    await worker.stop();
    await db.$disconnect();
    // Exit only once the (large) report has left: an exiting process can drop a queued IPC message.
    process.send!({ ran, cpuMs: cpuMs() }, () => process.exit(0));
  }
});
// Ready once the first pass is over (connections open, claim statement run once) — as
// graphile-worker's run() resolves once it is connected — and the LISTEN connection is up
// (the parent checks pg_stat_activity).
await worker.ready;
// CPU this process spends from the parent's mark (sent just before it enqueues) to the report.
let cpuAtMark = process.cpuUsage();
const cpuMs = () => {
  const used = process.cpuUsage(cpuAtMark);
  return (used.user + used.system) / 1000;
};
process.send!({ ready: true, pid: process.pid });
