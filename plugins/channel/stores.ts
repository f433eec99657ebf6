// Connected stores: registration (the API key encrypted at rest, never returned), listing,
// updates, and the triggers that enqueue the store's tasks. Every read and write filters by the
// caller's organization; writes run in the route's audited transaction (`ctx.db`).
import { randomUUID } from 'node:crypto';
import type { RequestContext } from '../../src/context.js';
import type { Db, Tx } from '../../src/db/client.js';
import { AppError, notFound, validationFailed } from '../../src/errors.js';
import { uniqueViolation } from '../../src/db/errors.js';
import { ensureDefaultWarehouse } from '../../src/modules/inventory/warehouses.service.js';
import { assertPublicTarget, parseTargetUrl } from '../../src/modules/webhooks/targets.js';
import type { ChannelOrderExport, ChannelStore } from '../../src/generated/prisma/client.js';
import { encryptSecret, hintOf } from './secrets.js';
import { TASK } from './tasks.js';

type Ctx = Pick<RequestContext, 'organization' | 'db' | 'config' | 'services'>;

export const STORE_STATUSES = ['active', 'paused'] as const;

export function storeView(row: ChannelStore) {
  return {
    id: row.id,
    name: row.name,
    kind: row.kind,
    baseUrl: row.baseUrl,
    // The key itself never leaves the server: its last characters tell keys apart.
    apiKeyHint: row.apiKeyHint,
    status: row.status,
    warehouseId: row.warehouseId,
    pageSize: row.pageSize,
    orderPaymentMethod: row.orderPaymentMethod,
    backfill: {
      status: row.backfillStatus,
      pages: row.backfillPages,
      imported: row.backfillImported,
      total: row.backfillTotal,
      startedAt: row.backfillStartedAt?.toISOString() ?? null,
      finishedAt: row.backfillFinishedAt?.toISOString() ?? null,
    },
    lastInventorySyncAt: row.lastInventorySyncAt?.toISOString() ?? null,
    lastReconcileAt: row.lastReconcileAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export function exportView(row: ChannelOrderExport) {
  return {
    id: row.id,
    storeId: row.storeId,
    orderId: row.orderId,
    status: row.status,
    remoteOrderId: row.remoteOrderId,
    remoteNumber: row.remoteNumber,
    attempts: row.attempts,
    lastError: row.lastError,
    startedAt: row.startedAt?.toISOString() ?? null,
    exportedAt: row.exportedAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
  };
}

/** 422 naming baseUrl unless it is an http(s) URL whose host may be reached. */
async function checkBaseUrl(raw: string, allowPrivate: boolean): Promise<string> {
  try {
    const url = parseTargetUrl(raw);
    await assertPublicTarget(url, allowPrivate);
    return url.origin + url.pathname.replace(/\/+$/, '');
  } catch (error) {
    const message = (error as Error).message.replace(
      /webhooks may not target it \(webhooks\.allowPrivateTargets\)/,
      'a store may not be reached there (channel allowPrivateTargets)',
    );
    throw validationFailed([{ field: 'baseUrl', message }]);
  }
}

async function checkWarehouse(ctx: Ctx, warehouseId: string | undefined): Promise<string> {
  if (!warehouseId) return ensureDefaultWarehouse(ctx.db, ctx.organization.id);
  const found = await ctx.db.warehouse.findFirst({ where: { id: warehouseId, organizationId: ctx.organization.id }, select: { id: true } });
  if (!found) throw validationFailed([{ field: 'warehouseId', message: 'no such warehouse in this organization' }]);
  return found.id;
}

function nameTaken(error: unknown): never {
  if (uniqueViolation(error) !== null) throw new AppError('CONFLICT', 'A store with this name is already connected', { fields: ['name'] });
  throw error;
}

export interface StoreInput {
  name: string;
  kind: string;
  baseUrl: string;
  apiKey: string;
  warehouseId?: string;
  pageSize: number;
  orderPaymentMethod?: string;
}

export async function createStore(ctx: Ctx, input: StoreInput, options: { kinds: string[]; allowPrivate: boolean }) {
  if (!options.kinds.includes(input.kind)) throw validationFailed([{ field: 'kind', message: `must be one of ${options.kinds.join(', ')}` }]);
  const baseUrl = await checkBaseUrl(input.baseUrl, options.allowPrivate);
  const warehouseId = await checkWarehouse(ctx, input.warehouseId);
  const row = await ctx.db.channelStore
    .create({
      data: {
        organizationId: ctx.organization.id,
        name: input.name,
        kind: input.kind,
        baseUrl,
        apiKeyCiphertext: encryptSecret(ctx.config, input.apiKey),
        apiKeyHint: hintOf(input.apiKey),
        warehouseId,
        pageSize: input.pageSize,
        ...(input.orderPaymentMethod ? { orderPaymentMethod: input.orderPaymentMethod } : {}),
      },
    })
    .catch(nameTaken);
  return storeView(row);
}

export async function findStore(ctx: Pick<Ctx, 'organization' | 'db'>, id: string): Promise<ChannelStore> {
  const row = /^[0-9a-f-]{36}$/i.test(id) ? await ctx.db.channelStore.findFirst({ where: { id, organizationId: ctx.organization.id } }) : null;
  if (!row) throw notFound('Channel store');
  return row;
}

export async function listStores(ctx: Pick<Ctx, 'organization' | 'db'>, input: { limit: number; offset: number }) {
  const where = { organizationId: ctx.organization.id };
  const [rows, total] = await Promise.all([
    ctx.db.channelStore.findMany({ where, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }], take: input.limit, skip: input.offset }),
    ctx.db.channelStore.count({ where }),
  ]);
  return { data: rows.map(storeView), meta: { total, limit: input.limit, offset: input.offset } };
}

