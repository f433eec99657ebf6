// A client generated from schema.graphql with GraphQL Code Generator (client preset, configured by
// the SDK's shipped preset) compiles three realistic operations with `tsc --strict` and runs them
// against the server: product page, cart → checkout, admin order list. Their result and variable
// types must be precise: no any, no unknown (test/graph/client/precise.ts).
import { execFile } from 'node:child_process';
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { generate } from '@graphql-codegen/cli';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codegenConfig } from '../../client/src/codegen.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { ORDER_TEST_CONFIG, openStore, type Store } from '../orders/helpers.js';

const run = promisify(execFile);

interface Transport {
  url: string;
  headers: Record<string, string>;
}
interface FixtureOperations {
  productPage(
    transport: Transport,
    slug: string,
    currency: string,
  ): Promise<{ title: string; fromPrice: number | null; variants: Array<{ label: string; unitAmount: number | null }> }>;
  cartToCheckout(
    transport: Transport,
    entityId: string,
    variantId: string,
    quantity: number,
  ): Promise<{ orderNumber: string; status: string; grandTotal: number; cartTotal: number }>;
  adminOrderList(transport: Transport, limit: number): Promise<{ total: number; rows: unknown[] }>;
}
const root = join(import.meta.dirname, '..', '..');
const fixture = join(import.meta.dirname, 'client');

let t: TestApp;
let store: Store;
let slug: string;
let entityId: string;
let variantId: string;

beforeAll(async () => {
  await rm(join(fixture, 'gql'), { recursive: true, force: true });
  // The preset the SDK ships (@commerce-service/client/codegen), as a storefront's codegen.ts uses it.
  await generate(
    { ...codegenConfig({ schema: join(root, 'schema.graphql'), documents: [join(fixture, 'operations.ts')], output: `${join(fixture, 'gql')}/` }), silent: true },
    true,
  );
  t = await startTestApp(ORDER_TEST_CONFIG);
  store = await openStore(t);
  slug = `codegen-mug-${Date.now().toString(36)}`;
  const created = await t.request('/api/catalog/entities', { apiKey: store.admin, body: { type: 'product', slug, status: 'active' } });
  expect(created.status, created.text).toBe(201);
  entityId = created.body.data.id;
  const steps = await Promise.all([
    t.request(`/api/catalog/entities/${entityId}/attributes/en`, { method: 'PUT', apiKey: store.admin, body: { title: 'Codegen Mug' } }),
    t.request(`/api/catalog/entities/${entityId}/variants/bulk`, { apiKey: store.admin, body: { axes: { size: ['S', 'L'] } } }),
    t.request('/api/pricing/prices', { apiKey: store.admin, body: { entityId, currency: 'USD', amount: 1500 } }),
  ]);
  for (const res of steps) expect(res.status, res.text).toBeLessThan(300);
  variantId = steps[1]!.body.data.created.find((v: any) => v.options.size === 'L').id;
  const large = await t.request('/api/pricing/prices', { apiKey: store.admin, body: { entityId, variantId, currency: 'USD', amount: 1800 } });
  expect(large.status, large.text).toBe(201);
  const stock = await t.request('/api/inventory/adjust', { apiKey: store.admin, body: { entityId, variantId, warehouseId: store.warehouseId, type: 'restock', quantity: 10 } });
  expect(stock.status, stock.text).toBe(200);
}, 240_000);
afterAll(() => t?.close());

describe('GraphQL Code Generator client', () => {
  it('compiles the three operations with tsc --strict', async () => {
    const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
    const result = await run(process.execPath, [tsc, '-p', join(fixture, 'tsconfig.json')], { cwd: fixture }).catch((error) => error);
    expect(`${result.stdout ?? ''}${result.stderr ?? ''}`).toBe('');
  }, 120_000);

  it('types the three operations with no any or unknown at any depth', async () => {
    const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
    const result = await run(process.execPath, [tsc, '-p', join(fixture, 'tsconfig.precise.json')], { cwd: fixture }).catch((error) => error);
    expect(`${result.stdout ?? ''}${result.stderr ?? ''}`).toBe('');
  }, 120_000);

  it('types the results of the three operations without unknown, any or JSON scalars', async () => {
    const generated = await readFile(join(fixture, 'gql', 'graphql.ts'), 'utf8');
    for (const name of ['ProductPageQuery', 'CartCreateMutation', 'CartItemAddMutation', 'CheckoutMutation', 'AdminOrdersQuery']) {
      const type = generated.split('\n').find((line) => line.startsWith(`export type ${name} = `));
      expect(type, `${name} is generated`).toBeDefined();
      expect(type, name).not.toMatch(/\b(unknown|any)\b|Scalars\['JSON(Object)?'\]/);
    }
  });

  it('runs product page, cart → checkout and the admin order list against the server', async () => {
    // Through a computed path: the main type check excludes the fixture (its ./gql exists only
    // once generated); the fixture's own strict tsc run above checks it.
    const ops: FixtureOperations = await import(join(fixture, 'operations.ts'));
    const storefront = { url: t.url, headers: { 'x-api-key': store.storefront } };
    const card = await ops.productPage(storefront, slug, 'USD');
    expect(card.title).toBe('Codegen Mug');
    expect(card.variants.map((v) => [v.label, v.unitAmount])).toEqual([
      ['size: S', 1500],
      ['size: L', 1800],
    ]);
    expect(card.fromPrice).toBe(1500);

    const placed = await ops.cartToCheckout({ url: t.url, headers: {} }, entityId, variantId, 2);
    expect(placed.cartTotal).toBe(3600);
    expect(placed.orderNumber).toMatch(/^ORD-\d{4}-\d{6}$/);
    expect(placed.status).toBe('pending');
    expect(placed.grandTotal).toBeGreaterThanOrEqual(3600);

    const list = await ops.adminOrderList({ url: t.url, headers: { 'x-api-key': store.admin } }, 10);
    expect(list.total).toBe(1);
    expect(list.rows).toEqual([{ orderNumber: placed.orderNumber, status: 'pending', items: 2, city: 'Springfield' }]);
  });
});
