// The catalog import job (`catalog/import`). The uploaded file is read twice as a stream
// (csv-parse): once to count its rows, so progress can say "rows done / total", then to import.
// Rows are grouped by product and written in batches of about IMPORT_BATCH_ROWS rows, each batch
// one transaction (apply.ts); memory holds one batch, whatever the file's size. After each batch
// the job's output shows the progress. Refused rows go to an error report (CSV: row, column,
// message) stored with the job, downloadable through a signed URL from GET /jobs/:id.
// `dryRun` runs every check and every write of each batch, then rolls the batch back.
import fs from 'node:fs';
import { once } from 'node:events';
import { parse } from 'csv-parse';
import { stringify } from 'csv-stringify';
import type { Readable } from 'node:stream';
import { defineTask, JobError, type TaskContext } from '../../jobs/tasks.js';
import { applyBatch, FIELD_COLUMN, type BatchResult, type ProductGroup } from './apply.js';
import { emptyProduct, mergeProduct, parseHeader, parseRecord, HeaderError, type ParsedRow, type RowError } from './format.js';
import { putBulkFile, readBulkFile, removeBulkFile, tempPath } from './files.js';
import { attachImages, type ImageWork } from './images.js';
import { ShopifyMapper, checkShopifyHeader } from './shopify.js';

export const IMPORT_TASK = 'catalog/import';
/** Rows per transaction: large enough that statements per row stay small, small enough to keep locks short. */
export const IMPORT_BATCH_ROWS = 500;

export type ImportFormat = 'native' | 'shopify';

export interface ImportInput {
  fileId: string;
  fileName: string | null;
  format: ImportFormat;
  dryRun: boolean;
  /** Shopify only: the locale of its texts, the currency of its prices, the warehouse of its stock. */
  locale: string;
  currency: string;
  warehouse: string | null;
  actorId: string | null;
  /** The importer holds catalog:update: products that exist may change (else they are refused). */
  mayUpdate: boolean;
}

export interface ImportOutput {
  kind: 'catalogImport';
  format: ImportFormat;
  dryRun: boolean;
  rowsTotal: number;
  rowsDone: number;
  rowsFailed: number;
  products: { created: number; updated: number; unchanged: number };
  imagesAttached: number;
  errors: number;
  /** Set when some rows were refused; GET /jobs/:id adds its signed `url`. */
  errorReport: { fileId: string } | null;
}

declare module '../../jobs/tasks.js' {
  interface TaskTypes {
    'catalog/import': { input: ImportInput; output: ImportOutput };
  }
}

function csvParser() {
  return parse({ bom: true, relax_column_count: true, skip_empty_lines: true, trim: false });
}

async function countRows(source: Readable): Promise<number> {
  let records = 0;
  for await (const _record of source.pipe(csvParser())) records += 1;
  return Math.max(0, records - 1);
}

class DryRunRollback extends Error {
  constructor(readonly result: BatchResult) {
    super('dry run');
  }
}

interface Reader {
  read(record: string[], row: number): ParsedRow | RowError[];
  /** The product key of a record, refused or not (its rows are refused together). */
  slugOf(record: string[]): string;
}

/** The header and per-record reader of one format. */
export function readerFor(input: Pick<ImportInput, 'format' | 'locale' | 'currency' | 'warehouse'>, header: string[]): Reader {
  const names = header.map((name) => name.trim());
  if (input.format === 'shopify') {
    const problems = checkShopifyHeader(names);
    if (problems.length) throw new HeaderError(problems);
    const mapper = new ShopifyMapper({ locale: input.locale, currency: input.currency, warehouse: input.warehouse });
    const handle = names.indexOf('Handle');
    return {
      read: (record, row) => mapper.map(Object.fromEntries(names.map((name, i) => [name, record[i] ?? ''])), row),
      slugOf: (record) => (record[handle] ?? '').trim(),
    };
  }
  const columns = parseHeader(header);
  const slug = names.indexOf('slug');
  return { read: (record, row) => parseRecord(columns, header, record, row), slugOf: (record) => (record[slug] ?? '').trim() };
}

