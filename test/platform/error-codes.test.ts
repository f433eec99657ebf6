// The error catalogue (src/error-codes.ts) is the one list of codes: every code a thrower in
// src/ or plugins/ uses is in it, /api/doc's ErrorResponse and the GraphQL ErrorCode enum say
// the same, and real answers (REST and GraphQL) carry catalogued codes in their documented shape.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import formats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_CODE_NAMES, ERROR_CODES, type ErrorCode } from '../../src/error-codes.js';
import { startTestApp, type TestApp } from '../support/app.js';

const ROOT = join(import.meta.dirname, '../..');

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (name === 'generated' || name === 'node_modules' || name === 'client') return [];
    if (statSync(path).isDirectory()) return sources(path);
    return /\.ts$/.test(name) && !name.endsWith('.test.ts') ? [path] : [];
  });
}

// Every way a code reaches a client: AppError, a raw error response or body, a GraphQLError's
// extensions, the persisted-query errors, and the checkout's own helper.
const THROWERS = [
  /new AppError\(\s*'([A-Z_]+)'/g,
  /errorResponse\(\s*\d{3},\s*'([A-Z_]+)'/g,
  /errorBody\(\s*'([A-Z_]+)'/g,
  /extensions: \{[^}]*?\bcode: '([A-Z_]+)'/g,
  /apqError\([^;]*?'([A-Z_]+)'\)/g,
  /\bcode: '([A-Z_]+)',\s*(?:restStatus|message)/g,
];

function thrownCodes(): Map<string, string[]> {
  const found = new Map<string, string[]>();
  for (const file of [...sources(join(ROOT, 'src')), ...sources(join(ROOT, 'plugins'))]) {
    const text = readFileSync(file, 'utf8');
    for (const pattern of THROWERS) {
      for (const match of text.matchAll(pattern)) found.set(match[1]!, [...(found.get(match[1]!) ?? []), file.slice(ROOT.length + 1)]);
    }
  }
  return found;
}

describe('the catalogue covers every thrower', () => {
  it('finds the codes thrown in src/ and plugins/, and each is catalogued', () => {
    const found = thrownCodes();
    // The scan must see the throwers it is about, or it proves nothing.
    for (const code of [
      'NOT_FOUND',
      'VALIDATION_FAILED',
      'CONFLICT',
      'CHECKOUT_FAILED',
      'INVALID_TRANSITION',
      'QUERY_TOO_COSTLY',
      'REQUEST_TIMEOUT',
      'PERSISTED_QUERY_NOT_FOUND',
      'IDEMPOTENCY_KEY_REUSED',
    ]) {
      expect(found.has(code), `scan found no ${code}`).toBe(true);
    }
    const unknown = [...found.entries()].filter(([code]) => !(code in ERROR_CODES)).map(([code, files]) => `${code} in ${[...new Set(files)].join(', ')}`);
    expect(unknown).toEqual([]);
  });

  it('has one status, a meaning and at most one details schema per code', () => {
    for (const code of ERROR_CODE_NAMES) {
      const entry: { status: number; meaning: string; details?: unknown } = ERROR_CODES[code];
      expect(entry.status).toBeGreaterThanOrEqual(200);
      expect(entry.meaning.length).toBeGreaterThan(10);
    }
    // Only VALIDATION_FAILED carries a list; every other details schema is an object.
    const lists = ERROR_CODE_NAMES.filter((code) => (ERROR_CODES[code] as { details?: { type: string } }).details?.type === 'array');
    expect(lists).toEqual(['VALIDATION_FAILED']);
  });

  it('is the list in schema.graphql (enum ErrorCode) and in the README', () => {
    const sdl = readFileSync(join(ROOT, 'schema.graphql'), 'utf8');
    const enumBody = /enum ErrorCode \{([\s\S]*?)\n\}/.exec(sdl)?.[1] ?? '';
    const values = [...enumBody.matchAll(/^\s+([A-Z_]+)$/gm)].map((m) => m[1]);
    expect(values.sort()).toEqual([...ERROR_CODE_NAMES].sort());
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const missing = ERROR_CODE_NAMES.filter((code) => !readme.includes(`\`${code}\``));
    expect(missing).toEqual([]);
  });
});

let t: TestApp;
let admin: string;
let doc: any;
let validateError: (body: unknown) => boolean;

beforeAll(async () => {
  t = await startTestApp();
  admin = await t.apiKey('admin');
  doc = (await t.request('/api/doc')).body;
  const ajv = new Ajv({ strict: false, allErrors: true });
  // ajv-formats is CommonJS: its default export arrives wrapped under ESM.
  const addFormats = ((formats as unknown as { default?: typeof formats }).default ?? formats) as unknown as (ajv: Ajv) => void;
  addFormats(ajv);
  ajv.addSchema({ components: doc.components }, 'doc');
  validateError = ajv.compile({ $ref: 'doc#/components/schemas/ErrorResponse' });
});
afterAll(() => t?.close());

function expectDocumented(body: unknown): void {
  const ok = validateError(body);
  expect(ok, JSON.stringify({ body, errors: (validateError as unknown as { errors: unknown }).errors })).toBe(true);
}

describe('/api/doc publishes the catalogue', () => {
  it('ErrorResponse lists every REST code once, each with its details schema', () => {
    const variants = doc.components.schemas.ErrorResponse.properties.error.oneOf as Array<{ properties: { code: { enum: ErrorCode[] }; details?: unknown } }>;
    const codes = variants.flatMap((v) => v.properties.code.enum);
    const rest = ERROR_CODE_NAMES.filter((code) => ERROR_CODES[code].surface === 'both' && code !== 'CLIENT_CLOSED_REQUEST');
    expect([...codes].sort()).toEqual([...rest].sort());
    expect(new Set(codes).size).toBe(codes.length);
    for (const variant of variants) {
      for (const code of variant.properties.code.enum) expect(variant.properties.details ?? null).toEqual((ERROR_CODES[code] as { details?: unknown }).details ?? null);
    }
  });

  it('each operation lists the statuses it can answer, with the codes of each', () => {
    const checkout = doc.paths['/api/checkout'].post.responses;
    expect(Object.keys(checkout)).toEqual(expect.arrayContaining(['400', '404', '408', '409', '413', '422', '429', '500', '503']));
    expect(checkout['422'].description).toContain('CHECKOUT_FAILED');
    expect(checkout['422'].description).toContain('IDEMPOTENCY_KEY_REUSED');
    const list = doc.paths['/api/catalog/entities'].get.responses;
    expect(list['400'].description).toContain('QUERY_TOO_COSTLY');
    expect(list['401'].description).toContain('UNAUTHORIZED');
    // Raw routes get the common refusals too: the upload's admission answers 401 and 429.
    const upload = Object.entries(doc.paths as Record<string, Record<string, any>>).find(
      ([path, item]) => path.startsWith('/api/media') && item.post?.requestBody?.content?.['multipart/form-data'],
    );
    expect(upload, 'the multipart upload route').toBeTruthy();
    expect(Object.keys(upload![1].post.responses)).toEqual(expect.arrayContaining(['401', '408', '413', '429']));
  });
});

describe('answers carry catalogued codes in their documented shape', () => {
  it('REST: 404, 422, 409 without an empty fields list, 401', async () => {
    const missing = await t.request('/api/catalog/entities/00000000-0000-4000-8000-000000000000', { apiKey: admin });
    expect(missing.status).toBe(404);
    expectDocumented(missing.body);
    const invalid = await t.request('/api/catalog/entities', { method: 'POST', apiKey: admin, body: { type: 'nope' } });
    expect(invalid.status).toBe(422);
    expectDocumented(invalid.body);
    const body = { type: 'product', title: 'Mug', slug: `mug-${Date.now()}`, status: 'draft' };
    expect((await t.request('/api/catalog/entities', { method: 'POST', apiKey: admin, body })).status).toBe(201);
    const duplicate = await t.request('/api/catalog/entities', { method: 'POST', apiKey: admin, body });
    expect(duplicate.status).toBe(409);
    expect(duplicate.body.error.details?.fields).not.toEqual([]);
    expectDocumented(duplicate.body);
    const anonymous = await t.request('/api/settings');
    expect(anonymous.status).toBe(401);
    expectDocumented(anonymous.body);
  });

  it('GraphQL: parse, validation and unknown-operation errors use catalogued codes', async () => {
    const codes = async (query: string, extra: Record<string, unknown> = {}) => {
      const res = await t.request('/graphql', { method: 'POST', apiKey: admin, body: { query, ...extra } });
      return (res.body.errors as Array<{ extensions?: { code?: string } }>).map((e) => e.extensions?.code);
    };
    for (const code of [...(await codes('{ settings')), ...(await codes('{ noSuchField }')), ...(await codes('query A { settings }', { operationName: 'B' }))]) {
      expect(ERROR_CODE_NAMES).toContain(code);
    }
    expect(await codes('{ settings')).toEqual(['GRAPHQL_PARSE_FAILED']);
    expect(await codes('{ noSuchField }')).toEqual(['GRAPHQL_VALIDATION_FAILED']);
  });

  it('GraphQL: errorCodes lists the catalogue for anyone', async () => {
    const res = await t.graphql('{ errorCodes { code status meaning graphqlOnly detailsSchema } }');
    expect(res.body.errors).toBeUndefined();
    const entries = res.body.data.errorCodes as Array<{ code: ErrorCode; status: number; detailsSchema: unknown }>;
    expect(entries.map((e) => e.code)).toEqual(ERROR_CODE_NAMES);
    const transition = entries.find((e) => e.code === 'INVALID_TRANSITION')!;
    expect(transition.status).toBe(422);
    expect(transition.detailsSchema).toMatchObject({ required: ['from'] });
  });
});
