// Custom scalars. Each accepts what a REST client naturally sends (sofa feeds path and query
// strings through `serialize`), and rejects anything else with a clear message.
import { GraphQLError, GraphQLScalarType, Kind, type ValueNode } from 'graphql';

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function fail(message: string): never {
  throw new GraphQLError(message, { extensions: { code: 'VALIDATION_FAILED', restStatus: 422 } });
}

function parseUuid(value: unknown): string {
  if (typeof value === 'string') {
    if (isCanonicalUuid(value)) return value; // the common case: ids read from PostgreSQL
    if (UUID_RE.test(value)) return value.toLowerCase();
  }
  return fail(`UUID cannot represent ${JSON.stringify(value)}`);
}

/**
 * Lower-case canonical form, checked by character codes: every id in every response passes here
 * (a 20-product page with its variants serializes ~300), and the regular expression plus
 * toLowerCase's copy showed up at ~3% of a catalog list's CPU.
 */
function isCanonicalUuid(value: string): boolean {
  if (value.length !== 36) return false;
  for (let i = 0; i < 36; i++) {
    const c = value.charCodeAt(i);
    if (i === 8 || i === 13 || i === 18 || i === 23) {
      if (c !== 45) return false; // '-'
    } else if (!((c >= 48 && c <= 57) || (c >= 97 && c <= 102))) return false; // 0-9 a-f
  }
  return true;
}

export const UUIDScalar = new GraphQLScalarType({
  name: 'UUID',
  description: 'An RFC 4122 UUID in its canonical 36-character form.',
  serialize: parseUuid,
  parseValue: parseUuid,
  parseLiteral: (ast) => (ast.kind === Kind.STRING ? parseUuid(ast.value) : fail('UUID must be a string')),
});

function toDate(value: unknown): Date {
  const date = value instanceof Date ? value : typeof value === 'string' || typeof value === 'number' ? new Date(value) : null;
  if (!date || Number.isNaN(date.getTime())) return fail(`DateTime cannot represent ${JSON.stringify(value)}`);
  return date;
}

export const DateTimeScalar = new GraphQLScalarType<Date, string>({
  name: 'DateTime',
  description: 'An ISO 8601 timestamp in UTC, e.g. 2026-11-22T10:00:00.000Z.',
  serialize: (value) => toDate(value).toISOString(),
  parseValue: (value) => toDate(value),
  parseLiteral: (ast) => (ast.kind === Kind.STRING ? toDate(ast.value) : fail('DateTime must be an ISO 8601 string')),
});

function toMinorUnits(value: unknown): number {
  const n = typeof value === 'bigint' ? Number(value) : typeof value === 'string' && /^-?\d+$/.test(value) ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isSafeInteger(n)) {
    return fail(`MinorUnits must be a whole number of minor units within ±2^53, got ${JSON.stringify(value)}`);
  }
  return n;
}

export const MinorUnitsScalar = new GraphQLScalarType<number, number>({
  name: 'MinorUnits',
  description:
    'An amount of money in integer minor units of its currency (cents for USD, yen for JPY). ' + 'A safe integer (|n| ≤ 2^53 − 1), stored as PostgreSQL bigint; never a float.',
  serialize: toMinorUnits,
  parseValue: toMinorUnits,
  parseLiteral: (ast) => (ast.kind === Kind.INT ? toMinorUnits(ast.value) : fail('MinorUnits must be an integer')),
});

function literalToJson(ast: ValueNode, variables?: Record<string, unknown> | null): unknown {
  switch (ast.kind) {
    case Kind.STRING:
    case Kind.BOOLEAN:
      return ast.value;
    case Kind.INT:
    case Kind.FLOAT:
      return Number(ast.value);
    case Kind.NULL:
      return null;
    case Kind.LIST:
      return ast.values.map((v) => literalToJson(v, variables));
    case Kind.OBJECT:
      return Object.fromEntries(ast.fields.map((f) => [f.name.value, literalToJson(f.value, variables)]));
    case Kind.VARIABLE:
      return variables?.[ast.name.value];
    default:
      return fail('unsupported JSON literal');
  }
}

export const JSONScalar = new GraphQLScalarType<unknown, unknown>({
  name: 'JSON',
  description: 'Any JSON value.',
  serialize: (value) => value,
  parseValue: (value) => value,
  parseLiteral: literalToJson,
});

/** A JSON object (not an array or a primitive): free-form metadata, settings groups. */
export const JSONObjectScalar = new GraphQLScalarType<Record<string, unknown>, Record<string, unknown>>({
  name: 'JSONObject',
  description: 'A JSON object.',
  serialize: (value) => value as Record<string, unknown>,
  parseValue: (value) => {
    if (typeof value === 'string') {
      try {
        value = JSON.parse(value);
      } catch {
        return fail('JSONObject must be a JSON object');
      }
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return fail('JSONObject must be a JSON object');
    return value as Record<string, unknown>;
  },
  parseLiteral: (ast, variables) => {
    const value = literalToJson(ast, variables);
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return fail('JSONObject must be a JSON object');
    return value as Record<string, unknown>;
  },
});
