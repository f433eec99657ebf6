// Read replicas (DATABASE_REPLICA_URLS; README: Scaling → Read replicas). Each replica gets a
// Prisma client and pool of its own (createDb). Catalog, search, analytics and report reads are
// sent to them round robin; a replica that fails its health check (reachable, still a standby,
// replay lag within maxLagMs) or a request is left out until it passes again, and with none
// healthy the primary answers.
//
// Streaming replicas lag: a caller who just wrote must read its write. The HTTP layer records
// each caller's last write and sends that caller's reads to the primary for readYourWritesMs
// (db/read-your-writes.ts); other callers may see the old rows for as long as the lag lasts.
import { createDb, type Db } from './client.js';

export interface Replica {
  url: string;
  db: Db;
  healthy: boolean;
  /** Replay lag at the last health check, in ms (null: not checked yet, or unreachable). */
  lagMs: number | null;
}

export interface ReplicaSet {
  /** The next healthy replica's client, or null (none configured or none healthy). */
  pick(): Replica | null;
  /** A request on this replica failed for want of the database: leave it out until it passes a check. */
  markDown(replica: Replica): void;
  replicas: readonly Replica[];
  /** Runs one round of health checks now (tests; the timer runs them every healthIntervalMs). */
  check(): Promise<void>;
  close(): Promise<void>;
}

export interface ReplicaOptions {
  healthIntervalMs: number;
  /** Longest wait for a replica connection: a dead replica must fail fast, the primary still answers. */
  connectTimeoutMs: number;
  /**
   * A replica whose replay lag exceeds this is left out until it catches up: reads it would
   * answer are older than callers may be shown. Unset: no limit.
   */
  maxLagMs?: number;
  max?: number;
  countStatements?: boolean;
}

const CHECK_TIMEOUT_MS = 1000;

/**
 * Replay lag measured on the standby itself (no access to the primary needed): nothing received
 * is left to replay -> 0; otherwise the age of the last transaction it replayed. That overstates
 * the lag of a standby whose primary was idle before the pending write (its last replayed
 * transaction is old), which errs on the side of the primary answering; a standby that has
 * replayed no transaction since it started has no timestamp and counts as caught up.
 */
const LAG_SQL = `select pg_is_in_recovery() as standby,
  case when pg_last_wal_receive_lsn() is not distinct from pg_last_wal_replay_lsn() then 0
       else coalesce(extract(epoch from clock_timestamp() - pg_last_xact_replay_timestamp()) * 1000, 0)
  end::float8 as lag_ms`;

export function createReplicaSet(urls: readonly string[], options: ReplicaOptions): ReplicaSet {
  const replicas: Replica[] = urls.map((url) => ({
    url,
    db: createDb(url, { max: options.max, connectTimeoutMs: options.connectTimeoutMs, countStatements: options.countStatements }).db,
    // Healthy until a check says otherwise: the first requests need not wait for one.
    healthy: true,
    lagMs: null,
  }));
  let next = 0;

  async function checkOne(replica: Replica): Promise<void> {
    try {
      const rows = await Promise.race([
        replica.db.$queryRawUnsafe<Array<{ standby: boolean; lag_ms: number }>>(LAG_SQL),
        new Promise<never>((_, reject) => setTimeout(() => reject(new Error('replica health check timed out')), CHECK_TIMEOUT_MS).unref()),
      ]);
      const row = rows[0];
      replica.lagMs = row ? Math.max(0, row.lag_ms) : null;
      // A promoted replica is no longer fed by the primary: it would answer with a diverging past.
      // One further behind than maxLagMs would answer with too old a past: left out until it catches up.
      replica.healthy = row?.standby === true && (options.maxLagMs === undefined || replica.lagMs === null || replica.lagMs <= options.maxLagMs);
    } catch {
      replica.healthy = false;
      replica.lagMs = null;
    }
  }

  const check = async () => {
    await Promise.all(replicas.map(checkOne));
  };
  const timer = replicas.length ? setInterval(() => void check(), options.healthIntervalMs) : null;
  timer?.unref();

  return {
    replicas,
    pick() {
      for (let i = 0; i < replicas.length; i += 1) {
        const replica = replicas[(next + i) % replicas.length];
        if (replica?.healthy) {
          next = (next + i + 1) % replicas.length;
          return replica;
        }
      }
      return null;
    },
    markDown(replica) {
      replica.healthy = false;
    },
    check,
    async close() {
      if (timer) clearInterval(timer);
      await Promise.all(replicas.map((r) => r.db.$disconnect().catch(() => undefined)));
    },
  };
}
