// Bulk import and export over HTTP: a catalog CSV becomes products, variants, prices and stock
// through a job; the same file again changes nothing; a dry run keeps nothing; an export
// re-imports to the same catalog; orders and customers export; Shopify's CSV maps in.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { png } from '../media/helpers.js';
import { DEFAULT_ROLES } from '../../src/config/schema.js';
import { BULK_FILE_TTL_SECONDS, signBulkFile, verifyBulkFile } from '../../src/modules/bulk/files.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { openStore, ORDER_TEST_CONFIG, placeOrder, product, unique, type Store } from '../orders/helpers.js';

let t: TestApp;
let store: Store;
let code: string;

function multipart(csv: string | Uint8Array<ArrayBuffer>, fields: Record<string, string> = {}): Promise<{ body: Buffer; type: string }> {
  const form = new FormData();
  form.append('file', new Blob([csv], { type: 'text/csv' }), 'catalog.csv');
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  const encoded = new Request('http://localhost/', { method: 'POST', body: form });
  return encoded.arrayBuffer().then((b) => ({ body: Buffer.from(b), type: encoded.headers.get('content-type')! }));
}

async function importCsv(csv: string | Uint8Array<ArrayBuffer>, fields: Record<string, string> = {}, apiKey = store.admin) {
  const { body, type } = await multipart(csv, fields);
  return t.request('/api/catalog/import', { method: 'POST', apiKey, rawBody: body, headers: { 'content-type': type } });
}

/** Runs the queue until the job is done; returns it as GET /jobs/:id shows it. */
async function finish(jobId: string, apiKey = store.admin) {
  for (let i = 0; i < 5; i++) {
    const job = await t.request(`/api/jobs/${jobId}`, { apiKey });
    expect(job.status, job.text).toBe(200);
    if (job.body.data.status === 'succeeded' || job.body.data.status === 'failed') return job.body.data;
    const run = await t.request('/api/jobs/run?limit=20', { apiKey: store.admin });
    expect(run.status, run.text).toBe(200);
  }
  throw new Error('job did not finish');
}

async function download(url: string): Promise<string> {
  const res = await fetch(url.replace('http://localhost:3000', t.url));
  expect(res.status).toBe(200);
  return res.text();
}

async function counts() {
  const db = t.app.db;
  const org = (await t.app.services.organizations.defaultOrganization()).id;
  const where = { organizationId: org };
  return {
    entities: await db.catalogEntity.count({ where }),
    variants: await db.catalogVariant.count({ where }),
    prices: await db.price.count({ where }),
    levels: await db.inventoryLevel.count({ where }),
    movements: await db.inventoryMovement.count({ where }),
    attributes: await db.catalogAttributes.count({ where }),
    events: await db.domainEvent.count({ where }),
    updatedAt: (await db.catalogEntity.aggregate({ where, _max: { updatedAt: true } }))._max.updatedAt?.toISOString(),
  };
}

beforeAll(async () => {
  // `importer`: may create products and stock, but neither change existing products nor set prices.
  t = await startTestApp({ ...ORDER_TEST_CONFIG, auth: { roles: { ...DEFAULT_ROLES, importer: ['catalog:create', 'catalog:read', 'inventory:adjust'] } } });
  store = await openStore(t);
  const wh = await t.request(`/api/inventory/warehouses`, { apiKey: store.admin });
  code = wh.body.data.find((w: { id: string }) => w.id === store.warehouseId).code;
});
afterAll(() => t?.close());

