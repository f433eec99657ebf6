// The one shipped connector: another instance of this commerce service as the remote store,
// over its REST API with an API key. It uses the project's own generated SDK
// (client/: openapi-fetch over the OpenAPI document's types), so a change of the REST
// contract that breaks the connector breaks its type check first.
//
// The remote key needs: catalog:read and catalog:read:unpublished (drafts are imported too),
// inventory:read, cart:create, cart:update and orders:create — e.g. an `admin` key, or a scope
// made for it (README.md).
import { createClient, type CommerceClient } from '../../../client/src/index.js';
import { guardedFetch } from '../../../src/modules/webhooks/guarded-fetch.js';
import { BlockedTargetError } from '../../../src/modules/webhooks/targets.js';
import { ConnectorRejection, type CatalogPage, type ChannelConnector, type ConnectorTarget, type RemoteAttributes, type RemoteEntity } from '../connector.js';

interface EntityBody {
  id: string;
  type: string;
  slug: string;
  status: RemoteEntity['status'];
  metadata: Record<string, unknown> | null;
  attributes?: Array<{ locale: string } & RemoteAttributes> | null;
  inventory?: { tracked: boolean; available: number } | null;
}

const INCLUDE = 'attributes,inventory';

function toRemote(body: EntityBody): RemoteEntity {
  return {
    remoteId: body.id,
    type: body.type,
    slug: body.slug,
    status: body.status,
    metadata: body.metadata ?? {},
    attributes: Object.fromEntries(
      (body.attributes ?? []).map((a) => [
        a.locale,
        { title: a.title ?? null, description: a.description ?? null, seoTitle: a.seoTitle ?? null, seoDescription: a.seoDescription ?? null },
      ]),
    ),
    available: body.inventory?.tracked ? body.inventory.available : null,
  };
}

/** A non-2xx answer: 4xx that retrying cannot fix is a ConnectorRejection, the rest plain errors (retried). */
function failure(what: string, response: Response, error: unknown): Error {
  const envelope = (error as { error?: { code?: string; message?: string } } | undefined)?.error;
  const message = `${what}: the store answered ${response.status}${envelope?.code ? ` ${envelope.code}` : ''}${envelope?.message ? ` (${envelope.message})` : ''}`;
  if (response.status >= 400 && response.status < 500 && ![408, 409, 425, 429].includes(response.status)) return new ConnectorRejection(message, response.status, error);
  return new Error(message);
}

