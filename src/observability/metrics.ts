// Prometheus series of one app (README: Operating → Metrics). Each app owns its Registry: tests
// boot several apps in one process, and prom-client's default registry is process-global.
// Every label is bounded: routes are templates (route-label.ts), operation names are capped,
// error codes come from the catalogue, task slugs from the task registry.
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { Db } from '../db/client.js';
import { poolStats } from '../db/client.js';
import { ERROR_CODES } from '../error-codes.js';
import { tasks } from '../jobs/tasks.js';

/** Seconds; from a cached answer (1 ms) to a slow checkout with a payment provider (10 s). */
const DURATION_BUCKETS = [0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const JOB_BUCKETS = [0.005, 0.01, 0.05, 0.1, 0.5, 1, 5, 15, 60, 300];
const SQL_BUCKETS = [0, 1, 2, 3, 5, 8, 13, 21, 34, 55, 89];
/** Distinct GraphQL operation names kept as labels; later names are counted as `other`. */
export const MAX_OPERATION_NAMES = 300;
const OPERATION_NAME_RE = /^[_A-Za-z][_0-9A-Za-z]{0,99}$/;
const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

export interface Metrics {
  registry: Registry;
  /** One answered HTTP request (app.ts fetch). */
  httpRequest(method: string, route: string, status: number, seconds: number, sqlStatements: number | null): void;
  rateLimitRefusal(route: string): void;
  graphqlOperation(name: string | null | undefined, errorCode: string | null, seconds: number): void;
  job(task: string, outcome: string, seconds: number): void;
  webhookDelivery(outcome: 'succeeded' | 'retrying' | 'failed'): void;
  checkout(outcome: 'created' | 'replayed' | 'refused' | 'error'): void;
  /** A response-cache lookup (src/cache): hit in this process's memory or in Redis, or a miss. */
  responseCache(outcome: 'hit' | 'miss', layer: 'memory' | 'redis'): void;
  /** Reports the execution slots of heavy operations (graphql/execution-slots.ts) as a gauge read at scrape time. */
  executionSlots(slots: { readonly running: number; readonly waiting: number }): void;
  /** Prometheus text of every series (collects the database gauges first). */
  text(): Promise<string>;
  contentType: string;
}

function statusClass(status: number): string {
  return status >= 100 && status < 600 ? `${Math.floor(status / 100)}xx` : 'other';
}

function taskLabel(slug: string): string {
  return tasks.get(slug) ? slug : 'unknown';
}

function errorCodeLabel(code: string | null): string {
  if (!code) return 'none';
  return code in ERROR_CODES ? code : 'OTHER';
}

export function createMetrics(db: Db): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'commerce_' });

  const httpDuration = new Histogram({
    name: 'commerce_http_request_duration_seconds',
    help: 'HTTP request duration by method, route template and status class',
    labelNames: ['method', 'route', 'status_class'],
    buckets: DURATION_BUCKETS,
    registers: [registry],
  });
  const sqlPerRequest = new Histogram({
    name: 'commerce_http_request_sql_statements',
    help: 'SQL statements sent to PostgreSQL per HTTP request, by route template',
    labelNames: ['route'],
    buckets: SQL_BUCKETS,
    registers: [registry],
  });
  const rateLimited = new Counter({
    name: 'commerce_rate_limit_refusals_total',
    help: 'Requests refused with 429 by the rate limiter, by route template',
    labelNames: ['route'],
    registers: [registry],
  });
  const graphqlDuration = new Histogram({
    name: 'commerce_graphql_operation_duration_seconds',
    help: 'GraphQL execution duration by operation name (anonymous documents: "anonymous") and first error code ("none")',
    labelNames: ['operation', 'error_code'],
    buckets: DURATION_BUCKETS,
    registers: [registry],
  });
  const jobDuration = new Histogram({
    name: 'commerce_job_duration_seconds',
    help: 'Job handler duration by task and outcome (succeeded, retrying, failed, lost)',
    labelNames: ['task', 'outcome'],
    buckets: JOB_BUCKETS,
    registers: [registry],
  });
  const webhookDeliveries = new Counter({
    name: 'commerce_webhook_deliveries_total',
    help: 'Webhook delivery attempts by outcome (succeeded, retrying, failed)',
    labelNames: ['outcome'],
    registers: [registry],
  });
  const checkouts = new Counter({
    name: 'commerce_checkouts_total',
    help: 'Checkouts by outcome (created, replayed, refused: a 4xx such as CHECKOUT_FAILED, error)',
    labelNames: ['outcome'],
    registers: [registry],
  });
  const responseCache = new Counter({
    name: 'commerce_response_cache_lookups_total',
    help: 'Response cache lookups of storefront catalog reads by outcome (hit, miss) and layer (memory, redis; a miss names the last layer asked)',
    labelNames: ['outcome', 'layer'],
    registers: [registry],
  });
  // Pool and queue gauges read their value when scraped (collect), not on every request.
  new Gauge({
    name: 'commerce_db_pool_connections',
    help: 'Database pool connections by state (in_use, idle, waiting: callers queued for a connection)',
    labelNames: ['state'],
    registers: [registry],
    collect() {
      const stats = poolStats(db);
      if (!stats) return;
      this.set({ state: 'in_use' }, stats.total - stats.idle);
      this.set({ state: 'idle' }, stats.idle);
      this.set({ state: 'waiting' }, stats.waiting);
    },
  });
  let slotSource: { readonly running: number; readonly waiting: number } | null = null;
  new Gauge({
    name: 'commerce_graphql_execution_slots',
    help: 'Heavy operations (cost at least EXECUTION_SLOTS_MIN_COST) holding an execution slot (running) and waiting for one (waiting); EXECUTION_SLOTS bounds running',
    labelNames: ['state'],
    registers: [registry],
    collect() {
      if (!slotSource) return;
      this.set({ state: 'running' }, slotSource.running);
      this.set({ state: 'waiting' }, slotSource.waiting);
    },
  });
  const jobsGauge = new Gauge({
    name: 'commerce_jobs',
    help: 'Jobs by task and state (pending, processing, failed; succeeded jobs are counted by commerce_job_duration_seconds)',
    labelNames: ['task', 'state'],
    registers: [registry],
  });
  const oldestPending = new Gauge({
    name: 'commerce_jobs_oldest_pending_age_seconds',
    help: 'Age of the oldest job ready to run and not yet claimed (0 when none): the queue is falling behind when this grows',
    registers: [registry],
  });
  const outboxLag = new Gauge({
    name: 'commerce_outbox_lag_seconds',
    help: 'Age of the oldest undispatched outbox event (0 when none): subscribers and webhooks are behind by this much',
    registers: [registry],
  });
  const scrapeErrors = new Counter({
    name: 'commerce_metrics_collect_errors_total',
    help: 'Scrapes whose database gauges could not be read (the database was unreachable)',
    registers: [registry],
  });

  /** The database gauges, in one round trip each, when scraped. */
  async function collectDatabaseGauges(): Promise<void> {
    try {
      const [byState, ages] = await Promise.all([
        db.$queryRaw<Array<{ task_slug: string; status: string; n: number }>>`
          select task_slug, status, count(*)::int as n from jobs where status in ('pending', 'processing', 'failed') group by task_slug, status`,
        db.$queryRaw<Array<{ job_age: number | null; outbox_age: number | null }>>`
          select
            (select extract(epoch from now() - min(coalesce(wait_until, created_at)))::float8 from jobs
              where status = 'pending' and (wait_until is null or wait_until <= now())) as job_age,
            (select extract(epoch from now() - min(created_at))::float8 from events where dispatched_at is null) as outbox_age`,
      ]);
      jobsGauge.reset();
      for (const task of tasks.slugs()) for (const state of ['pending', 'processing', 'failed']) jobsGauge.set({ task, state }, 0);
      for (const row of byState) jobsGauge.inc({ task: taskLabel(row.task_slug), state: row.status }, row.n);
      oldestPending.set(Math.max(0, ages[0]?.job_age ?? 0));
      outboxLag.set(Math.max(0, ages[0]?.outbox_age ?? 0));
    } catch {
      scrapeErrors.inc();
    }
  }

  const operationNames = new Set<string>();
  function operationLabel(name: string | null | undefined): string {
    if (!name) return 'anonymous';
    if (!OPERATION_NAME_RE.test(name)) return 'other';
    if (operationNames.has(name)) return name;
    if (operationNames.size >= MAX_OPERATION_NAMES) return 'other';
    operationNames.add(name);
    return name;
  }

  /**
   * Each label combination's series, looked up once: prom-client's observe(labels, value) sorts
   * and joins the label object into its key on every call, on every request. The labels are
   * bounded (see the file's head), so these maps are too.
   */
  const durationSeries = new Map<string, { observe(value: number): void }>();
  const sqlSeries = new Map<string, { observe(value: number): void }>();
  const operationSeries = new Map<string, { observe(value: number): void }>();

  return {
    registry,
    contentType: registry.contentType,
    httpRequest(method, route, status, seconds, sqlStatements) {
      const label = METHODS.has(method) ? method : 'other';
      const cls = statusClass(status);
      const key = `${label} ${cls} ${route}`;
      let duration = durationSeries.get(key);
      if (!duration) durationSeries.set(key, (duration = httpDuration.labels({ method: label, route, status_class: cls })));
      duration.observe(seconds);
      if (sqlStatements !== null) {
        let sql = sqlSeries.get(route);
        if (!sql) sqlSeries.set(route, (sql = sqlPerRequest.labels({ route })));
        sql.observe(sqlStatements);
      }
    },
    rateLimitRefusal(route) {
      rateLimited.inc({ route });
    },
    graphqlOperation(name, errorCode, seconds) {
      const operation = operationLabel(name);
      const code = errorCodeLabel(errorCode);
      const key = `${code} ${operation}`;
      let series = operationSeries.get(key);
      if (!series) operationSeries.set(key, (series = graphqlDuration.labels({ operation, error_code: code })));
      series.observe(seconds);
    },
    job(task, outcome, seconds) {
      jobDuration.observe({ task: taskLabel(task), outcome }, seconds);
    },
    webhookDelivery(outcome) {
      webhookDeliveries.inc({ outcome });
    },
    checkout(outcome) {
      checkouts.inc({ outcome });
    },
    responseCache(outcome, layer) {
      responseCache.inc({ outcome, layer });
    },
    executionSlots(slots) {
      slotSource = slots;
    },
    async text() {
      await collectDatabaseGauges();
      return registry.metrics();
    },
  };
}

// ctx.services.metrics: the core's Services registry (src/services.ts) is filled where each service is defined, by declaration merging.
declare module '../services.js' {
  interface Services {
    /** This app's Prometheus series: one registry per app. */
    metrics: Metrics;
  }
}
