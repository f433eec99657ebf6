// Inputs for every registered operation, derived from /api/doc (the OpenAPI document the
// registry generates) and from the live data of one organization. The permission matrix and the
// fuzz property both read the registry through here, so a new operation is covered by both
// without a line of test code.
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { z } from 'zod';
import { operations, restPathArg, type RegisteredOperation } from '../../src/graphql/operation.js';
import { registeredRawRoutes } from '../../src/http/raw-routes.js';
import type { TestApp } from '../support/app.js';

type Json = Record<string, any>;
export type Credential = { apiKey?: string; bearer?: string };

export interface Route {
  /** Operation name, or `raw METHOD path` for routes served outside sofa. */
  name: string;
  method: string;
  path: string;
  op?: RegisteredOperation;
  access: RegisteredOperation['access'];
}

const DESTRUCTIVE = /(Delete|Archive|Cancel|Revoke|Remove|Discontinue|Deactivate|Undo|Reject|Release)$/;

/** Every REST route the registry declares, reads first and destructive writes last. */
export function registryRoutes(): Route[] {
  const fromOps: Route[] = [...operations.values()].filter((op) => op.rest).map((op) => ({ name: op.name, method: op.rest!.method, path: op.rest!.path, op, access: op.access }));
  const raw: Route[] = registeredRawRoutes().map((r) => ({ name: `raw ${r.method} ${r.path}`, method: r.method, path: r.path, access: r.access }));
  const rank = (r: Route) => (r.method === 'GET' ? 0 : DESTRUCTIVE.test(r.op?.name ?? '') || r.method === 'DELETE' ? 2 : 1);
  return [...fromOps, ...raw].sort((a, b) => rank(a) - rank(b));
}

/** Every operation (GraphQL fields), queries first and destructive mutations last. */
export function registryOperations(): RegisteredOperation[] {
  const rank = (op: RegisteredOperation) => (op.kind === 'query' ? 0 : DESTRUCTIVE.test(op.name) || op.rest?.method === 'DELETE' ? 2 : 1);
  return [...operations.values()].sort((a, b) => rank(a) - rank(b));
}

