// Exchanges (issue 27 item 2): a return whose outbound side is new lines (the same or other
// variants). One mechanism for staff, the customer portal and the point of sale:
//
//   creation  the outbound lines are priced like any order: the catalog price in the order's
//             currency and customer groups, then checkout's pricing path (checkout/pricing.ts
//             priceOrder, shared with order edits and draft orders) for tax — the store's mode
//             (prices with or without tax), the order's customer groups (exemption) and its
//             shipping address (tax zone; digital goods where the store is). No promotion code is
//             redeemed: the replacement is a new order, and the original's codes were spent on the
//             original (its discount is inside the credit, linePaidNet); re-redeeming them would
//             record a second use and give an order-level discount twice. priceOrder applies no
//             promotion without a code, so there is no discount today (the columns carry it should
//             that change). No shipping: the replacement ships free (the settings' flat rate is
//             not charged). exchangeTotal is what the replacement costs, tax included — the same
//             footing as the credit, which is what was paid (tax included). The stock is reserved
//             in the return's transaction under order:<exchangeOrderId> (the id the replacement
//             order will get), so the reservation simply becomes the replacement order's when the
//             exchange settles. No stock: 409.
//   reject, cancel, close
//             the reservation is released.
//   exchange  (received → exchanged) settles, in one transaction:
//               credit C = the returned lines' share of what was paid (the refund rules' amount:
//                          unitsShare of each line's net, tax included; never above what is
//                          left of the capture)
//               total  T = exchangeTotal (the outbound lines less discount, plus their tax in a
//                          tax-exclusive store)
//               - the original order gets a refund row of min(C, T) for the returned lines,
//                 settled at once without the provider: that money pays for the replacement;
//               - the replacement order (id exchangeOrderId, the outbound lines with their
//                 reservations, their discount and tax, grandTotal T, pricing recording the tax
//                 mode they were priced in, as checkout writes an order) gets an exchange_credit
//                 payment of min(C, T), captured;
//               - T > C: the difference is authorized through payments/authorize.ts (the one way
//                 to start a payment) with the given or the original order's payment method; the
//                 provider's event confirms the replacement as at checkout;
//               - C > T: the difference is refunded through the refund service (daily cap, undo
//                 window, settlement) to the original payment or store credit.
// Money is conserved order by order: Σ (captured − refunded) over both orders equals what the
// provider captured minus what it (or store credit) paid back.
import { randomUUID } from 'node:crypto';
import type { Tx } from '../../db/client.js';
import { AppError, conflict, validationFailed, type FieldIssue } from '../../errors.js';
import { originOf, recordEvent } from '../../events/outbox.js';
import type { Prisma } from '../../generated/prisma/client.js';
import { priceOrder } from '../checkout/pricing.js';
import { loadSellables, recordedSellable, unsellableReason, type Sellable } from '../checkout/sellables.js';
import { portsOf } from '../checkout/wiring.js';
import { unitsShare } from '../orders/money.js';
import { assignNumber, yearIn } from '../orders/numbers.js';
import { linePaidNet, writeRefund, type RefundDestination } from '../orders/refunds.js';
import { lockOrder, recordStatusChange } from '../orders/service.js';
import { actorRecord, calendarDay, orgSettings, serviceCtx, toNumber, type OrdersCtx } from '../orders/shared.js';
import { orderPayload, orderView } from '../orders/views.js';
import { authorizeOrderPayment, defaultReturnUrl, insertPayment, type StartedPayment } from '../payments/authorize.js';
import { providerOf } from '../payments/capture.js';
import type { PaymentProvider } from '../payments/provider.js';
import { syncOrderPayment } from '../payments/records.js';
import type { OrderRow } from '../orders/views.js';
import { recordRefundWithoutProvider } from '../payments/refunds.js';
import { EXCHANGE_CREDIT_PROVIDER } from '../gift-cards/tenders.js';
import type { ReturnRow } from './views.js';

export interface ExchangeLineInput {
  entityId: string;
  variantId?: string | null;
  quantity: number;
}

type Reservation = { warehouseId: string; quantity: number };

