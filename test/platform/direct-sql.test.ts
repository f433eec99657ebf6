// db/direct.ts: statements sent straight through node-postgres answer what Prisma's $queryRaw
// answers (same parameters on the wire, same decoded values), run on the transaction's own
// connection inside directTransaction (so they commit and roll back with Prisma's statements),
// count as statements, and are refused once the transaction is over.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb, directTransaction, type Db, type SqlCounter, type Tx } from '../../src/db/client.js';
import { rawExecute, rawQuery } from '../../src/db/direct.js';
import { Prisma } from '../../src/generated/prisma/client.js';
import { createTestDatabase } from '../support/app.js';

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let db: Db;
let counter: SqlCounter;

beforeAll(async () => {
  database = await createTestDatabase();
  ({ db, counter } = createDb(database.url, { max: 4, countStatements: true }));
  await db.$executeRawUnsafe('create table direct_probe (id int primary key, note text)');
});
afterAll(async () => {
  await db?.$disconnect();
  await database?.drop();
});

const when = new Date(Date.UTC(2026, 10, 26, 12, 34, 56, 789));
/** Every column type the hot paths read, and parameters of every JS type Prisma accepts. */
const probe = () => Prisma.sql`
  select 1::int2 as i2, 2::int4 as i4, 9007199254740993::int8 as i8, 1.5::float8 as f8, 12.3400::numeric as num, true as flag,
    'text'::text as t, 'a1b2c3d4-0000-4000-8000-000000000001'::uuid as u, 'confirmed'::order_status as enum_value,
    ${when}::timestamptz as tstz, ${when}::timestamp as ts, ${when}::date as d, '12:30:00'::time as tm,
    '{"a":[1,2],"b":null}'::jsonb as jb, json_build_object('n', 1) as j,
    array['x', null, 'z']::text[] as texts, array[1, 2]::int4[] as ints, array[3, 4]::int8[] as bigs, array['a1b2c3d4-0000-4000-8000-000000000002']::uuid[] as uuids,
    array[${when}]::timestamptz[] as stamps, array[1.25]::numeric[] as nums, '\\x0102'::bytea as bin,
    ${123n}::int8 as bigint_param, ${new Prisma.Decimal('4.50')}::numeric as decimal_param, ${{ k: 'v', n: 2n }}::jsonb as object_param,
    ${['p', 'q']}::text[] as array_param, ${[when]}::timestamptz[] as date_array_param, ${null}::text as null_param, ${7}::int as number_param,
    ${false}::boolean as bool_param, ${Buffer.from([5, 6])}::bytea as buffer_param, ${[{ x: 1 }]}::jsonb[] as object_array_param,
    null::int8 as null_bigint, count(*) as counted`;

describe('direct statements', () => {
  it('answer what $queryRaw answers, at the root and inside a transaction', async () => {
    const viaPrisma = await db.$queryRaw<Record<string, unknown>[]>(probe());
    const direct = await rawQuery<Record<string, unknown>>(db, probe());
    expect(direct).toStrictEqual(viaPrisma);
    expect(Object.keys(direct[0]!)).toEqual(Object.keys(viaPrisma[0]!));
    expect(typeof direct[0]!.i8).toBe('bigint');
    expect(direct[0]!.num).toBeInstanceOf(Prisma.Decimal);
    expect((direct[0]!.tstz as Date).toISOString()).toBe(when.toISOString());
    const inTx = await directTransaction(db, async (tx) => ({
      prisma: await tx.$queryRaw<Record<string, unknown>[]>(probe()),
      direct: await rawQuery<Record<string, unknown>>(tx, probe()),
    }));
    expect(inTx.direct).toStrictEqual(inTx.prisma);
    expect(inTx.direct).toStrictEqual(viaPrisma);
    // A session in another time zone: Dates go over the wire and come back as Prisma's do.
    const zoned = await directTransaction(db, async (tx) => {
      await tx.$executeRaw`set local time zone 'America/New_York'`;
      return { prisma: await tx.$queryRaw<Record<string, unknown>[]>(probe()), direct: await rawQuery<Record<string, unknown>>(tx, probe()) };
    });
    expect(zoned.direct).toStrictEqual(zoned.prisma);
    // And a process in another time zone (node-postgres' own parsers read local time).
    const tz = process.env.TZ;
    process.env.TZ = 'Asia/Kolkata';
    try {
      expect(await rawQuery(db, probe())).toStrictEqual(await db.$queryRaw(probe()));
    } finally {
      if (tz === undefined) delete process.env.TZ;
      else process.env.TZ = tz;
    }
  });

  it("run on the transaction's connection: they see its uncommitted rows and roll back with it", async () => {
    await expect(
      directTransaction(db, async (tx) => {
        await tx.$executeRaw`insert into direct_probe (id, note) values (1, 'prisma')`;
        expect(await rawExecute(tx, Prisma.sql`insert into direct_probe (id, note) values (2, 'direct')`)).toBe(1);
        const [prismaTxid] = await tx.$queryRaw<Array<{ x: bigint }>>`select txid_current() as x`;
        const [directTxid] = await rawQuery<{ x: bigint }>(tx, Prisma.sql`select txid_current() as x`);
        expect(directTxid!.x).toBe(prismaTxid!.x);
        expect(await rawQuery(tx, Prisma.sql`select id from direct_probe order by id`)).toEqual([{ id: 1 }, { id: 2 }]);
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    expect(await db.$queryRaw`select id from direct_probe`).toEqual([]);
    await directTransaction(db, async (tx) => {
      await rawExecute(tx, Prisma.sql`insert into direct_probe (id, note) values (3, 'kept')`);
      // A nested transaction is a savepoint on the same connection.
      await directTransaction(tx, async (inner) => {
        await rawExecute(inner, Prisma.sql`insert into direct_probe (id, note) values (4, 'nested')`);
      });
    });
    expect(await rawQuery(db, Prisma.sql`select id, note from direct_probe order by id`)).toEqual([
      { id: 3, note: 'kept' },
      { id: 4, note: 'nested' },
    ]);
  });

  it('count as statements, reject with the SQLSTATE, and are refused after the transaction ends', async () => {
    const before = counter.statements;
    await rawQuery(db, Prisma.sql`select 1 as one`);
    expect(counter.statements - before).toBe(1);
    const error = await rawExecute(db, Prisma.sql`insert into direct_probe (id, note) values (3, 'again')`).catch((e: unknown) => e);
    expect((error as { code?: string }).code).toBe('23505');
    let leaked: Tx | null = null;
    await directTransaction(db, async (tx) => {
      leaked = tx;
      await rawQuery(tx, Prisma.sql`select 1 as one`);
    });
    await expect(rawQuery(leaked!, Prisma.sql`select 1 as one`)).rejects.toMatchObject({ code: 'P2028' });
  });
});
