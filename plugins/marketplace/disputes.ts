// Disputes on a sub-order. open → responded (the vendor answers) → escalated → resolved; open
// may be escalated or resolved at once (README). An admin resolves: refund_customer (the
// sub-order's lines refunded through the order's refund machinery), release_to_vendor (nothing
// moves), split (the customer gets `refundAmount`, recorded as owed: amounts that are not
// whole lines are paid back outside the provider refund). The vendor's share of what goes back
// to the customer is debited from its ledger, once per dispute. One unresolved dispute per
// sub-order at a time (an advisory lock around the check); what resolutions give back is capped
// by what is still refundable on the sub-order, and its debits by its sale credit.
import { Prisma } from '../../src/generated/prisma/client.js';
import type { Tx } from '../../src/db/client.js';
import { inTransaction, withTransaction } from '../../src/db/transaction.js';
import { conflict, forbidden, notFound, validationFailed } from '../../src/errors.js';
import { createRefund } from '../../src/modules/orders/refunds.js';
import { lockOrderForSystem } from '../../src/modules/orders/service.js';
import { bookSubOrderDebit } from './ledger.js';
import { lockSubOrder, orderCtx, type SubOrder } from './sub-orders.js';
import { assertMove, emit, iso, num, page, scopeWhere, vendorShare, type Audience, type Ctx, type Moves } from './shared.js';

export const DISPUTE_STATUSES = ['open', 'responded', 'escalated', 'resolved'] as const;
export type DisputeStatus = (typeof DISPUTE_STATUSES)[number];
export const DISPUTE_MOVES: Moves<DisputeStatus> = { open: ['responded', 'escalated', 'resolved'], responded: ['escalated', 'resolved'], escalated: ['resolved'], resolved: [] };
export const RESOLUTIONS = ['refund_customer', 'release_to_vendor', 'split'] as const;

type DisputeRow = Prisma.MarketplaceDisputeGetPayload<object>;

export function disputeView(d: DisputeRow) {
  return {
    id: d.id,
    subOrderId: d.subOrderId,
    vendorId: d.vendorId,
    customerId: d.customerId,
    status: d.status as DisputeStatus,
    reason: d.reason,
    response: d.response,
    resolution: d.resolution,
    refundAmount: d.refundAmount === null ? null : num(d.refundAmount),
    resolvedAt: iso(d.resolvedAt),
    createdAt: d.createdAt.toISOString(),
    updatedAt: d.updatedAt.toISOString(),
  };
}

export async function openDispute(ctx: Ctx, audience: Audience, input: { subOrderId: string; reason: string }) {
  if (audience.kind === 'vendor') throw forbidden('A vendor answers disputes; the customer or an admin opens them');
  return withTransaction(ctx, async (tx) => {
    const sub = await tx.marketplaceSubOrder.findFirst({ where: { id: input.subOrderId, ...scopeWhere(ctx, audience) } });
    if (!sub) throw validationFailed([{ field: 'subOrderId', message: 'is not a sub-order you can dispute' }]);
    if (sub.status === 'cancelled' || sub.status === 'pending') throw validationFailed([{ field: 'subOrderId', message: `a ${sub.status} sub-order cannot be disputed` }]);
    await tx.$executeRaw`select pg_advisory_xact_lock(hashtextextended(${`marketplace-dispute:${sub.id}`}, 0))`;
    const open = await tx.marketplaceDispute.count({ where: { organizationId: ctx.organization.id, subOrderId: sub.id, status: { not: 'resolved' } } });
    if (open) throw conflict('This sub-order already has an unresolved dispute', { fields: ['subOrderId'] });
    const row = await tx.marketplaceDispute.create({
      data: { organizationId: ctx.organization.id, subOrderId: sub.id, vendorId: sub.vendorId, customerId: sub.customerId, reason: input.reason },
    });
    await emit(tx, ctx, 'marketplace.dispute.create', { dispute: disputeView(row) });
    return disputeView(row);
  });
}

export async function listDisputes(ctx: Ctx, audience: Audience, input: { status?: DisputeStatus; subOrderId?: string; limit: number; offset: number }) {
  const where = { ...scopeWhere(ctx, audience), ...(input.status ? { status: input.status } : {}), ...(input.subOrderId ? { subOrderId: input.subOrderId } : {}) };
  const [rows, total] = await Promise.all([
    ctx.db.marketplaceDispute.findMany({ where, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], take: input.limit, skip: input.offset }),
    ctx.db.marketplaceDispute.count({ where }),
  ]);
  return page(rows.map(disputeView), total, input.limit, input.offset);
}

async function lockDispute(tx: Tx, ctx: Ctx, audience: Audience, id: string): Promise<DisputeRow> {
  const scope = scopeWhere(ctx, audience);
  const rows = await tx.$queryRaw<Array<{ id: string }>>`
    select id from plugin_marketplace_disputes
    where id = ${id}::uuid and organization_id = ${scope.organizationId}::uuid
      and (${scope.vendorId ?? null}::uuid is null or vendor_id = ${scope.vendorId ?? null}::uuid)
      and (${scope.customerId ?? null}::text is null or customer_id = ${scope.customerId ?? null})
    for update`;
  if (!rows.length) throw notFound('Dispute');
  return tx.marketplaceDispute.findUniqueOrThrow({ where: { id } });
}

