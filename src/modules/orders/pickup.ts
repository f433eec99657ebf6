// Click & collect fulfilment (issue 25). An order whose shipping line is a pickup method (the line
// names the pickup warehouse) is not shipped: staff mark it ready_for_pickup once it is packed at
// the location, then picked_up when the shopper collects it, which records a fulfillment of every
// unit still open (committing the stock reserved at the pickup warehouse). Both moves are rows of
// the state table with trigger `pickup` and condition `pickupOrder`; the shipping rows carry
// `deliveryOrder`, so a pickup order cannot be shipped and a delivery order cannot be collected.
import { lockOrder, runAfterCommit } from './service.js';
import { moveOrder } from './transitions.js';
export { isPickupOrder, wrongFulfilmentKind } from './fulfilment-kind.js';
import { actorRecord, type OrdersCtx } from './shared.js';
import { inTransaction } from './tx.js';
import type { OrderView } from './views.js';

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
