// Disputes on a sub-order. open → responded (the vendor answers) → escalated → resolved; open
// may be escalated or resolved at once (README). An admin resolves: refund_customer (the
// sub-order's lines refunded through the order's refund machinery), release_to_vendor (nothing
// moves), split (the customer gets `refundAmount`, recorded as owed: amounts that are not
// whole lines are paid back outside the provider refund). The vendor's share of what goes back
// to the customer is debited from its ledger, once per dispute.
import { Prisma } from '../../src/generated/prisma/client.js';
import type { Tx } from '../../src/db/client.js';
import { inTransaction, withTransaction } from '../../src/db/transaction.js';
import { conflict, forbidden, notFound, validationFailed } from '../../src/errors.js';
import { createRefund } from '../../src/modules/orders/refunds.js';
import { lockOrderForSystem } from '../../src/modules/orders/service.js';
import { book } from './ledger.js';
import { orderCtx } from './sub-orders.js';
import { assertMove, emit, iso, num, page, scopeWhere, vendorShare, type Audience, type Ctx, type Moves } from './shared.js';

export const DISPUTE_STATUSES = ['open', 'responded', 'escalated', 'resolved'] as const;
export type DisputeStatus = (typeof DISPUTE_STATUSES)[number];
export const DISPUTE_MOVES: Moves<DisputeStatus> = { open: ['responded', 'escalated', 'resolved'], responded: ['escalated', 'resolved'], escalated: ['resolved'], resolved: [] };
export const RESOLUTIONS = ['refund_customer', 'release_to_vendor', 'split'] as const;

type DisputeRow = Prisma.MarketplaceDisputeGetPayload<object>;

export function disputeView(d: DisputeRow) {
  return {
    id: d.id, subOrderId: d.subOrderId, vendorId: d.vendorId, customerId: d.customerId, status: d.status as DisputeStatus, reason: d.reason, response: d.response,
    resolution: d.resolution, refundAmount: d.refundAmount === null ? null : num(d.refundAmount), resolvedAt: iso(d.resolvedAt), createdAt: d.createdAt.toISOString(), updatedAt: d.updatedAt.toISOString(),
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
    const row = await tx.marketplaceDispute.create({ data: { organizationId: ctx.organization.id, subOrderId: sub.id, vendorId: sub.vendorId, customerId: sub.customerId, reason: input.reason } });
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

export async function resolveDispute(ctx: Ctx, id: string, input: { resolution: (typeof RESOLUTIONS)[number]; refundAmount?: number }) {
  return withTransaction(ctx, async (tx) => {
    const dispute = await lockDispute(tx, ctx, { kind: 'admin' }, id);
    assertMove('dispute', DISPUTE_MOVES, dispute.status, 'resolved');
    const sub = await tx.marketplaceSubOrder.findFirstOrThrow({ where: { id: dispute.subOrderId, organizationId: ctx.organization.id }, include: { lines: true } });
    let refundAmount = 0;
    if (input.resolution === 'split') {
      if (!input.refundAmount || input.refundAmount <= 0 || input.refundAmount >= num(sub.total)) throw validationFailed([{ field: 'refundAmount', message: `a split refunds more than 0 and less than the sub-order total ${num(sub.total)}` }]);
      refundAmount = input.refundAmount;
    } else if (input.resolution === 'refund_customer') {
      const octx = orderCtx(inTransaction(ctx, tx));
      const order = await lockOrderForSystem(tx, ctx.organization.id, sub.orderId);
      const mine = new Set(sub.lines.map((l) => l.orderLineId));
      const lines = (order?.lines ?? []).filter((l) => mine.has(l.id) && l.quantity > l.refundedQuantity).map((l) => ({ lineItemId: l.id, quantity: l.quantity - l.refundedQuantity }));
      refundAmount = num(sub.total);
      if (order && num(order.capturedAmount) > 0 && lines.length) refundAmount = (await createRefund(octx, order.id, { lines, reason: `dispute ${dispute.id} resolved for the customer` })).amount;
    }
    await book(tx, { organizationId: ctx.organization.id, vendorId: sub.vendorId, kind: 'dispute', amount: -vendorShare(refundAmount, num(sub.commissionTotal), num(sub.total)), currency: sub.currency, reference: `dispute:${dispute.id}`, subOrderId: sub.id });
    const row = await tx.marketplaceDispute.update({ where: { id }, data: { status: 'resolved', resolution: input.resolution, refundAmount: BigInt(refundAmount), resolvedAt: new Date() } });
    await emit(tx, ctx, 'marketplace.dispute.update', { dispute: disputeView(row), from: dispute.status, to: 'resolved' });
    return disputeView(row);
  });
}
