// POST /api/pos/exchanges: a customer brings back lines of an order and leaves with other goods.
// Everything happens in the operation's ONE transaction (the route builder's audited one), in
// this order, so that any refusal — a line that cannot be returned, stock that is not there, a
// missing or used manager override, a declined card — rolls back all of it:
//
//   1. an advisory lock on the idempotency key; a key already used answers the exchange it made
//   2. the original order locked; the returned quantities checked (handed over, not refunded)
//   3. replacement lines priced from the price list (a different unit price needs a manager's
//      price_override token, consumed here)
//   4. difference = replacement total − credit for the returned lines (their share of what was
//      paid, tax included); a refund above the cashier's cap needs a refund_over_cap token
//   5. stock back (`return` adjustments) and out (`sale` adjustments: 409 when not on hand)
//   6. a refund row on the original order for the returned lines (settled: the credit goes to the
//      replacement, only the difference moves money), the replacement order (confirmed, paid),
//      the exchange row
//   7. LAST, the payment adapter: charge or refund the difference with an idempotency key derived
//      from the exchange's key. A decline throws, so steps 2–6 roll back. A retry after a lost
//      answer reuses the same provider idempotency key, so the provider never moves money twice.
import { randomUUID } from 'node:crypto';
import { Prisma } from '../../src/generated/prisma/client.js';
import type { RequestContext } from '../../src/context.js';
import type { Tx } from '../../src/db/client.js';
import { AppError, conflict, validationFailed, type FieldIssue } from '../../src/errors.js';
import { loadSellables, unsellableReason } from '../../src/modules/checkout/sellables.js';
import { actorRecord, calendarDay, orgSettings, serviceCtx, toNumber } from '../../src/modules/orders/shared.js';
import { lockOrder, recordStatusChange } from '../../src/modules/orders/service.js';
import { assignNumber, yearIn } from '../../src/modules/orders/numbers.js';
import { unitsShare } from '../../src/modules/orders/money.js';
import { orderPayload, orderView } from '../../src/modules/orders/views.js';
import { originOf, recordEvent } from '../../src/events/outbox.js';
import { EXCHANGE_CREDIT_PROVIDER } from '../../src/modules/returns/exchange.js';
import { consumeOverride } from './auth.js';

export interface ExchangeOptions {
  /** Largest refund of a difference a cashier may give without a manager (minor units). */
  cashierRefundCap: number;
}

export interface ExchangeInput {
  orderId: string;
  returnLines: Array<{ lineItemId: string; quantity: number }>;
  newLines: Array<{ entityId: string; variantId?: string | null; quantity: number; unitPrice?: number | null }>;
  paymentMethodId?: string | null;
  idempotencyKey: string;
  priceOverrideToken?: string | null;
  refundOverrideToken?: string | null;
  registerId?: string | null;
  reason?: string | null;
}

type Ctx = RequestContext & { db: Tx };
type ExchangeRow = Prisma.PosExchangeGetPayload<object>;

export function exchangeView(row: ExchangeRow) {
  return {
    id: row.id,
    originalOrderId: row.originalOrderId,
    replacementOrderId: row.replacementOrderId,
    refundId: row.refundId,
    currency: row.currency,
    credit: toNumber(row.credit),
    replacementTotal: toNumber(row.replacementTotal),
    difference: toNumber(row.difference),
    settlement: row.settlement,
    providerReference: row.providerReference,
    idempotencyKey: row.idempotencyKey,
    registerId: row.registerId,
    overrideIds: row.overrideIds,
    createdBy: row.createdBy,
    createdAt: row.createdAt.toISOString(),
  };
}
export type ExchangeView = ReturnType<typeof exchangeView> & { replayed: boolean };

const PAID = new Set(['paid', 'partially_refunded']);

