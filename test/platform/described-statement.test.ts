// src/db/described-statement.ts: a named statement asks PostgreSQL for its row description once
// per connection, then runs as Bind, Execute, Sync and decodes with what it kept. Watched on the
// connection itself: the RowDescription messages the server sends, and the rows decoded.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryDescribed } from '../../src/db/described-statement.js';
import { rawReadTypes } from '../../src/db/timestamps.js';
import { createTestDatabase } from '../support/app.js';

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let pool: pg.Pool;

beforeAll(async () => {
  database = await createTestDatabase();
  // One connection: every statement below runs on it, so what it kept is what it reuses.
  pool = new pg.Pool({ connectionString: database.url, max: 1 });
  await pool.query('create table described_probe (id int primary key, note text, at timestamptz, doc jsonb)');
  await pool.query(`insert into described_probe values (1, 'one', '2026-11-27 10:00:00.123+00', '{"a":1}'), (2, null, null, null)`);
});
afterAll(async () => {
  await pool?.end();
  await database?.drop();
});

/** Row descriptions the server sends on the pool's one connection while `fn` runs. */
async function descriptionsDuring(fn: () => Promise<unknown>): Promise<number> {
  const client = await pool.connect();
  const connection = (client as unknown as { connection: NodeJS.EventEmitter }).connection;
  client.release();
  let seen = 0;
  const count = () => {
    seen += 1;
  };
  connection.on('rowDescription', count);
  try {
    await fn();
  } finally {
    connection.off('rowDescription', count);
  }
  return seen;
}

const BY_ID = { name: 'described_probe_by_id', text: 'select id, note, at, doc from described_probe where id = $1', types: rawReadTypes as pg.CustomTypesConfig };

describe('a described statement', () => {
  it('is described on its first execution on a connection only, and decodes the same rows every time', async () => {
    const results: pg.QueryResult[] = [];
    const first = await descriptionsDuring(async () => results.push(await queryDescribed(pool, { ...BY_ID, values: [1] })));
    const later = await descriptionsDuring(async () => {
      for (const id of [1, 2, 1]) results.push(await queryDescribed(pool, { ...BY_ID, values: [id] }));
    });
    expect(first).toBe(1);
    expect(later).toBe(0);
    const one = { id: 1, note: 'one', at: new Date(Date.UTC(2026, 10, 27, 10, 0, 0, 123)), doc: { a: 1 } };
    expect(results.map((r) => r.rows)).toEqual([[one], [one], [{ id: 2, note: null, at: null, doc: null }], [one]]);
    expect(results[3]?.fields.map((f) => f.name)).toEqual(['id', 'note', 'at', 'doc']);
    expect(results[3]?.rowCount).toBe(1);
  });

  it('runs on a checked-out client too, and a value that cannot be bound fails that call only', async () => {
    const client = await pool.connect();
    try {
      const { rows } = await queryDescribed(client, { ...BY_ID, values: [2] });
      expect(rows).toEqual([{ id: 2, note: null, at: null, doc: null }]);
      const circular: Record<string, unknown> = {};
      circular.self = circular;
      await expect(queryDescribed(client, { ...BY_ID, values: [circular] })).rejects.toThrow();
      expect((await queryDescribed(client, { ...BY_ID, values: [1] })).rows[0]?.note).toBe('one');
    } finally {
      client.release();
    }
  });

  it('surfaces the refusal of PostgreSQL when the result type changed under it, as pg does, and leaves the connection usable', async () => {
    await queryDescribed(pool, { ...BY_ID, values: [1] });
    await pool.query('alter table described_probe alter column note type varchar(20)');
    // PostgreSQL: "cached plan must not change result type" for the statement prepared before.
    await expect(queryDescribed(pool, { ...BY_ID, values: [1] })).rejects.toMatchObject({ code: '0A000' });
    // A statement under another name (a redeployed one) is described and runs.
    const renamed = { ...BY_ID, name: 'described_probe_by_id_v2' };
    const seen = await descriptionsDuring(async () => {
      expect((await queryDescribed(pool, { ...renamed, values: [1] })).rows[0]?.note).toBe('one');
      expect((await queryDescribed(pool, { ...renamed, values: [2] })).rows[0]?.id).toBe(2);
    });
    expect(seen).toBe(1);
  });
});
