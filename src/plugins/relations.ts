// Core objects plugin types point at (a sub-order's order, a layaway plan's order), loaded the
// core's way: one batched statement per relation per level of a response (graphql/loaders.ts),
// with the core's access rule applied in the resolver, since a plugin route's permission says
// nothing about the core object behind it.
import type { RequestContext } from '../context.js';
import { hasPermission } from '../auth/permissions.js';
import { batchLoader } from '../graphql/loaders.js';
import { ORDER_INCLUDE, orderView, type OrderView } from '../modules/orders/views.js';

type GraphCtx = Pick<RequestContext, 'db' | 'organization' | 'actor' | 'loaders'>;

/** Whether the caller may read an order of this customer: orders:read, or orders:read:own for their own. */
export function mayReadOrder(ctx: Pick<RequestContext, 'actor'>, customerId: string | null): boolean {
  const permissions = ctx.actor?.permissions ?? [];
  if (hasPermission(permissions, 'orders:read')) return true;
  return hasPermission(permissions, 'orders:read:own') && !!customerId && customerId === ctx.actor?.customerId;
}

/**
 * The core Order by id (its lines included), or null when there is none or the caller may not
 * read it (`customerId` is the order's customer as the plugin row knows it).
 */
export function loadOrder(ctx: GraphCtx, orderId: string | null, customerId: string | null): Promise<OrderView | null> | null {
  if (!orderId || !mayReadOrder(ctx, customerId)) return null;
  return batchLoader<OrderView | null>(
    ctx,
    'plugins.orderById',
    async (ids) => {
      const rows = await ctx.db.order.findMany({ where: { organizationId: ctx.organization.id, id: { in: ids } }, include: ORDER_INCLUDE });
      return new Map(rows.map((o) => [o.id, orderView(o)]));
    },
    () => null,
  ).load(orderId);
}
