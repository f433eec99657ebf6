// Our side of `npm run bench:peer`: bench/support/server.ts seeds a database of its own with the
// 100 products × 6 variants (names, slugs, description and USD prices as bench/peer/shared.ts
// says); this adds what the storefront fields need on top (5 categories, 5 brands, a 20% default
// tax class, stock on every variant) through the admin API, then starts `npm start`'s compiled
// build on that database in production mode (NODE_ENV=production), as bench/production.ts does.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startTarget, type Target } from '../support/driver.js';
import { api } from '../support/probe.js';
import { BRANDS, CATEGORIES, PRODUCTS, STOCK, pick3 } from './shared.js';
import { NPM_START_ARGS } from '../../scripts/node-flags.js';

export interface Ours {
  url: string;
  key: string;
  child: ChildProcess;
  /** The seeding server (it idles; stopping it drops the database). */
  seeded: Target;
  /** [entityId, variantId] of every variant. */
  variants: Array<[string, string]>;
  stop(): Promise<void>;
}

async function inBatches<T>(items: T[], size: number, each: (item: T) => Promise<unknown>): Promise<void> {
  for (let i = 0; i < items.length; i += size) await Promise.all(items.slice(i, i + size).map(each));
}

const WHICH_ENTRY =
  "const { entryTarget } = await import('./scripts/entry-target.mjs'); console.log(entryTarget({ root: process.cwd(), entry: 'server', env: process.env, cwd: process.cwd() }).kind);";

export async function startOurs(): Promise<Ours> {
  // One auth secret for both processes: API keys carry a grant signed with it.
  const secret = randomBytes(32).toString('hex');
  // `npm start` runs dist/ when the build is current (scripts/entry-target.mjs); build it otherwise.
  const which = spawnSync(process.execPath, ['--input-type=module', '-e', WHICH_ENTRY], { encoding: 'utf8', env: { ...process.env, COMMERCE_CONFIG: '' } });
  if (which.stdout.trim() !== 'compiled') {
    console.error('ours: npm run build');
    const build = spawnSync(process.execPath, ['scripts/build.mjs'], { stdio: ['ignore', 'ignore', 'inherit'] });
    if (build.status !== 0) throw new Error('npm run build failed');
  }
  const seeded = await startTarget('bench/support/server.ts', { ...process.env, BETTER_AUTH_SECRET: secret, BENCH_PRODUCTS: String(PRODUCTS) });

  const page = (await api(seeded, `/api/catalog/entities?limit=${PRODUCTS}&include=variants`)) as Array<{ id: string; variants: Array<{ id: string }> }>;
  const variants = page.flatMap((entity) => entity.variants.map((v) => [entity.id, v.id] as [string, string]));
  await api(seeded, '/api/tax/classes', { name: 'standard', rateBps: 2000, isDefault: true });
  const categories: string[] = [];
  const brands: string[] = [];
  for (let i = 0; i < CATEGORIES; i += 1) categories.push((await api(seeded, '/api/catalog/categories', { name: `Category ${i}`, slug: `category-${i}` })).id);
  for (let i = 0; i < BRANDS; i += 1) brands.push((await api(seeded, '/api/catalog/brands', { name: `Brand ${i}`, slug: `brand-${i}` })).id);
  const bySlug = new Map(page.map((entity: any) => [entity.slug as string, entity.id as string]));
  await inBatches([...bySlug.entries()], 10, async ([slug, id]) => {
    const i = Number(slug.split('-').pop());
    await api(seeded, `/api/catalog/entities/${id}/categories/${categories[i % CATEGORIES]}`, {});
    await api(seeded, `/api/catalog/entities/${id}/brands/${brands[i % BRANDS]}`, {});
  });
  const warehouse = await api(seeded, '/api/inventory/warehouses', { name: 'Bench', code: 'BENCH' });
  await inBatches(variants, 10, ([entityId, variantId]) =>
    api(seeded, '/api/inventory/adjust', { entityId, variantId, warehouseId: warehouse.id, type: 'restock', quantity: STOCK }),
  );

  const configFile = path.join(os.tmpdir(), `commerce-bench-peer-${process.pid}.json`);
  // The bench measures the work, not the limiter's refusals; production refuses checkout without
  // a payment provider chosen on purpose: the offline one (Vendure gets its dummy handler).
  // Everything else is the default.
  fs.writeFileSync(configFile, JSON.stringify({ rateLimit: { enabled: false }, payments: { provider: 'offline' } }));
  const port = 20_000 + (process.pid % 10_000);
  const env = {
    ...process.env,
    DATABASE_URL: seeded.info.databaseUrl,
    PORT: String(port),
    HOST: '127.0.0.1',
    NODE_ENV: 'production',
    BETTER_AUTH_SECRET: secret,
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    COMMERCE_CONFIG: configFile,
    LOG_LEVEL: 'warn',
    // The API only: the dashboard bundle (a Vite build when stale) plays no part here.
    ADMIN_BUILD: '0',
  };
  const child = spawn(process.execPath, [...NPM_START_ARGS], { env, stdio: ['ignore', 'ignore', 'inherit'] });
  const url = `http://127.0.0.1:${port}`;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`npm start exited with ${child.exitCode}`);
    const ready = await fetch(`${url}/api/health/ready`).then(
      (r) => r.status === 200,
      () => false,
    );
    if (ready) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    url,
    key: seeded.info.key!,
    child,
    seeded,
    variants,
    stop: async () => {
      await new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      });
      await seeded.stop();
      fs.rmSync(configFile, { force: true });
    },
  };
}

// ── the storefront's requests ──

export const REST_INCLUDE = 'variants,attributes,pricing,categories,brands,inventory';
const FIELDS = `id slug status attributes { locale title description } categories { id name slug } brands { id name slug }
  variants { id sku title options } pricing { id currency amount variantId } inventory { available variants { variantId available } }`;
export const oursList = `{ catalogEntities(limit: 20) { data { ${FIELDS} } } }`;
export const oursBySlug = (slug: string) => `{ catalogEntity(idOrSlug: "${slug}") { ${FIELDS} } }`;
export const oursTrivial = '{ settingsGroup(group: "general") }';

const address = { line1: '1 Main St', city: 'Springfield', postalCode: '62701', country: 'US' };

async function post(ours: Ours, path: string, body: unknown, headers: Record<string, string> = {}): Promise<{ status: number; body: any }> {
  const res = await fetch(ours.url + path, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  return { status: res.status, body: await res.json() };
}

/** One guest's visit as bench/checkout.ts makes it: a cart, 3 variants, checkout. Returns whether the order was placed. */
export async function oursVisit(ours: Ours): Promise<boolean> {
  const cart = await post(ours, '/api/carts', { currency: 'USD' });
  if (cart.status !== 201) throw new Error(`cart: ${cart.status} ${JSON.stringify(cart.body)}`);
  const headers = { 'x-cart-token': cart.body.data.cartToken };
  for (const index of pick3(ours.variants.length)) {
    const [entityId, variantId] = ours.variants[index]!;
    const item = await post(ours, `/api/carts/${cart.body.data.id}/items`, { entityId, variantId, quantity: 1 }, headers);
    if (item.status !== 201) throw new Error(`item: ${item.status} ${JSON.stringify(item.body)}`);
  }
  const order = await post(
    ours,
    '/api/checkout',
    { cartId: cart.body.data.id, paymentMethodId: 'pm_card_visa', currency: 'USD', shippingAddress: address, email: 'bench@example.com' },
    headers,
  );
  if (order.status !== 201) throw new Error(`checkout: ${order.status} ${JSON.stringify(order.body).slice(0, 300)}`);
  return true;
}
