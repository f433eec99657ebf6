// Health probes, split the way orchestrators use them:
//   GET /api/health        liveness: the process serves requests. `{ status: "ok", version }`
//                          whatever the database does, so a database outage does not get every
//                          API process restarted (that would not bring the database back).
//   GET /api/health/ready  readiness: the database answers (within a timeout, so a hung database
//                          cannot hang the probe) and every migration shipped with this version is
//                          applied; 503 with what is missing otherwise, so a load balancer sends
//                          traffic only to processes that can serve it; and 503 from SIGTERM on
//                          (draining), so it leaves rotation while it still answers.
// A 503 is the error envelope with the checks beside it (`status`, `database`, `migrations`,
// `draining`: the fields probes and dashboards already read) and Retry-After, like every 503.
import fs from 'node:fs';
import type { Db } from '../db/client.js';
import { errorBody } from '../errors.js';
import { MIGRATIONS_DIR } from '../paths.js';
import { DATABASE_UNAVAILABLE } from './rest-errors.js';

const PROBE_TIMEOUT_MS = 2000;

export function livenessResponse(version: string): Response {
  return Response.json({ status: 'ok', version });
}

let shipped: string[] | null = null;
/** The migration folders this version ships (read once: they do not change under a running process). */
function shippedMigrations(): string[] {
  shipped ??= fs
    .readdirSync(MIGRATIONS_DIR, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && fs.existsSync(`${MIGRATIONS_DIR}/${entry.name}/migration.sql`))
    .map((entry) => entry.name)
    .sort();
  return shipped;
}

async function withTimeout<T>(promise: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('database probe timed out')), PROBE_TIMEOUT_MS);
  });
  try {
    return await Promise.race([promise, timeout]);
  } catch (error) {
    promise.catch(() => undefined);
    throw error;
  } finally {
    clearTimeout(timer);
  }
}

function notReady(message: string, checks: Record<string, unknown>): Response {
  return Response.json(
    { ...errorBody('SERVICE_UNAVAILABLE', message), status: 'error', ...checks },
    { status: 503, headers: { 'retry-after': String(DATABASE_UNAVAILABLE.retryAfterSeconds) } },
  );
}

export function drainingResponse(version: string): Response {
  return notReady('Shutting down: this process answers what it has and takes no new traffic', { version, draining: true });
}

export async function readinessResponse(db: Db, version: string): Promise<Response> {
  let applied: Set<string>;
  try {
    const rows = await withTimeout(
      db.$queryRaw<Array<{ migration_name: string }>>`select migration_name from _prisma_migrations where finished_at is not null and rolled_back_at is null`,
    );
    applied = new Set(rows.map((row) => row.migration_name));
  } catch {
    return notReady(DATABASE_UNAVAILABLE.message, { version, database: 'unreachable' });
  }
  const pending = shippedMigrations().filter((name) => !applied.has(name));
  if (pending.length) return notReady(`Migrations not applied: ${pending.join(', ')}`, { version, database: 'ok', migrations: { pending } });
  return Response.json({ status: 'ok', version, database: 'ok', migrations: { pending: [] } });
}
