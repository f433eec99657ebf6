// The SDK as a user installs it: client/ is packed with `npm pack` (prepack builds dist/), the
// tarball is installed into an empty project from the registry, and a storefront script that
// imports only `@commerce-service/client` is compiled with `tsc --strict` and run by Node
// against a real server: one storefront key, a signed-in shopper, the store profile, products
// with availability and prices in the store currency, cart → checkout, the order in /me/orders.
// Slow (pack + install from the registry), so it runs with COMMERCE_SLOW_TESTS (CI sets it).
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../../src/paths.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { ORDER_TEST_CONFIG, openStore, restock, unique, type Store } from '../orders/helpers.js';

const run = promisify(execFile);
const NPM = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const TSC = path.join(PACKAGE_ROOT, 'node_modules/typescript/bin/tsc');
const FIXTURE = path.join(PACKAGE_ROOT, 'test/client/fixtures/package');
const SIZE_LIMIT = 2 * 1024 * 1024;

let scratch: string;
let project: string;
let installed: string;
let t: TestApp;
let store: Store;
let compiled: { ok: boolean; output: string };
let outcome: { ok: true; report: any } | { ok: false; error: string };
let productId: string;
let sizes: { L: string; S: string };

function du(dir: string): number {
  let total = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) total += du(full);
    else if (entry.isFile()) total += fs.statSync(full).size;
  }
  return total;
}

function files(dir: string, base = dir): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? files(full, base) : [path.relative(base, full)];
  });
}

async function seedCatalog(): Promise<void> {
  const { admin } = store;
  // The store sells in EUR: prices in the store currency are what the storefront must show.
  const general = await t.request('/api/settings/general', { method: 'PATCH', apiKey: admin, body: { currency: 'EUR' } });
  expect(general.status, general.text).toBe(200);
  const created = await t.request('/api/catalog/entities', { apiKey: admin, body: { type: 'product', slug: unique('tee'), status: 'active' } });
  expect(created.status, created.text).toBe(201);
  productId = created.body.data.id;
  const steps = await Promise.all([
    t.request(`/api/catalog/entities/${productId}/attributes/en`, { method: 'PUT', apiKey: admin, body: { title: 'Package Tee' } }),
    t.request(`/api/catalog/entities/${productId}/variants/bulk`, { apiKey: admin, body: { axes: { size: ['S', 'L'] } } }),
    t.request('/api/pricing/prices', { apiKey: admin, body: { entityId: productId, currency: 'EUR', amount: 2500 } }),
    t.request('/api/pricing/prices', { apiKey: admin, body: { entityId: productId, currency: 'USD', amount: 2700 } }),
  ]);
  for (const res of steps) expect(res.status, res.text).toBeLessThan(300);
  const variants = steps[1]!.body.data.created as Array<{ id: string; options: { size: string } }>;
  sizes = { L: variants.find((v) => v.options.size === 'L')!.id, S: variants.find((v) => v.options.size === 'S')!.id };
  // Only L is in stock.
  await restock(store, productId, 5, sizes.L);
}