export function resolveRefs(doc: Json, schema: any, depth = 0): any {
  if (!schema || typeof schema !== 'object' || depth > 12) return schema;
  if (Array.isArray(schema)) return schema.map((s) => resolveRefs(doc, s, depth + 1));
  if (typeof schema.$ref === 'string') {
    const target = schema.$ref
      .replace(/^#\//, '')
      .split('/')
      .reduce((node: any, key: string) => node?.[key], doc);
    return resolveRefs(doc, target, depth + 1);
  }
  return Object.fromEntries(Object.entries(schema).map(([k, v]) => [k, resolveRefs(doc, v, depth + 1)]));
}

export interface OpenApiOperation {
  parameters: Array<{ name: string; in: string; required?: boolean; schema: any }>;
  body?: any;
}

export function openApiOperation(doc: Json, route: Route): OpenApiOperation | undefined {
  const key = `/api${route.path.replace(/:([A-Za-z0-9_]+)/g, '{$1}')}`;
  const entry = doc.paths?.[key]?.[route.method.toLowerCase()];
  if (!entry) return undefined;
  const parameters = resolveRefs(doc, entry.parameters ?? []);
  const body = resolveRefs(doc, entry.requestBody?.content?.['application/json']?.schema);
  return { parameters, body };
}

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;

/** Every UUID anywhere in a value (response bodies). */
export function uuidsIn(value: unknown): Set<string> {
  return new Set((JSON.stringify(value ?? null).match(UUID) ?? []).map((s) => s.toLowerCase()));
}

const stem = (name: string) =>
  name
    .replace(/Ids?$/, '')
    .replace(/[^a-z]/gi, '')
    .toLowerCase();
const norm = (segment: string) => segment.replace(/[^a-z]/gi, '').toLowerCase();

/**
 * The live ids of one organization, read the way a client reads them: every list route's items
 * keyed by its path, found by walking the routes as that organization's admin.
 */
export class IdPool {
  private lists = new Map<string, unknown>();
  constructor(
    private t: TestApp,
    private admin: Credential,
  ) {}

  async list(path: string): Promise<unknown> {
    if (this.lists.has(path)) return this.lists.get(path);
    const res = await this.t.request(`/api${path}`, this.admin);
    const body = res.status === 200 ? res.body?.data : undefined;
    this.lists.set(path, body);
    return body;
  }

  /** Reads every parameterless GET route (and its paginated first page); returns every UUID seen. */
  async harvest(): Promise<Set<string>> {
    const seen = new Set<string>();
    for (const route of registryRoutes()) {
      if (route.method !== 'GET' || route.path.includes(':')) continue;
      for (const id of uuidsIn(await this.list(route.path))) seen.add(id);
    }
    return seen;
  }

  firstId(data: unknown): string | undefined {
    const items = Array.isArray(data) ? data : data && typeof data === 'object' ? Object.values(data).find(Array.isArray) : undefined;
    const first = (items as any[] | undefined)?.find((item) => item && typeof item.id === 'string');
    return first?.id;
  }

  /** An id for a field or parameter named like `entityId`, `variantId`, `warehouseId`. */
  async idFor(name: string): Promise<string | undefined> {
    const want = stem(name);
    if (!want) return undefined;
    const candidates = registryRoutes().filter((r) => r.method === 'GET' && !r.path.includes(':'));
    for (const route of candidates) {
      const last = norm(route.path.split('/').pop() ?? '');
      if (last.startsWith(want) || want.startsWith(last.replace(/ies$/, 'y').replace(/s$/, ''))) {
        const id = this.firstId(await this.list(route.path));
        if (id) return id;
      }
    }
    return undefined;
  }

  /** The path with every `:param` filled with a live value, read from the list route just before it. */
  async fillPath(route: Route, hints: (name: string) => string | undefined): Promise<{ path: string; params: Record<string, string> }> {
    const segments = route.path.split('/');
    const params: Record<string, string> = {};
    for (let i = 0; i < segments.length; i += 1) {
      const segment = segments[i]!;
      if (!segment.startsWith(':')) continue;
      const name = segment.slice(1);
      const prefix = segments.slice(0, i).join('/');
      let value = hints(name);
      if (!value && /id$|number$/i.test(name)) value = this.firstId(await this.list(prefix)) ?? (await this.idFor(name));
      value ??= this.firstId(await this.list(prefix)) ?? randomUUID();
      params[name] = value;
      segments[i] = encodeURIComponent(value);
    }
    return { path: segments.join('/'), params };
  }
}

/** Values for parameters that are not ids (settings groups, locales, field names). */
export function hintFor(name: string, schema?: any): string | undefined {
  if (schema?.enum?.length) return String(schema.enum[0]);
  const hints: Record<string, string> = { group: 'general', locale: 'en', currency: 'USD', country: 'US', fieldName: 'color', entityType: 'order', provider: 'stripe' };
  return hints[name];
}

/** A minimal value the schema accepts: required properties only, ids from the pool. */
export async function exampleOf(schema: any, name: string, pool: IdPool): Promise<unknown> {
  if (!schema || typeof schema !== 'object') return 'x';
  const options = schema.anyOf ?? schema.oneOf;
  if (options) return exampleOf(options.find((s: any) => s.type !== 'null' && !s.nullable) ?? options[0], name, pool);
  if (schema.allOf) return exampleOf(Object.assign({}, ...schema.allOf), name, pool);
  if (schema.enum?.length) return schema.enum[0];
  if (schema.default !== undefined) return schema.default;
  const type = Array.isArray(schema.type) ? schema.type.find((t: string) => t !== 'null') : schema.type;
  switch (type) {
    case 'string': {
      if (schema.format === 'uuid' || /Id$/.test(name)) return (await pool.idFor(name)) ?? randomUUID();
      if (schema.format === 'email') return `matrix-${randomUUID().slice(0, 8)}@example.com`;
      if (schema.format === 'date-time') return new Date().toISOString();
      if (schema.format === 'uri' || schema.format === 'url') return 'https://example.com/hook';
      const hint = hintFor(name);
      if (hint) return hint;
      const min = schema.minLength ?? 1;
      const max = schema.maxLength ?? 24;
      return `mx${randomUUID().replace(/-/g, '')}`.slice(0, Math.max(min, Math.min(max, 12)));
    }
    case 'integer':
    case 'number': {
      const min = schema.minimum ?? (schema.exclusiveMinimum !== undefined ? Number(schema.exclusiveMinimum) + 1 : 1);
      return Math.min(min, schema.maximum ?? min);
    }
    case 'boolean':
      return false;
    case 'array': {
      const count = Math.max(schema.minItems ?? 0, /Ids$/.test(name) ? 1 : 0);
      const items = [];
      for (let i = 0; i < count; i += 1) items.push(await exampleOf(schema.items, name.replace(/s$/, ''), pool));
      return items;
    }
    default: {
      if (!schema.properties) return type === 'object' ? {} : 'x';
      const out: Json = {};
      for (const key of schema.required ?? []) out[key] = await exampleOf(schema.properties[key], key, pool);
      return out;
    }
  }
}

export interface BuiltRequest {
  path: string;
  method: string;
  body?: unknown;
  /** The operation's input by argument name (path params, query and body merged), for GraphQL. */
  args: Record<string, unknown>;
}

/** A request with real ids and a minimal valid body for a route. */
export async function buildRequest(doc: Json, route: Route, pool: IdPool): Promise<BuiltRequest> {
  const oa = openApiOperation(doc, route);
  const filled = await pool.fillPath(route, (name) => hintFor(name, oa?.parameters.find((p) => p.name === name)?.schema));
  // Path parameters fill the input key their route names (rest.pathArgs: /orders/:id → idOrNumber).
  const args: Record<string, unknown> = Object.fromEntries(Object.entries(filled.params).map(([name, value]) => [route.op?.rest ? restPathArg(route.op.rest, name) : name, value]));
  const query = new URLSearchParams();
  for (const p of oa?.parameters ?? []) {
    if (p.in !== 'query' || !p.required) continue;
    const value = await exampleOf(p.schema, p.name, pool);
    args[p.name] = value;
    query.set(p.name, Array.isArray(value) ? value.join(',') : String(value));
  }
  let body: unknown;
  if (oa?.body) {
    body = await exampleOf(oa.body, '', pool);
    const bodyAs = route.op?.rest?.bodyAs;
    if (bodyAs) args[bodyAs] = body;
    else if (body && typeof body === 'object') Object.assign(args, body);
  } else if (route.method !== 'GET' && route.method !== 'DELETE') body = {};
  const qs = query.toString();
  return { path: `/api${filled.path}${qs ? `?${qs}` : ''}`, method: route.method, body, args };
}

/**
 * GraphQL arguments for an operation without a REST twin (its route is a raw one): a minimal
 * valid value of its zod input, ids from the pool (`id` from the list route of its tag).
 */
export async function buildArgs(op: RegisteredOperation, pool: IdPool): Promise<Record<string, unknown>> {
  const schema = z.toJSONSchema(op.input, { io: 'input', unrepresentable: 'any' }) as Json;
  const args = (await exampleOf(schema, '', pool)) as Record<string, unknown>;
  for (const key of Object.keys(args)) {
    if (key === 'id' || key === 'idOrNumber') args[key] = pool.firstId(await pool.list(`/${op.tag}`)) ?? args[key];
  }
  return args;
}

// ── fast-check arbitraries from JSON Schema ──

// NUL characters are refused at the edge (422) wherever they come in, so strings may hold them.
const text = (min = 0, max = 40) => fc.string({ minLength: min, maxLength: max, unit: 'grapheme' });

/** Values the schema accepts (within reason: patterns are not modelled). */
export function validArbitrary(schema: any, depth = 0): fc.Arbitrary<unknown> {
  if (!schema || typeof schema !== 'object' || depth > 6) return fc.constant(null);
  const options = schema.anyOf ?? schema.oneOf;
  if (options) return fc.oneof(...options.map((s: any) => validArbitrary(s, depth + 1)));
  if (schema.enum?.length) return fc.constantFrom(...schema.enum);
  const type = Array.isArray(schema.type) ? schema.type.find((t: string) => t !== 'null') : schema.type;
  switch (type) {
    case 'string':
      if (schema.format === 'uuid') return fc.uuid();
      if (schema.format === 'email') return fc.emailAddress();
      if (schema.format === 'date-time') return fc.date({ noInvalidDate: true, min: new Date(0), max: new Date(4102444800000) }).map((d) => d.toISOString());
      return text(schema.minLength ?? 0, Math.min(schema.maxLength ?? 40, 80));
    case 'integer':
      return fc.integer({ min: Math.max(schema.minimum ?? -1e9, -(2 ** 31)), max: Math.min(schema.maximum ?? 1e9, 2 ** 31 - 1) });
    case 'number':
      return fc.double({ min: schema.minimum ?? -1e9, max: schema.maximum ?? 1e9, noNaN: true });
    case 'boolean':
      return fc.boolean();
    case 'array':
      return fc.array(validArbitrary(schema.items, depth + 1), { minLength: schema.minItems ?? 0, maxLength: Math.min(schema.maxItems ?? 4, 4) });
    default: {
      if (!schema.properties) return fc.dictionary(text(1, 10), fc.oneof(text(), fc.integer(), fc.boolean()), { maxKeys: 3 });
      const required = new Set<string>(schema.required ?? []);
      const shape = Object.fromEntries(Object.entries(schema.properties).map(([k, v]) => [k, validArbitrary(v, depth + 1)]));
      return fc.record(shape, { requiredKeys: [...required].filter((k) => k in shape) });
    }
  }
}

/** Anything at all: wrong types, huge numbers, deep nesting, odd strings. */
export const junk: fc.Arbitrary<unknown> = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  text(0, 300),
  // biome-ignore lint/correctness/noPrecisionLoss: the imprecise int64 minimum is the point, an edge the inputs must survive
  fc.constantFrom(-1, 0, 2 ** 53, 2 ** 64, -9223372036854775808, 1e308, '', ' ', '../../etc/passwd', "' or 1=1 --", '%', '%%', '{}', '[]', 'null', '💥', 'a'.repeat(5000)),
  fc.constantFrom('\u0000', 'a\u0000b', '%00', '1e999999', '-1e999999', '18446744073709551616', '1e-999999', '\ufeff'),
);

