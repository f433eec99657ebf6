// Raw statements on the hot write paths (carts, checkout, and the price, tax and stock statements
// they run), sent straight through node-postgres: on the connection of a transaction opened with
// directTransaction, on the pool for the root client, and through Prisma's $queryRaw /
// $executeRaw for any other client. Either way the caller gets what $queryRaw would give: the
// parameters go over the wire as Prisma's adapter sends them (a Date as UTC wall-clock text, a
// bigint or Decimal as text, an object as JSON) and the rows come back as Prisma decodes them
// (int8 → BigInt, numeric → Decimal, timestamps → Date read as UTC, date → Date at UTC midnight,
// bytea → Uint8Array; json parsed; uuid, text and enums as strings). A failing statement rejects
// with node-postgres' error (its SQLSTATE in `code`, which the retry and conflict checks read).
//
// Why: Prisma spends about twice node-postgres' CPU on each raw statement (serializing the
// parameters to JSON and back, its query interpreter, decoding the result by column type); a
// checkout visit sends twenty of them.
import pg from 'pg';
import { Prisma } from '../generated/prisma/client.js';
import { directTarget, queryCounted, type Db, type Tx } from './client.js';

/** Prisma's text for a Date parameter (adapter-pg formatDateTime): UTC, no zone, milliseconds only when set. */
function prismaDateTime(date: Date): string {
  const pad = (n: number, z = 2) => String(n).padStart(z, '0');
  const ms = date.getUTCMilliseconds();
  return `${pad(date.getUTCFullYear(), 4)}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())} ${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())}:${pad(date.getUTCSeconds())}${ms ? `.${String(ms).padStart(3, '0')}` : ''}`;
}

/** JSON of an object parameter as Prisma writes it (a bigint inside becomes its decimal text). */
function jsonOf(value: object): string {
  return JSON.stringify(value, (_key, v: unknown) => (typeof v === 'bigint' ? v.toString() : v));
}

/** One parameter as Prisma's raw-query path hands it to node-postgres. */
function parameter(value: unknown): unknown {
  if (value === null || value === undefined) return null;
  if (Array.isArray(value)) return value.map(parameter);
  if (value instanceof Date) {
    if (Number.isNaN(value.getTime())) throw new Prisma.PrismaClientValidationError('Provided Date object is invalid', { clientVersion: Prisma.prismaVersion.client });
    return prismaDateTime(value);
  }
  if (typeof value === 'bigint') return value.toString();
  if (Prisma.Decimal.isDecimal(value)) return (value as Prisma.Decimal).toJSON();
  if (Buffer.isBuffer(value)) return value;
  if (ArrayBuffer.isView(value)) return Buffer.from(value.buffer, value.byteOffset, value.byteLength);
  if (value instanceof ArrayBuffer) return Buffer.from(value);
  // Prisma sends an object as JSON text, in an array too (node-postgres would write it as an array literal there).
  if (typeof value === 'object') return jsonOf(value);
  // Prisma's parameters pass through JSON, where a non-finite number is null.
  if (typeof value === 'number' && !Number.isFinite(value)) return null;
  return value;
}

// Result decoding: node-postgres' own parsers where they agree with Prisma, Prisma's rules where not.
// text[] (OID 1009): node-postgres' array parser, each element left as text.
const textArray = (pg.types.getTypeParser as (oid: number) => (text: string) => unknown)(1009);
function eachOf(parse: (text: string) => unknown): (text: string) => unknown {
  const walk = (v: unknown): unknown => (v === null ? null : Array.isArray(v) ? v.map(walk) : parse(v as string));
  return (text) => walk(textArray(text));
}
const utc = (text: string) => new Date(`${text.replace(' ', 'T')}+00:00`);
// adapter-pg reads a timestamptz's wall clock as UTC whatever its offset (the session is UTC).
const utcOfTz = (text: string) => new Date(text.replace(' ', 'T').replace(/[+-]\d{2}(:\d{2})?$/, '+00:00'));
const time = (text: string) => new Date(`1970-01-01T${text}Z`);
const decimal = (text: string) => new Prisma.Decimal(text);
const parseBytes = pg.types.getTypeParser(pg.types.builtins.BYTEA) as (text: string) => Buffer;
const bytes = (text: string) => new Uint8Array(parseBytes(text));
const PARSERS: Record<number, (text: string) => unknown> = {
  20: BigInt, // int8
  26: BigInt, // oid
  1016: eachOf(BigInt),
  1028: eachOf(BigInt),
  1700: decimal, // numeric
  1231: eachOf(decimal),
  790: (text) => decimal(text.slice(1)), // money
  791: eachOf((text) => decimal(text.slice(1))),
  1082: (text) => new Date(text), // date: UTC midnight
  1182: eachOf((text) => new Date(text)),
  1114: utc, // timestamp
  1115: eachOf(utc),
  1184: utcOfTz, // timestamptz
  1185: eachOf(utcOfTz),
  1083: time,
  1183: eachOf(time),
  1266: (text) => time(text.replace(/[+-]\d{2}(:\d{2})?$/, '')), // timetz
  17: bytes,
  1001: eachOf((text) => bytes(text)),
};
const types = {
  getTypeParser: ((oid: number, format?: string) =>
    (format ?? 'text') === 'text' && PARSERS[oid] ? PARSERS[oid] : pg.types.getTypeParser(oid, format as 'text')) as typeof pg.types.getTypeParser,
};

async function send(db: Db | Tx, sql: Prisma.Sql): Promise<pg.QueryResult | null> {
  const target = directTarget(db);
  if (target === undefined) return null;
  if (target === 'closed')
    throw new Prisma.PrismaClientKnownRequestError('Transaction already closed: A query cannot be executed on an expired transaction (direct statement).', {
      code: 'P2028',
      clientVersion: Prisma.prismaVersion.client,
    });
  return queryCounted(target.queryable, target.counter, { text: sql.text, values: sql.values.map((v) => parameter(v)), types });
}

/** The rows of `sql`, as `db.$queryRaw(sql)` answers them (see the header). */
export async function rawQuery<T>(db: Db | Tx, sql: Prisma.Sql): Promise<T[]> {
  const result = await send(db, sql);
  return result ? (result.rows as T[]) : (db as Db).$queryRaw<T[]>(sql);
}

/** The number of rows `sql` changed, as `db.$executeRaw(sql)` answers it. */
export async function rawExecute(db: Db | Tx, sql: Prisma.Sql): Promise<number> {
  const result = await send(db, sql);
  return result ? (result.rowCount ?? 0) : (db as Db).$executeRaw(sql);
}
