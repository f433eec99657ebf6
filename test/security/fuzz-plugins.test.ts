// The fuzz property of fuzz.test.ts once more with every shipped plugin enabled together (issue
// 32: the layaway routes answered 500 to malformed path ids while the core's passed). Every
// operation of /api/doc, called by an admin key with inputs generated from the document's own
// schemas (registry-inputs.ts), plus the malformed ids in every path parameter: never a
// 5xx, and every 4xx carries the `{ error: { code, message } }` envelope. About 20 calls per
// operation, so it runs in the slow half only (COMMERCE_SLOW_TESTS=1, set by .ci/run); the quick
// half checks the malformed ids on every plugin route in test/plugins/path-params.test.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { seed } from '../../src/seed.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { openStore, placeOrder, product, ORDER_TEST_CONFIG } from '../orders/helpers.js';
import { MALFORMED_IDS, shippedPlugins, SHIPPED_PLUGINS } from '../plugins/shipped.js';
import { hintFor, IdPool, invalidArbitrary, junk, queryParam, resolveRefs, validArbitrary } from './registry-inputs.js';

const SLOW = process.env.COMMERCE_SLOW_TESTS === '1';
const RUNS = 20;
const HTTP_METHODS = new Set(['get', 'post', 'put', 'patch', 'delete']);

let t: TestApp;
let doc: Record<string, any>;
let admin: string;
let pool: IdPool;

beforeAll(async () => {
  if (!SLOW) return;
  t = await startTestApp({ ...ORDER_TEST_CONFIG, rateLimit: { enabled: false }, plugins: shippedPlugins() });
  await seed(t.app);
  const store = await openStore(t);
  admin = store.admin;
  const entityId = await product(store, { price: 2_400, stock: 50 });
  await placeOrder(store, [{ entityId, quantity: 1 }]);
  // A live plan and vendor, so generated calls on their routes reach the handlers' reads.
  const plan = await t.request('/api/layaways', {
    apiKey: admin,
    body: { customerEmail: 'fuzz@example.com', currency: 'USD', lines: [{ entityId, quantity: 1 }], deposit: 400, expiresAt: new Date(Date.now() + 7 * 86_400_000).toISOString() },
  });
  expect(plan.status, plan.text).toBe(201);
  const vendor = await t.request('/api/marketplace/vendors', { apiKey: admin, body: { name: 'Fuzz vendor', email: 'fuzz-vendor@example.com' } });
  expect(vendor.status, vendor.text).toBe(201);
  doc = (await t.request('/api/doc')).body;
  pool = new IdPool(t, { apiKey: admin });
}, 240_000);
afterAll(() => t?.close());

/** One generated request of an operation: path parameters live, schema-valid, junk or one of the malformed ids. */
async function requests(openApiPath: string, entry: any): Promise<fc.Arbitrary<{ path: string; body?: unknown }>> {
  const parameters: any[] = resolveRefs(doc, entry.parameters ?? []);
  const inPath = parameters.filter((p) => p.in === 'path');
  const byName: Record<string, fc.Arbitrary<string>> = {};
  for (const p of inPath) {
    const live =
      hintFor(p.name, p.schema) ?? (await pool.idFor(p.name)) ?? pool.firstId(await pool.list(`/${openApiPath.split('/')[2]}`)) ?? '00000000-0000-4000-8000-000000000000';
    byName[p.name] = fc.oneof(
      { weight: 2, arbitrary: fc.constant(live) },
      { weight: 1, arbitrary: validArbitrary(p.schema).map(String) },
      { weight: 2, arbitrary: fc.constantFrom(...MALFORMED_IDS) },
      { weight: 1, arbitrary: junk.map((v) => (typeof v === 'string' ? v : JSON.stringify(v))) },
    );
  }
  const query = fc.record(Object.fromEntries(parameters.filter((p) => p.in === 'query').map((p) => [p.name, fc.oneof(validArbitrary(p.schema), junk)])), { requiredKeys: [] });
  const schema = resolveRefs(doc, entry.requestBody?.content?.['application/json']?.schema);
  const body = schema ? fc.oneof(validArbitrary(schema), invalidArbitrary(schema)) : fc.constant(undefined);
  return fc.tuple(fc.record(byName), query, body).map(([params, q, b]) => {
    const path = openApiPath.replace(/\{([^}]+)\}/g, (_m, name: string) => encodeURIComponent(params[name] ?? ''));
    const search = new URLSearchParams(Object.entries(q).map(([key, value]) => [key, queryParam(value)])).toString();
    return { path: search ? `${path}?${search}` : path, body: b };
  });
}

describe.skipIf(!SLOW)('fuzz every /api/doc operation with every shipped plugin enabled', () => {
  it('never answers 5xx, and every 4xx has the error envelope', async () => {
    const failures: string[] = [];
    const counts = { operations: 0, pluginOperations: 0, inputs: 0, fivexx: 0, fourxx: 0 };
    for (const [openApiPath, methods] of Object.entries<Record<string, any>>(doc.paths)) {
      for (const [method, entry] of Object.entries<any>(methods)) {
        if (!HTTP_METHODS.has(method)) continue;
        counts.operations += 1;
        if (SHIPPED_PLUGINS.some((p) => `${openApiPath}/`.startsWith(`/api${p.prefix}`))) counts.pluginOperations += 1;
        const verb = method.toUpperCase();
        const sendsBody = verb !== 'GET' && verb !== 'DELETE';
        try {
          await fc.assert(
            fc.asyncProperty(await requests(openApiPath, entry), async ({ path, body }) => {
              counts.inputs += 1;
              const res = await t.request(path, { method: verb, apiKey: admin, ...(sendsBody && body !== undefined ? { body } : {}) });
              if (res.status >= 500) counts.fivexx += 1;
              else if (res.status >= 400) counts.fourxx += 1;
              if (res.status >= 500) throw new Error(`${verb} ${path.slice(0, 200)} → ${res.status} ${res.text.slice(0, 300)}`);
              if (res.status >= 400 && !(typeof res.body?.error?.code === 'string' && typeof res.body?.error?.message === 'string')) {
                throw new Error(`${verb} ${path.slice(0, 200)} → ${res.status} without the error envelope: ${res.text.slice(0, 300)}`);
              }
            }),
            { numRuns: RUNS, endOnFailure: true },
          );
        } catch (error) {
          failures.push(`${verb} ${openApiPath}: ${(error as Error).message.split('\n').slice(0, 6).join(' | ')}`);
        }
      }
    }
    console.info(`fuzz with every plugin: ${JSON.stringify(counts)}, ${failures.length} failing operations`);
    // Every shipped plugin's operations are in the document (a missing prefix would hide a plugin).
    for (const plugin of SHIPPED_PLUGINS)
      expect(
        Object.keys(doc.paths).some((p) => `${p}/`.startsWith(`/api${plugin.prefix}`)),
        plugin.id,
      ).toBe(true);
    expect(counts.pluginOperations).toBeGreaterThan(60);
    expect(failures).toEqual([]);
  }, 1_500_000);
});
