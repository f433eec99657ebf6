// db/timestamps.ts: the raw reads' timestamptz parser gives the Date node-postgres' own parser
// (postgres-date) gives, for the text PostgreSQL sends in any session time zone, and hands
// everything it does not read itself to postgres-date.
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { parseTimestamptz } from '../../src/db/timestamps.js';

const reference = (pg.types.getTypeParser as (oid: number) => (text: string) => unknown)(1184);

function same(text: string): void {
  const expected = reference(text);
  const actual = parseTimestamptz(text);
  if (expected instanceof Date) {
    expect(actual, text).toBeInstanceOf(Date);
    expect(Object.is((actual as Date).getTime(), expected.getTime()), text).toBe(true);
  } else expect(actual, text).toEqual(expected);
}

describe('parseTimestamptz', () => {
  it('reads what PostgreSQL sends as postgres-date does: fractions of any length, any zone offset', () => {
    const pad = (n: number, width = 2) => String(n).padStart(width, '0');
    let seed = 7;
    const next = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    const zones = ['+00', '-05', '+05:30', '+13:45', '-03:30', '-00:44:30', '+01'];
    for (let i = 0; i < 5000; i++) {
      const fraction = ['', `.${pad(next(10), 1)}`, `.${pad(next(1000), 3)}`, `.${pad(next(1_000_000), 6)}`, `.${pad(next(100), 2)}`][next(5)];
      const text = `${pad(1900 + next(200), 4)}-${pad(1 + next(12))}-${pad(1 + next(28))} ${pad(next(24))}:${pad(next(60))}:${pad(next(60))}${fraction}${zones[next(zones.length)]}`;
      same(text);
    }
  });

  it('leaves what it does not read to postgres-date', () => {
    for (const text of [
      'infinity',
      '-infinity',
      '0099-01-01 00:00:00+00',
      '2020-01-01 00:00:00+00 BC',
      '12020-01-01 00:00:00+00',
      '2020-01-01 00:00:00.+00',
      '2020-13-45 25:61:61+00',
      '2020-01-01 00:00:00',
      '2020-01-01T00:00:00Z',
    ]) {
      same(text);
    }
  });
});