/** The provider name of the payment that carries the returned goods' credit onto the replacement order. */
export { EXCHANGE_CREDIT_PROVIDER };

/**
 * Prices and reserves the outbound lines of a new exchange (the order row is locked by the
 * caller). Answers the rows to create and the replacement order's id.
 */
export async function reserveExchangeLines(tx: Tx, ctx: OrdersCtx, orderId: string, lines: ExchangeLineInput[]) {
  const org = ctx.organization.id;
  const order = await tx.order.findUniqueOrThrow({ where: { id: orderId }, select: PRICING_ORDER_SELECT });
  const sellables = await loadSellables(
    tx,
    org,
    lines.map((l) => ({ entityId: l.entityId, variantId: l.variantId ?? null })),
  );
  const issues: FieldIssue[] = [];
  sellables.forEach((s, i) => {
    const reason = unsellableReason(s);
    if (reason) issues.push({ field: `exchangeLines.${i}.entityId`, message: reason });
  });
  if (issues.length) throw validationFailed(issues);
  const ports = portsOf(ctx.services);
  const sctx = serviceCtx(ctx, tx);
  const prices = await ports.prices.resolve(
    sctx,
    lines.map((l) => ({ entityId: l.entityId, variantId: l.variantId ?? null, currency: order.currency, customerGroupIds: order.customerGroupIds, quantity: l.quantity })),
  );
  prices.forEach((p, i) => {
    if (p === null || p === undefined) issues.push({ field: `exchangeLines.${i}.entityId`, message: `has no price in ${order.currency}` });
  });
  if (issues.length) throw validationFailed(issues);

  const exchangeOrderId = randomUUID();
  // Every line has a sellable and a price here (unsellableReason(null) and a null price are issues above).
  const priced = await priceExchange(
    tx,
    ctx,
    order,
    exchangeOrderId,
    lines.map((l, i) => ({
      entityId: l.entityId,
      variantId: l.variantId ?? null,
      quantity: l.quantity,
      unitPrice: lineAt(prices, i) as number,
      sellable: lineAt(sellables, i) as Sellable,
    })),
  );
  const reference = `order:${exchangeOrderId}`;
  // Checkout's lock order (entity, variant), so two reservations never deadlock.
  const order_ = lines.map((_, i) => i).sort((a, b) => cmp(lines[a], lines[b]));
  const got = await ports.inventory
    .reserve(
      sctx,
      order_.map((i) => {
        const l = lineAt(lines, i);
        return { entityId: l.entityId, variantId: l.variantId ?? null, quantity: l.quantity, reference };
      }),
    )
    .catch((error: unknown) => {
      throw error instanceof AppError
        ? conflict(`Not enough stock for the exchange: ${error.message}`, { reason: 'insufficient_stock', step: 'inventory', code: error.code })
        : error;
    });
  const reserved = new Map<number, Reservation[]>(order_.map((i, k) => [i, got[k] ?? []]));
  const rows = lines.map((l, i) => {
    const sellable = sellables[i];
    if (!sellable) throw new Error('returns: an exchange line passed the checks without a sellable');
    return {
      position: i,
      entityId: l.entityId,
      variantId: l.variantId ?? null,
      entityType: sellable.entityType,
      sku: sellable.sku,
      title: sellable.title,
      quantity: l.quantity,
      ...lineAt(priced.lines, i),
      reservations: (reserved.get(i) ?? []) as unknown as Prisma.InputJsonValue,
    };
  });
  return { exchangeOrderId, total: priced.total, pricing: priced.pricing, rows };
}

/** What pricing an exchange reads of its original order. */
const PRICING_ORDER_SELECT = { currency: true, customerGroupIds: true, customerId: true, shippingAddress: true } as const;
type PricingOrder = Prisma.OrderGetPayload<{ select: typeof PRICING_ORDER_SELECT }>;

interface ExchangePricingLine {
  entityId: string;
  variantId: string | null;
  quantity: number;
  unitPrice: number;
  sellable: Sellable;
}

/** An outbound line's figures, as an order line stores them. */
interface PricedExchangeLine {
  unitPrice: bigint;
  totalPrice: bigint;
  discountTotal: bigint;
  taxClassId: string | null;
  taxRateBps: number;
  taxTotal: bigint;
}