export async function createExchange(ctx: Ctx, options: ExchangeOptions, input: ExchangeInput): Promise<ExchangeView> {
  const tx = ctx.db;
  const org = ctx.organization.id;

  // 1. One exchange per key, even when the same request arrives twice at once.
  await tx.$executeRaw`select pg_advisory_xact_lock(hashtextextended(${`pos-exchange:${org}:${input.idempotencyKey}`}, 0))`;
  const earlier = await tx.posExchange.findUnique({ where: { organizationId_idempotencyKey: { organizationId: org, idempotencyKey: input.idempotencyKey } } });
  if (earlier) return { ...exchangeView(earlier), replayed: true };

  // 2. The original order and what may come back.
  const order = await lockOrder(tx, ctx, input.orderId);
  if (!PAID.has(order.paymentStatus))
    throw conflict(`Only a paid order can be exchanged (payment status: ${order.paymentStatus})`, { reason: 'order_not_paid', paymentStatus: order.paymentStatus });
  const byId = new Map(order.lines.map((l) => [l.id, l]));
  const issues: FieldIssue[] = [];
  const returned = new Map<string, number>();
  input.returnLines.forEach((line, i) => {
    if (!byId.has(line.lineItemId)) issues.push({ field: `returnLines.${i}.lineItemId`, message: 'is not a line of this order' });
    else returned.set(line.lineItemId, (returned.get(line.lineItemId) ?? 0) + line.quantity);
  });
  for (const [lineId, quantity] of returned) {
    const row = byId.get(lineId)!;
    const i = input.returnLines.findIndex((l) => l.lineItemId === lineId);
    const inHand = Math.min(row.fulfilledQuantity, row.quantity - row.refundedQuantity);
    if (quantity > inHand) {
      issues.push({ field: `returnLines.${i}.quantity`, message: `only ${inHand} unit(s) of this line were handed over and not refunded` });
    }
  }

  // 3. The replacement, priced in the order's currency.
  const sellables = await loadSellables(
    tx,
    org,
    input.newLines.map((l) => ({ entityId: l.entityId, variantId: l.variantId ?? null })),
  );
  sellables.forEach((s, i) => {
    const reason = unsellableReason(s);
    if (reason) issues.push({ field: `newLines.${i}.entityId`, message: reason });
  });
  if (issues.length) throw validationFailed(issues, 'The exchange cannot be made as asked');
  const prices = await ctx.services.pricing.resolvePrices(
    serviceCtx(ctx, tx),
    { currency: order.currency, customerGroupIds: order.customerGroupIds },
    input.newLines.map((l) => ({ entityId: l.entityId, variantId: l.variantId ?? null, quantity: l.quantity })),
  );
  const overridden: number[] = [];
  const unitPrices = input.newLines.map((l, i) => {
    const listed = prices[i] ? toNumber(prices[i]!.unitAmount) : null;
    if (l.unitPrice != null && l.unitPrice !== listed) overridden.push(i);
    const unit = l.unitPrice ?? listed;
    if (unit === null) issues.push({ field: `newLines.${i}.entityId`, message: `has no price in ${order.currency}` });
    return unit ?? 0;
  });
  if (overridden.length && !input.priceOverrideToken) {
    for (const i of overridden)
      issues.push({ field: `newLines.${i}.unitPrice`, message: 'differs from the price list: needs a manager override (priceOverrideToken for price_override)' });
  }
  if (issues.length) throw validationFailed(issues, 'The exchange cannot be made as asked');

  // 4. Credit, total, difference.
  const credits = [...returned].map(([lineId, quantity]) => {
    const row = byId.get(lineId)!;
    const net = toNumber(row.totalPrice) - toNumber(row.discountTotal) + toNumber(row.taxTotal);
    return { row, quantity, amount: unitsShare(net, row.quantity, row.refundedQuantity + quantity) - unitsShare(net, row.quantity, row.refundedQuantity) };
  });
  const refundable = toNumber(order.capturedAmount) - toNumber(order.refundedAmount);
  const credit = Math.min(
    refundable,
    credits.reduce((sum, c) => sum + c.amount, 0),
  );
  const lineTotals = input.newLines.map((l, i) => unitPrices[i]! * l.quantity);
  const replacementTotal = lineTotals.reduce((a, b) => a + b, 0);
  const difference = replacementTotal - credit;
  if (difference > 0 && !input.paymentMethodId) {
    throw validationFailed([{ field: 'paymentMethodId', message: `the customer owes ${difference}: a payment method is needed to charge it` }]);
  }
  const exchangeId = randomUUID();
  const overrideIds: string[] = [];
  if (overridden.length) overrideIds.push((await consumeOverride(tx, ctx, input.priceOverrideToken!, 'price_override', `exchange:${exchangeId}`, 'priceOverrideToken')).id);
  if (difference < 0 && -difference > options.cashierRefundCap) {
    if (!input.refundOverrideToken) {
      throw validationFailed(
        [
          {
            field: 'refundOverrideToken',
            message: `a refund of ${-difference} is over the cashier's cap of ${options.cashierRefundCap}: needs a manager override (refund_over_cap)`,
          },
        ],
        'Refund over the cashier cap',
      );
    }
    overrideIds.push((await consumeOverride(tx, ctx, input.refundOverrideToken, 'refund_over_cap', `exchange:${exchangeId}`, 'refundOverrideToken')).id);
  }
  if (difference < 0 && !order.paymentIntentId) {
    throw conflict('The original payment has no provider payment to refund the difference to', { reason: 'no_provider_payment' });
  }

  // 5. Stock back and out. Fixed order (entity, variant) so two exchanges never deadlock.
  const reference = `pos-exchange:${exchangeId}`;
  const inventory = ctx.services.inventory;
  const sctx = serviceCtx(ctx, tx);
  for (const c of [...credits].sort((a, b) => a.row.entityId.localeCompare(b.row.entityId))) {
    const warehouseId = (c.row.reservations as Array<{ warehouseId?: string }> | null)?.[0]?.warehouseId ?? null;
    await inventory.adjust(sctx, {
      entityId: c.row.entityId,
      variantId: c.row.variantId,
      warehouseId,
      type: 'return',
      quantity: c.quantity,
      reference,
      note: 'returned in a point-of-sale exchange',
    });
  }
  const sold: Array<Array<{ warehouseId: string; quantity: number }>> = input.newLines.map(() => []);
  const outOrder = input.newLines.map((_, i) => i).sort((a, b) => input.newLines[a]!.entityId.localeCompare(input.newLines[b]!.entityId));
  for (const i of outOrder) {
    const l = input.newLines[i]!;
    const out = await inventory.adjust(sctx, {
      entityId: l.entityId,
      variantId: l.variantId ?? null,
      type: 'sale',
      quantity: -l.quantity,
      reference,
      note: 'handed over in a point-of-sale exchange',
    });
    sold[i] = [{ warehouseId: out.level.warehouseId, quantity: l.quantity }];
  }

  // 6. The refund of the returned lines, the replacement order, the exchange.
  const now = new Date();
  const settings = await orgSettings(tx, org);
  const actor = actorRecord(ctx);
  const refund = await tx.orderRefund.create({
    data: {
      organizationId: org,
      orderId: order.id,
      amount: BigInt(credit),
      currency: order.currency,
      reason: `exchange ${exchangeId}${input.reason ? `: ${input.reason}` : ''}`,
      operatorId: actor.id ?? 'system',
      operatorKind: actor.kind,
      operatorDay: calendarDay(now, settings.timezone),
      // Settled at once: the credit pays for the replacement; nothing to undo or pay out later.
      status: 'succeeded',
      undoDeadline: now,
      settledAt: now,
      lines: { create: credits.map((c) => ({ lineId: c.row.id, quantity: c.quantity, amount: BigInt(c.amount) })) },
    },
  });
  for (const c of credits) await tx.orderLine.update({ where: { id: c.row.id }, data: { refundedQuantity: { increment: c.quantity } } });
  const refundedAmount = toNumber(order.refundedAmount) + credit;
  await tx.order.update({
    where: { id: order.id },
    data: { refundedAmount: BigInt(refundedAmount), paymentStatus: refundedAmount >= toNumber(order.capturedAmount) ? 'refunded' : 'partially_refunded' },
  });

  const replacementId = randomUUID();
  const created = await tx.order.create({
    data: {
      id: replacementId,
      organizationId: org,
      number: `pending:${replacementId}`,
      customerId: order.customerId,
      customerEmail: order.customerEmail,
      customerGroupIds: order.customerGroupIds,
      status: 'confirmed',
      paymentStatus: 'paid',
      currency: order.currency,
      subtotal: BigInt(replacementTotal),
      grandTotal: BigInt(replacementTotal),
      capturedAmount: BigInt(replacementTotal),
      pricing: { exchange: { exchangeId, originalOrderId: order.id, credit, difference } } as Prisma.InputJsonObject,
      paymentProvider: 'pos-exchange',
      paymentMethodId: difference > 0 ? input.paymentMethodId! : null,
      placedAt: now,
    },
  });
  const lines = await tx.orderLine.createManyAndReturn({
    data: input.newLines.map((l, i) => ({
      organizationId: org,
      orderId: replacementId,
      position: i,
      entityId: l.entityId,
      variantId: l.variantId ?? null,
      entityType: sellables[i]!.entityType,
      sku: sellables[i]!.sku,
      title: sellables[i]!.title,
      quantity: l.quantity,
      unitPrice: BigInt(unitPrices[i]!),
      totalPrice: BigInt(lineTotals[i]!),
      reservations: sold[i]!,
      // Handed over at the counter.
      fulfilledQuantity: l.quantity,
      fulfillmentStatus: 'fulfilled' as const,
    })),
  });
  await recordStatusChange(tx, ctx, replacementId, null, 'pending', { trigger: 'pos-exchange', actor });
  await recordStatusChange(tx, ctx, replacementId, 'pending', 'confirmed', { trigger: 'payment', reason: `exchange of ${order.number}`, actor });
  const number = await assignNumber(tx, org, 'order', yearIn(now, settings.timezone), replacementId);

  // The credit carried over from the original order pays its part of the replacement.
  const carried = Math.min(credit, replacementTotal);
  if (carried > 0) {
    await tx.payment.create({
      data: {
        organizationId: org,
        orderId: replacementId,
        provider: EXCHANGE_CREDIT_PROVIDER,
        currency: order.currency,
        amount: BigInt(carried),
        authorizedAmount: BigInt(carried),
        capturedAmount: BigInt(carried),
        status: 'captured',
        providerReference: `pos-exchange:${exchangeId}`,
      },
    });
  }

  // 7. Money last: a decline rolls everything above back.
  let settlement = 'none';
  let providerReference: string | null = null;
  const providerKey = `pos-exchange:${org}:${input.idempotencyKey}`;
  const provider = ctx.services.payments.provider;
  if (difference > 0) {
    // Paid at the counter: charged and captured at once (a card that needs 3-D Secure cannot be
    // completed here and counts as declined).
    const chargeId = randomUUID();
    const payment = await provider.authorize({
      paymentId: chargeId,
      orderId: replacementId,
      organizationId: org,
      amount: difference,
      currency: order.currency,
      method: { id: input.paymentMethodId! },
      idempotencyKey: `${providerKey}:charge`,
      capture: true,
      returnUrl: ctx.config.baseUrl ?? `${new URL(ctx.request.url).origin}/`,
      customerEmail: order.customerEmail,
    });
    if (payment.status !== 'captured' && payment.status !== 'pending') {
      const failure = payment.failure ?? { code: 'authentication_required', message: 'The card needs authentication, which cannot be done at the counter.' };
      throw new AppError('CHECKOUT_FAILED', `The exchange was not made: ${failure.message}`, {
        reason: 'payment_declined',
        paymentCode: failure.code,
        ...(failure.declineCode ? { declineCode: failure.declineCode } : {}),
      });
    }
    settlement = 'charge';
    providerReference = payment.providerReference;
    await tx.order.update({ where: { id: replacementId }, data: { paymentIntentId: payment.providerReference, paymentProvider: provider.name } });
    // The charge is a payment record of the replacement, as every provider payment is (refunds,
    // captures and the provider's events find it there); the credit part is the core exchange's
    // exchange_credit payment, so the replacement's payments add up to what it says was captured.
    const captured = payment.status === 'captured' ? difference : 0;
    await tx.payment.create({
      data: {
        id: chargeId,
        organizationId: org,
        orderId: replacementId,
        provider: provider.name,
        method: input.paymentMethodId ?? null,
        currency: order.currency,
        amount: BigInt(difference),
        authorizedAmount: BigInt(difference),
        capturedAmount: BigInt(captured),
        status: captured ? 'captured' : 'pending',
        providerReference: payment.providerReference,
      },
    });
  } else if (difference < 0) {
    const original = await tx.payment.findFirst({
      where: { orderId: order.id, providerReference: order.paymentIntentId! },
      select: { id: true, refundedAmount: true, capturedAmount: true },
    });
    const paid = await provider.refund({
      paymentId: original?.id ?? order.id,
      refundId: refund.id,
      providerReference: order.paymentIntentId!,
      amount: -difference,
      currency: order.currency,
      idempotencyKey: `${providerKey}:refund`,
      metadata: { orderId: order.id, exchangeId },
    });
    if (!paid.ok)
      throw new AppError('CHECKOUT_FAILED', `The exchange was not made: the refund of the difference failed (${paid.message})`, {
        reason: 'refund_failed',
        paymentCode: paid.code,
      });
    // The card got money back: its payment record says so.
    const refunded = Number(original?.refundedAmount ?? 0) - difference;
    if (original && refunded <= Number(original.capturedAmount)) {
      await tx.payment.update({
        where: { id: original.id },
        data: { refundedAmount: BigInt(refunded), status: refunded >= Number(original.capturedAmount) ? 'refunded' : 'partially_refunded' },
      });
    }
    settlement = 'refund';
    providerReference = paid.providerReference;
  }

  const row = await tx.posExchange.create({
    data: {
      id: exchangeId,
      organizationId: org,
      originalOrderId: order.id,
      replacementOrderId: replacementId,
      refundId: refund.id,
      currency: order.currency,
      credit: BigInt(credit),
      replacementTotal: BigInt(replacementTotal),
      difference: BigInt(difference),
      settlement,
      providerReference,
      idempotencyKey: input.idempotencyKey,
      registerId: input.registerId ?? null,
      overrideIds,
      createdBy: actor.id,
    },
  });
  const view = orderView({
    ...created,
    number,
    paymentIntentId: providerReference && difference > 0 ? providerReference : null,
    lines: lines.sort((a, b) => a.position - b.position),
  });
  await recordEvent(tx, originOf(ctx), 'orders.create', { order: orderPayload(view) });
  return { ...exchangeView(row), replayed: false };
}
