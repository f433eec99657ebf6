// Transactions for order writes: generous waits (checkout holds row locks while the payment
// provider answers), and a retry when PostgreSQL picks the transaction as a deadlock or
// serialization victim — a concurrency outcome, not the caller's fault, so never a 5xx.
import { directTransaction, type Db, type Tx } from '../../db/client.js';
import { Prisma } from '../../generated/prisma/client.js';

const RETRYABLE_SQLSTATES = new Set(['40P01', '40001']);
const ATTEMPTS = 3;

export function isRetryableConflict(error: unknown): boolean {
  if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === 'P2034') return true;
  const seen = new Set<unknown>();
  let current: unknown = error;
  while (current && typeof current === 'object' && !seen.has(current)) {
    seen.add(current);
    const record = current as { code?: unknown; originalCode?: unknown; cause?: unknown; meta?: { driverAdapterError?: unknown } };
    if (typeof record.code === 'string' && RETRYABLE_SQLSTATES.has(record.code)) return true;
    if (typeof record.originalCode === 'string' && RETRYABLE_SQLSTATES.has(record.originalCode)) return true;
    current = record.cause ?? record.meta?.driverAdapterError;
  }
  return false;
}

export interface TxOptions {
  /** Waiting for a pooled connection (ms). */
  maxWait?: number;
  /** The whole transaction (ms). */
  timeout?: number;
}

export async function inTransaction<T>(db: Db, fn: (tx: Tx) => Promise<T>, options: TxOptions = {}): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await directTransaction(db, fn, { maxWait: options.maxWait ?? 15_000, timeout: options.timeout ?? 30_000 });
    } catch (error) {
      if (attempt >= ATTEMPTS || !isRetryableConflict(error)) throw error;
    }
  }
}
