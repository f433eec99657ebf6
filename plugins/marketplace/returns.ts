// Returns of a delivered sub-order's lines: requested → shipped_back (the customer's tracking
// number) → received (the vendor or an admin): the units go back into stock through the
// inventory service (`return` adjustment), the customer is refunded through the order's refund
// machinery, and the vendor's share of the refund is debited from its ledger (never past the
// sub-order's sale credit, disputes included) — all in one transaction, once.
import { Prisma } from '../../src/generated/prisma/client.js';
import type { Tx } from '../../src/db/client.js';
import { inTransaction, withTransaction } from '../../src/db/transaction.js';
import { forbidden, notFound, validationFailed } from '../../src/errors.js';
import { createRefund } from '../../src/modules/orders/refunds.js';
import { unitsShare } from '../../src/modules/orders/money.js';
import { lockOrderForSystem } from '../../src/modules/orders/service.js';
import { serviceCtx } from '../../src/modules/orders/shared.js';
import { bookSubOrderDebit } from './ledger.js';
import { lockSubOrder, orderCtx } from './sub-orders.js';
import { assertMove, emit, iso, num, scopeWhere, vendorShare, type Audience, type Ctx, type Moves } from './shared.js';

export const RETURN_STATUSES = ['requested', 'shipped_back', 'received'] as const;
export type ReturnStatus = (typeof RETURN_STATUSES)[number];
export const RETURN_MOVES: Moves<ReturnStatus> = { requested: ['shipped_back'], shipped_back: ['received'], received: [] };

type ReturnRow = Prisma.MarketplaceReturnGetPayload<object>;

export function returnView(r: ReturnRow) {
  return {
    id: r.id,
    subOrderId: r.subOrderId,
    vendorId: r.vendorId,
    customerId: r.customerId,
    status: r.status as ReturnStatus,
    reason: r.reason,
    lines: r.lines as Array<{ subOrderLineId: string; quantity: number }>,
    refundAmount: num(r.refundAmount),
    trackingNumber: r.trackingNumber,
    carrier: r.carrier,
    receivedAt: iso(r.receivedAt),
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
  };
}

export async function requestReturn(ctx: Ctx, audience: Audience, input: { subOrderId: string; reason: string; lines: Array<{ subOrderLineId: string; quantity: number }> }) {
  if (audience.kind === 'vendor') throw forbidden('A return is requested by the customer or an admin');
  return withTransaction(ctx, async (tx) => {
    const rows = await tx.$queryRaw<
      Array<{ id: string }>
    >`select id from plugin_marketplace_sub_orders where id = ${input.subOrderId}::uuid and organization_id = ${ctx.organization.id}::uuid for update`;
    const sub = rows.length ? await tx.marketplaceSubOrder.findFirst({ where: { id: input.subOrderId, ...scopeWhere(ctx, audience) }, include: { lines: true } }) : null;
    if (!sub) throw validationFailed([{ field: 'subOrderId', message: 'is not a sub-order you can return' }]);
    if (sub.status !== 'delivered') throw validationFailed([{ field: 'subOrderId', message: `only a delivered sub-order can be returned (this one is ${sub.status})` }]);
    const earlier = await tx.marketplaceReturn.findMany({ where: { organizationId: ctx.organization.id, subOrderId: sub.id }, select: { lines: true } });
    const returned = new Map<string, number>();
    for (const r of earlier)
      for (const l of r.lines as Array<{ subOrderLineId: string; quantity: number }>) returned.set(l.subOrderLineId, (returned.get(l.subOrderLineId) ?? 0) + l.quantity);
    const byId = new Map(sub.lines.map((l) => [l.id, l]));
    const issues: Array<{ field: string; message: string }> = [];
    let refundAmount = 0;
    input.lines.forEach((l, i) => {
      const line = byId.get(l.subOrderLineId);
      if (!line) return issues.push({ field: `lines.${i}.subOrderLineId`, message: 'is not a line of this sub-order' });
      const left = line.quantity - (returned.get(line.id) ?? 0);
      if (l.quantity > left) return issues.push({ field: `lines.${i}.quantity`, message: `at most ${left} unit(s) of this line can still be returned` });
      returned.set(line.id, (returned.get(line.id) ?? 0) + l.quantity);
      refundAmount += unitsShare(num(line.total), line.quantity, l.quantity);
    });
    if (issues.length) throw validationFailed(issues);
    const row = await tx.marketplaceReturn.create({
      data: {
        organizationId: ctx.organization.id,
        subOrderId: sub.id,
        vendorId: sub.vendorId,
        customerId: sub.customerId,
        reason: input.reason,
        lines: input.lines,
        refundAmount: BigInt(refundAmount),
      },
    });
    await emit(tx, ctx, 'marketplace.return.create', { return: returnView(row) });
    return returnView(row);
  });
}

