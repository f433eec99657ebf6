// Orders: read (by UUID or ORD- number, own orders only for orders:read:own callers), list, and
// every status move through the state table (status.ts) with its effects, history row and
// orders.statusChange event in one transaction.
import type { Tx } from '../../db/client.js';
import { AppError, notFound } from '../../errors.js';
import { originOf, recordEvent } from '../../events/outbox.js';
import type { OrderStatus, PaymentStatus, Prisma } from '../../generated/prisma/client.js';
import { voidOnCancel } from '../payments/capture.js';
import { paginate, toPage, type Page, type PageInput } from '../../graphql/pagination.js';
import { portsOf } from '../checkout/wiring.js';
import type { StockMove } from '../checkout/ports.js';
import { fulfillLines } from './fulfillments.js';
import { ORDER_NUMBER_RE } from './numbers.js';
import { actorRecord, ownOrdersOnly, serviceCtx, type ActorRecord, type DbLike, type OrdersCtx } from './shared.js';
import { isPickupOrder, wrongFulfilmentKind } from './pickup.js';
import { findTransition, patchTargets, pickupTargets, type Transition, type Trigger } from './status.js';
import { inTransaction } from './tx.js';
import { ORDER_INCLUDE, orderPayload, orderView, type OrderRow, type OrderView } from './views.js';

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The where clause that finds `idOrNumber` in the organization, or null when it cannot match anything. */
export function orderWhere(ctx: Pick<OrdersCtx, 'organization' | 'actor'>, idOrNumber: string): Prisma.OrderWhereInput | null {
  const own = ownOrdersOnly(ctx);
  if (own && !own.customerId) return null;
  const base: Prisma.OrderWhereInput = { organizationId: ctx.organization.id, ...(own ? { customerId: own.customerId } : {}) };
  if (UUID_RE.test(idOrNumber)) return { ...base, id: idOrNumber.toLowerCase() };
  if (ORDER_NUMBER_RE.test(idOrNumber)) return { ...base, number: idOrNumber };
  return null;
}

/** One order as this caller may see it; 404 otherwise (another customer's order included). */
export async function findOrder(ctx: Pick<OrdersCtx, 'db' | 'organization' | 'actor'>, idOrNumber: string, db: DbLike = ctx.db): Promise<OrderRow> {
  const where = orderWhere(ctx, idOrNumber);
  const row = where ? await db.order.findFirst({ where, include: ORDER_INCLUDE }) : null;
  if (!row) throw notFound('Order');
  return row;
}

export async function getOrder(ctx: OrdersCtx, idOrNumber: string): Promise<OrderView> {
  return orderView(await findOrder(ctx, idOrNumber));
}

export interface OrderListInput {
  status?: OrderStatus;
}

export async function listOrders(ctx: OrdersCtx, input: OrderListInput & PageInput): Promise<Page<OrderView>> {
  const own = ownOrdersOnly(ctx);
  if (own && !own.customerId) return toPage([], 0, input);
  const where: Prisma.OrderWhereInput = {
    organizationId: ctx.organization.id,
    ...(own ? { customerId: own.customerId } : {}),
    ...(input.status ? { status: input.status } : {}),
  };
  return paginate(ctx, input, {
    list: 'orders',
    model: 'Order',
    where,
    orderBy: [{ placedAt: 'desc' as const }, { id: 'desc' as const }],
    findMany: (args) => ctx.db.order.findMany({ ...args, include: ORDER_INCLUDE }),
    count: (w) => ctx.db.order.count({ where: w }),
    view: (rows) => rows.map(orderView),
  });
}

/**
 * Locks an order of the organization by UUID for system work (the payment webhook): no caller
 * scoping. Null when absent.
 */
export async function lockOrderForSystem(tx: Tx, organizationId: string, id: string): Promise<OrderRow | null> {
  if (!UUID_RE.test(id)) return null;
  const locked = await tx.$queryRaw<Array<{ id: string }>>`
    select id from orders where organization_id = ${organizationId}::uuid and id = ${id}::uuid for update`;
  if (!locked[0]) return null;
  return tx.order.findUniqueOrThrow({ where: { id: locked[0].id }, include: ORDER_INCLUDE });
}

