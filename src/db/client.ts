// Prisma client factory: Prisma 7's Rust-free client over node-postgres (@prisma/adapter-pg).
import '../runtime-flags.js'; // first: V8 flags before Prisma's WebAssembly compiles
import { PrismaPg } from '@prisma/adapter-pg';
import { ScopedStorage } from '../async-storage.js';
import { queryDescribed, type StatementConfig } from './described-statement.js';
import pg from 'pg';
import { trace } from '@opentelemetry/api';
import { inSpan, SpanKind, tracingActive } from '../observability/trace-context.js';
import { PrismaClient } from '../generated/prisma/client.js';
import type { Config } from '../config/index.js';
import { EMBEDDED_DATABASE, ensureDatabase, startEmbeddedPostgres, urlFor } from './embedded.js';

export type Db = PrismaClient;
/** What a service receives inside `db.$transaction(async (tx) => ...)`. */
export type Tx = Parameters<Parameters<PrismaClient['$transaction']>[0]>[0];
export { PrismaClient };

export interface SqlCounter {
  /** Statements sent since the process started; tests and benches read deltas of it. */
  statements: number;
  /**
   * Round trips to PostgreSQL since the process started: every query a pooled connection sends,
   * including what Prisma's query log leaves out (BEGIN, SAVEPOINT, RELEASE SAVEPOINT). Counted
   * only with `countStatements`.
   */
  roundTrips: number;
}

export interface DbOptions {
  /** Pool size; the server and the worker each hold their own pool. */
  max?: number;
  /** Count statements (query-count probes); costs an event per statement. */
  countStatements?: boolean;
  /**
   * Longest wait for a connection (a new one, or a free slot in the pool). Without a bound a
   * request would hang for as long as the database does not answer (a half-open connection, a
   * server that accepts but never completes start-up); with it the request fails and is
   * answered 503 (db/errors.ts isDatabaseUnavailable).
   */
  connectTimeoutMs?: number;
}

export const DEFAULT_CONNECT_TIMEOUT_MS = 10_000;

/**
 * Round trips sent inside a scope: the HTTP app opens one around the requests it samples for the
 * SQL-statements-per-request histogram (observability/request-observer.ts). Enabled only while
 * such a request is in flight (src/async-storage.ts).
 */
export const statementScope = new ScopedStorage<{ statements: number }>();

/**
 * `?pgbouncer=true` on a connection URL (Prisma's convention): the URL reaches PostgreSQL through
 * PgBouncer in transaction mode, where a connection's session does not outlive a transaction, so
 * a named prepared statement parsed on one server connection is unknown on the next. PgBouncer
 * 1.21+ with max_prepared_statements tracks them itself and needs no flag; Debian's 1.18 does not.
 * The flag is taken off the URL (node-postgres would send it to the server as a setting).
 */
export function pgbouncerUrl(url: string): { url: string; pgbouncer: boolean } {
  if (!/[?&]pgbouncer=true(&|$)/.test(url)) return { url, pgbouncer: false };
  const parsed = new URL(url);
  parsed.searchParams.delete('pgbouncer');
  return { url: parsed.toString(), pgbouncer: true };
}