export interface StorePatch {
  name?: string;
  baseUrl?: string;
  apiKey?: string;
  status?: (typeof STORE_STATUSES)[number];
  warehouseId?: string;
  pageSize?: number;
  orderPaymentMethod?: string;
}

export async function updateStore(ctx: Ctx, id: string, patch: StorePatch, options: { allowPrivate: boolean }) {
  const store = await findStore(ctx, id);
  const baseUrl = patch.baseUrl !== undefined ? await checkBaseUrl(patch.baseUrl, options.allowPrivate) : undefined;
  // The stored key goes wherever baseUrl points: moving it needs the key itself, or anyone who
  // may edit stores could send the store's key to a host of their choosing.
  if (baseUrl !== undefined && baseUrl !== store.baseUrl && patch.apiKey === undefined) {
    throw validationFailed([{ field: 'apiKey', message: "is required to change baseUrl: the store's key is sent there" }]);
  }
  const data = {
    ...(patch.name !== undefined ? { name: patch.name } : {}),
    ...(baseUrl !== undefined ? { baseUrl } : {}),
    ...(patch.apiKey !== undefined ? { apiKeyCiphertext: encryptSecret(ctx.config, patch.apiKey), apiKeyHint: hintOf(patch.apiKey) } : {}),
    ...(patch.status !== undefined ? { status: patch.status } : {}),
    ...(patch.warehouseId !== undefined ? { warehouseId: await checkWarehouse(ctx, patch.warehouseId) } : {}),
    ...(patch.pageSize !== undefined ? { pageSize: patch.pageSize } : {}),
    ...(patch.orderPaymentMethod !== undefined ? { orderPaymentMethod: patch.orderPaymentMethod } : {}),
  };
  const row = await ctx.db.channelStore.update({ where: { id: store.id }, data }).catch(nameTaken);
  return storeView(row);
}

async function enqueue(ctx: Ctx, task: string, input: Record<string, unknown>) {
  const job = await ctx.services.jobs.enqueue({ task, input, organizationId: ctx.organization.id }, ctx.db as Tx);
  return { jobId: job.id, task };
}

function assertActive(store: ChannelStore): void {
  if (store.status !== 'active') throw new AppError('INVALID_TRANSITION', 'the store is paused: set status active first', { from: store.status });
}

/** Starts a backfill from page 1; a backfill already running stops at its next page. */
export async function startBackfill(ctx: Ctx, id: string) {
  const store = await findStore(ctx, id);
  assertActive(store);
  const runId = randomUUID();
  const row = await ctx.db.channelStore.update({
    where: { id: store.id },
    data: { backfillRunId: runId, backfillStatus: 'running', backfillPages: 0, backfillTotal: null, backfillStartedAt: new Date(), backfillFinishedAt: null },
  });
  return { ...(await enqueue(ctx, TASK.backfillCatalog, { storeId: store.id, runId, page: 1 })), store: storeView(row) };
}

export async function requestTask(ctx: Ctx, id: string, task: string, extra: Record<string, unknown> = {}) {
  const store = await findStore(ctx, id);
  assertActive(store);
  return enqueue(ctx, task, { storeId: store.id, ...extra });
}

/** Queues an order for the store (once: a second request re-queues the same export). */
export async function queueOrder(ctx: Ctx, id: string, orderId: string) {
  const store = await findStore(ctx, id);
  assertActive(store);
  const order = await ctx.db.order.findFirst({ where: { id: orderId, organizationId: ctx.organization.id }, select: { id: true } });
  if (!order) throw validationFailed([{ field: 'orderId', message: 'no such order in this organization' }]);
  const exp = await ctx.db.channelOrderExport.upsert({
    where: { storeId_orderId: { storeId: store.id, orderId } },
    create: { organizationId: ctx.organization.id, storeId: store.id, orderId },
    update: {},
  });
  if (exp.status === 'exported') return { ...exportView(exp), jobId: null };
  const job = await enqueue(ctx, TASK.pushOrder, { storeId: store.id, orderId });
  return { ...exportView(exp), jobId: job.jobId };
}

export async function listExports(ctx: Pick<Ctx, 'organization' | 'db'>, id: string, input: { status?: string; limit: number; offset: number }) {
  const store = await findStore(ctx, id);
  const where = { organizationId: ctx.organization.id, storeId: store.id, ...(input.status ? { status: input.status } : {}) };
  const [rows, total] = await Promise.all([
    ctx.db.channelOrderExport.findMany({ where, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], take: input.limit, skip: input.offset }),
    ctx.db.channelOrderExport.count({ where }),
  ]);
  return { data: rows.map(exportView), meta: { total, limit: input.limit, offset: input.offset } };
}

/**
 * orders.afterCreate: an order with lines imported from connected stores is queued for each of
 * those stores (its own transaction: the order has committed already).
 */
export async function queueNewOrder(
  db: Db,
  organizationId: string,
  order: { id: string; lineItems: Array<{ entityId: string }> },
  enqueueJob: (tx: Tx, storeId: string) => Promise<unknown>,
): Promise<number> {
  const entityIds = [...new Set(order.lineItems.map((l) => l.entityId))];
  if (!entityIds.length) return 0;
  const links = await db.channelLink.findMany({
    where: { organizationId, entityId: { in: entityIds }, status: 'active', store: { status: 'active' } },
    select: { storeId: true },
    distinct: ['storeId'],
  });
  if (!links.length) return 0;
  await db.$transaction(async (tx) => {
    for (const { storeId } of links) {
      await tx.channelOrderExport.createMany({ data: [{ organizationId, storeId, orderId: order.id }], skipDuplicates: true });
      await enqueueJob(tx, storeId);
    }
  });
  return links.length;
}
