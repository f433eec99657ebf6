// The channel-connector plugin: a connected store (another commerce service, or whatever a
// connector speaks to) is the source of store-sourced catalog entities and their stock, and the
// destination of the orders placed for them. Routes under /api/channel manage connections and
// trigger work; the job tasks (tasks.ts) do the work, keyed per store. Enable it with
// `plugins: [channel()]` in commerce.config.ts; README.md has the details.
import { z } from 'zod';
import { definePlugin, pluginHook, type Plugin } from '../../src/plugins/index.js';
import type { Config } from '../../src/config/index.js';
import type { Tx } from '../../src/db/client.js';
import type { ConnectorFactory } from './connector.js';
import { commerceServiceConnector } from './connectors/commerce-service.js';
import { channelTasks, TASK } from './tasks.js';
import { createStore, findStore, listExports, listStores, queueNewOrder, queueOrder, requestTask, startBackfill, storeView, STORE_STATUSES, updateStore } from './stores.js';
import { channelTypes, EXPORT_STATUSES } from './graph.js';

export type { ChannelConnector, ConnectorFactory, ConnectorTarget, RemoteEntity, CatalogPage, OutboundOrder, PushState, PushResult } from './connector.js';
export { ConnectorRejection } from './connector.js';
export { commerceServiceConnector } from './connectors/commerce-service.js';

export interface ChannelOptions {
  /** Extra connector kinds by name (a store's `kind`); `commerce-service` is built in. */
  connectors?: Record<string, ConnectorFactory>;
  /**
   * Stores on private, loopback or link-local addresses. Default: webhooks.allowPrivateTargets
   * when the operator set it, else off — in every env: the connector sends the store's key, so
   * reaching the deployment's own network is always an explicit setting.
   */
  allowPrivateTargets?: boolean;
  /** Queue a push for every new order with lines from a connected store (default true). */
  pushNewOrders?: boolean;
  /** Retries of every channel task after its first run (default 5, exponential from 10 s). */
  retries?: { attempts: number; delayMs: number };
  /** channel/reap-exports requeues exports idle this long (default 15 minutes). */
  exportStaleAfterMs?: number;
  /** Time limit of one call to a store (default 30 s); the call is retried with the task. */
  requestTimeoutMs?: number;
}

const uuid = z.uuid();
const page = {
  limit: z
    .number()
    .int()
    .min(1)
    .default(20)
    .transform((n) => Math.min(n, 100))
    .describe('Page size, default 20; values above 100 are clamped to 100 (meta.limit shows the applied value)'),
  offset: z.number().int().min(0).default(0),
};