describe('POST /catalog/import', () => {
  const tee = unique('tee');
  const mug = unique('mug');
  const csv = () =>
    [
      `slug,type,status,title:en,title:de,categories,brand,sku,variant_title,option:size,price:EUR,stock:${code}`,
      `${tee},product,active,Tee,T-Shirt,shirts|summer,acme,,,,,`,
      `${tee},,,,,,,${tee}-s,Small,S,1999,5`,
      `${tee},,,,,,,${tee}-m,Medium,M,1999,7`,
      `${mug},product,draft,Mug,Tasse,,acme,${mug}-1,,,899,3`,
      `bad slug!,product,,,,,,,,,,`,
      `${unique('x')},product,,,,,,${unique('x')},,,12.5,`,
    ].join('\n');

  it('imports products, variants, prices and stock through a job, with progress and an error report', async () => {
    const before = await counts();
    const res = await importCsv(csv());
    expect(res.status, res.text).toBe(202);
    expect(res.body.data.taskSlug).toBe('catalog/import');
    const job = await finish(res.body.data.id);
    expect(job.status, JSON.stringify(job)).toBe('succeeded');
    expect(job.output).toMatchObject({ rowsTotal: 6, rowsDone: 6, rowsFailed: 2, products: { created: 2, updated: 0, unchanged: 0 }, errors: 2 });
    const report = await download(job.output.errorReport.url);
    expect(report.split('\n')[0]).toBe('row,column,message');
    expect(report).toContain('6,slug,');
    expect(report).toContain('7,price:EUR,');
    const after = await counts();
    expect(after.entities - before.entities).toBe(2);
    expect(after.variants - before.variants).toBe(3);
    expect(after.prices - before.prices).toBe(3);
    expect(after.levels - before.levels).toBe(3);
    // One event for the batch, not one per row.
    expect(after.events - before.events).toBe(1);
    const entity = await t.request(`/api/catalog/entities/${tee}?include=variants`, { apiKey: store.admin });
    expect(entity.status, entity.text).toBe(200);
    expect(entity.body.data.status).toBe('active');
    const check = await t.request(`/api/inventory/check?entityIds=${entity.body.data.id}`, { apiKey: store.admin });
    expect(check.text).toContain('12');
  });

  it('re-importing the same file changes nothing: no rows, no movements, no events', async () => {
    const before = await counts();
    const job = await finish((await importCsv(csv())).body.data.id);
    expect(job.status).toBe('succeeded');
    expect(job.output.products).toEqual({ created: 0, updated: 0, unchanged: 2 });
    const after = await counts();
    expect(after.entities - before.entities).toBe(0);
    expect(after.movements - before.movements).toBe(0);
    expect(after.events - before.events).toBe(0);
    expect(after.updatedAt).toBe(before.updatedAt);
  });

  it('dryRun=true validates and keeps nothing', async () => {
    const before = await counts();
    const slug = unique('dry');
    const job = await finish((await importCsv(`slug,sku,price:EUR\n${slug},${slug}-1,100\n`, { dryRun: 'true' })).body.data.id);
    expect(job.output).toMatchObject({ dryRun: true, products: { created: 1 }, errors: 0 });
    expect(await counts()).toEqual(before);
  });

  it('refuses a header that is not an import header (422), and callers without catalog:create (403)', async () => {
    const bad = await importCsv('name,price\nx,1\n');
    expect(bad.status, bad.text).toBe(422);
    expect(bad.text).toContain('unknown column name');
    const storefront = await importCsv(csv(), {}, store.storefront);
    expect(storefront.status).toBe(403);
  });

  it('refuses a file that is not CSV at all (422, never a 500): binary bytes with a stray quote on the first line', async () => {
    // Found by the fuzz test (seed -1152174590): csv-parse threw on the header line and the upload answered 500.
    const before = await counts();
    const binary = await importCsv(new Uint8Array([0x8d, 0xd6, 0x0f, 0xc3, 0xd4, 0x31, 0x22, 0x3c]));
    expect(binary.status, binary.text).toBe(422);
    expect(binary.body.error.code).toBe('VALIDATION_FAILED');
    expect(binary.body.error.message).toBe('The file is not a CSV file');
    expect(binary.body.error.details).toEqual([{ field: 'file', message: 'is not a CSV file: Invalid Opening Quote: a quote is found on field 0 at line 1' }]);
    expect(await counts()).toEqual(before);
  });

  it('needs what the single writes need: pricing for price columns, catalog:update to change a product', async () => {
    const staff = await t.signIn('staff');
    const { body, type } = await multipart(`slug,sku,price:EUR\n${unique('p')},${unique('s')},100\n`);
    const refused = await t.request('/api/catalog/import', { method: 'POST', bearer: staff.token, rawBody: body, headers: { 'content-type': type } });
    expect(refused.status, refused.text).toBe(403);
    expect(refused.body.error.message).toContain('pricing');
    const importer = await t.signIn('importer');
    const fresh = unique('fresh');
    const upload = await multipart(`slug,title:en,stock:${code}\n${fresh},New,4\n${tee},Renamed,1\n`);
    const res = await t.request('/api/catalog/import', { method: 'POST', bearer: importer.token, rawBody: upload.body, headers: { 'content-type': upload.type } });
    expect(res.status, res.text).toBe(202);
    const job = await finish(res.body.data.id, store.admin);
    expect(job.output).toMatchObject({ products: { created: 1, updated: 0 }, rowsFailed: 1 });
    expect(await download(job.output.errorReport.url)).toContain('3,slug,this product exists; changing it needs catalog:update');
  });
});

