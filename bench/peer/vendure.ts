// The Vendure side of `npm run bench:peer`: installs @vendure/core from the npm registry into a
// cached folder (os.tmpdir()/commerce-bench-peer-vendure-<version>; a second run reuses it),
// seeds a database of its own on the same PostgreSQL with Vendure's populate helper, and starts
// Vendure in production mode (NODE_ENV=production, compiled JavaScript) in its own process.
// Nothing of Vendure is kept in this repository: only the bootstrap script (vendure-server.mjs).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { BRANDS, CATEGORIES, COLORS, DESCRIPTION, PRODUCTS, SIZES, STOCK, pick3, productName, productPrice, productSlug } from './shared.js';

export const VENDURE_VERSION = '3.7.3';
export const VENDURE_DIR = path.join(os.tmpdir(), `commerce-bench-peer-vendure-${VENDURE_VERSION}`);
const DATABASE = 'commerce_bench_peer_vendure';
const here = path.dirname(fileURLToPath(import.meta.url));

/** npm install into the cached folder, unless the wanted version is already there. */
export function installVendure(): void {
  fs.mkdirSync(VENDURE_DIR, { recursive: true });
  const installed = path.join(VENDURE_DIR, 'node_modules/@vendure/core/package.json');
  if (fs.existsSync(installed) && JSON.parse(fs.readFileSync(installed, 'utf8')).version === VENDURE_VERSION) {
    console.error(`vendure: ${VENDURE_VERSION} already installed in ${VENDURE_DIR}`);
  } else {
    // pg is Vendure's PostgreSQL driver (TypeORM loads it); bcrypt ships prebuilt binaries.
    const manifest = { name: 'commerce-bench-peer-vendure', private: true, version: '0.0.0', dependencies: { '@vendure/core': VENDURE_VERSION, pg: '8.23.1' } };
    fs.writeFileSync(path.join(VENDURE_DIR, 'package.json'), JSON.stringify(manifest, null, 2));
    console.error(`vendure: npm install @vendure/core@${VENDURE_VERSION} into ${VENDURE_DIR} (a few minutes, once)`);
    const npm = spawnSync('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: VENDURE_DIR, stdio: ['ignore', 'inherit', 'inherit'] });
    if (npm.status !== 0) throw new Error(`npm install of @vendure/core@${VENDURE_VERSION} failed (exit ${npm.status}); see the output above`);
  }
  fs.copyFileSync(path.join(here, 'vendure-server.mjs'), path.join(VENDURE_DIR, 'vendure-server.mjs'));
}

/** products.csv in Vendure's import format: one row per variant, the product's columns on its first row. */
function productsCsv(): string {
  const header = 'name,slug,description,assets,facets,optionGroups,optionValues,sku,price,taxCategory,stockOnHand,trackInventory,variantAssets,variantFacets';
  const rows = [header];
  for (let i = 0; i < PRODUCTS; i += 1) {
    let first = true;
    for (const size of SIZES) {
      for (const color of COLORS) {
        const product = first
          ? [productName(i), productSlug(i), DESCRIPTION, '', `brand:Brand ${i % BRANDS}|category:Category ${i % CATEGORIES}`, 'size|color']
          : ['', '', '', '', '', ''];
        rows.push([...product, `${size}|${color}`, `${productSlug(i)}-${size}-${color}`, (productPrice(i) / 100).toFixed(2), 'standard', STOCK, 'true', '', ''].join(','));
        first = false;
      }
    }
  }
  return `${rows.join('\n')}\n`;
}

function serverEnv(adminUrl: string, port: number): NodeJS.ProcessEnv {
  return { ...process.env, NODE_ENV: 'production', VENDURE_DIR, VENDURE_DB: DATABASE, VENDURE_PORT: String(port), VENDURE_PG: adminUrl };
}

/**
 * A database of Vendure's own, seeded once: kept between runs while it holds the 100 products
 * (BENCH_PEER_FRESH=1 recreates it). Orders placed by earlier runs stay; they do not touch the reads.
 */
export async function seedVendure(adminUrl: string): Promise<void> {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    const exists = (await admin.query('select 1 from pg_database where datname = $1', [DATABASE])).rowCount === 1;
    if (exists && process.env.BENCH_PEER_FRESH !== '1') {
      const url = new URL(adminUrl);
      url.pathname = `/${DATABASE}`;
      const db = new pg.Client({ connectionString: url.toString() });
      await db.connect();
      const count = await db
        .query<{ n: number }>('select count(*)::int as n from product_variant')
        .then((r) => r.rows[0]!.n)
        .catch(() => 0);
      await db.end();
      if (count === PRODUCTS * SIZES.length * COLORS.length) {
        console.error(`vendure: database ${DATABASE} already seeded (${count} variants)`);
        return;
      }
    }
    await admin.query(`drop database if exists ${DATABASE} with (force)`);
    await admin.query(`create database ${DATABASE}`);
  } finally {
    await admin.end();
  }
  fs.writeFileSync(path.join(VENDURE_DIR, 'products.csv'), productsCsv());
  console.error('vendure: populating (schema, initial data, 100 products × 6 variants)');
  const populate = spawnSync(process.execPath, ['vendure-server.mjs', 'populate'], { cwd: VENDURE_DIR, env: serverEnv(adminUrl, 0), stdio: ['ignore', 'inherit', 'inherit'] });
  if (populate.status !== 0) throw new Error(`vendure populate failed (exit ${populate.status})`);
}

