// Boots everything a process needs, in order: database (embedded or DATABASE_URL), migrations,
// Prisma, identity, services, and the HTTP app. The server, the worker and the CLI all start
// here, so they share one way of reaching the database.
import type { Config } from './config/index.js';
import { createDb, pgbouncerUrl, resolveDatabase, type Db } from './db/client.js';
import { applyMigrations } from './db/migrations.js';
import { createAuth, type Auth } from './auth/better-auth.js';
import { resolveAuthSecret } from './auth/secret.js';
import { createLogger, type Logger } from './logger.js';
import { createOrganizationDirectory } from './modules/organizations/service.js';
import { inventoryService } from './modules/inventory/index.js';
import { pricingService } from './modules/pricing/index.js';
import { promotionsService } from './modules/promotions/index.js';
import { createTaxService } from './modules/tax/index.js';
import { auditService } from './modules/audit/index.js';
import type { Services } from './services.js';
import type { Runtime } from './runtime.js';
// The module list first: every module registers its operations, hooks and tasks on import.
import './schema.js';
import { createHttpApp, type HttpApp } from './http/app.js';
import { createJobsService } from './jobs/service.js';
import { createPaymentsService } from './modules/payments/service.js';
import { createPaymentAttemptLedger } from './modules/payments/attempts.js';
import { orderPaymentPort } from './modules/payments/order-port.js';
import { createMailer } from './modules/orders/documents/mailer.js';
import { customerLifecycle } from './modules/customers/identity.js';
import { startJobWorker, workerOptionsFrom } from './jobs/worker.js';
import { MIGRATIONS_DIR, PACKAGE_VERSION } from './paths.js';
import { activatePlugins } from './plugins/runtime.js';
import { createIdentityService } from './auth/identity-service.js';
import { createMetrics } from './observability/metrics.js';
import { metricsPort, startMetricsServer, type MetricsServer } from './observability/metrics-http.js';

export type { Runtime } from './runtime.js';

export interface BootOptions {
  /** Apply pending migrations first (server, worker and `commerce migrate` do). */
  migrate?: boolean;
  countStatements?: boolean;
  logger?: Logger;
}

/** ctx.services for a process: one instance of each cross-module service. */
/** `auth` is null only in processes that never mint keys (the jobs benchmark). */
export function createServices(db: Db, config: Config, logger: Logger, auth: Auth | null = null): Services {
  return {
    organizations: createOrganizationDirectory(db),
    payments: createPaymentsService(config, logger),
    paymentAttempts: createPaymentAttemptLedger(db),
    orderPayments: orderPaymentPort,
    mailer: createMailer(config),
    inventory: inventoryService,
    pricing: pricingService,
    promotions: promotionsService,
    tax: createTaxService(config),
    audit: auditService,
    jobs: createJobsService({ db, config }),
    identity: createIdentityService(auth, config),
    metrics: createMetrics(db),
  };
}

export async function bootRuntime(config: Config, options: BootOptions = {}): Promise<Runtime> {
  const logger = options.logger ?? createLogger(config.logLevel);
  // Before the database: a bad plugin list fails the boot at once, with the plugin named.
  activatePlugins(config, logger);
  const database = await resolveDatabase(config, (message) => logger.debug({ postgres: message.trim() }, 'embedded postgres'));
  const directUrl = pgbouncerUrl(config.databaseDirectUrl ?? database.url).url;
  if (!config.databaseDirectUrl && pgbouncerUrl(database.url).pgbouncer) {
    logger.warn(
      'DATABASE_URL goes through PgBouncer (pgbouncer=true) but DATABASE_DIRECT_URL is unset: LISTEN wake-ups, cache invalidation and the migration lock need a direct connection (README: Scaling)',
    );
  }
  try {
    if (options.migrate !== false) {
      const { applied } = await applyMigrations(directUrl, MIGRATIONS_DIR);
      if (applied.length) logger.info({ applied }, 'migrations applied');
    }
    const { db, counter } = createDb(database.url, { countStatements: options.countStatements });
    const baseUrl = config.baseUrl ?? `http://localhost:${config.port}`;
    const auth = createAuth(config, db, { secret: resolveAuthSecret(config), baseUrl, mailer: createMailer(config), users: customerLifecycle });
    const services = createServices(db, config, logger, auth);
    await services.organizations.defaultOrganization();
    return {
      config,
      db,
      counter,
      auth,
      services,
      logger,
      databaseUrl: database.url,
      directUrl,
      async close() {
        await db.$disconnect();
        await database.release();
      },
    };
  } catch (error) {
    await database.release();
    throw error;
  }
}

export interface App extends Runtime {
  http: HttpApp;
  /** The METRICS_PORT listener, when configured. */
  metricsServer: MetricsServer | null;
}

export async function createApp(config: Config, options: BootOptions = {}): Promise<App> {
  const runtime = await bootRuntime(config, options);
  const http = createHttpApp({ ...runtime, version: PACKAGE_VERSION });
  // jobs.autorun: the job worker inside the server, polling at the configured interval.
  const autorun = config.jobs.autorun
    ? startJobWorker({ ...runtime, databaseUrl: runtime.directUrl }, workerOptionsFrom(config, { pollIntervalMs: config.jobs.autorun.intervalMs }))
    : null;
  // METRICS_PORT: /metrics on its own listener (127.0.0.1), beside the API port.
  let metricsServer: MetricsServer | null = null;
  const port = metricsPort(config);
  if (port !== undefined) {
    try {
      metricsServer = await startMetricsServer(runtime.services.metrics, port, config.metrics.token);
    } catch (error) {
      await autorun?.stop();
      await http.close();
      await runtime.close();
      throw error;
    }
  }
  return {
    ...runtime,
    http,
    metricsServer,
    async close() {
      await metricsServer?.close();
      await autorun?.stop();
      await http.close();
      await runtime.close();
    },
  };
}
