// Orders: read (by UUID or ORD- number, own orders only for orders:read:own callers), list, and
// every status move through the state table (status.ts) with its effects, history row and
// orders.statusChange event in one transaction.
import type { Tx } from '../../db/client.js';
import { notFound } from '../../errors.js';
import type { OrderStatus, Prisma } from '../../generated/prisma/client.js';
import { paginate, toPage, type Page, type PageInput } from '../../graphql/pagination.js';
import { ORDER_NUMBER_RE } from './numbers.js';
import type { PaymentStatusValue } from './status.js';
import { actorRecord, ownOrdersOnly, type DbLike, type OrdersCtx } from './shared.js';
import { inTransaction } from './tx.js';
import { ORDER_INCLUDE, orderView, type OrderRow, type OrderView } from './views.js';

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
  paymentStatus?: PaymentStatusValue;
  /** createdAt at or after this instant. */
  createdFrom?: Date;
  /** createdAt at or before this instant. */
  createdTo?: Date;
  /** Part of the order number or of the customer's email, case-insensitive. */
  search?: string;
}

/** A term for Prisma's `contains` (ILIKE '%term%'), whose \\, % and _ would otherwise be pattern syntax. */
function likeLiteral(term: string): string {
  return term.replace(/[\\%_]/g, '\\$&');
}

/** The filters of the orders list as a Prisma where (the organization and own-orders scoping aside). */
function listFilters(input: OrderListInput): Prisma.OrderWhereInput[] {
  const search = input.search?.trim();
  return [
    input.status ? { status: input.status } : {},
    input.paymentStatus ? { paymentStatus: input.paymentStatus } : {},
    input.createdFrom || input.createdTo ? { createdAt: { ...(input.createdFrom ? { gte: input.createdFrom } : {}), ...(input.createdTo ? { lte: input.createdTo } : {}) } } : {},
    search
      ? { OR: [{ number: { contains: likeLiteral(search), mode: 'insensitive' as const } }, { customerEmail: { contains: likeLiteral(search), mode: 'insensitive' as const } }] }
      : {},
  ];
}

export async function listOrders(ctx: OrdersCtx, input: OrderListInput & PageInput): Promise<Page<OrderView>> {
  const own = ownOrdersOnly(ctx);
  if (own && !own.customerId) return toPage([], 0, input);
  const where: Prisma.OrderWhereInput = {
    organizationId: ctx.organization.id,
    ...(own ? { customerId: own.customerId } : {}),
    AND: listFilters(input),
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

// The status moves live in transitions.ts with the line fulfilment they run (a move and a
// fulfilment call each other); re-exported for the modules and plugins that move orders.
export { moveOrder, recordStatusChange, reservedMoves, type MoveOptions, type MoveResult } from './transitions.js';
import { moveOrder } from './transitions.js';

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
  // biome-ignore lint/style/noNonNullAssertion: predates the rule (issue 31), not reviewed yet: justify here or remove it when touching this line
  for (const row of rows) map.set(row.customerId!, [...(map.get(row.customerId!) ?? []), orderView(row)]);
  return map;
}
