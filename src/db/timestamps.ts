// timestamptz text → Date for the raw reads of db/raw.ts, the same Date node-postgres' own parser
// (postgres-date) gives. A catalog page with its embeds decodes some 400 timestamps, and
// postgres-date runs three regular expressions on each (about 3% of a list page's CPU). The text
// PostgreSQL sends with DateStyle ISO, `YYYY-MM-DD HH:MM:SS[.ffffff]±HH[:MM[:SS]]`, is read here by
// character codes; anything else (BC dates, infinity, years before 100, another DateStyle) goes to
// postgres-date as before.
import pg from 'pg';

const fallback = (pg.types.getTypeParser as (oid: number) => (text: string) => unknown)(1184);

const TIMESTAMPTZ = 1184;

function digits(text: string, at: number, count: number): number {
  let value = 0;
  for (let i = at; i < at + count; i++) {
    const c = text.charCodeAt(i) - 48;
    if (c < 0 || c > 9) return -1;
    value = value * 10 + c;
  }
  return value;
}

export function parseTimestamptz(text: string): unknown {
  const n = text.length;
  if (n < 22 || text.charCodeAt(4) !== 45 || text.charCodeAt(7) !== 45 || text.charCodeAt(10) !== 32 || text.charCodeAt(13) !== 58 || text.charCodeAt(16) !== 58) {
    return fallback(text);
  }
  const year = digits(text, 0, 4);
  const month = digits(text, 5, 2);
  const day = digits(text, 8, 2);
  const hour = digits(text, 11, 2);
  const minute = digits(text, 14, 2);
  const second = digits(text, 17, 2);
  if (year < 100 || month < 0 || day < 0 || hour < 0 || minute < 0 || second < 0) return fallback(text);
  let at = 19;
  let ms = 0;
  if (text.charCodeAt(at) === 46) {
    let end = at + 1;
    while (end < n && text.charCodeAt(end) >= 48 && text.charCodeAt(end) <= 57) end++;
    if (end === at + 1) return fallback(text);
    // As postgres-date computes it (Date.UTC then truncates to whole milliseconds).
    ms = 1000 * Number.parseFloat(text.slice(at, end));
    at = end;
  }
  const sign = text.charCodeAt(at);
  if ((sign !== 43 && sign !== 45) || at + 3 > n) return fallback(text);
  const zoneHours = digits(text, at + 1, 2);
  let zoneMinutes = 0;
  let zoneSeconds = 0;
  at += 3;
  if (at < n) {
    if (text.charCodeAt(at) !== 58 || at + 3 > n) return fallback(text);
    zoneMinutes = digits(text, at + 1, 2);
    at += 3;
  }
  if (at < n) {
    if (text.charCodeAt(at) !== 58 || at + 3 > n) return fallback(text);
    zoneSeconds = digits(text, at + 1, 2);
    at += 3;
  }
  if (at !== n || zoneHours < 0 || zoneMinutes < 0 || zoneSeconds < 0) return fallback(text);
  const offset = (zoneHours * 3600 + zoneMinutes * 60 + zoneSeconds) * 1000 * (sign === 45 ? -1 : 1);
  const date = new Date(Date.UTC(year, month - 1, day, hour, minute, second, ms));
  if (offset !== 0) date.setTime(date.getTime() - offset);
  return date;
}

/** node-postgres `types` for a query: timestamptz through parseTimestamptz, every other type as configured. */
export const rawReadTypes = {
  getTypeParser(oid: number, format?: string): unknown {
    if (oid === TIMESTAMPTZ && format !== 'binary') return parseTimestamptz;
    return (pg.types.getTypeParser as (oid: number, format?: string) => unknown)(oid, format);
  },
};
