// The channel plugin's GraphQL types: connected stores with their backfill progress, order
// exports and the task runs the triggers queue, field by field as the services return them
// (REST bodies keep their shape). An export's `order` is the core Order, graph-only, for
// callers who may read orders. The store's API key is never part of any type (apiKeyHint only).
import type { RequestContext } from '../../src/context.js';
import { defineEnum } from '../../src/graphql/enums.js';
import { graphOnly } from '../../src/graphql/loaders.js';
import { OrderRef } from '../../src/modules/orders/types.js';
import { loadOrder } from '../../src/plugins/relations.js';
import { pluginObject, type FieldSpec } from '../../src/plugins/types.js';
import { exportView, STORE_STATUSES, storeView } from './stores.js';

type GraphCtx = Pick<RequestContext, 'db' | 'organization' | 'actor' | 'loaders'>;
type Store = ReturnType<typeof storeView>;
type Export = ReturnType<typeof exportView>;

export const EXPORT_STATUSES = ['pending', 'exporting', 'exported', 'failed'] as const;

let declared: ReturnType<typeof declare> | undefined;

/** The channel types, declared on first use: only an enabled plugin adds types to the schema. */
export function channelTypes() {
  declared ??= declare();
  return declared;
}

function declare() {
  const StoreStatusEnum = defineEnum('ChannelStoreStatus', STORE_STATUSES, 'A paused store’s tasks finish without doing anything.');
  const BackfillStatusEnum = defineEnum('ChannelBackfillStatus', ['idle', 'running', 'done', 'failed'] as const, 'Progress of a catalog backfill.');
  const ExportStatusEnum = defineEnum('ChannelOrderExportStatus', EXPORT_STATUSES, 'An order push: pending → exporting → exported, or failed (retried).');

  const BackfillRef = pluginObject<Store['backfill']>('ChannelBackfill', 'Progress of the store’s catalog backfill (one page per job run).', {
    status: BackfillStatusEnum,
    pages: { type: 'Int', description: 'Pages imported so far' },
    imported: { type: 'Int', description: 'Entities linked to the store' },
    total: { type: 'Int?', description: 'Entities the store reported (null until the first page)' },
    startedAt: 'DateTime?',
    finishedAt: 'DateTime?',
  });
  const StoreRef = pluginObject<Store>('ChannelStore', 'A remote store connected through a connector: its catalog and stock are imported, orders pushed to it.', {
    id: 'UUID',
    name: 'String',
    kind: { type: 'String', description: 'The connector (commerce-service, or one a deployment adds)' },
    baseUrl: 'String',
    apiKeyHint: { type: 'String', description: 'Last characters of the store’s API key (the key is never returned)' },
    status: StoreStatusEnum,
    warehouseId: { type: 'UUID', description: 'Local warehouse mirroring the store’s stock' },
    pageSize: { type: 'Int', description: 'Entities per backfill page' },
    orderPaymentMethod: { type: 'String', description: 'Payment method pushed orders are checked out with at the store' },
    backfill: BackfillRef,
    lastInventorySyncAt: 'DateTime?',
    lastReconcileAt: 'DateTime?',
    createdAt: 'DateTime',
    updatedAt: 'DateTime',
  });

  const exportFields: Record<string, FieldSpec<Export>> = {
    id: 'UUID',
    storeId: 'UUID',
    orderId: 'UUID',
    status: ExportStatusEnum,
    remoteOrderId: { type: 'String?', description: 'The order’s id at the store' },
    remoteNumber: { type: 'String?', description: 'The order’s number at the store' },
    attempts: 'Int',
    lastError: 'String?',
    startedAt: 'DateTime?',
    exportedAt: 'DateTime?',
    createdAt: 'DateTime',
    order: {
      type: OrderRef,
      nullable: true,
      description: 'The local order (null for callers without orders:read)',
      resolve: (e: Export, _a: unknown, ctx: GraphCtx) => loadOrder(ctx, e.orderId, null),
    },
  };
  const ExportRef = pluginObject<Export>('ChannelOrderExport', 'An order pushed (or waiting to be pushed) to a connected store.', exportFields);
  const PushRef = pluginObject<Export & { jobId: string | null }>('ChannelOrderPush', 'An order queued for a store: its export and the push job (null when already exported).', {
    ...(exportFields as Record<string, FieldSpec<Export & { jobId: string | null }>>),
    jobId: 'UUID?',
  });
  graphOnly('ChannelOrderExport', 'order');
  graphOnly('ChannelOrderPush', 'order');

  const TaskRunRef = pluginObject<{ jobId: string; task: string }>('ChannelTaskRun', 'A store task queued as a job.', {
    jobId: 'UUID',
    task: { type: 'String', description: 'The task slug, e.g. channel/sync-inventory' },
  });
  const BackfillRunRef = pluginObject<{ jobId: string; task: string; store: Store }>(
    'ChannelBackfillRun',
    'A backfill started: its first page’s job and the store with its progress reset.',
    {
      jobId: 'UUID',
      task: 'String',
      store: StoreRef,
    },
  );
  return { StoreRef, ExportRef, PushRef, TaskRunRef, BackfillRunRef };
}