/** The tax context an order records in its `pricing` (checkout/tax-context.ts). */
type TaxPricing = { pricesIncludeTax: boolean; taxExempt: boolean; taxExemptionNote: string | null };

/**
 * The outbound lines priced by checkout's own path (priceOrder) as a new order of the original
 * order's customer, groups and address: no promotion code, no shipping (see the header). Answers
 * each line's figures, the replacement's grandTotal and the tax context it was computed in. An
 * external tax provider that fails is a 503 and nothing is written, as at checkout.
 */
async function priceExchange(tx: Tx, ctx: OrdersCtx, order: PricingOrder, exchangeOrderId: string, lines: ExchangePricingLine[]) {
  const settings = await orgSettings(tx, ctx.organization.id);
  const priced = await priceOrder(tx, ctx, {
    currency: order.currency,
    groups: order.customerGroupIds,
    address: ((order.shippingAddress as Record<string, unknown> | null) ?? { country: '' }) as { country: string },
    customerId: order.customerId,
    orderId: exchangeOrderId,
    codes: [],
    // The replacement ships free: without a shipping method priceOrder falls back to the flat
    // rule, which must not charge the settings' flat rate on an exchange.
    settings: { ...settings, shipping: { flatRate: 0, freeOver: null } },
    lines,
    shipping: { enabled: false, methodId: null, cartMethodId: null, cartId: null },
  });
  const { totals, rates, providerRates } = priced;
  return {
    lines: lines.map(
      (l, i): PricedExchangeLine => ({
        unitPrice: BigInt(l.unitPrice),
        totalPrice: BigInt(lineAt(totals.lines, i).totalPrice),
        discountTotal: BigInt(lineAt(totals.lines, i).discountTotal),
        taxClassId: lineAt(rates, i).taxClassId,
        taxRateBps: providerRates?.[i] ?? lineAt(rates, i).rateBps,
        taxTotal: BigInt(lineAt(totals.lines, i).taxTotal),
      }),
    ),
    total: totals.grandTotal,
    pricing: priced.tax.pricing as TaxPricing,
  };
}

function cmp(a: ExchangeLineInput | undefined, b: ExchangeLineInput | undefined): number {
  return (a?.entityId ?? '').localeCompare(b?.entityId ?? '') || (a?.variantId ?? '').localeCompare(b?.variantId ?? '');
}

function lineAt<T>(list: T[], i: number): T {
  const found = list[i];
  if (found === undefined) throw new Error(`returns: no exchange line ${i}`);
  return found;
}

/** Gives the outbound lines' reservations back (reject, cancel, close). */
export async function releaseExchangeLines(tx: Tx, ctx: OrdersCtx, row: ReturnRow): Promise<void> {
  if (!row.exchangeOrderId) return;
  const reference = `order:${row.exchangeOrderId}`;
  const moves = row.exchangeLines.flatMap((l) =>
    ((l.reservations ?? []) as Reservation[]).map((r) => ({ entityId: l.entityId, variantId: l.variantId, warehouseId: r.warehouseId, quantity: r.quantity, reference })),
  );
  if (moves.length) await portsOf(ctx.services).inventory.release(serviceCtx(ctx, tx), moves);
  await tx.orderReturnExchangeLine.updateMany({ where: { returnId: row.id }, data: { reservations: [] } });
}

export interface SettleExchangeInput {
  /** Where a credit above the outbound total goes. */
  method: RefundDestination;
  /** The payment method a positive difference is charged to (default: the original order's). */
  paymentMethodId?: string | null;
}

export interface SettledExchange {
  data: Prisma.OrderReturnUpdateInput;
  /** A refund of the excess credit to settle after commit (undo window 0). */
  refundId: string | null;
}

/** The provider-side state of a settlement whose transaction may still roll back. */
export interface StartedExchangePayment {
  paymentId: string;
  provider: PaymentProvider | null;
  payment: StartedPayment | null;
}

