// The Vendure side of `npm run bench:peer`, copied into the cached install
// (os.tmpdir()/commerce-bench-peer-vendure-<version>) so that @vendure/core resolves from there.
// Plain JavaScript: Vendure runs compiled, as in production, without a TypeScript build.
//
//   node vendure-server.mjs populate   creates the schema (synchronize) and seeds it with
//                                      Vendure's own populate helper: initial data (country, zone,
//                                      tax, shipping method, dummy payment method) + products.csv
//   node vendure-server.mjs serve      bootstraps the server; prints {"url"} once listening
//
// Environment: VENDURE_DB (database name), VENDURE_PORT, VENDURE_DIR (this folder).
import path from 'node:path';
import { bootstrap, DefaultLogger, dummyPaymentHandler, LogLevel } from '@vendure/core';

const dir = process.env.VENDURE_DIR;
const port = Number(process.env.VENDURE_PORT ?? 3900);
// The PostgreSQL server (any database on it): bench/peer.ts passes its own.
const pgUrl = new URL(process.env.VENDURE_PG ?? 'postgresql://postgres@127.0.0.1:5432/postgres');

/** @type {import('@vendure/core').VendureConfig} */
const config = {
  apiOptions: {
    hostname: '127.0.0.1',
    port,
    adminApiPath: 'admin-api',
    shopApiPath: 'shop-api',
    adminApiPlayground: false,
    shopApiPlayground: false,
    adminApiDebug: false,
    shopApiDebug: false,
    // An explicit origin, as a deployment has (the default reflects any origin and warns).
    cors: { origin: ['http://127.0.0.1'], credentials: true },
  },
  authOptions: {
    // Bearer tokens: the load generator carries the session token in a header, no cookie jar.
    tokenMethod: 'bearer',
    requireVerification: false,
    // Not the default pair: Vendure refuses to start in production with it. A local bench database only.
    superadminCredentials: { identifier: 'bench-admin', password: 'bench-peer-admin-password' },
  },
  dbConnectionOptions: {
    type: 'postgres',
    host: pgUrl.hostname,
    port: Number(pgUrl.port || 5432),
    username: decodeURIComponent(pgUrl.username || 'postgres'),
    password: decodeURIComponent(pgUrl.password),
    database: process.env.VENDURE_DB,
    // A bench database of its own: Vendure creates its tables itself when populating it.
    synchronize: process.argv[2] === 'populate',
    logging: false,
  },
  paymentOptions: { paymentMethodHandlers: [dummyPaymentHandler] },
  importExportOptions: { importAssetsDir: dir },
  // No plugins: no search index, no asset server, no email; the job queue stays Vendure's default (in process, in memory).
  plugins: [],
  logger: new DefaultLogger({ level: LogLevel.Warn }),
};

const initialData = {
  defaultLanguage: 'en',
  defaultZone: 'Americas',
  taxRates: [{ name: 'Standard Tax', percentage: 20 }],
  shippingMethods: [{ name: 'Standard Shipping', price: 500 }],
  paymentMethods: [{ name: 'Standard Payment', handler: { code: dummyPaymentHandler.code, arguments: [{ name: 'automaticSettle', value: 'true' }] } }],
  countries: [{ name: 'United States of America', code: 'US', zone: 'Americas' }],
  collections: [],
};

const mode = process.argv[2] ?? 'serve';
if (mode === 'populate') {
  const { populate } = await import('@vendure/core/cli/index.js');
  const app = await populate(() => bootstrap(config), initialData, path.join(dir, 'products.csv'));
  await app.close();
  console.log(JSON.stringify({ populated: true }));
  process.exit(0);
} else {
  const app = await bootstrap(config);
  console.log(JSON.stringify({ url: `http://127.0.0.1:${port}` }));
  process.on('SIGTERM', async () => {
    await app.close();
    process.exit(0);
  });
}
