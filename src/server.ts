// `npm start`: the whole API on PORT (default 3000) and HOST, on the embedded PostgreSQL unless
// DATABASE_URL is set. Migrations are applied at boot.
import './runtime-flags.js'; // first: V8 flags before Prisma's WebAssembly compiles
import { loadConfig, ConfigError } from './config/index.js';
import { createApp } from './app.js';
import { listen } from './http/listen.js';
import { handleShutdownSignalsInApp } from './db/embedded.js';
import { startTracing } from './observability/tracing.js';

async function main(): Promise<void> {
  const config = await loadConfig();
  // Before the app: its request, GraphQL and job spans are on only if the SDK is (README: Traces).
  const tracing = await startTracing({ serviceName: 'commerce-api' });
  const app = await createApp(config);
  const server = await listen(app.http, config.port, config.host);
  app.logger.info({ url: server.url, graphql: `${server.url}/graphql`, reference: `${server.url}/api/reference` }, 'commerce API listening');

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.logger.info({ signal, drainMs: config.shutdownDrainMs }, 'shutting down');
    // Out of rotation (readiness 503) while still accepting for shutdownDrainMs, then the
    // listener closes and requests in flight are answered (up to jobs.shutdownGraceMs, the grace
    // the worker gives running jobs) before the database pool closes. README: Shutdown.
    await server.shutdown({ drainMs: config.shutdownDrainMs, graceMs: config.jobs.shutdownGraceMs });
    await app.close();
    await tracing?.shutdown().catch(() => undefined);
    app.logger.info({ signal }, 'shut down');
    process.exit(0);
  };
  handleShutdownSignalsInApp();
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError) console.error(`commerce: ${error.message}`);
  else console.error(error);
  process.exit(1);
});
