// Fuzz in the suite: fast-check drives every operation of /api/doc (sofa routes, raw routes and
// the documented identity routes) with inputs generated from the document's own schemas: valid
// ones, and ones with a field replaced by junk, a required field dropped, or junk for the whole
// body, path parameters and query values; bodies go out as bytes, now and then with a byte-order
// mark, a key given twice, a number no double holds, deep nesting or a NUL anywhere (multipart
// fields included). The property: never a 5xx, and every 4xx carries the
// `{ error: { code, message } }` envelope. The caller is an admin key, so handlers run past the
// permission check. COMMERCE_SLOW_TESTS=1 (set by .ci/run) raises the runs per operation.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { seed } from '../../src/seed.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { openStore, placeOrder, product, ORDER_TEST_CONFIG } from '../orders/helpers.js';
import { encodedBody, hintFor, IdPool, invalidArbitrary, junk, multipartArbitrary, queryParam, resolveRefs, validArbitrary, type EncodedBody } from './registry-inputs.js';

const RUNS = process.env.COMMERCE_SLOW_TESTS === '1' ? 25 : 8;

let t: TestApp;
let doc: Record<string, any>;
let admin: string;
let pool: IdPool;

beforeAll(async () => {
  t = await startTestApp({ ...ORDER_TEST_CONFIG, rateLimit: { enabled: false } });
  await seed(t.app);
  const store = await openStore(t);
  admin = store.admin;
  const entityId = await product(store, { price: 1580, stock: 50 });
  await placeOrder(store, [{ entityId, quantity: 1 }]);
  doc = (await t.request('/api/doc')).body;
  pool = new IdPool(t, { apiKey: admin });
}, 240_000);

afterAll(() => t?.close());

interface Case {
  path: string;
  method: string;
  body?: EncodedBody;
}

describe('fuzz every /api/doc operation', () => {
  it('answers generated valid and invalid inputs with no 5xx and the error envelope on every 4xx', async () => {
    const failures: string[] = [];
    let inputs = 0;
    let operationsFuzzed = 0;
    for (const [openApiPath, methods] of Object.entries<Record<string, any>>(doc.paths)) {
      for (const [method, entry] of Object.entries<any>(methods)) {
        if (!['get', 'post', 'put', 'patch', 'delete'].includes(method)) continue;
        operationsFuzzed += 1;
        const parameters: any[] = resolveRefs(doc, entry.parameters ?? []);
        const bodySchema = resolveRefs(doc, entry.requestBody?.content?.['application/json']?.schema);
        // Path parameters: a live value most of the time (so handlers reach the database), else
        // schema-valid or junk strings.
        const pathParams = parameters.filter((p) => p.in === 'path');
        const live: Record<string, string> = {};
        for (const p of pathParams)
          live[p.name] =
            hintFor(p.name, p.schema) ?? (await pool.idFor(p.name)) ?? pool.firstId(await pool.list(`/${openApiPath.split('/')[2]}`)) ?? '00000000-0000-4000-8000-000000000000';
        const pathArb = fc.record(
          Object.fromEntries(
            pathParams.map((p) => [
              p.name,
              fc.oneof(
                { weight: 3, arbitrary: fc.constant(live[p.name]!) },
                { weight: 1, arbitrary: validArbitrary(p.schema).map(String) },
                { weight: 1, arbitrary: junk.map((v) => (typeof v === 'string' ? v : JSON.stringify(v))) },
              ),
            ]),
          ),
        );
        const queryParams = parameters.filter((p) => p.in === 'query');
        const queryArb = fc.record(Object.fromEntries(queryParams.map((p) => [p.name, fc.oneof(validArbitrary(p.schema), junk)])), { requiredKeys: [] });
        // Bodies go out as bytes (encodedBody: BOM, duplicate keys, huge numbers, deep nesting, NULs).
        const multipartSchema = resolveRefs(doc, entry.requestBody?.content?.['multipart/form-data']?.schema);
        const bodyArb: fc.Arbitrary<EncodedBody | undefined> = bodySchema
          ? fc.oneof(validArbitrary(bodySchema), invalidArbitrary(bodySchema)).chain(encodedBody)
          : multipartSchema
            ? multipartArbitrary(multipartSchema)
            : fc.constant(undefined);
        const caseArb: fc.Arbitrary<Case> = fc.tuple(pathArb, queryArb, bodyArb).map(([params, query, body]) => {
          const path = openApiPath.replace(/\{([^}]+)\}/g, (_m, name: string) => encodeURIComponent((params as Record<string, string>)[name] ?? ''));
          const qs = new URLSearchParams();
          for (const [key, value] of Object.entries(query)) qs.set(key, queryParam(value));
          const q = qs.toString();
          return { path: `${path}${q ? `?${q}` : ''}`, method: method.toUpperCase(), body };
        });
        try {
          await fc.assert(
            fc.asyncProperty(caseArb, async (c) => {
              inputs += 1;
              const res = await t.request(c.path, {
                method: c.method,
                apiKey: admin,
                ...(c.body !== undefined && c.method !== 'GET' && c.method !== 'DELETE' ? { rawBody: c.body.bytes, headers: { 'content-type': c.body.contentType } } : {}),
              });
              if (res.status >= 500) throw new Error(`${c.method} ${c.path} → ${res.status} ${res.text.slice(0, 300)}`);
              if (res.status >= 400 && !(typeof res.body?.error?.code === 'string' && typeof res.body?.error?.message === 'string')) {
                throw new Error(`${c.method} ${c.path} → ${res.status} without the error envelope: ${res.text.slice(0, 300)}`);
              }
            }),
            { numRuns: RUNS, endOnFailure: true },
          );
        } catch (error) {
          failures.push(`${method.toUpperCase()} ${openApiPath}: ${(error as Error).message.split('\n').slice(0, 6).join(' | ')}`);
        }
      }
    }
    console.info(`fuzz: ${operationsFuzzed} operations, ${inputs} inputs, ${failures.length} failing operations`);
    expect(operationsFuzzed).toBeGreaterThan(50);
    expect(failures).toEqual([]);
  }, 900_000);
});