export function createDb(rawUrl: string, options: DbOptions = {}): { db: Db; counter: SqlCounter } {
  const { url, pgbouncer } = pgbouncerUrl(rawUrl);
  // The pool is created here and handed to the adapter (which ends it on $disconnect) so that a
  // hot path can send SQL on the same connections without Prisma's per-statement work (sqlPool).
  const pool = new pg.Pool({ connectionString: url, max: options.max ?? 10, connectionTimeoutMillis: options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS });
  // An idle connection the server closes (restart, database dropped) makes the pool emit 'error';
  // unheard, that would crash the process. The adapter listens only once Prisma has connected,
  // and sqlPool may use the pool before that. The pool drops the broken client either way, and
  // the next statement opens a new one (or fails and is answered as an outage).
  pool.on('error', () => undefined);
  // Each connection's query() counts into the request's statement scope, when one is open.
  pool.on('connect', (client) => {
    const query = client.query.bind(client) as (...args: unknown[]) => unknown;
    (client as unknown as { query: (...args: unknown[]) => unknown }).query = (...args: unknown[]) => {
      const scope = statementScope.getStore();
      if (scope) scope.statements += 1;
      return query(...args);
    };
  });
  const adapter = new PrismaPg(pool, { disposeExternalPool: true });
  captureTransactionConnections(adapter);
  const counter: SqlCounter = { statements: 0, roundTrips: 0 };
  if (!options.countStatements) {
    const db = new PrismaClient({ adapter });
    pools.set(db, { pool, counter: null, pgbouncer });
    return { db, counter };
  }
  // Counting (tests, bench): each connection's query() is one round trip whatever sent it
  // (Prisma, sqlPool, BEGIN/COMMIT/SAVEPOINT, which Prisma's statement log leaves out).
  pool.on('connect', (client) => {
    const query = client.query.bind(client) as (...args: unknown[]) => unknown;
    (client as unknown as { query: (...args: unknown[]) => unknown }).query = (...args: unknown[]) => {
      counter.roundTrips += 1;
      return query(...args);
    };
  });
  const db = new PrismaClient({ adapter, log: [{ emit: 'event', level: 'query' }] });
  db.$on('query', () => {
    counter.statements += 1;
  });
  pools.set(db, { pool, counter, pgbouncer });
  return { db, counter };
}

const pools = new WeakMap<object, { pool: pg.Pool; counter: SqlCounter | null; pgbouncer: boolean }>();

/**
 * The pooled connection an interactive transaction runs on, known to `directTransaction` callers
 * (db/direct.ts sends their hot statements on it without Prisma's per-statement work). `open`
 * turns false the moment Prisma sends COMMIT or ROLLBACK (a commit, a rollback, its own timeout),
 * so a late direct statement is refused instead of running on a connection back in the pool.
 */
interface TxConnection {
  client: pg.PoolClient | null;
  open: boolean;
  counter: SqlCounter | null;
}
const capturing = new ScopedStorage<TxConnection>();
const txConnections = new WeakMap<object, TxConnection>();

/**
 * Lets the adapter tell which connection a transaction started inside `directTransaction` got:
 * Prisma calls startTransaction in the caller's async context, where the holder waits.
 */
function captureTransactionConnections(adapter: PrismaPg): void {
  const connect = adapter.connect.bind(adapter);
  adapter.connect = async () => {
    const driver = await connect();
    const start = driver.startTransaction.bind(driver);
    driver.startTransaction = async (isolationLevel) => {
      const transaction = await start(isolationLevel);
      const holder = capturing.getStore();
      // The first transaction of the scope only: a service inside it that opens a transaction of
      // its own on the root client gets another connection, which is not the holder's.
      if (holder && !holder.client) {
        holder.client = (transaction as unknown as { client: pg.PoolClient }).client;
        holder.open = true;
        const close = () => {
          holder.open = false;
        };
        const executeRaw = transaction.executeRaw.bind(transaction);
        transaction.executeRaw = (query) => {
          if (query.sql === 'COMMIT' || query.sql === 'ROLLBACK') close();
          return executeRaw(query);
        };
        const commit = transaction.commit.bind(transaction);
        const rollback = transaction.rollback.bind(transaction);
        transaction.commit = () => (close(), commit());
        transaction.rollback = () => (close(), rollback());
      }
      return transaction;
    };
    return driver;
  };
}

/**
 * `db.$transaction(fn, options)`, with the transaction's connection known to db/direct.ts, which
 * then sends statements on it straight through node-postgres. Inside a transaction already
 * (db is a transaction client) it nests as $transaction does (a SAVEPOINT on the same connection).
 */
