// Returns (RMA): creation by staff or by the customer (within policies.returnWindowDays of the
// order's last fulfillment), the staff decisions of the state table (status.ts), receipt (per
// line: restock into a warehouse or damaged) and the refund through the orders' refund service,
// so its rules (quantities, captured amount, daily cap, undo window, settlement) apply unchanged.
//
// What can be returned: per order line, fulfilled − the units of returns that still stand (not
// rejected, not cancelled). The check runs with the order row locked (FOR UPDATE), so two
// returns racing for the last unit serialize: the second sees the first and gets 409.
import type { Tx } from '../../db/client.js';
import { AppError, conflict, notFound, validationFailed, type FieldIssue } from '../../errors.js';
import { originOf, recordEvent } from '../../events/outbox.js';
import type { Prisma, ReturnReason, ReturnStatus } from '../../generated/prisma/client.js';
import { paginate, type Page, type PageInput } from '../../graphql/pagination.js';
import { createRefund, type RefundDestination } from '../orders/refunds.js';
import { actorRecord, serviceCtx, type OrdersCtx } from '../orders/shared.js';
import { inTransaction } from '../orders/tx.js';
import { POLICY_DEFAULTS } from '../settings/groups.js';
import { RETURN_EVENTS } from './events.js';
import { paymentAttemptRoot } from '../payments/attempts.js';
import { releaseAuthorization } from '../payments/authorize.js';
import { settleIfImmediate } from '../orders/refunds.js';
import { releaseExchangeLines, reserveExchangeLines, settleExchange, type ExchangeLineInput, type SettleExchangeInput, type StartedExchangePayment } from './exchange.js';
import { allowedActions, findReturnTransition, RELEASED_STATUSES, RELEASING_ACTIONS, STAMP, type ReturnAction, type ReturnKind } from './status.js';
import { RETURN_INCLUDE, returnPayload, returnView, type ReturnRow, type ReturnView } from './views.js';

export const RETURN_NOTE_MAX = 2000;
const DAY_MS = 86_400_000;

export type ReturnsCtx = OrdersCtx;

export interface ReturnLineInput {
  lineItemId: string;
  quantity: number;
}

export interface CreateReturnInput {
  lines: ReturnLineInput[];
  reasonCode: ReturnReason;
  customerNote?: string | null;
  /** An exchange: what the customer gets instead (exchange.ts). */
  exchangeLines?: ExchangeLineInput[] | null;
}

type Via = 'staff' | 'customer';

interface LockedOrder {
  id: string;
  customerId: string | null;
  lines: Array<{ id: string; quantity: number; fulfilledQuantity: number }>;
}

/** Locks the order (FOR UPDATE) and reads its lines; a customer only finds their own orders (404 otherwise). */
async function lockOrderFor(tx: Tx, ctx: ReturnsCtx, orderId: string, via: Via): Promise<LockedOrder> {
  const locked = await tx.$queryRaw<Array<{ id: string; customer_id: string | null }>>`
    select id, customer_id from orders where organization_id = ${ctx.organization.id}::uuid and id = ${orderId}::uuid for update`;
  const row = locked[0];
  if (!row || (via === 'customer' && (!ctx.actor?.customerId || row.customer_id !== ctx.actor.customerId))) throw notFound('Order');
  const lines = await tx.orderLine.findMany({ where: { orderId: row.id }, select: { id: true, quantity: true, fulfilledQuantity: true }, orderBy: { position: 'asc' } });
  return { id: row.id, customerId: row.customer_id, lines };
}

/** Units of each line held by returns that still stand. */
async function returnedByLine(tx: Tx, lineIds: string[]): Promise<Map<string, number>> {
  const rows = await tx.orderReturnLine.groupBy({
    by: ['lineId'],
    where: { lineId: { in: lineIds }, orderReturn: { status: { notIn: [...RELEASED_STATUSES] } } },
    _sum: { quantity: true },
  });
  return new Map(rows.map((r) => [r.lineId, r._sum.quantity ?? 0]));
}

async function returnWindowDays(tx: Tx, organizationId: string): Promise<number> {
  const row = await tx.setting.findFirst({ where: { organizationId, group: 'policies' }, select: { values: true } });
  const value = (row?.values as Record<string, unknown> | null)?.returnWindowDays;
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value : POLICY_DEFAULTS.returnWindowDays;
}