export function commerceServiceConnector(target: ConnectorTarget): ChannelConnector {
  const base = new URL(target.baseUrl);
  // Every call is checked at the socket: the address the store's name resolves to when it is
  // connected to (its DNS may change after registration) must be public unless the deployment
  // allows private targets. A redirect is refused, not followed: the request carries the
  // store's key, and a store that answers 3xx would otherwise send it to any host.
  const send = guardedFetch({ allowPrivate: target.allowPrivateTargets, timeoutMs: target.timeoutMs });
  const guarded: typeof fetch = async (input, init) => {
    let response: Response;
    try {
      response = await send(input, init);
    } catch (error) {
      if (error instanceof BlockedTargetError) throw new ConnectorRejection(`the store may not be reached: ${error.message}`, 0);
      throw error;
    }
    if (response.status >= 300 && response.status < 400) {
      await response.body?.cancel();
      throw new ConnectorRejection(
        `the store answered ${response.status} (to ${response.headers.get('location') ?? 'nowhere'}): redirects are not followed; set the store's baseUrl to where it answers`,
        response.status,
      );
    }
    return response;
  };
  const client: CommerceClient = createClient({ baseUrl: base.origin, apiKey: target.apiKey, fetch: guarded, maxRetryAfterMs: 5_000 });

  return {
    async listCatalogPage(page, pageSize, signal): Promise<CatalogPage> {
      const { data, error, response } = await client.GET('/api/catalog/entities', {
        params: { query: { page, limit: pageSize, sort: 'createdAt:asc', include: INCLUDE } },
        signal,
      });
      if (!data) throw failure(`catalog page ${page}`, response, error);
      const body = data as unknown as { data: EntityBody[]; meta: { pagination: { page: number; limit: number; total: number; totalPages: number } } };
      const { total, totalPages } = body.meta.pagination;
      return { items: body.data.map(toRemote), total, last: page >= totalPages || body.data.length === 0 };
    },

    async fetchEntity(remoteId, signal) {
      const { data, error, response } = await client.GET('/api/catalog/entities/{id}', {
        params: { path: { id: remoteId }, query: { include: INCLUDE } },
        signal,
      });
      if (response.status === 404) return null;
      if (!data) throw failure(`entity ${remoteId}`, response, error);
      return toRemote((data as unknown as { data: EntityBody }).data);
    },

    async stockLevels(remoteIds, signal) {
      const levels = new Map<string, number>();
      if (!remoteIds.length) return levels;
      if (remoteIds.length > 100) throw new RangeError('stockLevels takes at most 100 ids per call');
      const { data, error, response } = await client.GET('/api/inventory/check', {
        params: { query: { entityIds: remoteIds.join(',') } },
        signal,
      });
      if (!data) throw failure('stock levels', response, error);
      for (const row of (data as unknown as { data: Array<{ entityId: string; tracked: boolean; available: number }> }).data) {
        if (row.tracked) levels.set(row.entityId, row.available);
      }
      return levels;
    },

    async pushOrder(order, state, signal) {
      // A retry reuses the cart an earlier attempt made: the store's checkout binds an
      // idempotency key to one cart, so the same key on the same cart returns the first order.
      // A guest cart is reached with its token (x-cart-token) unless the key may read any cart.
      let cart = state.saved as { cartId: string; cartToken: string } | null;
      if (!cart?.cartId) {
        const created = await client.POST('/api/carts', { body: { currency: order.currency }, signal });
        if (!created.data) throw failure('cart', created.response, created.error);
        const body = (created.data as unknown as { data: { id: string; cartToken: string } }).data;
        cart = { cartId: body.id, cartToken: body.cartToken };
        for (const line of order.lines) {
          const added = await client.POST('/api/carts/{id}/items', {
            params: { path: { id: cart.cartId } },
            headers: { 'x-cart-token': cart.cartToken },
            body: { entityId: line.remoteId, quantity: line.quantity, unitPriceSnapshot: line.unitPrice } as never,
            signal,
          });
          if (!added.data) throw failure(`cart line ${line.remoteId}`, added.response, added.error);
        }
        // Remembered only once every line is in: a retry after a half-filled cart starts a new one
        // (the abandoned cart holds no stock; carts reserve nothing until checkout).
        await state.remember(cart);
      }
      const placed = await client.POST('/api/checkout', {
        headers: { 'x-cart-token': cart.cartToken },
        body: {
          cartId: cart.cartId,
          currency: order.currency,
          paymentMethodId: order.paymentMethod,
          idempotencyKey: state.idempotencyKey,
          ...(order.email ? { email: order.email } : {}),
          ...(order.shippingAddress ? { shippingAddress: order.shippingAddress } : {}),
        } as never,
        signal,
      });
      if (!placed.data) {
        // The key was used already for another cart of ours (a retry that lost its saved cart):
        // the store names the order it made then, which is the one we want (422
        // IDEMPOTENCY_KEY_REUSED; stores before the request hash answered 409).
        const known = (placed.error as { error?: { details?: { orderId?: unknown } } } | undefined)?.error?.details?.orderId;
        if ((placed.response.status === 422 || placed.response.status === 409) && typeof known === 'string') return { remoteOrderId: known, remoteNumber: null, replayed: true };
        throw failure(`order ${order.orderNumber}`, placed.response, placed.error);
      }
      const result = placed.data as unknown as { data: { id: string; orderNumber?: string | null }; meta?: { replayed?: boolean } };
      return { remoteOrderId: result.data.id, remoteNumber: result.data.orderNumber ?? null, replayed: Boolean(result.meta?.replayed) };
    },
  };
}