/** Locks the order row for the rest of the transaction and reads it with its lines; 404 when absent. */
export async function lockOrder(tx: Tx, ctx: Pick<OrdersCtx, 'organization' | 'actor'>, idOrNumber: string): Promise<OrderRow> {
  const where = orderWhere(ctx, idOrNumber);
  if (!where) throw notFound('Order');
  const id = (where.id as string | undefined) ?? null;
  const number = (where.number as string | undefined) ?? null;
  const locked = await tx.$queryRaw<Array<{ id: string }>>`
    select id from orders
    where organization_id = ${ctx.organization.id}::uuid
      and (${id}::uuid is null or id = ${id}::uuid)
      and (${number}::text is null or number = ${number})
    for update`;
  if (!locked[0]) throw notFound('Order');
  const row = await tx.order.findFirst({ where: { ...where, id: locked[0].id }, include: ORDER_INCLUDE });
  if (!row) throw notFound('Order');
  return row;
}

// ── status moves ──

export interface MoveOptions {
  trigger: Trigger;
  to: OrderStatus;
  reason?: string | null;
  actor: ActorRecord;
  /** markPaid: the amount the provider confirmed. */
  capturedAmount?: number;
  /** markPaid: the payment status derived from the order's payments (default paid). */
  paymentStatus?: PaymentStatus;
}

export interface MoveResult {
  order: OrderView;
  /** Work for after commit (the provider is called outside the transaction). */
  afterCommit: Array<() => Promise<void>>;
}

function invalidTransition(order: OrderRow, to: OrderStatus, trigger: Trigger): AppError {
  const allowed = trigger === 'patch' ? patchTargets(order.status) : trigger === 'pickup' ? pickupTargets(order.status) : [];
  const hint = trigger === 'patch' || trigger === 'pickup' ? (allowed.length ? ` (allowed: ${allowed.join(', ')})` : ' (no move is allowed from it)') : '';
  return new AppError('INVALID_TRANSITION', `An order in status ${order.status} cannot move to ${to}${hint}`, { from: order.status, to, allowed });
}

/** The stock still reserved for the order's lines, as moves for the inventory port. */
export function reservedMoves(order: OrderRow): StockMove[] {
  return order.lines.flatMap((line) =>
    ((line.reservations ?? []) as Array<{ warehouseId: string; quantity: number }>)
      .filter((r) => r.quantity > 0)
      .map((r) => ({ entityId: line.entityId, variantId: line.variantId, warehouseId: r.warehouseId, quantity: r.quantity, reference: `order:${order.id}` })),
  );
}

/**
 * Applies one row of the state table to a locked order inside `tx`: effects, the history row and
 * orders.statusChange. Refuses (422 INVALID_TRANSITION) a move the table does not list.
 */