/** A customer may ask within policies.returnWindowDays of the order's last fulfillment: 403 after it. */
async function checkWindow(tx: Tx, ctx: ReturnsCtx, orderId: string): Promise<void> {
  const last = await tx.orderFulfillment.findFirst({ where: { orderId }, orderBy: { createdAt: 'desc' }, select: { createdAt: true } });
  if (!last) return; // nothing fulfilled: the quantity check refuses it with the numbers
  const days = await returnWindowDays(tx, ctx.organization.id);
  const closesAt = new Date(last.createdAt.getTime() + days * DAY_MS);
  if (Date.now() > closesAt.getTime()) {
    throw new AppError('FORBIDDEN', `The return window of this order (${days} days after its last fulfillment) closed at ${closesAt.toISOString()}`, {
      reason: 'return_window_closed',
      returnWindowDays: days,
      closedAt: closesAt.toISOString(),
    });
  }
}

async function emit(tx: Tx, ctx: ReturnsCtx, row: ReturnRow): Promise<ReturnView> {
  const view = returnView(row);
  await recordEvent(tx, originOf(ctx), RETURN_EVENTS[row.status], { return: returnPayload(view) });
  return view;
}

export async function createReturn(ctx: ReturnsCtx, orderId: string, input: CreateReturnInput, via: Via): Promise<ReturnView> {
  return inTransaction(ctx.db, async (tx) => {
    const order = await lockOrderFor(tx, ctx, orderId, via);
    const byId = new Map(order.lines.map((l) => [l.id, l]));
    const issues: FieldIssue[] = [];
    const merged = new Map<string, number>();
    input.lines.forEach((line, i) => {
      if (!byId.has(line.lineItemId)) issues.push({ field: `lines.${i}.lineItemId`, message: 'is not a line of this order' });
      else merged.set(line.lineItemId, (merged.get(line.lineItemId) ?? 0) + line.quantity);
    });
    const firstIndex = (lineId: string) => input.lines.findIndex((l) => l.lineItemId === lineId);
    // merged only holds ids found in byId (checked above).
    const orderLine = (lineId: string) => {
      const found = byId.get(lineId);
      if (!found) throw new Error(`returns: line ${lineId} is not a line of order ${order.id}`);
      return found;
    };
    for (const [lineId, quantity] of merged) {
      const row = orderLine(lineId);
      if (quantity > row.quantity) issues.push({ field: `lines.${firstIndex(lineId)}.quantity`, message: `is above the line's quantity (${row.quantity})` });
    }
    if (issues.length) throw validationFailed(issues);
    if (via === 'customer') await checkWindow(tx, ctx, order.id);

    const returned = await returnedByLine(tx, [...merged.keys()]);
    const short = [...merged]
      .map(([lineId, requested]) => {
        const row = orderLine(lineId);
        const already = returned.get(lineId) ?? 0;
        return { lineItemId: lineId, requested, fulfilled: row.fulfilledQuantity, returned: already, returnable: Math.max(0, row.fulfilledQuantity - already) };
      })
      .filter((l) => l.requested > l.returnable);
    if (short.length) {
      throw conflict(`Only fulfilled units not already in a return can be returned: ${short.map((l) => `line ${l.lineItemId} has ${l.returnable} returnable`).join('; ')}`, {
        reason: 'quantity_not_returnable',
        fields: short.map((l) => `lines.${firstIndex(l.lineItemId)}.quantity`),
        lines: short,
      });
    }

    // An exchange: the outbound lines priced and their stock reserved in this transaction (409 without stock).
    const exchange = input.exchangeLines?.length ? await reserveExchangeLines(tx, ctx, order.id, input.exchangeLines) : null;
    const actor = actorRecord(ctx);
    const created = await tx.orderReturn.create({
      data: {
        organizationId: ctx.organization.id,
        orderId: order.id,
        reasonCode: input.reasonCode,
        customerNote: input.customerNote ?? null,
        requestedBy: actor.id,
        requestedVia: via,
        lines: { create: [...merged].map(([lineId, quantity]) => ({ lineId, quantity })) },
        ...(exchange
          ? { exchangeOrderId: exchange.exchangeOrderId, exchangeTotal: BigInt(exchange.total), exchangePricing: exchange.pricing, exchangeLines: { create: exchange.rows } }
          : {}),
      },
      include: RETURN_INCLUDE,
    });
    return emit(tx, ctx, created);
  });
}

// ── reads ──

export interface ReturnListInput {
  status?: ReturnStatus;
  orderId?: string;
}

export async function listReturns(ctx: ReturnsCtx, input: ReturnListInput & PageInput): Promise<Page<ReturnView>> {
  const where: Prisma.OrderReturnWhereInput = {
    organizationId: ctx.organization.id,
    ...(input.status ? { status: input.status } : {}),
    ...(input.orderId ? { orderId: input.orderId } : {}),
  };
  return paginate(ctx, input, {
    list: 'returns',
    model: 'OrderReturn',
    where,
    orderBy: [{ createdAt: 'desc' as const }, { id: 'desc' as const }],
    findMany: (args) => ctx.db.orderReturn.findMany({ ...args, include: RETURN_INCLUDE }),
    count: (w) => ctx.db.orderReturn.count({ where: w }),
    view: (rows) => rows.map(returnView),
  });
}

