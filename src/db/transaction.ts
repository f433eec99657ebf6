// Transactions that compose. Every audited operation runs inside one transaction opened by the
// route builder (src/graphql/operation.ts), and hands its handler a context whose `db` is that
// transaction's client. Services still write `withTransaction(ctx, async (tx) => ...)` (or the
// older `ctx.db.$transaction(...)`): at the top level that opens a transaction; inside one, Prisma 7
// runs it as a nested transaction on the same connection (a SAVEPOINT, so an error caught inside
// rolls back only the nested part). The checkout calls other modules' services the same way,
// passing `inTransaction(ctx, tx)`, so stock, promotion usage and its order commit together.
//
// Prisma refuses two nested transactions running at once on one transaction ("Concurrent nested
// transactions are not supported"): inside a transaction, call services one after another, not
// through Promise.all.
import type { Db, Tx } from './client.js';

/** A root client or the client of an open transaction: what services accept as `ctx.db`. */
export type DbClient = Db | Tx;

/**
 * What a service needs from a request: who acts, for which organization, and a client that may
 * be a transaction's. Seeds, jobs and benches build one without HTTP.
 */
export type ServiceContext = RequestScope & { db: DbClient };

/**
 * Who acts, for which organization, in which request. A registry: its members are the request
 * context's (src/context.ts adds them by declaration merging), since those types live above the
 * database layer.
 */
// biome-ignore lint/suspicious/noEmptyInterface: a registry, empty here and filled by declaration merging
export interface RequestScope {}

/**
 * How long an operation's transaction may wait for a pooled connection and may stay open. Wider
 * than Prisma's defaults (2 s / 5 s): on a loaded machine a burst of writes queues for the pool.
 */
export const TRANSACTION_OPTIONS = { maxWait: 10_000, timeout: 30_000 } as const;

/** Runs `fn` in a transaction: a new one, or a nested one when `ctx.db` is already a transaction. */
export function withTransaction<T>(ctx: { db: DbClient }, fn: (tx: Tx) => Promise<T>): Promise<T> {
  // The transaction client has $transaction at run time (nested transactions); its type omits it.
  const client = ctx.db as Db;
  // A fresh options object per call: Prisma writes the parent transaction's id into the options
  // of a nested call, and a shared object would make later top-level calls "nest" in a closed one.
  return client.$transaction(fn, { ...TRANSACTION_OPTIONS });
}

/** The same context with `db` bound to a transaction, for services called inside it. */
export function inTransaction<C extends { db: unknown }>(ctx: C, tx: Tx): C {
  return { ...ctx, db: tx as unknown as C['db'] };
}
