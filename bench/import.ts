// Import bench: a catalog CSV of N products × 3 variants (price and stock per variant) uploaded
// to POST /api/catalog/import and run by the job runner in this process; prints rows/s and the
// process's peak RSS (sampled every 50 ms) for two file sizes: streamed and batched, the peak
// should not grow with the file.   DATABASE_URL=... npm run bench:import   (BENCH_SIZES=2000,10000)
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { createApp } from '../src/app.js';
import { loadConfig } from '../src/config/index.js';
import { resolveDatabase } from '../src/db/client.js';
import { mintApiKey } from '../src/auth/accounts.js';
import { listen } from '../src/http/listen.js';

const SIZES = (process.env.BENCH_SIZES ?? '2000,10000').split(',').map(Number);
const dataDir = process.env.DATA_DIR ?? '.data-bench';
const server = await resolveDatabase(await loadConfig({ logLevel: 'silent', dataDir }));
// A database of its own, dropped at the end.
const name = `commerce_bench_import_${process.pid}`;
const admin = new pg.Client({ connectionString: server.url });
await admin.connect();
await admin.query(`create database ${name}`);
const url = new URL(server.url);
url.pathname = `/${name}`;
const config = await loadConfig({ logLevel: 'silent', databaseUrl: url.toString(), dataDir, media: { maxUploadBytes: 64 * 1024 * 1024 }, rateLimit: { enabled: false } });
const app = await createApp(config);
const organization = await app.services.organizations.defaultOrganization();
const { key } = await mintApiKey({ auth: app.auth, config, db: app.db }, { scope: 'admin', organizationId: organization.id });
const listening = await listen(app.http, 0, '127.0.0.1');
const t = {
  async request(path: string, options: { method?: string; body?: unknown; rawBody?: Buffer; headers?: Record<string, string> } = {}) {
    const headers: Record<string, string> = { 'x-api-key': key, ...options.headers };
    if (options.body) headers['content-type'] = 'application/json';
    const res = await fetch(listening.url + path, {
      method: options.method ?? (options.body || options.rawBody ? 'POST' : 'GET'),
      headers,
      body: (options.rawBody ?? (options.body ? JSON.stringify(options.body) : undefined)) as BodyInit | undefined,
    });
    const text = await res.text();
    return { status: res.status, text, body: JSON.parse(text) };
  },
};
const wh = await t.request('/api/inventory/warehouses', { body: { name: 'Bench', code: 'bench' } });
if (wh.status !== 201) throw new Error(wh.text);

function csv(products: number, prefix: string): string {
  const lines = ['slug,status,title:en,brand,sku,option:size,price:EUR,stock:bench'];
  for (let p = 0; p < products; p++) {
    const slug = `${prefix}-${p}`;
    lines.push(`${slug},active,Product ${p},acme,,,,`);
    for (const size of ['s', 'm', 'l']) lines.push(`${slug},,,,${slug}-${size},${size.toUpperCase()},${1000 + p},${p % 50}`);
  }
  return `${lines.join('\n')}\n`;
}

for (const size of SIZES) {
  const file = csv(size, `b${size}`);
  const form = new FormData();
  form.append('file', new Blob([file], { type: 'text/csv' }), 'bench.csv');
  const encoded = new Request('http://localhost/', { method: 'POST', body: form });
  const body = Buffer.from(await encoded.arrayBuffer());
  global.gc?.();
  const baseRss = process.memoryUsage().rss;
  let peak = baseRss;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 50);
  const started = performance.now();
  const res = await t.request('/api/catalog/import', { method: 'POST', rawBody: body, headers: { 'content-type': encoded.headers.get('content-type')! } });
  if (res.status !== 202) throw new Error(res.text);
  const run = await t.request('/api/jobs/run?limit=1');
  const ms = performance.now() - started;
  clearInterval(sampler);
  const job = await t.request(`/api/jobs/${res.body.data.id}`);
  const out = job.body.data.output;
  console.log(
    JSON.stringify({
      products: size,
      rows: out.rowsTotal,
      fileMB: +(file.length / 1048576).toFixed(1),
      status: job.body.data.status,
      created: out.products.created,
      errors: out.errors,
      seconds: +(ms / 1000).toFixed(1),
      rowsPerSecond: Math.round(out.rowsTotal / (ms / 1000)),
      baseRssMB: Math.round(baseRss / 1048576),
      peakRssMB: Math.round(peak / 1048576),
      jobs: run.body.data.succeeded,
    }),
  );
}
await listening.close();
await app.close();
await admin.query(`drop database ${name} with (force)`);
await admin.end();
