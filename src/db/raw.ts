// Raw SQL reads on the hot paths, sent straight to node-postgres when the client has a pool of
// its own (sqlPool), through Prisma's $queryRaw otherwise (inside a transaction, whose connection
// only Prisma holds). Same SQL, same rows: timestamptz → Date, json/jsonb → parsed, uuid and text
// → string, int4 → number in both. Not for int8 or numeric columns (node-postgres returns
// strings where $queryRaw returns BigInt/Decimal): cast them in the SQL or use $queryRaw.
//
// Why: Prisma spends about as much CPU again as node-postgres on each raw statement (its
// interpreter, result deserialization by column type, tracing hooks); the catalog's include
// statements run on every list page.
import type pg from 'pg';
import type { Prisma } from '../generated/prisma/client.js';
import { sqlPool, type Db, type Tx } from './client.js';
import { rawReadTypes } from './timestamps.js';

/**
 * `name`: a statement whose text never changes (only its values) may be named, so each pooled
 * connection parses and plans it once and then only binds it (node-postgres prepared
 * statements). sqlPool sends it unnamed behind PgBouncer in transaction mode (`?pgbouncer=true`).
 */
export async function queryRows<T>(db: Db | Tx, sql: Prisma.Sql, name?: string): Promise<T[]> {
  const pool = sqlPool(db);
  if (!pool) return (db as Db).$queryRaw<T[]>(sql);
  return poolRows<T>(pool, sql.text, sql.values as unknown[], name);
}

/** A named statement whose text is a constant: only its values change from call to call. */
export interface Statement {
  name: string;
  text: string;
}

/**
 * queryRows for a constant statement: no Prisma.Sql is built per call (its constructor copies
 * the template's strings and values, and its `text` getter joins them again on every read:
 * ~2 KB of garbage per call, on reads made on every request). Same rows as queryRows.
 */
export async function statementRows<T>(db: Db | Tx, statement: Statement, values: unknown[]): Promise<T[]> {
  const pool = sqlPool(db);
  if (!pool) return (db as Db).$queryRawUnsafe<T[]>(statement.text, ...values);
  return poolRows<T>(pool, statement.text, values, statement.name);
}

async function poolRows<T>(pool: NonNullable<ReturnType<typeof sqlPool>>, text: string, values: unknown[], name: string | undefined): Promise<T[]> {
  // timestamptz decoded by db/timestamps.ts (the same Date, without postgres-date's regular expressions).
  const types = rawReadTypes as pg.CustomTypesConfig;
  const result = await pool.query(name ? { name, text, values, types } : { text, values, types });
  return result.rows as T[];
}
