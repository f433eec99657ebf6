// Click & collect fulfilment (issue 25). An order whose shipping line is a pickup method (the line
// names the pickup warehouse) is not shipped: staff mark it ready_for_pickup once it is packed at
// the location, then picked_up when the shopper collects it, which records a fulfillment of every
// unit still open (committing the stock reserved at the pickup warehouse). Both moves are rows of
// the state table with trigger `pickup` and condition `pickupOrder`; the shipping rows carry
// `deliveryOrder`, so a pickup order cannot be shipped and a delivery order cannot be collected.
import { AppError } from '../../errors.js';
import type { OrderStatus } from '../../generated/prisma/client.js';
import { lockOrder, moveOrder, runAfterCommit } from './service.js';
import { actorRecord, type DbLike, type OrdersCtx } from './shared.js';
import { ORDER_TRANSITIONS } from './status.js';
import { inTransaction } from './tx.js';
import type { OrderRow, OrderView } from './views.js';

/** True when the order is collected at a pickup location (its shipping line names a warehouse). */
export async function isPickupOrder(db: DbLike, organizationId: string, orderId: string): Promise<boolean> {
  const line = await db.orderShippingLine.findFirst({ where: { organizationId, orderId, warehouseId: { not: null } }, select: { id: true } });
  return line !== null;
}

/** 422 INVALID_TRANSITION for a move meant for the other kind of order. */
export function wrongFulfilmentKind(order: Pick<OrderRow, 'status'>, to: OrderStatus, pickup: boolean): AppError {
  const message = pickup
    ? `Order is collected at a pickup location: it moves processing → ready_for_pickup → picked_up and cannot be shipped (${to})`
    : `Order is delivered to an address: it is fulfilled by shipping and cannot move to ${to}`;
  // Where this order may go instead: the other kind's rows left out.
  const other = pickup ? 'deliveryOrder' : 'pickupOrder';
  const allowed = ORDER_TRANSITIONS.filter((t) => (t.trigger === 'patch' || t.trigger === 'pickup') && t.from.includes(order.status) && t.when !== other).map((t) => t.to);
  return new AppError('INVALID_TRANSITION', message, { from: order.status, to, allowed });
}

async function pickupMove(ctx: OrdersCtx, id: string, to: 'ready_for_pickup' | 'picked_up', reason?: string | null): Promise<OrderView> {
  const result = await inTransaction(ctx.db, async (tx) => {
    const order = await lockOrder(tx, ctx, id);
    return moveOrder(tx, ctx, order, { trigger: 'pickup', to, reason: reason ?? null, actor: actorRecord(ctx) });
  });
  await runAfterCommit(result.afterCommit);
  return result.order;
}

/** POST /orders/:id/ready-for-pickup: processing → ready_for_pickup. */
export function markReadyForPickup(ctx: OrdersCtx, id: string, input: { reason?: string | null }): Promise<OrderView> {
  return pickupMove(ctx, id, 'ready_for_pickup', input.reason);
}

/** POST /orders/:id/picked-up: ready_for_pickup → picked_up, fulfilling every open unit. */
export function markPickedUp(ctx: OrdersCtx, id: string, input: { reason?: string | null }): Promise<OrderView> {
  return pickupMove(ctx, id, 'picked_up', input.reason);
}