describe('import cost', () => {
  /** SQL statements of one import job: upload, run, read. */
  async function statementsOf(products: number): Promise<{ statements: number; output: any }> {
    const prefix = unique('cost');
    const lines = [`slug,title:en,sku,option:size,price:EUR,stock:${code}`];
    for (let p = 0; p < products; p++) for (const size of ['S', 'M']) lines.push(`${prefix}-${p},Item ${p},${prefix}-${p}-${size},${size},100,2`);
    // Earlier imports' events are dispatched first (a run of an empty queue), so only this job's statements count.
    expect((await t.request('/api/jobs/run?queue=nothing', { apiKey: store.admin })).status).toBe(200);
    const res = await importCsv(lines.join('\n'));
    const before = t.statements();
    const job = await finish(res.body.data.id);
    return { statements: t.statements() - before, output: job.output };
  }

  // The fewer of two runs, as the other statement-count tests do: the runner's heartbeat adds a
  // statement to a job that happens to run past its interval on a busy machine.
  it('writes a batch with the same number of statements for 5 and 50 products', async () => {
    const small = [await statementsOf(5), await statementsOf(5)];
    const large = [await statementsOf(50), await statementsOf(50)];
    expect(small[0]!.output.products.created).toBe(5);
    expect(large[0]!.output.products.created).toBe(50);
    expect(Math.min(...large.map((r) => r.statements))).toBe(Math.min(...small.map((r) => r.statements)));
  });
});

describe('images and GraphQL', () => {
  it('fetches images by URL once: a re-import adds no asset and no attachment', async () => {
    const image = await png(40, 30, '#3a7');
    const server = http.createServer((_req, res) => res.writeHead(200, { 'content-type': 'image/png' }).end(image));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/a.png`;
    try {
      const slug = unique('pic');
      const file = `slug,images\n${slug},${url}|${url}?again\n`;
      const first = await finish((await importCsv(file)).body.data.id);
      expect(first.output, JSON.stringify(first.output)).toMatchObject({ imagesAttached: 1, errors: 0 });
      const before = await t.app.db.mediaAsset.count();
      const second = await finish((await importCsv(file)).body.data.id);
      expect(second.output).toMatchObject({ imagesAttached: 0, errors: 0, products: { created: 0, updated: 0, unchanged: 1 } });
      expect(await t.app.db.mediaAsset.count()).toBe(before);
      const entity = await t.request(`/api/catalog/entities/${slug}?include=media`, { apiKey: store.admin });
      expect(entity.body.data.media).toHaveLength(1);
    } finally {
      server.close();
    }
  });

  it('an unreachable image is reported, the product is still imported', async () => {
    const slug = unique('pic');
    const job = await finish((await importCsv(`slug,images\n${slug},http://127.0.0.1:9/none.png\n`)).body.data.id);
    expect(job.output).toMatchObject({ products: { created: 1 }, errors: 1, imagesAttached: 0 });
    expect(await download(job.output.errorReport.url)).toContain(`2,images,image http://127.0.0.1:9/none.png not imported`);
  });

  it('catalogImport over GraphQL multipart starts the same job; job(id) follows it', async () => {
    const slug = unique('gql');
    const form = new FormData();
    form.append('operations', JSON.stringify({ query: 'mutation ($file: File!) { catalogImport(file: $file, dryRun: true) { id taskSlug status } }', variables: { file: null } }));
    form.append('map', JSON.stringify({ 0: ['variables.file'] }));
    form.append('0', new Blob([`slug\n${slug}\n`], { type: 'text/csv' }), 'c.csv');
    const encoded = new Request('http://localhost/', { method: 'POST', body: form });
    const res = await fetch(`${t.url}/graphql`, {
      method: 'POST',
      headers: { 'x-api-key': store.admin, 'content-type': encoded.headers.get('content-type')!, 'graphql-require-preflight': '1' },
      body: Buffer.from(await encoded.arrayBuffer()),
    });
    const body = await res.json();
    expect(body.errors, JSON.stringify(body)).toBeUndefined();
    expect(body.data.catalogImport.taskSlug).toBe('catalog/import');
    await finish(body.data.catalogImport.id);
    const followed = await t.graphql(`query ($id: UUID!) { job(id: $id) { status output } }`, { id: body.data.catalogImport.id }, { apiKey: store.admin });
    expect(followed.body.data.job).toMatchObject({ status: 'succeeded', output: { dryRun: true, products: { created: 1 } } });
  });

  it('accepts an upload above the 1 MiB JSON body limit (the media upload limit applies)', async () => {
    const res = await importCsv(`slug,description:en\n${unique('big')},${'a'.repeat(1_200_000)}\n`);
    expect(res.status, res.text.slice(0, 300)).toBe(202);
    const job = await finish(res.body.data.id);
    expect(job.output).toMatchObject({ rowsFailed: 1, errors: 1 });
  });
});

