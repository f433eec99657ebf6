// One graphile-worker process of the jobs throughput bench: the yardstick. Configured as
// graphile-worker documents for throughput: a local queue (jobs fetched and locked in batches)
// and batched completions. The no-op task remembers which jobs it ran; the parent collects the
// ids over IPC, as with our own runner (bench/jobs-runner.ts).
import { Logger, run } from 'graphile-worker';

const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 32);
const ran: string[] = [];

const runner = await run({
  connectionString: process.env.DATABASE_URL!,
  concurrency,
  noHandleSignals: true,
  pollInterval: 1000,
  logger: new Logger(() => () => undefined),
  preset: {
    worker: {
      localQueue: { size: Number(process.env.BENCH_LOCAL_QUEUE ?? 500) },
      completeJobBatchDelay: 0,
      failJobBatchDelay: 0,
    },
  },
  taskList: {
    noop: async (_payload, helpers) => {
      ran.push(helpers.job.id);
    },
  },
});

process.on('message', async (message: string) => {
  if (message === 'mark') cpuAtMark = process.cpuUsage();
  if (message === 'report') {
    await runner.stop();
    process.send!({ ran, cpuMs: cpuMs() }, () => process.exit(0));
  }
});
// CPU this process spends from the parent's mark (sent just before it enqueues) to the report.
let cpuAtMark = process.cpuUsage();
const cpuMs = () => {
  const used = process.cpuUsage(cpuAtMark);
  return (used.user + used.system) / 1000;
};
process.send!({ ready: true, pid: process.pid });