/** received → exchanged: see the header. The return row is locked by the caller. */
export async function settleExchange(tx: Tx, ctx: OrdersCtx, row: ReturnRow, input: SettleExchangeInput, started: StartedExchangePayment): Promise<SettledExchange> {
  const exchangeOrderId = row.exchangeOrderId;
  if (!exchangeOrderId) throw new Error('returns: settleExchange of a plain return');
  const org = ctx.organization.id;
  const order = await lockOrder(tx, ctx, row.orderId);
  const { credits, credit } = exchangeCredit(order, row);
  const total = toNumber(row.exchangeTotal);
  const transfer = Math.min(credit, total);
  const difference = total - credit;
  const methodId = input.paymentMethodId ?? order.paymentMethodId;
  if (difference > 0 && !methodId) {
    throw validationFailed([{ field: 'paymentMethodId', message: `the customer owes ${difference}: name a payment method to charge it (the order has none stored)` }]);
  }

  const now = new Date();
  const settings = await orgSettings(tx, org);
  const actor = actorRecord(ctx);
  const operator = { id: actor.id ?? 'system', kind: actor.kind };
  const reason = `exchange ${row.id} (${row.reasonCode})`;

  // 1. The original order: the returned lines refunded; the part that pays for the replacement
  //    is settled at once (no money leaves), the rest goes through the refund service.
  const transferRefund = await tx.orderRefund.create({
    data: {
      organizationId: org,
      orderId: order.id,
      amount: BigInt(transfer),
      currency: order.currency,
      reason: `${reason}: credit toward the replacement order`,
      // What the way back of the credit (payments/exchange-credit.ts) finds this refund by.
      exchangeReturnId: row.id,
      operatorId: operator.id,
      operatorKind: operator.kind,
      operatorDay: calendarDay(now, settings.timezone),
      status: 'succeeded',
      undoDeadline: now,
      settledAt: now,
      lines: { create: credits.map((c) => ({ lineId: c.lineId, quantity: c.quantity, amount: BigInt(c.amount) })) },
    },
  });
  for (const c of credits) await tx.orderLine.update({ where: { id: c.lineId }, data: { refundedQuantity: { increment: c.quantity } } });
  await tx.order.update({ where: { id: order.id }, data: { refundedAmount: { increment: BigInt(transfer) } } });
  // The credit left the original payments (toward the replacement): recorded on them, and the
  // order's paymentStatus derived from them as after any refund.
  if (transfer > 0) await recordRefundWithoutProvider(tx, { organizationId: org, orderId: order.id, refundId: transferRefund.id, amount: BigInt(transfer) });
  await syncOrderPayment(tx, order);
  let refundId: string | null = null;
  if (difference < 0) {
    const refund = await writeRefund(tx, ctx, order, settings, operator, {
      amount: -difference,
      shippingAmount: 0,
      reason: `${reason}: the credit above the replacement`,
      lines: [],
      destination: input.method,
    });
    refundId = refund.id;
  }

  // 2. The replacement order, its lines holding the reservations made at creation, with the
  //    figures they were priced at then (discount and tax per line; the order's totals their sums,
  //    as checkout writes them), and the tax mode they were priced in: refunds of it (linePaidNet),
  //    documents and reports read the mode from the order itself.
  const sum = (pick: (l: ReturnRow['exchangeLines'][number]) => bigint) => row.exchangeLines.reduce((acc, l) => acc + pick(l), 0n);
  const pricing = {
    promotions: [],
    freeShipping: false,
    shipping: { flatRate: 0, freeOver: null },
    ...((row.exchangePricing as Prisma.JsonObject | null) ?? {}),
    exchange: { returnId: row.id, originalOrderId: order.id, credit, difference },
  };
  await tx.order.create({
    data: {
      id: exchangeOrderId,
      organizationId: org,
      number: `pending:${exchangeOrderId}`,
      customerId: order.customerId,
      customerEmail: order.customerEmail,
      customerGroupIds: order.customerGroupIds,
      status: 'pending',
      paymentStatus: 'awaiting_payment',
      currency: order.currency,
      subtotal: sum((l) => l.totalPrice),
      discountTotal: sum((l) => l.discountTotal),
      taxTotal: sum((l) => l.taxTotal),
      shippingTotal: 0n,
      grandTotal: BigInt(total),
      shippingAddress: (order.shippingAddress ?? undefined) as Prisma.InputJsonValue | undefined,
      pricing: pricing as Prisma.InputJsonObject,
      paymentMethodId: difference > 0 ? methodId : null,
      placedAt: now,
    },
  });
  await tx.orderLine.createMany({
    data: row.exchangeLines.map((l) => ({
      organizationId: org,
      orderId: exchangeOrderId,
      position: l.position,
      entityId: l.entityId,
      variantId: l.variantId,
      entityType: l.entityType,
      sku: l.sku,
      title: l.title,
      quantity: l.quantity,
      unitPrice: l.unitPrice,
      totalPrice: l.totalPrice,
      discountTotal: l.discountTotal,
      taxClassId: l.taxClassId,
      taxRateBps: l.taxRateBps,
      taxTotal: l.taxTotal,
      reservations: (l.reservations ?? []) as Prisma.InputJsonValue,
    })),
  });
  await recordStatusChange(tx, ctx, exchangeOrderId, null, 'pending', { trigger: 'exchange', reason: `exchange of ${order.number}`, actor });

  // 3. Its payments: the credit, then the difference through the provider.
  if (transfer > 0) {
    await tx.payment.create({
      data: {
        organizationId: org,
        orderId: exchangeOrderId,
        provider: EXCHANGE_CREDIT_PROVIDER,
        currency: order.currency,
        amount: BigInt(transfer),
        authorizedAmount: BigInt(transfer),
        capturedAmount: BigInt(transfer),
        status: 'captured',
        providerReference: `return:${row.id}`,
      },
    });
  }
  let paymentId: string | null = null;
  if (difference > 0 && methodId) {
    const provider = order.paymentProvider && order.paymentProvider !== EXCHANGE_CREDIT_PROVIDER ? providerOf(ctx, order.paymentProvider) : ctx.services.payments.provider;
    started.provider = provider;
    started.payment = await authorizeOrderPayment(
      tx,
      ctx,
      provider,
      {
        paymentId: started.paymentId,
        orderId: exchangeOrderId,
        amount: difference,
        currency: order.currency,
        methodId,
        captureMode: 'automatic',
        returnUrl: defaultReturnUrl(ctx),
        customerEmail: order.customerEmail,
        actionExpiryMinutes: settings.payments.actionExpiryMinutes,
      },
      {
        declined: (failure) =>
          conflict(`The payment of the exchange's difference was refused: ${failure.message}`, { reason: 'payment_declined', step: 'payment', paymentCode: failure.code }),
        unreachable: () => new AppError('SERVICE_UNAVAILABLE', 'The payment provider could not be reached; nothing was changed, try again', { reason: 'provider_unreachable' }),
      },
    );
    await insertPayment(tx, started.payment);
    paymentId = started.payment.id;
    await tx.order.update({ where: { id: exchangeOrderId }, data: { paymentIntentId: started.payment.providerReference, paymentProvider: provider.name } });
  }
  const synced = await syncOrderPayment(tx, { id: exchangeOrderId, grandTotal: BigInt(total), paymentStatus: 'awaiting_payment', capturedAmount: 0n });
  if (synced.paymentStatus === 'paid') {
    // Covered by the credit: confirmed now (a charged difference is confirmed by the provider's event, as at checkout).
    await tx.order.update({ where: { id: exchangeOrderId }, data: { status: 'confirmed' } });
    await recordStatusChange(tx, ctx, exchangeOrderId, 'pending', 'confirmed', { trigger: 'payment', reason: 'paid by the exchange credit', actor });
  }
  const number = await assignNumber(tx, org, 'order', yearIn(now, settings.timezone), exchangeOrderId);
  const created = await tx.order.findUniqueOrThrow({ where: { id: exchangeOrderId }, include: { lines: { orderBy: { position: 'asc' } } } });
  await recordEvent(tx, originOf(ctx), 'orders.create', { order: orderPayload(orderView({ ...created, number })) });

  return {
    data: {
      exchangeCredit: BigInt(credit),
      exchangeDifference: BigInt(difference),
      exchangePaymentId: paymentId,
      ...(refundId ? { refundId, refundAmount: BigInt(-difference), refundMethod: input.method } : {}),
    },
    refundId,
  };
}

