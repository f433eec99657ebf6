// `npm run worker`: the job worker as its own process, against the same database as the server
// (DATABASE_URL, or the embedded PostgreSQL under DATA_DIR). It runs every module's tasks and
// dispatches outbox events (subscribers, webhook fan-out); see jobs/worker.ts for the loop.
// SIGTERM or SIGINT: stop claiming, let running jobs finish within jobs.shutdownGraceMs, release
// the rest back to pending, exit 0.
import './runtime-flags.js'; // first: V8 flags before Prisma's WebAssembly compiles
import { loadConfig, ConfigError } from './config/index.js';
import { bootRuntime } from './app.js';
import { startJobWorker, workerOptionsFrom } from './jobs/worker.js';
import { handleShutdownSignalsInApp } from './db/embedded.js';
import { metricsPort, startMetricsServer } from './observability/metrics-http.js';
import { startTracing } from './observability/tracing.js';
// Every module registers its tasks and event subscribers when imported; schema.ts is the list.
import './schema.js';

async function main(): Promise<void> {
  const config = await loadConfig();
  const tracing = await startTracing({ serviceName: 'commerce-worker' });
  const runtime = await bootRuntime(config);
  const worker = startJobWorker({ ...runtime, databaseUrl: runtime.directUrl }, workerOptionsFrom(config));
  // The worker has no API port: its /metrics is served only on METRICS_PORT (127.0.0.1).
  const port = metricsPort(config);
  const metricsServer = port !== undefined ? await startMetricsServer(runtime.services.metrics, port, config.metrics.token) : null;
  if (metricsServer) runtime.logger.info({ url: `${metricsServer.url}/metrics` }, 'worker metrics listening');

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    runtime.logger.info({ signal }, 'worker shutting down');
    try {
      await worker.stop();
      await metricsServer?.close();
      await runtime.close();
      await tracing?.shutdown().catch(() => undefined);
    } catch (error) {
      runtime.logger.error({ err: error }, 'worker shutdown failed');
      process.exit(1);
    }
    process.exit(0);
  };
  handleShutdownSignalsInApp();
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError) console.error(`commerce worker: ${error.message}`);
  else console.error(error);
  process.exit(1);
});