/**
 * A generated value as one query-string parameter: arrays joined with commas, objects as JSON.
 * Never String(object): junk objects may carry a `toString` key whose value is not a function,
 * and String() then throws in the test itself ("Cannot convert object to primitive value").
 */
export function queryParam(value: unknown): string {
  const one = (v: unknown) => (typeof v === 'object' && v !== null ? JSON.stringify(v) : String(v));
  return Array.isArray(value) ? value.map(one).join(',') : one(value);
}

/** A value the schema probably refuses: one property replaced by junk, a required one dropped, or junk. */
export function invalidArbitrary(schema: any): fc.Arbitrary<unknown> {
  const props = schema?.properties ? Object.keys(schema.properties) : [];
  if (!props.length) return junk;
  return fc.oneof(
    junk,
    fc.tuple(validArbitrary(schema), fc.constantFrom(...props), junk).map(([valid, key, bad]) => ({ ...(valid as Json), [key]: bad })),
    fc.tuple(validArbitrary(schema), fc.constantFrom(...props)).map(([valid, key]) => {
      const copy = { ...(valid as Json) };
      delete copy[key];
      return copy;
    }),
  );
}

// ── bodies as bytes on the wire ──

export interface EncodedBody {
  bytes: Buffer;
  contentType: string;
}