export async function moveOrder(tx: Tx, ctx: OrdersCtx, order: OrderRow, options: MoveOptions): Promise<MoveResult> {
  const transition: Transition | null = findTransition(order.status, options.trigger, options.to);
  if (!transition) throw invalidTransition(order, options.to, options.trigger);
  // A payment completing a partial one (partially_paid) confirms like a first full payment.
  const awaiting = order.paymentStatus === 'awaiting_payment' || (options.trigger === 'payment' && (order.paymentStatus === 'partially_paid' || order.paymentStatus === 'authorized'));
  if (transition.when === 'awaitingPayment' && !awaiting) throw invalidTransition(order, options.to, options.trigger);
  // Shipping rows hold for delivery orders, pickup rows for pickup orders (one indexed read).
  if (transition.when === 'pickupOrder' || transition.when === 'deliveryOrder') {
    const pickup = await isPickupOrder(tx, ctx.organization.id, order.id);
    if (pickup !== (transition.when === 'pickupOrder')) throw wrongFulfilmentKind(order, options.to, pickup);
  }

  const data: Prisma.OrderUpdateInput = { status: transition.to };
  const afterCommit: MoveResult['afterCommit'] = [];
  for (const effect of transition.effects) {
    if (effect === 'releaseStock') {
      const moves = reservedMoves(order);
      if (moves.length) await portsOf(ctx.services).inventory.release(serviceCtx(ctx, tx), moves);
      await tx.orderLine.updateMany({ where: { orderId: order.id }, data: { reservations: [] } });
    } else if (effect === 'releasePromotions') {
      const applied = ((order.pricing as { promotions?: Array<{ redemptionId?: string }> } | null)?.promotions ?? []).map((p) => p.redemptionId).filter((id): id is string => !!id);
      if (applied.length) await portsOf(ctx.services).promotions.release(serviceCtx(ctx, tx), applied);
    } else if (effect === 'voidPayment') {
      // Payments that collected nothing are voided (payments/capture.ts); an order without
      // payment records (nothing to pay) keeps the old rule.
      const voided = await voidOnCancel(tx, ctx, order);
      if (voided) {
        data.paymentStatus = voided.paymentStatus;
        afterCommit.push(...voided.afterCommit);
      } else if (order.paymentStatus === 'awaiting_payment') data.paymentStatus = 'voided';
    } else if (effect === 'markPaid') {
      data.paymentStatus = options.paymentStatus ?? 'paid';
      data.capturedAmount = BigInt(options.capturedAmount ?? Number(order.grandTotal));
    } else if (effect === 'fulfillRemaining') {
      const remaining = order.lines.filter((line) => line.fulfilledQuantity < line.quantity).map((line) => ({ lineItemId: line.id, quantity: line.quantity - line.fulfilledQuantity }));
      if (remaining.length) await fulfillLines(tx, ctx, order, { lines: remaining }, { derive: false });
    }
  }
  await tx.order.update({ where: { id: order.id }, data });
  await recordStatusChange(tx, ctx, order.id, order.status, transition.to, options);
  const updated = await tx.order.findUniqueOrThrow({ where: { id: order.id }, include: ORDER_INCLUDE });
  const view = orderView(updated);
  await recordEvent(tx, { ...originOf(ctx), actorId: options.actor.id }, 'orders.statusChange', {
    order: orderPayload(view),
    from: order.status,
    to: transition.to,
    trigger: options.trigger,
    reason: options.reason ?? null,
  });
  return { order: view, afterCommit };
}

export async function recordStatusChange(
  tx: DbLike,
  ctx: Pick<OrdersCtx, 'organization'>,
  orderId: string,
  from: OrderStatus | null,
  to: OrderStatus,
  options: { trigger: string; reason?: string | null; actor: ActorRecord },
): Promise<void> {
  await tx.orderStatusChange.create({
    data: {
      organizationId: ctx.organization.id,
      orderId,
      fromStatus: from,
      toStatus: to,
      trigger: options.trigger,
      reason: options.reason ?? null,
      actorId: options.actor.id,
      actorKind: options.actor.kind,
    },
  });
}

export async function runAfterCommit(tasks: Array<() => Promise<void>>): Promise<void> {
  for (const task of tasks) await task();
}

/** PATCH /orders/:id/status. */
export async function updateOrderStatus(ctx: OrdersCtx, id: string, input: { status: OrderStatus; reason?: string | null }): Promise<OrderView> {
  const result = await inTransaction(ctx.db, async (tx) => {
    const order = await lockOrder(tx, ctx, id);
    return moveOrder(tx, ctx, order, { trigger: 'patch', to: input.status, reason: input.reason, actor: actorRecord(ctx) });
  });
  await runAfterCommit(result.afterCommit);
  return result.order;
}

/** How many orders a customer's `orders` field may return at most (newest first). */
export const CUSTOMER_ORDERS_MAX = 50;

/**
 * The newest `limit` orders of each of these customers: two statements for any number of
 * customers (the per-customer cut is a window function; the rows then load with their lines).
 */
export async function recentOrdersByCustomer(ctx: Pick<OrdersCtx, 'db' | 'organization'>, customerIds: string[], limit: number): Promise<Map<string, OrderView[]>> {
  const picked = await ctx.db.$queryRaw<Array<{ id: string }>>`
    select id from (
      select id, row_number() over (partition by customer_id order by placed_at desc, id desc) as n
      from orders where organization_id = ${ctx.organization.id}::uuid and customer_id = any(${customerIds})
    ) ranked where n <= ${limit}`;
  const rows = await ctx.db.order.findMany({
    where: { id: { in: picked.map((p) => p.id) }, organizationId: ctx.organization.id },
    include: ORDER_INCLUDE,
    orderBy: [{ placedAt: 'desc' }, { id: 'desc' }],
  });
  const map = new Map<string, OrderView[]>();
  for (const row of rows) map.set(row.customerId!, [...(map.get(row.customerId!) ?? []), orderView(row)]);
  return map;
}
