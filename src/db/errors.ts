// Recognizing the database errors that bad input can cause, so services turn them into contract
// errors (409, 404) instead of 500s. Prisma reports them as known request errors with a code.
import { Prisma } from '../generated/prisma/client.js';

function known(error: unknown): Prisma.PrismaClientKnownRequestError | null {
  return error instanceof Prisma.PrismaClientKnownRequestError ? error : null;
}

/** The columns or index a unique violation (P2002) names, as text; null for any other error. */
export function uniqueViolation(error: unknown): string | null {
  const err = known(error);
  if (err?.code !== 'P2002') return null;
  const meta = err.meta as { target?: unknown; driverAdapterError?: { cause?: { constraint?: { fields?: string[]; index?: string } } } } | undefined;
  const constraint = meta?.driverAdapterError?.cause?.constraint;
  const target = meta?.target ?? constraint?.fields ?? constraint?.index ?? '';
  return Array.isArray(target) ? target.join(',') : String(target);
}

/** A foreign key violation (P2003): the row refers to one that does not exist (or is referenced). */
export function isForeignKeyViolation(error: unknown): boolean {
  return known(error)?.code === 'P2003';
}

/** The row an update or delete named does not exist (P2025). */
export function isRecordNotFound(error: unknown): boolean {
  return known(error)?.code === 'P2025';
}

/**
 * The input fields a unique violation is about, for a 409's details: the violated columns
 * (snake_case in the database) as the API's camelCase field names, without the organization
 * column every tenant-scoped key starts with. Never the constraint's own name: that is schema
 * detail a client can neither act on nor should see.
 */
export function conflictingFields(unique: string): string[] {
  return unique
    .split(',')
    .map((column) => column.trim().replace(/^"|"$/g, ''))
    .filter((column) => column && column !== 'organization_id' && column !== 'organizationId' && !column.endsWith('_key') && !column.endsWith('_idx'))
    .map((column) => column.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase()));
}

// Connection-level failures: the database is down, restarting, refusing connections or cut the
// connection. The request was not served and may be retried, so the API answers 503
// SERVICE_UNAVAILABLE (http/app.ts, graphql/yoga.ts' maskError), never a 500: nothing is wrong
// with the request or the code, and the client SDK's queue retries 503s.
const UNAVAILABLE_PRISMA_CODES = new Set(['P1001', 'P1002', 'P1003', 'P1008', 'P1017', 'P2024']);
const UNAVAILABLE_ADAPTER_KINDS = new Set(['DatabaseNotReachable', 'DatabaseDoesNotExist', 'ConnectionClosed', 'SocketTimeout', 'TooManyConnections']);
const UNAVAILABLE_SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH']);
// PostgreSQL SQLSTATEs: 08xxx connection exceptions, 57P01-57P03 shutdown/restart ("cannot
// connect now"), 53300 too many connections, 3D000 the database does not exist.
const UNAVAILABLE_SQLSTATE = /^(08\d{3}|08P01|57P0[123]|53300|3D000)$/;
// node-postgres and pg-pool raise these as plain Errors without a code.
const UNAVAILABLE_MESSAGES =
  /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Can't reach database server|the database system is (starting up|shutting down|in recovery mode)|database ".*" does not exist/i;
// Prisma's P2028 for an interactive transaction that could not get a connection within maxWait,
// or outlived its timeout (rolled back): the server is saturated, the request may be retried.
// Other P2028s (a transaction used after it ended) are bugs and stay 500.
const TRANSACTION_TIMEOUT = /Unable to start a transaction in the given time|expired transaction|timeout for this transaction/i;

/**
 * True when `error` (or anything in its cause chain: ActorResolutionError, GraphQLError's
 * originalError, Prisma's driver-adapter metadata) says the database could not be reached.
 *
 * A database that has gone away (dropped, restored under another name) counts as unreachable, the
 * same 503 the readiness probe gives it: the process booted and migrated against it, so its
 * disappearance is an outage of the server's side, not a bug in the request or the code. Behind
 * PgBouncer the app could not tell it apart anyway: the pooler passes the server's `database "x"
 * does not exist` (3D000 direct, 08P01 through the pooler) to the first client only, then answers
 * `server login has been failing, try again later` (08P01) until its server_login_retry runs
 * out, the same words it uses when PostgreSQL is down. One answer on both paths: 503. A database
 * missing at boot never reaches an HTTP answer (the boot fails). Bad credentials stay 500.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  const seen = new Set<unknown>();
  let current: unknown = error;
  while (current && typeof current === 'object' && !seen.has(current)) {
    seen.add(current);
    const e = current as {
      code?: unknown;
      message?: unknown;
      meta?: { driverAdapterError?: { cause?: { kind?: string; code?: string; originalCode?: string; originalMessage?: string; message?: string } } };
      cause?: unknown;
      originalError?: unknown;
    };
    const code = typeof e.code === 'string' ? e.code : '';
    if (UNAVAILABLE_PRISMA_CODES.has(code) || UNAVAILABLE_SOCKET_CODES.has(code) || UNAVAILABLE_SQLSTATE.test(code)) return true;
    if (code === 'P2028' && typeof e.message === 'string' && TRANSACTION_TIMEOUT.test(e.message)) return true;
    const adapterCause = e.meta?.driverAdapterError?.cause;
    if (adapterCause) {
      if (adapterCause.kind && UNAVAILABLE_ADAPTER_KINDS.has(adapterCause.kind)) return true;
      const sqlState = adapterCause.code ?? adapterCause.originalCode;
      if (sqlState && UNAVAILABLE_SQLSTATE.test(sqlState)) return true;
    }
    if (typeof e.message === 'string' && UNAVAILABLE_MESSAGES.test(e.message)) return true;
    current = e.originalError ?? e.cause;
  }
  return false;
}