async function runImport(input: ImportInput, ctx: TaskContext): Promise<ImportOutput> {
  const org = ctx.organizationId;
  const open = async () => {
    const stream = await readBulkFile(ctx.config, org, input.fileId);
    if (!stream) throw new JobError('the uploaded file is gone from the store', { retry: false });
    return stream;
  };
  const output: ImportOutput = {
    kind: 'catalogImport',
    format: input.format,
    dryRun: input.dryRun,
    rowsTotal: await countRows(await open()),
    rowsDone: 0,
    rowsFailed: 0,
    products: { created: 0, updated: 0, unchanged: 0 },
    imagesAttached: 0,
    errors: 0,
    errorReport: null,
  };
  const progress = () => ctx.db.job.update({ where: { id: ctx.job.id }, data: { output: output as never } });
  await progress();

  const warehouses = await ctx.db.warehouse.findMany({ where: { organizationId: org }, select: { id: true, code: true, isDefault: true } });
  const env = { organizationId: org, jobId: ctx.job.id, actorId: input.actorId, mayUpdate: input.mayUpdate !== false, warehouses: new Map(warehouses.map((w) => [w.code, w.id])) };
  if (input.format === 'shopify' && !input.warehouse) input = { ...input, warehouse: warehouses.find((w) => w.isDefault)?.code ?? null };

  const reportFile = await tempPath(ctx.config);
  const report = stringify({ header: true, columns: ['row', 'column', 'message'] });
  const reportDone = once(report.pipe(fs.createWriteStream(reportFile)), 'finish');
  const refuse = (errors: RowError[]) => {
    for (const e of errors) report.write([e.row, e.column, e.message]);
    output.errors += errors.length;
  };

  const mediaCtx = { db: ctx.db, organization: { id: org } as never, actor: null, config: ctx.config, services: ctx.services, requestId: `job:${ctx.job.id}`, logger: ctx.logger };
  let batch: ProductGroup[] = [];
  let batchRows = 0;
  let current: ProductGroup | null = null;
  let currentFailed = false;

  const flush = async () => {
    if (!batch.length) return;
    const groups = batch;
    const rows = batchRows;
    batch = [];
    batchRows = 0;
    let result: BatchResult;
    try {
      result = await ctx.db.$transaction(
        async (tx) => {
          const applied = await applyBatch(tx, env, groups);
          if (input.dryRun) throw new DryRunRollback(applied);
          return applied;
        },
        { timeout: 120_000 },
      );
    } catch (error) {
      if (!(error instanceof DryRunRollback)) throw error;
      result = error.result;
    }
    refuse(result.errors);
    output.rowsFailed += result.failedRows;
    output.products.created += result.created;
    output.products.updated += result.updated;
    output.products.unchanged += result.unchanged;
    if (!input.dryRun) {
      const work: ImageWork[] = groups
        .filter((g) => g.product.images.length && result.entityIds.has(g.slug))
        // biome-ignore lint/style/noNonNullAssertion: predates the rule (issue 31), not reviewed yet: justify here or remove it when touching this line
        .map((g) => ({ entityId: result.entityIds.get(g.slug)!, row: g.rows[0]!, column: input.format === 'shopify' ? 'Image Src' : 'images', urls: g.product.images }));
      if (work.length) {
        const images = await attachImages(mediaCtx, work);
        output.imagesAttached += images.attached;
        refuse(images.errors);
      }
    }
    output.rowsDone += rows;
    await progress();
  };

  const close = () => {
    if (!current) return;
    if (currentFailed) {
      output.rowsFailed += current.rows.length;
      output.rowsDone += current.rows.length;
    } else {
      batch.push(current);
      batchRows += current.rows.length;
    }
    current = null;
    currentFailed = false;
  };

  let reader: Reader | null = null;
  let row = 0;
  try {
    for await (const record of (await open()).pipe(csvParser()) as AsyncIterable<string[]>) {
      row += 1;
      if (ctx.signal.aborted) throw new JobError('stopped: the worker lost this job or is shutting down');
      if (!reader) {
        try {
          reader = readerFor(input, record);
        } catch (error) {
          if (!(error instanceof HeaderError)) throw error;
          refuse(error.problems.map((message) => ({ row: 1, column: '', message })));
          break;
        }
        continue;
      }
      const parsed = reader.read(record, row);
      const slug = Array.isArray(parsed) ? reader.slugOf(record) : parsed.slug;
      if (!current || slug !== current.slug) {
        close();
        if (batchRows >= IMPORT_BATCH_ROWS) await flush();
        current = { slug, rows: [], product: emptyProduct(), variants: [] };
      }
      current.rows.push(row);
      if (Array.isArray(parsed)) {
        // A refused row refuses its product: a half-imported product is worse than none.
        refuse(parsed);
        currentFailed = true;
        continue;
      }
      const clashes = mergeProduct(current.product, parsed.product, row).map((e) => ({ ...e, column: columnName(e.column) }));
      if (clashes.length) {
        refuse(clashes);
        currentFailed = true;
      }
      if (parsed.variant) current.variants.push({ ...parsed.variant, row });
    }
    close();
    await flush();
  } finally {
    report.end();
    await reportDone;
  }
  if (output.errors > 0) output.errorReport = { fileId: await putBulkFile(ctx.config, org, reportFile) };
  else await fs.promises.rm(reportFile, { force: true });
  output.rowsDone = output.rowsTotal;
  await removeBulkFile(ctx.config, org, input.fileId);
  return output;
}

/** `seoTitle:en` (a merge clash) → the header's `seo_title:en`. */
function columnName(column: string): string {
  const [field, locale] = column.split(':');
  const mapped = FIELD_COLUMN[field as keyof typeof FIELD_COLUMN];
  return mapped && locale ? `${mapped}:${locale}` : column;
}

defineTask({
  slug: IMPORT_TASK,
  // One import of an organization at a time: two files touching the same products would race.
  concurrency: { key: () => 'catalog-import', exclusive: true },
  handler: (input, ctx) => runImport(input, ctx),
});