const BOM = Buffer.from([0xef, 0xbb, 0xbf]);
/** Number tokens JSON.stringify cannot write: beyond a double, beyond 2^64, below numeric's scale. */
const HUGE_NUMBERS = ['1e999999', '-1e999999', '1e-999999', '18446744073709551616', '-18446744073709551617', '9'.repeat(400)];
const json = (text: string | Buffer): EncodedBody => ({ bytes: Buffer.isBuffer(text) ? text : Buffer.from(text), contentType: 'application/json' });
const topKeys = (body: unknown) => (body && typeof body === 'object' && !Array.isArray(body) ? Object.keys(body) : []);

/** `text` with `insert` at a position a generated index picks (a NUL byte or escape anywhere). */
const insertedAnywhere = (value: string, insert: string) => fc.nat(value.length).map((at) => value.slice(0, at) + insert + value.slice(at));

/**
 * A generated body as the bytes a client might send: JSON most of the time; otherwise with a
 * UTF-8 byte-order mark, a key given twice (JSON.parse keeps the last), a number token no double
 * holds, nesting around the body (at, past and far past the 64-level cap), a NUL byte or `\u0000`
 * escape at any position, or as a form naming a field twice.
 */
export function encodedBody(body: unknown): fc.Arbitrary<EncodedBody> {
  const plain = JSON.stringify(body ?? {}) ?? '{}';
  const keys = topKeys(body);
  const key = keys.length ? fc.constantFrom(...keys) : fc.constant('value');
  // An object body gains a last member `"key": token` (JSON keeps the last of a key given twice).
  const withMember = (k: string, token: string) => (keys.length ? `${plain.slice(0, -1)},${JSON.stringify(k)}:${token}}` : `{${JSON.stringify(k)}:${token}}`);
  return fc.oneof(
    { weight: 8, arbitrary: fc.constant(json(plain)) },
    { weight: 1, arbitrary: fc.constant(json(Buffer.concat([BOM, Buffer.from(plain)]))) },
    { weight: 1, arbitrary: fc.tuple(key, junk).map(([k, bad]) => json(withMember(k, JSON.stringify(bad) ?? 'null'))) },
    { weight: 1, arbitrary: fc.tuple(key, fc.constantFrom(...HUGE_NUMBERS)).map(([k, n]) => json(withMember(k, n))) },
    {
      weight: 1,
      // Around the body, or around a NUL string (a recursive NUL walk overflowed the stack on it).
      arbitrary: fc
        .tuple(fc.constantFrom(62, 63, 64, 65, 1000, 200_000), fc.constantFrom('[', '{"a":'), fc.constantFrom(plain, '"\\u0000"'))
        .map(([depth, open, inner]) => json(open.repeat(depth) + inner + (open === '[' ? ']' : '}').repeat(depth))),
    },
    {
      weight: 1,
      arbitrary: fc
        .constantFrom('\u0000', '\\u0000')
        .chain((nul) => insertedAnywhere(plain, nul))
        .map(json),
    },
    {
      weight: 1,
      arbitrary: fc.tuple(key, junk).map(([k, bad]) => {
        const form = new URLSearchParams();
        for (const [name, value] of Object.entries(keys.length ? (body as Json) : {})) form.append(name, queryParam(value));
        form.append(k, queryParam(bad));
        return { bytes: Buffer.from(form.toString()), contentType: 'application/x-www-form-urlencoded' };
      }),
    },
  );
}

