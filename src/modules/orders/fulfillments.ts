// Fulfillments: shipped quantities of order lines. Recording one commits the reserved stock of
// those units, updates each line's fulfillment status, emits fulfillment.create and derives the
// order's status (partially_fulfilled until every unit has shipped, then fulfilled) through the
// state table's `fulfillment` rows.
import type { Tx } from '../../db/client.js';
import { AppError, validationFailed } from '../../errors.js';
import { originOf, recordEvent } from '../../events/outbox.js';
import type { LineFulfillmentStatus, OrderStatus } from '../../generated/prisma/client.js';
import { portsOf } from '../checkout/wiring.js';
import type { StockMove } from '../checkout/ports.js';
import { findOrder, lockOrder, moveOrder, runAfterCommit } from './service.js';
import { captureOnFulfilment } from '../payments/tasks.js';
import { actorRecord, serviceCtx, type OrdersCtx } from './shared.js';
import { isPickupOrder, wrongFulfilmentKind } from './pickup.js';
import { findTransition } from './status.js';
import { inTransaction } from './tx.js';
import { fulfillmentView, type FulfillmentView, type OrderRow } from './views.js';

export interface FulfillmentInput {
  /** Omitted: every unit not yet fulfilled. */
  lines?: Array<{ lineItemId: string; quantity: number }>;
  carrier?: string | null;
  trackingNumber?: string | null;
  trackingUrl?: string | null;
}

export function lineFulfillmentStatus(fulfilled: number, quantity: number): LineFulfillmentStatus {
  if (fulfilled <= 0) return 'unfulfilled';
  return fulfilled >= quantity ? 'fulfilled' : 'partially_fulfilled';
}

/** Takes `quantity` units out of a line's reservations, first warehouse first. */
function takeReserved(reservations: Array<{ warehouseId: string; quantity: number }>, quantity: number): { taken: Array<{ warehouseId: string; quantity: number }>; left: Array<{ warehouseId: string; quantity: number }> } {
  const taken: Array<{ warehouseId: string; quantity: number }> = [];
  const left: Array<{ warehouseId: string; quantity: number }> = [];
  let need = quantity;
  for (const r of reservations) {
    const take = Math.min(need, r.quantity);
    if (take > 0) taken.push({ warehouseId: r.warehouseId, quantity: take });
    if (r.quantity - take > 0) left.push({ warehouseId: r.warehouseId, quantity: r.quantity - take });
    need -= take;
  }
  return { taken, left };
}

/**
 * Records a fulfillment of `input.lines` on a locked order: rows, line quantities and statuses,
 * committed stock, fulfillment.create. `derive` moves the order's status as the lines now say.
 */
export async function fulfillLines(tx: Tx, ctx: OrdersCtx, order: OrderRow, input: FulfillmentInput, options: { derive: boolean }): Promise<{ fulfillment: FulfillmentView; afterCommit: Array<() => Promise<void>> }> {
  const byId = new Map(order.lines.map((line) => [line.id, line]));
  const requested = input.lines ?? order.lines.filter((l) => l.fulfilledQuantity < l.quantity).map((l) => ({ lineItemId: l.id, quantity: l.quantity - l.fulfilledQuantity }));
  const issues: Array<{ field: string; message: string }> = [];
  const merged = new Map<string, number>();
  requested.forEach((line, i) => {
    const row = byId.get(line.lineItemId);
    if (!row) issues.push({ field: `lines.${i}.lineItemId`, message: 'is not a line of this order' });
    else merged.set(row.id, (merged.get(row.id) ?? 0) + line.quantity);
  });
  for (const [lineId, quantity] of merged) {
    const row = byId.get(lineId)!;
    const open = row.quantity - row.fulfilledQuantity;
    if (quantity > open) issues.push({ field: `lines.${requested.findIndex((l) => l.lineItemId === lineId)}.quantity`, message: `is above the ${open} unit(s) of this line not yet fulfilled` });
  }
  if (issues.length) throw validationFailed(issues);
  if (!merged.size) throw validationFailed([{ field: 'lines', message: 'nothing left to fulfill on this order' }]);

  const actor = actorRecord(ctx);
  const created = await tx.orderFulfillment.create({
    data: {
      organizationId: ctx.organization.id,
      orderId: order.id,
      carrier: input.carrier ?? null,
      trackingNumber: input.trackingNumber ?? null,
      trackingUrl: input.trackingUrl ?? null,
      createdBy: actor.id,
      lines: { create: [...merged].map(([lineId, quantity]) => ({ lineId, quantity })) },
    },
    include: { lines: true },
  });

  const moves: StockMove[] = [];
  for (const [lineId, quantity] of merged) {
    const row = byId.get(lineId)!;
    const { taken, left } = takeReserved((row.reservations ?? []) as Array<{ warehouseId: string; quantity: number }>, quantity);
    for (const t of taken) moves.push({ entityId: row.entityId, variantId: row.variantId, warehouseId: t.warehouseId, quantity: t.quantity, reference: `order:${order.id}` });
    const fulfilled = row.fulfilledQuantity + quantity;
    await tx.orderLine.update({ where: { id: lineId }, data: { fulfilledQuantity: fulfilled, fulfillmentStatus: lineFulfillmentStatus(fulfilled, row.quantity), reservations: left } });
    row.fulfilledQuantity = fulfilled;
    row.reservations = left;
  }
  if (moves.length) await portsOf(ctx.services).inventory.commit(serviceCtx(ctx, tx), moves);

  const view = fulfillmentView(created);
  await recordEvent(tx, originOf(ctx), 'fulfillment.create', { fulfillment: { ...view, createdAt: view.createdAt.toISOString(), orderNumber: order.number } });

  // Capture mode on_fulfilment (payments/tasks.ts): the first fulfilment captures the rest of the authorization.
  await captureOnFulfilment(tx, ctx, order.id);

  let afterCommit: Array<() => Promise<void>> = [];
  if (options.derive) {
    const to: OrderStatus = order.lines.every((l) => l.fulfilledQuantity >= l.quantity) ? 'fulfilled' : 'partially_fulfilled';
    if (to !== order.status) ({ afterCommit } = await moveOrder(tx, ctx, order, { trigger: 'fulfillment', to, actor }));
  }
  return { fulfillment: view, afterCommit };
}

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
  const rows = await ctx.db.orderFulfillment.findMany({ where: { orderId: order.id, organizationId: ctx.organization.id }, include: { lines: true }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] });
  return rows.map(fulfillmentView);
}