describe.runIf(process.env.COMMERCE_SLOW_TESTS)('@commerce-service/client as an installed package', () => {
  beforeAll(async () => {
    scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'sdk-package-'));
    project = path.join(scratch, 'storefront');
    fs.mkdirSync(project);
    // `npm pack` runs prepack (the build) and prints the tarball's name last.
    const packed = await run(NPM, ['pack', '--pack-destination', scratch, '--silent'], { cwd: path.join(PACKAGE_ROOT, 'client') });
    const tarball = path.join(scratch, packed.stdout.trim().split('\n').at(-1)!);
    fs.writeFileSync(path.join(project, 'package.json'), JSON.stringify({ name: 'storefront', private: true, type: 'module' }));
    await run(NPM, ['install', tarball, '--no-audit', '--no-fund', '--silent'], { cwd: project });
    installed = path.join(project, 'node_modules/@commerce-service/client');

    fs.copyFileSync(path.join(FIXTURE, 'storefront.ts'), path.join(project, 'storefront.ts'));
    fs.copyFileSync(path.join(FIXTURE, 'run.mjs'), path.join(project, 'run.mjs'));
    // A browser/React Native-like compile: no Node types; emitted even on a type error, so the
    // run below still reports what works when the contract lags behind the script.
    fs.writeFileSync(
      path.join(project, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', lib: ['ES2022', 'DOM'], types: [], strict: true, noEmitOnError: false },
        files: ['storefront.ts'],
      }),
    );
    compiled = await run(process.execPath, [TSC, '--strict', '-p', 'tsconfig.json'], { cwd: project })
      .then(({ stdout }) => ({ ok: true, output: stdout }))
      .catch((error) => ({ ok: false, output: String(error.stdout ?? error) }));

    t = await startTestApp(ORDER_TEST_CONFIG);
    store = await openStore(t);
    await seedCatalog();
    const shopper = await t.signIn('customer');
    const { stdout } = await run(process.execPath, ['run.mjs', t.url, store.storefront, shopper.email, 'correct-horse-battery'], { cwd: project });
    outcome = JSON.parse(stdout);
  }, 600_000);

  afterAll(async () => {
    await t?.close();
    if (scratch) fs.rmSync(scratch, { recursive: true, force: true });
  });

  it('ships built JavaScript and .d.ts only, with openapi-fetch as its one dependency', () => {
    const manifest = JSON.parse(fs.readFileSync(path.join(installed, 'package.json'), 'utf8'));
    const root = JSON.parse(fs.readFileSync(path.join(PACKAGE_ROOT, 'package.json'), 'utf8'));
    expect(manifest.version).toBe(root.version);
    expect(manifest.license).toBe('MIT');
    expect(Object.keys(manifest.dependencies)).toEqual(['openapi-fetch']);
    const shipped = files(installed);
    expect(shipped.filter((f) => !/^dist\/.*\.(js|d\.ts)$/.test(f)).sort()).toEqual(['README.md', 'package.json']);
    // Browsers and React Native: no Node built-in anywhere in the shipped code.
    for (const file of shipped.filter((f) => f.endsWith('.js'))) {
      // Code only: the doc comments may show how a Node app passes its own fs module.
      const code = fs
        .readFileSync(path.join(installed, file), 'utf8')
        .replace(/\/\*[\s\S]*?\*\//g, '')
        .replace(/^\s*\/\/.*$/gm, '');
      expect(code, file).not.toMatch(/(from\s*|import\s*\(\s*)['"]node:|require\(/);
    }
    // Only the SDK and openapi-fetch (with its helpers): nothing of the server came along.
    const packages = fs.readdirSync(path.join(project, 'node_modules')).filter((n) => !n.startsWith('.'));
    expect(packages.sort()).toEqual(['@commerce-service', 'openapi-fetch', 'openapi-typescript-helpers']);
  });

  it('installs under 2 MB with its dependencies', () => {
    const bytes = du(path.join(project, 'node_modules'));
    console.log(`installed size: ${(bytes / 1024).toFixed(0)} kB`);
    expect(bytes).toBeLessThan(SIZE_LIMIT);
  });

  it('loads in plain Node (both entry points), no loader needed', async () => {
    const script =
      "const sdk = await import('@commerce-service/client'); const codegen = await import('@commerce-service/client/codegen'); console.log(typeof sdk.createClient, typeof sdk.createOfflineQueue, codegen.scalars.MinorUnits);";
    const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], { cwd: project });
    expect(stdout.trim()).toBe('function function number');
  });

  it('compiles the storefront script with tsc --strict', () => {
    expect(compiled.output).toBe('');
    expect(compiled.ok).toBe(true);
  });

  it('runs it: store profile, availability and prices in the store currency, checkout, /me/orders', () => {
    if (!outcome.ok) throw new Error(outcome.error);
    const report = outcome.report;
    expect(report.store).toMatchObject({ defaultCurrency: 'EUR' });
    expect(report.currency).toBe('EUR');
    const tee = report.products.find((p: any) => p.id === productId);
    expect(tee).toMatchObject({ title: 'Package Tee', price: 2500 });
    const bySize = Object.fromEntries(tee.variants.map((v: any) => [v.id, v]));
    expect(bySize[sizes.L]).toMatchObject({ inStock: true, availableQuantity: 5, backorderable: false });
    expect(bySize[sizes.S]).toMatchObject({ inStock: false, availableQuantity: 0 });
    // The shopper acts (the key only bounds): the cart and the order are theirs.
    expect(report.cart.customerId).toBe(report.userId);
    expect(report.order).toMatchObject({ currency: 'EUR', status: 'pending', paymentStatus: 'awaiting_payment', customerId: report.userId });
    expect(report.order.grandTotal).toBeGreaterThanOrEqual(2500);
    expect(report.myOrders).toEqual({ status: 200, numbers: [report.order.number] });
  });
});
