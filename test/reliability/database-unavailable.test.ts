// Which real database errors count as "unavailable" (503, retry) and which stay faults (500).
// The outage itself (server stopped: P1001, refused connections, terminated sessions) is driven
// over HTTP by postgres-restart.test.ts; this file produces the other errors for real with a
// Prisma client on the test server: a saturated pool, a transaction used after its end, a
// missing database, a unique violation.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb, type Db } from '../../src/db/client.js';
import { isDatabaseUnavailable } from '../../src/db/errors.js';
import { createTestDatabase } from '../support/app.js';

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let db: Db;

async function errorOf(work: () => Promise<unknown>): Promise<unknown> {
  try {
    await work();
  } catch (error) {
    return error;
  }
  throw new Error('expected the work to fail');
}

beforeAll(async () => {
  database = await createTestDatabase();
  db = createDb(database.url, { max: 1 }).db;
});
afterAll(async () => {
  await db?.$disconnect();
  await database?.drop();
});

describe('isDatabaseUnavailable on real errors', () => {
  it('a transaction that cannot get a connection in time (saturated pool) is unavailable: 503, retry', async () => {
    let release!: () => void;
    let holding!: () => void;
    const isHolding = new Promise<void>((resolve) => (holding = resolve));
    // The pool's only connection, held (a generous maxWait: a loaded machine connects slowly).
    const held = db.$transaction(
      async (tx) => {
        await tx.$queryRaw`select 1`;
        holding();
        await new Promise<void>((resolve) => (release = resolve));
      },
      { maxWait: 30_000, timeout: 60_000 },
    );
    await isHolding;
    const error = await errorOf(() => db.$transaction(async (tx) => tx.$queryRaw`select 1`, { maxWait: 100 }));
    release();
    await held;
    expect((error as { code?: string }).code).toBe('P2028');
    expect(isDatabaseUnavailable(error)).toBe(true);
  });

  it('a transaction client used after its transaction ended is a bug, not an outage', async () => {
    let leaked!: Parameters<Parameters<Db['$transaction']>[0]>[0];
    await db.$transaction(
      async (tx) => {
        leaked = tx;
      },
      { maxWait: 30_000 },
    );
    const error = await errorOf(() => leaked.$queryRaw`select 1`);
    expect((error as { code?: string }).code).toBe('P2028');
    expect(isDatabaseUnavailable(error)).toBe(false);
  });

  // A database gone from under a booted process is the outage the readiness probe reports (503):
  // behind PgBouncer the pooler reports it in the words of a down server (db/errors.ts).
  it('a database that does not exist (dropped under a running process) is unavailable: 503', async () => {
    const url = new URL(database.url);
    url.pathname = '/commerce_no_such_database';
    const missing = createDb(url.toString()).db;
    const error = await errorOf(() => missing.$queryRaw`select 1`);
    await missing.$disconnect();
    expect(isDatabaseUnavailable(error)).toBe(true);
  });

  it('a constraint violation is not an outage', async () => {
    const error = await errorOf(() => db.$executeRawUnsafe('select 1/0'));
    expect(isDatabaseUnavailable(error)).toBe(false);
  });

  it('a refused connection is', async () => {
    const url = new URL(database.url);
    url.port = '1';
    const nowhere = createDb(url.toString()).db;
    const error = await errorOf(() => nowhere.$queryRaw`select 1`);
    await nowhere.$disconnect();
    expect(isDatabaseUnavailable(error)).toBe(true);
  });
});