/**
 * The credit an exchange's returned lines earn on their order (the refund rules' amount: each
 * line's unitsShare of its net, tax included; never above what is left of the capture). 422 when
 * units were refunded already. Used by settleExchange, and by callers that must know the
 * difference before settling (the point of sale's cashier refund cap).
 */
export function exchangeCredit(order: OrderRow, row: { id: string; lines: Array<{ lineId: string; quantity: number }> }) {
  const byId = new Map(order.lines.map((l) => [l.id, l]));
  const issues: FieldIssue[] = [];
  const credits = row.lines.map((rl, i) => {
    const line = byId.get(rl.lineId);
    if (!line) throw new Error(`returns: line ${rl.lineId} of return ${row.id} is not on its order`);
    // The refund rules: units refunded already (a plain refund of the same units) cannot be credited again.
    if (rl.quantity > line.quantity - line.refundedQuantity) {
      issues.push({ field: `lines.${i}.quantity`, message: `only ${line.quantity - line.refundedQuantity} unit(s) of line ${line.id} are left to refund` });
    }
    const net = linePaidNet(order, line);
    const amount = unitsShare(net, line.quantity, line.refundedQuantity + rl.quantity) - unitsShare(net, line.quantity, line.refundedQuantity);
    return { lineId: line.id, quantity: rl.quantity, amount };
  });
  if (issues.length) throw validationFailed(issues, 'The returned lines cannot be credited');
  const refundable = toNumber(order.capturedAmount) - toNumber(order.refundedAmount);
  const credit = Math.max(
    0,
    Math.min(
      refundable,
      credits.reduce((sum, c) => sum + c.amount, 0),
    ),
  );
  return { credits, credit };
}