export function channel(options: ChannelOptions = {}): Plugin {
  const connectors: Record<string, ConnectorFactory> = { 'commerce-service': commerceServiceConnector, ...options.connectors };
  const allowPrivate = (config: Config) => options.allowPrivateTargets ?? config.webhooks.allowPrivateTargets ?? false;
  const retry = options.retries ?? { attempts: 5, delayMs: 10_000 };
  const tasks = channelTasks({
    connectors,
    allowPrivateTargets: allowPrivate,
    retries: { attempts: retry.attempts, backoff: { type: 'exponential', delay: retry.delayMs } },
    exportStaleAfterMs: options.exportStaleAfterMs ?? 15 * 60_000,
    requestTimeoutMs: options.requestTimeoutMs ?? 30_000,
  });

  return definePlugin({
    id: 'channel',
    version: '1.0.0',
    schema: 'plugins/channel/schema.prisma',
    permissions: [
      { scope: 'channel:read', description: 'See connected stores, their progress and order exports' },
      { scope: 'channel:manage', description: 'Connect stores, change their keys, start backfills, syncs, reconciliation and order pushes' },
    ],
    apiKeyScopes: {
      // For a back-office integration that manages connections.
      channel: { prefix: 'cs_channel_', description: 'Manage connected stores and their sync', permissions: { channel: ['read', 'manage'] } },
      // Minted on the *store's* side for the platform that connects to it (commerce-service
      // connector): exactly what the connector calls, nothing else.
      'channel-source': {
        prefix: 'cs_chsrc_',
        description: 'Given to a platform that imports this store\u2019s catalog and stock and pushes orders to it',
        permissions: { catalog: ['read', 'read:unpublished'], inventory: ['read'], cart: ['create', 'read', 'update'], orders: ['create'] },
      },
    },
    routes(ctx) {
      const r = ctx.routes({ tag: 'channel', prefix: '/channel', params: { id: z.uuid() } });
      const { StoreRef, ExportRef, PushRef, TaskRunRef, BackfillRunRef } = channelTypes();
      const baseUrl = z.string().min(1).max(2000).describe('Origin of the store, e.g. https://shop.example.com');
      const apiKey = z.string().min(8).max(500).describe('The store\u2019s API key: stored encrypted, never returned (apiKeyHint shows its last characters)');
      r.post('/stores')
        .name('channelStoreCreate')
        .output(StoreRef)
        .audit({ entityType: 'channel_store' })
        .summary('Connect a store')
        .description(
          `Registers a remote store reached by a connector (\`kind\`, default commerce-service). Its stock lands in \`warehouseId\` (default: the organization's default warehouse). Nothing is imported until a backfill is started.`,
        )
        .permission('channel:manage')
        .input({
          name: z.string().min(1).max(100),
          kind: z.string().min(1).max(50).default('commerce-service'),
          baseUrl,
          apiKey,
          warehouseId: uuid.optional(),
          pageSize: z.number().int().min(1).max(100).default(100).describe('Entities per backfill page (one job run per page)'),
          orderPaymentMethod: z.string().min(1).max(100).optional().describe('Payment method id pushed orders are checked out with at the store'),
        })
        .handler(({ input, ctx: rc }) => createStore(rc, input, { kinds: Object.keys(connectors), allowPrivate: allowPrivate(rc.config) }));
      r.get('/stores')
        .name('channelStores')
        .output(StoreRef)
        .summary('Connected stores')
        .permission('channel:read')
        .paginated()
        .input(page)
        .handler(({ input, ctx: rc }) => listStores(rc, input));
      r.get('/stores/:id')
        .name('channelStore')
        .output(StoreRef)
        .summary('A connected store with its backfill progress')
        .permission('channel:read')
        .handler(async ({ params, ctx: rc }) => storeView(await findStore(rc, params.id!)));
      r.patch('/stores/:id')
        .name('channelStoreUpdate')
        .output(StoreRef)
        .audit({ entityType: 'channel_store' })
        .summary('Change a store connection (name, URL, key, status, page size)')
        .description('`status: paused` stops its tasks (they finish without doing anything) until it is active again.')
        .permission('channel:manage')
        .input({
          name: z.string().min(1).max(100).optional(),
          baseUrl: baseUrl.optional(),
          apiKey: apiKey.optional(),
          status: z.enum(STORE_STATUSES).optional(),
          warehouseId: uuid.optional(),
          pageSize: z.number().int().min(1).max(100).optional(),
          orderPaymentMethod: z.string().min(1).max(100).optional(),
        })
        .handler(({ params, input, ctx: rc }) => updateStore(rc, params.id!, input, { allowPrivate: allowPrivate(rc.config) }));
      r.post('/stores/:id/backfill')
        .name('channelStoreBackfill')
        .output(BackfillRunRef)
        .audit({ entityType: 'channel_store' })
        .summary('Import the store\u2019s whole catalog, one page per job run')
        .description(
          'Starts channel/backfill-catalog at page 1; each run imports one page and queues the next until the last. Progress is on the store (`backfill`). A backfill already running stops at its next page.',
        )
        .permission('channel:manage')
        .status(202)
        .handler(({ params, ctx: rc }) => startBackfill(rc, params.id!));
      r.post('/stores/:id/sync-inventory')
        .name('channelStoreInventorySync')
        .output(TaskRunRef)
        .audit({ entityType: 'channel_store' })
        .summary('Bring local stock of the store\u2019s entities to the store\u2019s figures')
        .permission('channel:manage')
        .status(202)
        .handler(({ params, ctx: rc }) => requestTask(rc, params.id!, TASK.syncInventory));
      r.post('/stores/:id/reconcile')
        .name('channelStoreReconcile')
        .output(TaskRunRef)
        .audit({ entityType: 'channel_store' })
        .summary('Compare every imported entity with the store and fix what diverged')
        .description('Without remoteIds: channel/reconcile-sweep, which queues channel/reconcile per 100 links. With remoteIds (at most 100): channel/reconcile for those only.')
        .permission('channel:manage')
        .status(202)
        .input({ remoteIds: z.array(z.string().min(1).max(200)).min(1).max(100).optional() })
        .handler(({ params, input, ctx: rc }) =>
          input.remoteIds ? requestTask(rc, params.id!, TASK.reconcile, { remoteIds: input.remoteIds }) : requestTask(rc, params.id!, TASK.reconcileSweep),
        );
      r.post('/stores/:id/import')
        .name('channelStoreImport')
        .output(TaskRunRef)
        .audit({ entityType: 'channel_store' })
        .summary('Import or refresh named entities of the store now')
        .permission('channel:manage')
        .status(202)
        .input({ remoteIds: z.array(z.string().min(1).max(200)).min(1).max(100) })
        .handler(({ params, input, ctx: rc }) => requestTask(rc, params.id!, TASK.importCatalog, { remoteIds: input.remoteIds }));
      r.post('/stores/:id/orders')
        .name('channelOrderPush')
        .output(PushRef)
        .audit({ entityType: 'channel_order_export' })
        .summary('Push an order to the store')
        .description('Queues channel/push-order for the order\u2019s lines that came from this store. The store receives it once, however often it is queued or retried.')
        .permission('channel:manage')
        .status(202)
        .input({ orderId: uuid })
        .handler(({ params, input, ctx: rc }) => queueOrder(rc, params.id!, input.orderId));
      r.get('/stores/:id/orders')
        .name('channelOrderExports')
        .output(ExportRef)
        .summary('Orders pushed (or waiting to be pushed) to the store')
        .permission('channel:read')
        .paginated()
        .input({ status: z.enum(EXPORT_STATUSES).optional(), ...page })
        .handler(({ params, input, ctx: rc }) => listExports(rc, params.id!, input));
    },
    hooks:
      options.pushNewOrders === false
        ? []
        : [
            pluginHook(
              'orders.afterCreate',
              async ({ order }, hc) => {
                await queueNewOrder(hc.db as never, hc.organization.id, order, (tx: Tx, storeId) =>
                  hc.services.jobs.enqueue({ task: TASK.pushOrder, input: { storeId, orderId: order.id }, organizationId: hc.organization.id }, tx),
                );
              },
              'channel:queue-order',
            ),
          ],
    tasks,
  });
}