export async function getReturn(ctx: ReturnsCtx, id: string): Promise<ReturnView> {
  const row = await ctx.db.orderReturn.findFirst({ where: { id, organizationId: ctx.organization.id }, include: RETURN_INCLUDE });
  if (!row) throw notFound('Return');
  return returnView(row);
}

/** The returns of one of the signed-in customer's orders, newest first; another customer's order is 404. */
export async function myOrderReturns(ctx: ReturnsCtx, orderId: string): Promise<ReturnView[]> {
  const customerId = ctx.actor?.customerId;
  const order = customerId ? await ctx.db.order.findFirst({ where: { id: orderId, organizationId: ctx.organization.id, customerId }, select: { id: true } }) : null;
  if (!order) throw notFound('Order');
  const rows = await ctx.db.orderReturn.findMany({
    where: { orderId: order.id, organizationId: ctx.organization.id },
    include: RETURN_INCLUDE,
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
  });
  return rows.map(returnView);
}

// ── moves ──

/** Locks the return (FOR UPDATE) so two moves of one return serialize; 404 outside the organization. */
async function lockReturn(tx: Tx, ctx: ReturnsCtx, id: string): Promise<ReturnRow> {
  const locked = await tx.$queryRaw<Array<{ id: string }>>`
    select id from order_returns where organization_id = ${ctx.organization.id}::uuid and id = ${id}::uuid for update`;
  if (!locked[0]) throw notFound('Return');
  return tx.orderReturn.findUniqueOrThrow({ where: { id }, include: RETURN_INCLUDE });
}

const kindOf = (row: ReturnRow): ReturnKind => (row.exchangeOrderId ? 'exchange' : 'return');

function checkMove(row: ReturnRow, action: ReturnAction): ReturnStatus {
  const move = findReturnTransition(row.status, action, kindOf(row));
  if (!move) {
    const allowed = allowedActions(row.status, kindOf(row));
    throw new AppError(
      'INVALID_TRANSITION',
      `A return in status ${row.status} cannot be ${action === 'cancel' ? 'cancelled' : `${action}${action.endsWith('e') ? 'd' : 'ed'}`}${allowed.length ? ` (allowed: ${allowed.join(', ')})` : ' (it is final)'}`,
      {
        from: row.status,
        action,
        allowed,
        kind: kindOf(row),
      },
    );
  }
  return move.to;
}

async function finishMove(tx: Tx, ctx: ReturnsCtx, row: ReturnRow, to: ReturnStatus, data: Prisma.OrderReturnUpdateInput): Promise<ReturnView> {
  const stamp = STAMP[to];
  const updated = await tx.orderReturn.update({
    where: { id: row.id },
    data: { ...data, status: to, ...(stamp ? { [stamp]: new Date() } : {}) },
    include: RETURN_INCLUDE,
  });
  return emit(tx, ctx, updated);
}

/** approve, reject, cancel and close: a status move with an optional staff note, nothing else. */
export async function decideReturn(ctx: ReturnsCtx, id: string, action: 'approve' | 'reject' | 'cancel' | 'close', note?: string | null): Promise<ReturnView> {
  return inTransaction(ctx.db, async (tx) => {
    const row = await lockReturn(tx, ctx, id);
    const to = checkMove(row, action);
    // An exchange that ends without settling gives its outbound stock back.
    if (RELEASING_ACTIONS.includes(action)) await releaseExchangeLines(tx, ctx, row);
    return finishMove(tx, ctx, row, to, note != null ? { staffNote: note } : {});
  });
}

/**
 * received → exchanged (exchange.ts): the replacement order, the credit, the difference charged
 * through the payment provider or refunded through the refund service. A refusal (a decline, the
 * daily cap, units already refunded) leaves the return received and the provider's authorization
 * given back.
 */
export async function exchangeReturn(ctx: ReturnsCtx, id: string, input: SettleExchangeInput): Promise<ReturnView> {
  // One payment id for every attempt of the transaction: a retried attempt authorizes under the same key.
  const started: StartedExchangePayment = { paymentId: paymentAttemptRoot(ctx.organization.id, `exchange:${id}`), provider: null, payment: null };
  let refundId: string | null = null;
  let view: ReturnView;
  try {
    view = await inTransaction(
      ctx.db,
      async (tx) => {
        started.provider = null;
        started.payment = null;
        const row = await lockReturn(tx, ctx, id);
        const to = checkMove(row, 'exchange');
        const settled = await settleExchange(tx, ctx, row, input, started);
        refundId = settled.refundId;
        return finishMove(tx, ctx, row, to, settled.data);
      },
      { timeout: ctx.services.payments.timeoutMs + 15_000 },
    );
  } catch (error) {
    if (started.provider) await releaseAuthorization(ctx, started.provider, started.payment, 'exchange');
    throw error;
  }
  if (refundId) await settleIfImmediate(ctx, refundId);
  return view;
}