/**
 * Sets agreed unit prices on an open exchange's outbound lines (by position): a price a manager
 * authorized at the point of sale instead of the catalog's. The outbound side is priced again by
 * the path that priced it at creation (priceExchange: tax in the store's mode at the order's
 * address), the other lines at the price they have, so an overridden line's tax follows its new
 * price. Answers the new exchangeTotal (tax included), which settlement then charges or refunds
 * against. The caller locks the return and checks the authorization.
 */
export async function overrideExchangeLinePrices(tx: Tx, ctx: OrdersCtx, returnId: string, prices: Array<{ position: number; unitPrice: number }>): Promise<number> {
  const ret = await tx.orderReturn.findFirstOrThrow({
    where: { id: returnId, organizationId: ctx.organization.id },
    select: { exchangeOrderId: true, exchangeTotal: true, exchangeLines: { orderBy: { position: 'asc' } }, order: { select: PRICING_ORDER_SELECT } },
  });
  if (!prices.length) return toNumber(ret.exchangeTotal);
  if (!ret.exchangeOrderId) throw new Error('returns: overrideExchangeLinePrices of a plain return');
  const byPosition = new Map(prices.map((p) => [p.position, p.unitPrice]));
  const lines = ret.exchangeLines;
  // The catalog rows as they are now (tax classes); a row gone since the exchange opened is what its line recorded.
  const found = await loadSellables(
    tx,
    ctx.organization.id,
    lines.map((l) => ({ entityId: l.entityId, variantId: l.variantId })),
  );
  const priced = await priceExchange(
    tx,
    ctx,
    ret.order,
    ret.exchangeOrderId,
    lines.map((l, i) => ({
      entityId: l.entityId,
      variantId: l.variantId,
      quantity: l.quantity,
      unitPrice: byPosition.get(l.position) ?? toNumber(l.unitPrice),
      sellable: found[i] ?? recordedSellable(l),
    })),
  );
  for (const [i, line] of lines.entries()) await tx.orderReturnExchangeLine.update({ where: { id: line.id }, data: lineAt(priced.lines, i) });
  await tx.orderReturn.update({ where: { id: returnId }, data: { exchangeTotal: BigInt(priced.total), exchangePricing: priced.pricing } });
  return priced.total;
}