export interface VendureServer {
  url: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

export async function startVendure(adminUrl: string): Promise<VendureServer> {
  const port = 30_000 + (process.pid % 20_000);
  const child = spawn(process.execPath, ['vendure-server.mjs', 'serve'], { cwd: VENDURE_DIR, env: serverEnv(adminUrl, port), stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise<string>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`vendure exited with ${code}`)));
    readline.createInterface({ input: child.stdout! }).on('line', (line) => {
      if (!line.startsWith('{')) return process.stderr.write(`vendure: ${line}\n`);
      const info = JSON.parse(line) as { url?: string };
      if (info.url) resolve(info.url);
    });
  });
  child.removeAllListeners('exit');
  return {
    url,
    child,
    stop: () =>
      new Promise((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

// ── the storefront's requests (Shop API) ──

export const VENDURE_FIELDS = `id name slug description
  facetValues { id code name facet { id code name } }
  variants { id name sku price priceWithTax currencyCode stockLevel options { id code name group { id code name } } }`;
export const vendureList = `{ products(options: { take: 20 }) { totalItems items { ${VENDURE_FIELDS} } } }`;
export const vendureBySlug = (slug: string) => `{ product(slug: "${slug}") { ${VENDURE_FIELDS} } }`;
export const vendureTrivial = '{ activeChannel { id code } }';

interface Reply {
  data: any;
  errors?: unknown[];
  token: string | null;
}

export async function shop(server: VendureServer, query: string, variables: Record<string, unknown> = {}, token?: string): Promise<Reply> {
  const res = await fetch(`${server.url}/shop-api`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify({ query, variables }),
  });
  const body = (await res.json()) as { data: any; errors?: unknown[] };
  return { ...body, token: res.headers.get('vendure-auth-token') };
}

async function must(server: VendureServer, query: string, variables: Record<string, unknown>, token?: string): Promise<Reply> {
  const reply = await shop(server, query, variables, token);
  if (reply.errors) throw new Error(`vendure: ${JSON.stringify(reply.errors).slice(0, 300)}`);
  const result = Object.values(reply.data ?? {})[0] as { errorCode?: string; message?: string } | null;
  if (result && typeof result === 'object' && 'errorCode' in result && result.errorCode) throw new Error(`vendure: ${result.errorCode} ${result.message}`);
  return reply;
}

/** Every variant id, to pick the shoppers' items from. */
export async function vendureVariantIds(server: VendureServer): Promise<string[]> {
  const reply = await must(server, '{ products(options: { take: 100 }) { items { variants { id } } } }', {});
  return reply.data.products.items.flatMap((p: { variants: Array<{ id: string }> }) => p.variants.map((v) => v.id));
}

const ORDER = '... on Order { id code state totalWithTax } ... on ErrorResult { errorCode message }';

/** One guest's visit: 3 items, customer, address, shipping, payment (the dummy handler, settled at once). Returns whether the order was placed. */
export async function vendureVisit(server: VendureServer, variantIds: string[]): Promise<boolean> {
  let token: string | undefined;
  for (const index of pick3(variantIds.length)) {
    const reply = await must(server, `mutation($id: ID!) { addItemToOrder(productVariantId: $id, quantity: 1) { ${ORDER} } }`, { id: variantIds[index] }, token);
    token ??= reply.token ?? undefined;
  }
  await must(
    server,
    `mutation($input: CreateCustomerInput!) { setCustomerForOrder(input: $input) { ${ORDER} } }`,
    { input: { emailAddress: 'bench@example.com', firstName: 'Bench', lastName: 'Shopper' } },
    token,
  );
  await must(
    server,
    `mutation($input: CreateAddressInput!) { setOrderShippingAddress(input: $input) { ${ORDER} } }`,
    { input: { fullName: 'Bench Shopper', streetLine1: '1 Main St', city: 'Springfield', postalCode: '62701', countryCode: 'US' } },
    token,
  );
  const methods = await must(server, '{ eligibleShippingMethods { id price } }', {}, token);
  await must(server, `mutation($id: [ID!]!) { setOrderShippingMethod(shippingMethodId: $id) { ${ORDER} } }`, { id: [methods.data.eligibleShippingMethods[0].id] }, token);
  await must(
    server,
    'mutation { transitionOrderToState(state: "ArrangingPayment") { ... on Order { id state } ... on OrderStateTransitionError { errorCode message transitionError } } }',
    {},
    token,
  );
  const paid = await must(
    server,
    `mutation($input: PaymentInput!) { addPaymentToOrder(input: $input) { ${ORDER} } }`,
    { input: { method: 'standard-payment', metadata: {} } },
    token,
  );
  return paid.data.addPaymentToOrder.state === 'PaymentSettled';
}
