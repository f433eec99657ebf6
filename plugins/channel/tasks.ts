// The channel tasks the spec names. Every one takes `storeId` and is keyed per store through the
// job concurrency key (`store:<id>`, exclusive): two tasks of one store never run at once, so a
// backfill page, a stock sync and an order push cannot interleave their writes, while stores run
// side by side. What each does is in README.md ("Tasks").
import type { Db } from '../../src/db/client.js';
import { enqueueMany } from '../../src/jobs/enqueue.js';
import { JobError, type RetryPolicy, type TaskContext, type TaskDefinition } from '../../src/jobs/tasks.js';
import type { ChannelStore, Prisma } from '../../src/generated/prisma/client.js';
import { ConnectorRejection, type ChannelConnector, type ConnectorFactory, type OutboundOrder } from './connector.js';
import { decryptSecret } from './secrets.js';
import { applyRemoteEntity, archiveRemoved, syncStock, type ApplyOutcome, type SyncScope } from './sync.js';

export const TASK = {
  importCatalog: 'channel/import-catalog',
  backfillCatalog: 'channel/backfill-catalog',
  syncInventory: 'channel/sync-inventory',
  pushOrder: 'channel/push-order',
  reconcile: 'channel/reconcile',
  reconcileSweep: 'channel/reconcile-sweep',
  reapExports: 'channel/reap-exports',
} as const;

declare module '../../src/jobs/tasks.js' {
  interface TaskTypes {
    'channel/import-catalog': { input: { storeId: string; remoteIds: string[] }; output: { imported: number; created: number; removed: number } | { skipped: string } };
    'channel/backfill-catalog': {
      input: { storeId: string; runId: string; page: number };
      output: { page: number; entities: number; created: number; last: boolean } | { skipped: string };
    };
    'channel/sync-inventory': { input: { storeId: string }; output: { checked: number; changed: number } | { skipped: string } };
    'channel/push-order': { input: { storeId: string; orderId: string }; output: { remoteOrderId: string; remoteNumber: string | null; replayed: boolean } | { skipped: string } };
    'channel/reconcile': {
      input: { storeId: string; remoteIds?: string[]; page?: number };
      output: { checked: number; fixed: Array<{ remoteId: string; entityId: string | null; fields: string[]; stockDelta: number }> } | { skipped: string };
    };
    'channel/reconcile-sweep': { input: { storeId: string }; output: { pages: number; jobs: number } | { skipped: string } };
    'channel/reap-exports': { input: { storeId: string; staleAfterMs?: number }; output: { requeued: number } | { skipped: string } };
  }
}

/** Links per reconcile job and per stock call (the store's stock endpoint takes 100 ids). */
export const BATCH = 100;

export interface TaskOptions {
  connectors: Record<string, ConnectorFactory>;
  allowPrivateTargets: (config: TaskContext['config']) => boolean;
  retries: RetryPolicy;
  /** An export still pending or exporting this long after its last change is pushed again. */
  exportStaleAfterMs: number;
  /** Time limit of one call to a store. */
  requestTimeoutMs: number;
}

const key = (input: { storeId: string }) => `store:${input.storeId}`;

/** The store of the job's organization, its connector, and the scope sync writes with; null when paused. */
async function open(ctx: TaskContext, options: TaskOptions, storeId: string): Promise<{ store: ChannelStore; connector: ChannelConnector; scope: SyncScope } | null> {
  const store = await ctx.db.channelStore.findFirst({ where: { id: storeId, organizationId: ctx.organizationId } });
  if (!store) throw new JobError(`no channel store ${storeId} in this organization`, { retry: false });
  if (store.status !== 'active') return null;
  const factory = options.connectors[store.kind];
  if (!factory) throw new JobError(`no connector of kind ${store.kind} is configured (channel({ connectors }))`, { retry: false });
  const connector = factory({
    storeId: store.id,
    kind: store.kind,
    baseUrl: store.baseUrl,
    apiKey: decryptSecret(ctx.config, store.apiKeyCiphertext),
    allowPrivateTargets: options.allowPrivateTargets(ctx.config),
    timeoutMs: options.requestTimeoutMs,
  });
  return { store, connector, scope: { db: ctx.db, organizationId: ctx.organizationId, store, requestId: `job:${ctx.job.id}` } };
}

/** A store that refused the request itself fails the job now; anything else is retried. */
async function talking<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    if (error instanceof ConnectorRejection) throw new JobError(error.message, { retry: false, cause: error });
    throw error;
  }
}