async function lockReturn(tx: Tx, ctx: Ctx, audience: Audience, id: string): Promise<ReturnRow> {
  const scope = scopeWhere(ctx, audience);
  const rows = await tx.$queryRaw<Array<{ id: string }>>`
    select id from plugin_marketplace_returns
    where id = ${id}::uuid and organization_id = ${scope.organizationId}::uuid
      and (${scope.vendorId ?? null}::uuid is null or vendor_id = ${scope.vendorId ?? null}::uuid)
      and (${scope.customerId ?? null}::text is null or customer_id = ${scope.customerId ?? null})
    for update`;
  if (!rows.length) throw notFound('Return');
  return tx.marketplaceReturn.findUniqueOrThrow({ where: { id } });
}

export async function shipBack(ctx: Ctx, audience: Audience, id: string, input: { trackingNumber: string; carrier?: string | null }) {
  if (audience.kind === 'vendor') throw forbidden('The customer ships a return back');
  return withTransaction(ctx, async (tx) => {
    const r = await lockReturn(tx, ctx, audience, id);
    assertMove('return', RETURN_MOVES, r.status, 'shipped_back');
    const row = await tx.marketplaceReturn.update({ where: { id }, data: { status: 'shipped_back', trackingNumber: input.trackingNumber, carrier: input.carrier ?? null } });
    await emit(tx, ctx, 'marketplace.return.update', { return: returnView(row), from: r.status, to: 'shipped_back' });
    return returnView(row);
  });
}

export async function receiveReturn(ctx: Ctx, audience: Audience, id: string) {
  if (audience.kind === 'customer') throw forbidden('The vendor or an admin receives a return');
  return withTransaction(ctx, async (tx) => {
    const r = await lockReturn(tx, ctx, audience, id);
    assertMove('return', RETURN_MOVES, r.status, 'received');
    // The sub-order's lock orders this after any dispute resolution or other return of it.
    const sub = await lockSubOrder(tx, ctx, { kind: 'admin' }, r.subOrderId);
    const byId = new Map(sub.lines.map((l) => [l.id, l]));
    const lines = (r.lines as Array<{ subOrderLineId: string; quantity: number }>).map((l) => ({ line: byId.get(l.subOrderLineId)!, quantity: l.quantity }));
    const octx = orderCtx(inTransaction(ctx, tx));
    for (const { line, quantity } of lines) {
      await ctx.services.inventory.adjust(serviceCtx(octx, tx), {
        entityId: line.entityId,
        variantId: line.variantId,
        type: 'return',
        quantity,
        reference: `marketplace-return:${r.id}`,
      });
    }
    let refunded = num(r.refundAmount);
    const order = await lockOrderForSystem(tx, ctx.organization.id, sub.orderId);
    if (order && num(order.capturedAmount) > 0) {
      refunded = (await createRefund(octx, order.id, { lines: lines.map((l) => ({ lineItemId: l.line.orderLineId, quantity: l.quantity })), reason: `marketplace return ${r.id}` }))
        .amount;
    }
    await bookSubOrderDebit(tx, sub, { kind: 'refund', share: vendorShare(refunded, num(sub.commissionTotal), num(sub.total)), reference: `return:${r.id}` });
    const row = await tx.marketplaceReturn.update({ where: { id }, data: { status: 'received', receivedAt: new Date(), refundAmount: BigInt(refunded) } });
    await emit(tx, ctx, 'marketplace.return.update', { return: returnView(row), from: r.status, to: 'received' });
    return returnView(row);
  });
}
