// The connector interface: everything the channel tasks need from a remote store, and nothing
// about how that store is reached. The tasks (tasks.ts) own the rules — field ownership, links,
// idempotent order pushes, progress — so a new connector (a Shopify or WooCommerce store, a
// marketplace) only translates these calls into its store's API. See README.md, "Writing a
// connector".

/** Localized texts of an entity, per locale (`en`, `de`, ...). */
export interface RemoteAttributes {
  title: string | null;
  description: string | null;
  seoTitle: string | null;
  seoDescription: string | null;
}

/** A catalog entity as the store describes it; `remoteId` is the store's own id. */
export interface RemoteEntity {
  remoteId: string;
  type: string;
  slug: string;
  status: 'draft' | 'active' | 'archived' | 'discontinued';
  metadata: Record<string, unknown>;
  attributes: Record<string, RemoteAttributes>;
  /** Units the store can sell now, when the listing carries it (saves a stock call). */
  available?: number | null;
}

export interface CatalogPage {
  items: RemoteEntity[];
  /** Entities at the store in all, when it says (progress reporting). */
  total: number | null;
  /** True when this was the last page. */
  last: boolean;
}

/** A local order as the store should receive it: lines already mapped to the store's ids. */
export interface OutboundOrder {
  /** Local order id: the idempotency key of the push is derived from it. */
  orderId: string;
  orderNumber: string;
  currency: string;
  email: string | null;
  shippingAddress: Record<string, unknown> | null;
  lines: Array<{ remoteId: string; quantity: number; unitPrice: number }>;
  paymentMethod: string;
}

/** What a push remembers between attempts, so a retry continues instead of starting over. */
export interface PushState {
  /** What an earlier attempt asked to remember (opaque to the tasks), or null on the first. */
  saved: Record<string, unknown> | null;
  /** Records `value` before the push goes on (e.g. the store's cart once it holds every line). */
  remember(value: Record<string, unknown>): Promise<void>;
  /** Stable per order and store: the store must turn a repeat into the first answer. */
  idempotencyKey: string;
}

export interface PushResult {
  remoteOrderId: string;
  remoteNumber: string | null;
  /** True when the store answered a repeat with the order it already had. */
  replayed: boolean;
}

export interface ChannelConnector {
  /** One page of the store's catalog, 1-based, oldest first (stable while entities are added). */
  listCatalogPage(page: number, pageSize: number, signal?: AbortSignal): Promise<CatalogPage>;
  /** One entity by the store's id; null when the store no longer has it. */
  fetchEntity(remoteId: string, signal?: AbortSignal): Promise<RemoteEntity | null>;
  /** Units available for sale at the store, by remote id (at most 100 ids per call); missing ids are untracked. */
  stockLevels(remoteIds: readonly string[], signal?: AbortSignal): Promise<Map<string, number>>;
  /** Places the order at the store exactly once per `state.idempotencyKey`. */
  pushOrder(order: OutboundOrder, state: PushState, signal?: AbortSignal): Promise<PushResult>;
}

/** What a connector factory gets: the store row's connection details, the key decrypted. */
export interface ConnectorTarget {
  storeId: string;
  kind: string;
  baseUrl: string;
  apiKey: string;
  /** Private and loopback addresses allowed (development, tests, stores on the same network). */
  allowPrivateTargets: boolean;
  /** Longest wait for one answer of the store; a hung store must not hold its job forever. */
  timeoutMs: number;
}

export type ConnectorFactory = (target: ConnectorTarget) => ChannelConnector;

/**
 * A failure the store reported about the request itself (4xx other than 408/409/429): retrying
 * the same call cannot help, so the task fails the job now instead of burning its retries.
 */
export class ConnectorRejection extends Error {
  override name = 'ConnectorRejection';
  constructor(
    message: string,
    readonly status: number,
    readonly body?: unknown,
  ) {
    super(message);
  }
}