/** The store no longer has it: archive the local twin (unless its status is the platform's) and mark the link. */
async function markRemoved(scope: SyncScope, remoteId: string): Promise<string | null> {
  const link = await scope.db.channelLink.findUnique({ where: { storeId_remoteId: { storeId: scope.store.id, remoteId } } });
  if (!link || link.status === 'removed') return null;
  await archiveRemoved(scope, link);
  return link.entityId;
}

async function enqueueFollowUp(db: Db, ctx: TaskContext, jobs: Array<{ task: string; input: Record<string, unknown> }>): Promise<number> {
  const ids = await enqueueMany(
    { db, config: ctx.config },
    jobs.map((j) => ({ task: j.task, input: j.input, organizationId: ctx.organizationId })),
  );
  return ids.length;
}

export function channelTasks(options: TaskOptions): TaskDefinition[] {
  const retries = options.retries;

  const importCatalog: TaskDefinition<'channel/import-catalog'> = {
    slug: TASK.importCatalog,
    concurrency: { key },
    retries,
    async handler(input, ctx) {
      const opened = await open(ctx, options, input.storeId);
      if (!opened) return { skipped: 'paused' };
      let imported = 0;
      let created = 0;
      let removed = 0;
      for (const remoteId of input.remoteIds.slice(0, BATCH)) {
        const remote = await talking(() => opened.connector.fetchEntity(remoteId, ctx.signal));
        if (!remote) {
          if (await markRemoved(opened.scope, remoteId)) removed += 1;
          continue;
        }
        const outcome = await applyRemoteEntity(opened.scope, remote);
        imported += 1;
        if (outcome.created) created += 1;
      }
      return { imported, created, removed };
    },
  };

  const backfillCatalog: TaskDefinition<'channel/backfill-catalog'> = {
    slug: TASK.backfillCatalog,
    concurrency: { key },
    retries,
    async handler(input, ctx) {
      const opened = await open(ctx, options, input.storeId);
      if (!opened) return { skipped: 'paused' };
      const { store, connector, scope } = opened;
      // A newer backfill was started: this chain stops here.
      if (store.backfillRunId !== input.runId) return { skipped: 'superseded by a newer backfill' };
      const page = await talking(() => connector.listCatalogPage(input.page, store.pageSize, ctx.signal));
      const outcomes: ApplyOutcome[] = [];
      for (const remote of page.items) outcomes.push(await applyRemoteEntity(scope, remote));
      // Progress and the next page's job commit together: a crash here reruns this page
      // (idempotent), never skips the next one.
      await ctx.db.$transaction(async (tx) => {
        const imported = await tx.channelLink.count({ where: { storeId: store.id, status: 'active' } });
        const moved = await tx.channelStore.updateMany({
          where: { id: store.id, backfillRunId: input.runId },
          data: {
            backfillPages: input.page,
            backfillImported: imported,
            backfillTotal: page.total,
            backfillStatus: page.last ? 'done' : 'running',
            ...(page.last ? { backfillFinishedAt: new Date() } : {}),
          },
        });
        if (moved.count && !page.last) {
          await enqueueFollowUp(tx as unknown as Db, ctx, [{ task: TASK.backfillCatalog, input: { storeId: store.id, runId: input.runId, page: input.page + 1 } }]);
        }
      });
      return { page: input.page, entities: page.items.length, created: outcomes.filter((o) => o.created).length, last: page.last };
    },
  };

  const syncInventory: TaskDefinition<'channel/sync-inventory'> = {
    slug: TASK.syncInventory,
    // One pending sync per store is enough: a newer request replaces a waiting one.
    concurrency: { key, supersedes: true },
    retries,
    async handler(input, ctx) {
      const opened = await open(ctx, options, input.storeId);
      if (!opened) return { skipped: 'paused' };
      let checked = 0;
      let changed = 0;
      let after: string | undefined;
      for (;;) {
        const links = await ctx.db.channelLink.findMany({
          where: { storeId: opened.store.id, status: 'active', ...(after ? { id: { gt: after } } : {}) },
          orderBy: { id: 'asc' },
          take: BATCH,
          select: { id: true, remoteId: true, entityId: true },
        });
        if (!links.length) break;
        const levels = await talking(() =>
          opened.connector.stockLevels(
            links.map((l) => l.remoteId),
            ctx.signal,
          ),
        );
        changed += (await syncStock(opened.scope, links, levels)).changed;
        checked += links.length;
        after = links[links.length - 1]!.id;
        if (links.length < BATCH) break;
      }
      await ctx.db.channelStore.update({ where: { id: opened.store.id }, data: { lastInventorySyncAt: new Date() } });
      return { checked, changed };
    },
  };

  const pushOrder: TaskDefinition<'channel/push-order'> = {
    slug: TASK.pushOrder,
    concurrency: { key },
    retries,
    async handler(input, ctx) {
      const opened = await open(ctx, options, input.storeId);
      if (!opened) return { skipped: 'paused' };
      const { store, connector } = opened;
      const exp = await ctx.db.channelOrderExport.findUnique({ where: { storeId_orderId: { storeId: store.id, orderId: input.orderId } } });
      if (!exp || exp.organizationId !== ctx.organizationId) throw new JobError(`order ${input.orderId} is not queued for store ${store.id}`, { retry: false });
      if (exp.status === 'exported' && exp.remoteOrderId) return { remoteOrderId: exp.remoteOrderId, remoteNumber: exp.remoteNumber, replayed: true };
      const order = await ctx.db.order.findFirst({ where: { id: input.orderId, organizationId: ctx.organizationId }, include: { lines: { orderBy: { position: 'asc' } } } });
      if (!order) throw new JobError(`order ${input.orderId} no longer exists`, { retry: false });
      const links = await ctx.db.channelLink.findMany({
        where: { storeId: store.id, entityId: { in: order.lines.map((l) => l.entityId) } },
        select: { entityId: true, remoteId: true },
      });
      const remoteOf = new Map(links.map((l) => [l.entityId, l.remoteId]));
      const outbound: OutboundOrder = {
        orderId: order.id,
        orderNumber: order.number,
        currency: order.currency,
        email: order.customerEmail,
        shippingAddress: withoutNulls(order.shippingAddress),
        paymentMethod: store.orderPaymentMethod,
        lines: order.lines.filter((l) => remoteOf.has(l.entityId)).map((l) => ({ remoteId: remoteOf.get(l.entityId)!, quantity: l.quantity, unitPrice: Number(l.unitPrice) })),
      };
      if (!outbound.lines.length) {
        await ctx.db.channelOrderExport.update({ where: { id: exp.id }, data: { status: 'failed', lastError: 'no line of this order comes from the store' } });
        throw new JobError('no line of this order comes from the store', { retry: false });
      }
      await ctx.db.channelOrderExport.update({ where: { id: exp.id }, data: { status: 'exporting', attempts: { increment: 1 }, startedAt: new Date() } });
      try {
        const result = await connector.pushOrder(
          outbound,
          {
            saved: (exp.pushState as Record<string, unknown> | null) ?? null,
            remember: async (value) => {
              await ctx.db.channelOrderExport.update({ where: { id: exp.id }, data: { pushState: value as Prisma.InputJsonObject } });
            },
            // Stable across attempts and runs: the store turns a repeat into its first answer.
            idempotencyKey: `channel-order:${exp.id}`,
          },
          ctx.signal,
        );
        await ctx.db.channelOrderExport.update({
          where: { id: exp.id },
          data: { status: 'exported', remoteOrderId: result.remoteOrderId, remoteNumber: result.remoteNumber, exportedAt: new Date(), lastError: null },
        });
        return result;
      } catch (error) {
        const rejected = error instanceof ConnectorRejection;
        await ctx.db.channelOrderExport.update({ where: { id: exp.id }, data: { status: rejected ? 'failed' : 'pending', lastError: (error as Error).message.slice(0, 1000) } });
        if (rejected) throw new JobError((error as Error).message, { retry: false, cause: error });
        throw error;
      }
    },
  };

  const reconcile: TaskDefinition<'channel/reconcile'> = {
    slug: TASK.reconcile,
    concurrency: { key },
    retries,
    async handler(input, ctx) {
      const opened = await open(ctx, options, input.storeId);
      if (!opened) return { skipped: 'paused' };
      const fixed: Array<{ remoteId: string; entityId: string | null; fields: string[]; stockDelta: number }> = [];
      const record = (remoteId: string, outcome: ApplyOutcome) => {
        if (outcome.created || outcome.changed.length || outcome.stockDelta) {
          fixed.push({ remoteId, entityId: outcome.entityId, fields: outcome.created ? ['created'] : outcome.changed, stockDelta: outcome.stockDelta });
        }
      };
      // A page of the store's catalog (what the sweep queues: one store call per page) ...
      if (input.page !== undefined) {
        const page = await talking(() => opened.connector.listCatalogPage(input.page!, opened.store.pageSize, ctx.signal));
        for (const remote of page.items) record(remote.remoteId, await applyRemoteEntity(opened.scope, remote));
        return { checked: page.items.length, fixed };
      }
      // ... or named entities, one call each, which also finds those the store no longer has.
      const ids = (input.remoteIds ?? []).slice(0, BATCH);
      for (const remoteId of ids) {
        const remote = await talking(() => opened.connector.fetchEntity(remoteId, ctx.signal));
        if (!remote) {
          const entityId = await markRemoved(opened.scope, remoteId);
          if (entityId) fixed.push({ remoteId, entityId, fields: ['removed'], stockDelta: 0 });
          continue;
        }
        record(remoteId, await applyRemoteEntity(opened.scope, remote));
      }
      return { checked: ids.length, fixed };
    },
  };

  const reconcileSweep: TaskDefinition<'channel/reconcile-sweep'> = {
    slug: TASK.reconcileSweep,
    concurrency: { key, supersedes: true },
    retries,
    async handler(input, ctx) {
      const opened = await open(ctx, options, input.storeId);
      if (!opened) return { skipped: 'paused' };
      const { store, connector } = opened;
      // One reconcile job per catalog page when the store tells its size (a page is one call) ...
      const probe = await talking(() => connector.listCatalogPage(1, 1, ctx.signal));
      let jobs: Array<{ task: string; input: Record<string, unknown> }> = [];
      if (probe.total !== null) {
        const pages = Math.ceil(probe.total / store.pageSize);
        jobs = Array.from({ length: pages }, (_, i) => ({ task: TASK.reconcile, input: { storeId: store.id, page: i + 1 } }));
      } else {
        // ... else one per 100 linked entities, fetched by id.
        const links = await ctx.db.channelLink.findMany({ where: { storeId: store.id, status: 'active' }, orderBy: { remoteId: 'asc' }, select: { remoteId: true } });
        for (let i = 0; i < links.length; i += BATCH)
          jobs.push({ task: TASK.reconcile, input: { storeId: store.id, remoteIds: links.slice(i, i + BATCH).map((l) => l.remoteId) } });
      }
      await ctx.db.$transaction(async (tx) => {
        if (jobs.length) await enqueueFollowUp(tx as unknown as Db, ctx, jobs);
        await tx.channelStore.update({ where: { id: store.id }, data: { lastReconcileAt: new Date() } });
      });
      return { pages: probe.total !== null ? jobs.length : 0, jobs: jobs.length };
    },
  };

  const reapExports: TaskDefinition<'channel/reap-exports'> = {
    slug: TASK.reapExports,
    concurrency: { key, supersedes: true },
    retries,
    async handler(input, ctx) {
      const opened = await open(ctx, options, input.storeId);
      if (!opened) return { skipped: 'paused' };
      const cutoff = new Date(Date.now() - (input.staleAfterMs ?? options.exportStaleAfterMs));
      // Exports a worker started and never finished (it died, or its job ran out of attempts).
      const stale = await ctx.db.channelOrderExport.findMany({
        where: { organizationId: ctx.organizationId, storeId: opened.store.id, status: { in: ['pending', 'exporting'] }, updatedAt: { lt: cutoff } },
        orderBy: { updatedAt: 'asc' },
        take: 500,
        select: { id: true, orderId: true },
      });
      if (!stale.length) return { requeued: 0 };
      await ctx.db.$transaction(async (tx) => {
        await tx.channelOrderExport.updateMany({ where: { id: { in: stale.map((s) => s.id) } }, data: { status: 'pending' } });
        await enqueueFollowUp(
          tx as unknown as Db,
          ctx,
          stale.map((s) => ({ task: TASK.pushOrder, input: { storeId: opened.store.id, orderId: s.orderId } })),
        );
      });
      return { requeued: stale.length };
    },
  };

  return [importCatalog, backfillCatalog, syncInventory, pushOrder, reconcile, reconcileSweep, reapExports] as unknown as TaskDefinition[];
}

/** The order's address without null members (the store's checkout takes absent, not null, optionals). */
function withoutNulls(value: unknown): Record<string, unknown> | null {
  if (!value || typeof value !== 'object') return null;
  return Object.fromEntries(Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== null && v !== undefined));
}
