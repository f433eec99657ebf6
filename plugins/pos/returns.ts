// POST /api/pos/returns: goods brought back without a receipt. There is no order to refund
// against, so a manager must approve it with a no_receipt_return override token (consumed here),
// the goods go back into stock (`return` adjustments) and the till pays out their price-list
// value in cash or store credit — all in the operation's one transaction: an unknown, used or
// expired token, an unsellable line or a line without a price leaves nothing written.
import { randomUUID } from 'node:crypto';
import type { Prisma } from '../../src/generated/prisma/client.js';
import type { RequestContext } from '../../src/context.js';
import type { Tx } from '../../src/db/client.js';
import { AppError, validationFailed, type FieldIssue } from '../../src/errors.js';
import { loadSellables, unsellableReason } from '../../src/modules/checkout/sellables.js';
import { actorRecord, serviceCtx, toNumber } from '../../src/modules/orders/shared.js';
import { consumeOverride, type ReturnApproval } from './auth.js';

export const REFUND_METHODS = ['cash', 'store_credit'] as const;

export interface NoReceiptReturnInput {
  currency: string;
  lines: Array<{ entityId: string; variantId?: string | null; quantity: number }>;
  refundMethod: (typeof REFUND_METHODS)[number];
  overrideToken: string;
  idempotencyKey: string;
  registerId?: string | null;
  reason?: string | null;
}

type ReturnRow = Prisma.PosReturnGetPayload<object>;

function returnView(row: ReturnRow, replayed: boolean) {
  return {
    id: row.id,
    currency: row.currency,
    lines: row.lines,
    amount: toNumber(row.amount),
    refundMethod: row.refundMethod,
    overrideId: row.overrideId,
    idempotencyKey: row.idempotencyKey,
    registerId: row.registerId,
    reason: row.reason,
    createdBy: row.createdBy,
    createdAt: row.createdAt.toISOString(),
    replayed,
  };
}

const lineKey = (l: { entityId: string; variantId?: string | null }) => `${l.entityId}:${l.variantId ?? ''}`;

function quantities(lines: ReturnApproval['lines']): Map<string, number> {
  const byKey = new Map<string, number>();
  for (const l of lines) byKey.set(lineKey(l), (byKey.get(lineKey(l)) ?? 0) + l.quantity);
  return byKey;
}

/**
 * The return must be the one the manager approved: the same lines and quantities, in the approved
 * currency, paying out at most the approved amount (403 otherwise). An override granted before
 * approvals were recorded approves nothing.
 */
function checkApproval(approval: ReturnApproval | null, input: NoReceiptReturnInput, amount: number): void {
  if (!approval) throw new AppError('FORBIDDEN', 'This override approves no lines or amount: ask the manager for a new no_receipt_return override');
  const approved = quantities(approval.lines);
  const asked = quantities(input.lines);
  if (approved.size !== asked.size || [...approved].some(([key, quantity]) => asked.get(key) !== quantity)) {
    throw new AppError('FORBIDDEN', 'The override approves other lines or quantities than this return', { fields: ['lines'], approved: approval.lines });
  }
  if (approval.currency !== input.currency || amount > approval.amount) {
    throw new AppError('FORBIDDEN', `This return pays out ${amount} ${input.currency}; the override approves at most ${approval.amount} ${approval.currency}`, {
      fields: ['overrideToken'],
      amount,
      approved: approval.amount,
    });
  }
}

export async function createNoReceiptReturn(ctx: RequestContext & { db: Tx }, input: NoReceiptReturnInput) {
  const tx = ctx.db;
  const org = ctx.organization.id;
  await tx.$executeRaw`select pg_advisory_xact_lock(hashtextextended(${`pos-return:${org}:${input.idempotencyKey}`}, 0))`;
  const earlier = await tx.posReturn.findUnique({ where: { organizationId_idempotencyKey: { organizationId: org, idempotencyKey: input.idempotencyKey } } });
  if (earlier) return returnView(earlier, true);

  const sellables = await loadSellables(
    tx,
    org,
    input.lines.map((l) => ({ entityId: l.entityId, variantId: l.variantId ?? null })),
  );
  const prices = await ctx.services.pricing.resolvePrices(
    serviceCtx(ctx, tx),
    { currency: input.currency },
    input.lines.map((l) => ({ entityId: l.entityId, variantId: l.variantId ?? null, quantity: l.quantity })),
  );
  const issues: FieldIssue[] = [];
  input.lines.forEach((_, i) => {
    // A discontinued item may come back; one this store never had may not.
    if (!sellables[i]) issues.push({ field: `lines.${i}.entityId`, message: unsellableReason(null) ?? 'is not in the catalog' });
    else if (!prices[i]) issues.push({ field: `lines.${i}.entityId`, message: `has no price in ${input.currency}` });
  });
  if (issues.length) throw validationFailed(issues, 'The return cannot be taken as asked');

  const id = randomUUID();
  const approval = await consumeOverride(tx, ctx, input.overrideToken, 'no_receipt_return', `return:${id}`);
  // A refusal here rolls the consumption back with everything else: the token stays usable.
  checkApproval(
    approval.approval as ReturnApproval | null,
    input,
    input.lines.reduce((sum, l, i) => sum + toNumber(prices[i]!.unitAmount) * l.quantity, 0),
  );
  const lines = [];
  for (const [i, l] of input.lines.entries()) {
    const back = await ctx.services.inventory.adjust(serviceCtx(ctx, tx), {
      entityId: l.entityId,
      variantId: l.variantId ?? null,
      type: 'return',
      quantity: l.quantity,
      reference: `pos-return:${id}`,
      note: 'returned without a receipt',
    });
    const unitPrice = toNumber(prices[i]!.unitAmount);
    lines.push({
      entityId: l.entityId,
      variantId: l.variantId ?? null,
      sku: sellables[i]!.sku,
      title: sellables[i]!.title,
      quantity: l.quantity,
      unitPrice,
      warehouseId: back.level.warehouseId,
    });
  }
  const amount = lines.reduce((sum, l) => sum + l.unitPrice * l.quantity, 0);
  const row = await tx.posReturn.create({
    data: {
      id,
      organizationId: org,
      currency: input.currency,
      lines,
      amount: BigInt(amount),
      refundMethod: input.refundMethod,
      overrideId: approval.id,
      idempotencyKey: input.idempotencyKey,
      registerId: input.registerId ?? null,
      reason: input.reason ?? null,
      createdBy: actorRecord(ctx).id,
    },
  });
  return returnView(row, false);
}