export function directTransaction<T>(db: Db | Tx, fn: (tx: Tx) => Promise<T>, options?: { maxWait?: number; timeout?: number }): Promise<T> {
  const outer = txConnections.get(db);
  const client = db as Db;
  if (outer) {
    return client.$transaction((tx) => {
      txConnections.set(tx, outer);
      return fn(tx);
    }, options);
  }
  const entry = pools.get(db);
  if (!entry) return client.$transaction(fn, options);
  const holder: TxConnection = { client: null, open: false, counter: entry.counter };
  return capturing.run(holder, () =>
    client.$transaction((tx) => {
      if (holder.client) txConnections.set(tx, holder);
      return fn(tx);
    }, options),
  );
}

/** Where db/direct.ts sends a statement for `db`: the transaction's own connection, the root client's pool, or nowhere (Prisma then). */
export function directTarget(db: unknown): { queryable: pg.PoolClient | pg.Pool; counter: SqlCounter | null } | 'closed' | undefined {
  const connection = txConnections.get(db as object);
  if (connection) return connection.open && connection.client ? { queryable: connection.client, counter: connection.counter } : 'closed';
  const entry = pools.get(db as object);
  return entry ? { queryable: entry.pool, counter: entry.counter } : undefined;
}

/**
 * The node-postgres pool under a client made by createDb, for the few hot statements that are
 * worth sending directly (the job queue's claim and completion: Prisma's per-statement cost is
 * most of the worker's CPU there). Statements sent through it count in the SqlCounter like
 * Prisma's. Undefined for a transaction client or a client made elsewhere: use Prisma then.
 */
export function sqlPool(db: unknown): { query(config: StatementConfig): Promise<{ rows: unknown[] }> } | undefined {
  const entry = pools.get(db as object);
  if (!entry) return undefined;
  const { pool, counter, pgbouncer } = entry;
  return {
    // Behind PgBouncer in transaction mode a statement name is dropped: parsed each time.
    query: (named: StatementConfig) => queryCounted(pool, counter, pgbouncer && named.name ? { ...named, name: undefined } : named),
  };
}

/**
 * One statement sent straight through node-postgres (sqlPool, db/direct.ts), counted in the
 * SqlCounter like Prisma's. Such statements bypass Prisma, so Prisma's instrumentation never sees
 * them, and @opentelemetry/instrumentation-pg cannot hook pg loaded as an ES module: they get their
 * span here, only inside a traced operation (a polling claim with no parent stays unspanned).
 */
export function queryCounted(queryable: pg.Pool | pg.PoolClient, counter: SqlCounter | null, config: StatementConfig): Promise<pg.QueryResult> {
  if (counter) counter.statements += 1;
  // A named statement is described once per connection (db/described-statement.ts).
  const run = () => queryDescribed(queryable, config);
  if (!tracingActive() || !trace.getActiveSpan()) return run();
  return inSpan(config.name ? `pg.query ${config.name}` : 'pg.query', { kind: SpanKind.CLIENT, attributes: { 'db.system': 'postgresql', 'db.statement': config.text } }, run);
}

/** The pool's connections now (metrics): all open, idle, and callers waiting for one. */
export function poolStats(db: unknown): { total: number; idle: number; waiting: number } | undefined {
  const pool = pools.get(db as object)?.pool;
  return pool ? { total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount } : undefined;
}

export interface ResolvedDatabase {
  url: string;
  embedded: boolean;
  /** Stops the embedded cluster when this process started it; a no-op otherwise. */
  release(): Promise<void>;
}

/** DATABASE_URL when set; otherwise the embedded PostgreSQL under DATA_DIR, started or reused. */
export async function resolveDatabase(config: Pick<Config, 'databaseUrl' | 'dataDir'>, log?: (m: string) => void): Promise<ResolvedDatabase> {
  if (config.databaseUrl) return { url: config.databaseUrl, embedded: false, release: async () => undefined };
  const handle = await startEmbeddedPostgres({ dataDir: config.dataDir, log });
  await ensureDatabase(handle.adminUrl, EMBEDDED_DATABASE);
  return { url: urlFor(handle.port, EMBEDDED_DATABASE), embedded: true, release: () => handle.stop() };
}