describe('exports', () => {
  it('a catalog export re-imports to the same catalog', async () => {
    await product(store, { price: 500, stock: 4, title: 'Exported product', currency: 'EUR' });
    const res = await t.request('/api/catalog/export', { method: 'POST', apiKey: store.admin });
    expect(res.status, res.text).toBe(202);
    const job = await finish(res.body.data.id);
    expect(job.status, JSON.stringify(job)).toBe('succeeded');
    // Image URLs are signed links of the API's public URL (config.baseUrl); the test server listens elsewhere.
    const file = (await download(job.output.file.url)).replaceAll('http://localhost:3000', t.url);
    expect(file).toContain('/api/media/');
    expect(file.split('\n')[0]).toContain('slug,type,status');
    const before = await counts();
    const again = await finish((await importCsv(file)).body.data.id);
    expect(again.output, JSON.stringify(again.output)).toMatchObject({ rowsFailed: 0, errors: 0, imagesAttached: 0, products: { created: 0, updated: 0 } });
    expect(await counts()).toEqual(before);
  });

  it('orders and customers export to CSV; the download checks its signature', async () => {
    const entityId = await product(store, { price: 700, stock: 9 });
    await placeOrder(store, [{ entityId, quantity: 2 }]);
    for (const [path, head] of [
      ['/api/orders/export', 'order_number,order_id'],
      ['/api/customers/export', 'customer_id,email'],
    ] as const) {
      const res = await t.request(path, { method: 'POST', apiKey: store.admin });
      expect(res.status, res.text).toBe(202);
      const job = await finish(res.body.data.id);
      expect(job.status, JSON.stringify(job)).toBe('succeeded');
      expect((await download(job.output.file.url)).startsWith(head)).toBe(true);
      const tampered = await fetch(
        job.output.file.url.replace('http://localhost:3000', t.url).replace(/signature=(.)/, (_: string, c: string) => `signature=${c === 'A' ? 'B' : 'A'}`),
      );
      expect(tampered.status).toBe(403);
    }
    const orders = await finish((await t.request('/api/orders/export', { method: 'POST', apiKey: store.admin })).body.data.id);
    expect(await download(orders.output.file.url)).toContain(',2,700,1400,');
  });

  it('a download link stops working when it expires', () => {
    const config = t.app.config;
    const org = '00000000-0000-4000-8000-000000000001';
    const file = '00000000-0000-4000-8000-000000000002';
    const link = new URL(signBulkFile(config, org, file, Date.now()).url);
    const verify = (now: number) => verifyBulkFile(config, `${org}/${file}`, link.searchParams.get('expires'), link.searchParams.get('signature'), now);
    expect(verify(Date.now())).toBeNull();
    expect(verify(Date.now() + (BULK_FILE_TTL_SECONDS + 1) * 1000)).toMatch(/expired/);
  });

  it('a storefront key cannot start an export or read an import job', async () => {
    expect((await t.request('/api/orders/export', { method: 'POST', apiKey: store.storefront })).status).toBe(403);
    const job = await importCsv(`slug\n${unique('p')}\n`);
    expect((await t.request(`/api/jobs/${job.body.data.id}`, { apiKey: store.storefront })).status).toBe(404);
  });
});

describe('Shopify product CSV', () => {
  it('maps handles, options, decimal prices and inventory', async () => {
    const handle = unique('hoodie');
    const csv = [
      'Handle,Title,Body (HTML),Vendor,Type,Status,Option1 Name,Option1 Value,Variant SKU,Variant Price,Variant Inventory Qty,Image Src',
      `${handle},Hoodie,<p>Warm</p>,Acme Co,Sweaters,active,Size,S,,49.90,3,`,
      `${handle},,,,,,,L,,52.00,1,`,
    ].join('\n');
    const job = await finish((await importCsv(csv, { format: 'shopify', currency: 'EUR', warehouse: code })).body.data.id);
    expect(job.output, JSON.stringify(job.output)).toMatchObject({ rowsFailed: 0, products: { created: 1 } });
    const entity = await t.request(`/api/catalog/entities/${handle}?include=variants`, { apiKey: store.admin });
    expect(entity.status, entity.text).toBe(200);
    const variants = await t.app.db.catalogVariant.findMany({ where: { entityId: entity.body.data.id }, include: { prices: true } });
    expect(variants.map((v) => [v.sku, Number(v.prices[0]!.amount)]).sort()).toEqual([
      [`${handle}-l`, 5200],
      [`${handle}-s`, 4990],
    ]);
  });
});
