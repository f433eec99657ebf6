// Which kind of fulfilment an order takes: collected at a pickup location or delivered (see
// pickup.ts). Read by every status move (transitions.ts), so it sits below both.
import { AppError } from '../../errors.js';
import type { OrderStatus } from '../../generated/prisma/client.js';
import type { DbLike } from './shared.js';
import { ORDER_TRANSITIONS } from './status.js';
import type { OrderRow } from './views.js';

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