export interface ReceiveLineInput {
  lineItemId: string;
  disposition: 'restock' | 'damaged';
  /** restock only: where the units go; default the organization's default warehouse. */
  warehouseId?: string | null;
}

/**
 * approved → received: every line of the return named once, restocked (a `return` stock
 * adjustment referencing the return) or damaged (no stock moves). Stock moves in a fixed order
 * (entity, variant) so two receipts never deadlock.
 */
export async function receiveReturn(ctx: ReturnsCtx, id: string, input: { lines: ReceiveLineInput[]; note?: string | null }): Promise<ReturnView> {
  return inTransaction(ctx.db, async (tx) => {
    const row = await lockReturn(tx, ctx, id);
    const to = checkMove(row, 'receive');
    const byLine = new Map(row.lines.map((l) => [l.lineId, l]));
    const issues: FieldIssue[] = [];
    const seen = new Set<string>();
    input.lines.forEach((l, i) => {
      if (!byLine.has(l.lineItemId)) issues.push({ field: `lines.${i}.lineItemId`, message: 'is not a line of this return' });
      else if (seen.has(l.lineItemId)) issues.push({ field: `lines.${i}.lineItemId`, message: 'is named twice' });
      seen.add(l.lineItemId);
      if (l.disposition === 'damaged' && l.warehouseId) issues.push({ field: `lines.${i}.warehouseId`, message: 'a damaged line is not restocked: no warehouse' });
    });
    const missing = row.lines.filter((l) => !seen.has(l.lineId));
    if (missing.length) issues.push({ field: 'lines', message: `must name every line of the return; missing ${missing.map((l) => l.lineId).join(', ')}` });
    if (issues.length) throw validationFailed(issues);

    // Every input line names a line of the return (validated above).
    const returnLine = (lineId: string) => {
      const found = byLine.get(lineId);
      if (!found) throw new Error(`returns: line ${lineId} is not a line of return ${row.id}`);
      return found;
    };
    const sctx = serviceCtx(ctx, tx);
    const ordered = [...input.lines].sort((a, b) => {
      const x = returnLine(a.lineItemId).line;
      const y = returnLine(b.lineItemId).line;
      return x.entityId.localeCompare(y.entityId) || (x.variantId ?? '').localeCompare(y.variantId ?? '');
    });
    for (const l of ordered) {
      const line = returnLine(l.lineItemId);
      let warehouseId: string | null = null;
      if (l.disposition === 'restock') {
        const back = await ctx.services.inventory.adjust(sctx, {
          entityId: line.line.entityId,
          variantId: line.line.variantId,
          warehouseId: l.warehouseId ?? null,
          type: 'return',
          quantity: line.quantity,
          reference: `return:${row.id}`,
          note: `returned (${row.reasonCode})`,
        });
        warehouseId = back.level.warehouseId;
      }
      await tx.orderReturnLine.update({ where: { id: line.id }, data: { disposition: l.disposition, warehouseId } });
    }
    return finishMove(tx, ctx, row, to, input.note != null ? { staffNote: input.note } : {});
  });
}

/**
 * received → refunded: a refund of the returned lines through the orders' refund service (amount
 * from the order's own prices, never above what was captured, the operator's daily cap, the undo
 * window, then the payment provider). A refusal there (403 over the cap, 409 nothing captured)
 * leaves the return received.
 */
export async function refundReturn(ctx: ReturnsCtx, id: string, input: { method: RefundDestination; shipping?: boolean | null }): Promise<ReturnView> {
  return inTransaction(ctx.db, async (tx) => {
    const row = await lockReturn(tx, ctx, id);
    const to = checkMove(row, 'refund');
    const refund = await createRefund({ ...ctx, db: tx as unknown as ReturnsCtx['db'] }, row.orderId, {
      lines: row.lines.map((l) => ({ lineItemId: l.lineId, quantity: l.quantity })),
      shipping: input.shipping ?? null,
      reason: `return ${row.id} (${row.reasonCode})`,
      destination: input.method,
    });
    return finishMove(tx, ctx, row, to, { refundMethod: input.method, refundId: refund.id, refundAmount: BigInt(refund.amount) });
  });
}