const PNG_1X1 = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');

/** A multipart/form-data body of the given text fields and an optional file part. */
export function multipartBody(fields: Array<[string, string]>, file?: Buffer): EncodedBody {
  const boundary = 'fuzz-boundary-7MA4YWxkTrZu0gW';
  const chunks: Buffer[] = fields.map(([name, value]) => Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  if (file)
    chunks.push(
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="f.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`),
      file,
      Buffer.from('\r\n'),
    );
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { bytes: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

/**
 * Multipart bodies for a route documented with a multipart/form-data schema: its text fields
 * valid or junk (NULs included), a field given twice now and then, a file part of a few bytes or
 * none.
 */
export function multipartArbitrary(schema: any): fc.Arbitrary<EncodedBody> {
  const names = Object.entries<any>(schema?.properties ?? {})
    .filter(([, s]) => s?.format !== 'binary')
    .map(([name]) => name);
  const value = fc.oneof(text(0, 60), junk.map(queryParam), fc.constantFrom('a\u0000b', '\u0000'));
  const fields = fc.array(fc.tuple(names.length ? fc.constantFrom(...names) : fc.constant('alt'), value), { maxLength: 3 });
  // A real image half the time, so the fields reach the database rather than an early 415.
  const file = fc.option(
    fc.oneof(
      fc.constant(PNG_1X1),
      fc.uint8Array({ maxLength: 64 }).map((b) => Buffer.from(b)),
    ),
    { nil: undefined },
  );
  return fc.tuple(fields, file).map(([f, bytes]) => multipartBody(f, bytes));
}