export async function moveDispute(ctx: Ctx, audience: Audience, id: string, to: 'responded' | 'escalated', text: string | null) {
  return withTransaction(ctx, async (tx) => {
    const dispute = await lockDispute(tx, ctx, audience, id);
    assertMove('dispute', DISPUTE_MOVES, dispute.status, to);
    const row = await tx.marketplaceDispute.update({ where: { id }, data: { status: to, ...(to === 'responded' ? { response: text } : {}) } });
    await emit(tx, ctx, 'marketplace.dispute.update', { dispute: disputeView(row), from: dispute.status, to });
    return disputeView(row);
  });
}

/**
 * What the customer already got back for a sub-order through resolved disputes and received
 * returns; `outside` is the part paid outside the provider (splits), which the order's lines do
 * not record as refunded.
 */
async function refundedSoFar(tx: Tx, organizationId: string, subOrderId: string): Promise<{ total: number; outside: number }> {
  const [disputes, returns] = await Promise.all([
    tx.marketplaceDispute.groupBy({ by: ['resolution'], where: { organizationId, subOrderId, status: 'resolved' }, _sum: { refundAmount: true } }),
    tx.marketplaceReturn.aggregate({ where: { organizationId, subOrderId, status: 'received' }, _sum: { refundAmount: true } }),
  ]);
  const outside = num(disputes.find((d) => d.resolution === 'split')?._sum.refundAmount);
  return { total: disputes.reduce((sum, d) => sum + num(d._sum.refundAmount), 0) + num(returns._sum.refundAmount), outside };
}

/**
 * What a resolution gives back, capped by what is still refundable on the sub-order: splits add
 * up to at most its total; refund_customer refunds the lines still unrefunded (through the
 * order when it was captured), and is refused once a split was paid, since refunding whole
 * lines would pay the split's part twice.
 */
async function resolutionAmount(tx: Tx, ctx: Ctx, dispute: DisputeRow, sub: SubOrder, input: { resolution: (typeof RESOLUTIONS)[number]; refundAmount?: number }): Promise<number> {
  if (input.resolution === 'release_to_vendor') return 0;
  const total = num(sub.total);
  const before = await refundedSoFar(tx, ctx.organization.id, sub.id);
  const left = total - before.total;
  const already = `${before.total} of the sub-order total ${total} is already refunded`;
  if (input.resolution === 'split') {
    const most = Math.min(left, total - 1);
    if (most <= 0) throw validationFailed([{ field: 'refundAmount', message: `nothing is left to refund: ${already}` }]);
    if (!input.refundAmount || input.refundAmount <= 0 || input.refundAmount > most)
      throw validationFailed([{ field: 'refundAmount', message: `a split refunds more than 0 and at most ${most} (${already})` }]);
    return input.refundAmount;
  }
  if (left <= 0) throw validationFailed([{ field: 'resolution', message: `nothing is left to refund (${already}); resolve with release_to_vendor` }]);
  if (before.outside > 0)
    throw validationFailed([
      {
        field: 'resolution',
        message: `a split of ${before.outside} was already paid: refunding the lines would pay it again; resolve with a split of at most ${Math.min(left, total - 1)}`,
      },
    ]);
  const order = await lockOrderForSystem(tx, ctx.organization.id, sub.orderId);
  const mine = new Set(sub.lines.map((l) => l.orderLineId));
  const lines = (order?.lines ?? []).filter((l) => mine.has(l.id) && l.quantity > l.refundedQuantity).map((l) => ({ lineItemId: l.id, quantity: l.quantity - l.refundedQuantity }));
  if (!order || num(order.capturedAmount) <= 0 || !lines.length) return left;
  const refund = await createRefund(orderCtx(inTransaction(ctx, tx)), order.id, { lines, reason: `dispute ${dispute.id} resolved for the customer` });
  return Math.min(refund.amount, left);
}

export async function resolveDispute(ctx: Ctx, id: string, input: { resolution: (typeof RESOLUTIONS)[number]; refundAmount?: number }) {
  return withTransaction(ctx, async (tx) => {
    const dispute = await lockDispute(tx, ctx, { kind: 'admin' }, id);
    assertMove('dispute', DISPUTE_MOVES, dispute.status, 'resolved');
    // The sub-order's lock orders this after any other resolution or return of the same sub-order.
    const sub = await lockSubOrder(tx, ctx, { kind: 'admin' }, dispute.subOrderId);
    const refundAmount = await resolutionAmount(tx, ctx, dispute, sub, input);
    await bookSubOrderDebit(tx, sub, { kind: 'dispute', share: vendorShare(refundAmount, num(sub.commissionTotal), num(sub.total)), reference: `dispute:${dispute.id}` });
    const row = await tx.marketplaceDispute.update({
      where: { id },
      data: { status: 'resolved', resolution: input.resolution, refundAmount: BigInt(refundAmount), resolvedAt: new Date() },
    });
    await emit(tx, ctx, 'marketplace.dispute.update', { dispute: disputeView(row), from: dispute.status, to: 'resolved' });
    return disputeView(row);
  });
}
