// Fulfillments: shipped quantities of order lines. Recording one commits the reserved stock of
// those units, updates each line's fulfillment status, emits fulfillment.create and derives the
// order's status (partially_fulfilled until every unit has shipped, then fulfilled) through the
// state table's `fulfillment` rows.
import { AppError } from '../../errors.js';
import { findOrder, lockOrder, runAfterCommit } from './service.js';
import { type OrdersCtx } from './shared.js';
import { isPickupOrder, wrongFulfilmentKind } from './pickup.js';
import { findTransition } from './status.js';
import { inTransaction } from './tx.js';
import { fulfillmentView, type FulfillmentView } from './views.js';

// The line fulfilment lives in transitions.ts beside the status moves it derives (and that run it).
export { fulfillLines, lineFulfillmentStatus, type FulfillmentInput } from './transitions.js';
import { fulfillLines, type FulfillmentInput } from './transitions.js';

export async function createFulfillment(ctx: OrdersCtx, orderId: string, input: FulfillmentInput): Promise<FulfillmentView> {
  const result = await inTransaction(ctx.db, async (tx) => {
    const order = await lockOrder(tx, ctx, orderId);
    if (!findTransition(order.status, 'fulfillment', 'fulfilled')) {
      throw new AppError('INVALID_TRANSITION', `An order in status ${order.status} cannot be fulfilled (it must be processing or partially_fulfilled)`, { from: order.status });
    }
    // A pickup order is collected (ready_for_pickup → picked_up), never shipped: refuse before writing anything.
    if (await isPickupOrder(tx, ctx.organization.id, order.id)) throw wrongFulfilmentKind(order, 'fulfilled', true);
    return fulfillLines(tx, ctx, order, input, { derive: true });
  });
  await runAfterCommit(result.afterCommit);
  return result.fulfillment;
}

export async function listFulfillments(ctx: OrdersCtx, orderId: string): Promise<FulfillmentView[]> {
  const order = await findOrder(ctx, orderId);
  const rows = await ctx.db.orderFulfillment.findMany({
    where: { orderId: order.id, organizationId: ctx.organization.id },
    include: { lines: true },
    orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
  });
  return rows.map(fulfillmentView);
}
