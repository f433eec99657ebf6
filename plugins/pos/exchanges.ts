// POST /api/pos/exchanges: a customer brings back lines of an order and leaves with other goods.
// The exchange IS a core exchange (src/modules/returns, exchange.ts): a return with exchange
// lines, walked through create → approve → receive → exchange by the core's service functions in
// the operation's ONE transaction (each step a nested transaction of it), so stock reservation,
// the replacement order, its payment rows (exchange_credit + the charged difference), the refund
// of a negative difference (refund service: daily cap, undo window), the return.* events and the
// returns.* audit entries are the core's. What stays here is the counter's glue:
//
//   1. an advisory lock on the idempotency key; a key already used answers the exchange it made
//   2. the original order locked; it must be paid, and the returned units handed over and not
//      refunded (the route's 422 naming returnLines.N.quantity)
//   3. the core return opened with the replacement lines (priced — tax included — and reserved by
//      the core); a unit price off the catalog needs a manager's price_override token and is set
//      on the open exchange through the core's overrideExchangeLinePrices, which taxes it again
//   4. approved and received at once: the goods back into the warehouse their line shipped from
//   5. the difference from the core's own credit (exchangeCredit): a positive one needs
//      paymentMethodId (no silent charge of the stored card at the counter), a refund above
//      cashierRefundCap a refund_over_cap token — checked BEFORE the core settles, so no money
//      moves for an exchange the cashier may not make
//   6. the core exchange settles; a replacement paid by the credit is handed over at the counter
//      (processing + fulfilled through the orders' service); one paid partly by card waits for
//      the provider's event like any order, its stock reserved
//   7. the plugin's row: register, overrides, idempotency key, the return it was made through
// Any refusal throws and rolls the whole operation back (the core gives a card authorization of a
// failed settlement back itself).
import { randomUUID } from 'node:crypto';
import type { RequestContext } from '../../src/context.js';
import type { Tx } from '../../src/db/client.js';
import { AppError, conflict, validationFailed, type FieldIssue } from '../../src/errors.js';
import { recordAudit } from '../../src/modules/audit/record.js';
import { createFulfillment } from '../../src/modules/orders/fulfillments.js';
import { lockOrder, updateOrderStatus } from '../../src/modules/orders/service.js';
import { actorRecord, toNumber } from '../../src/modules/orders/shared.js';
import { exchangeCredit, overrideExchangeLinePrices } from '../../src/modules/returns/exchange.js';
import { createReturn, decideReturn, exchangeReturn, receiveReturn } from '../../src/modules/returns/service.js';
import type { ReturnView } from '../../src/modules/returns/views.js';
import type { Prisma } from '../../src/generated/prisma/client.js';
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
    returnId: row.returnId,
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

/** The core names the return's fields; the route's contract names its own (returnLines, newLines). */
const FIELD_NAMES: Array<[RegExp, string]> = [
  [/^lines\./, 'returnLines.'],
  [/^exchangeLines\./, 'newLines.'],
];

function inRouteTerms(error: unknown): unknown {
  if (!(error instanceof AppError)) return error;
  if (error.code === 'VALIDATION_FAILED' && Array.isArray(error.details)) {
    const issues = (error.details as FieldIssue[]).map((d) => ({ ...d, field: FIELD_NAMES.reduce((f, [from, to]) => f.replace(from, to), d.field) }));
    return validationFailed(issues, error.message);
  }
  // The counter's contract for a refused card (the core's settlement answers 409 payment_declined).
  const details = error.details as { reason?: string; paymentCode?: string } | undefined;
  if (error.code === 'CONFLICT' && details?.reason === 'payment_declined') {
    return new AppError('CHECKOUT_FAILED', `The exchange was not made: ${error.message}`, { reason: 'payment_declined', paymentCode: details.paymentCode ?? 'card_declined' });
  }
  return error;
}

async function step<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw inRouteTerms(error);
  }
}

/** The core routes audit each move of a return; made here, the same entries are written. */
async function audited(ctx: Ctx, action: string, view: ReturnView): Promise<ReturnView> {
  await recordAudit(ctx.db, ctx, { event: `returns.${action}`, entityType: 'order_return', entityId: view.id, after: view });
  return view;
}

export async function createExchange(ctx: Ctx, options: ExchangeOptions, input: ExchangeInput): Promise<ExchangeView> {
  const tx = ctx.db;
  const org = ctx.organization.id;

  // 1. One exchange per key, even when the same request arrives twice at once.
  await tx.$executeRaw`select pg_advisory_xact_lock(hashtextextended(${`pos-exchange:${org}:${input.idempotencyKey}`}, 0))`;
  const earlier = await tx.posExchange.findUnique({ where: { organizationId_idempotencyKey: { organizationId: org, idempotencyKey: input.idempotencyKey } } });
  if (earlier) return { ...exchangeView(earlier), replayed: true };

  // 2. The original order (locked for the whole operation) and what may come back at the counter.
  const order = await lockOrder(tx, ctx, input.orderId);
  if (!PAID.has(order.paymentStatus))
    throw conflict(`Only a paid order can be exchanged (payment status: ${order.paymentStatus})`, { reason: 'order_not_paid', paymentStatus: order.paymentStatus });
  const byId = new Map(order.lines.map((l) => [l.id, l]));
  const issues: FieldIssue[] = [];
  const asked = new Map<string, number>();
  input.returnLines.forEach((line, i) => {
    if (!byId.has(line.lineItemId)) issues.push({ field: `returnLines.${i}.lineItemId`, message: 'is not a line of this order' });
    else asked.set(line.lineItemId, (asked.get(line.lineItemId) ?? 0) + line.quantity);
  });
  for (const [lineId, quantity] of asked) {
    const row = byId.get(lineId);
    const inHand = row ? Math.min(row.fulfilledQuantity, row.quantity - row.refundedQuantity) : 0;
    if (quantity > inHand) {
      const i = input.returnLines.findIndex((l) => l.lineItemId === lineId);
      issues.push({ field: `returnLines.${i}.quantity`, message: `only ${inHand} unit(s) of this line were handed over and not refunded` });
    }
  }
  if (issues.length) throw validationFailed(issues, 'The exchange cannot be made as asked');

  // 3. The core exchange: the replacement lines priced (catalog price, tax) and their stock reserved.
  const opened = await step(() =>
    createReturn(
      ctx,
      order.id,
      {
        lines: [...asked].map(([lineItemId, quantity]) => ({ lineItemId, quantity })),
        reasonCode: 'other',
        customerNote: input.reason ?? null,
        exchangeLines: input.newLines.map((l) => ({ entityId: l.entityId, variantId: l.variantId ?? null, quantity: l.quantity })),
      },
      'staff',
    ),
  );
  await audited(ctx, 'create', opened);
  const catalog = new Map(opened.exchangeLines.map((l, i) => [i, l.unitPrice]));
  const overridden = input.newLines.flatMap((l, i) => (l.unitPrice != null && l.unitPrice !== catalog.get(i) ? [{ position: i, unitPrice: l.unitPrice }] : []));
  if (overridden.length && !input.priceOverrideToken) {
    throw validationFailed(
      overridden.map((o) => ({
        field: `newLines.${o.position}.unitPrice`,
        message: 'differs from the price list: needs a manager override (priceOverrideToken for price_override)',
      })),
      'The exchange cannot be made as asked',
    );
  }
  const exchangeId = randomUUID();
  const overrideIds: string[] = [];
  const usedFor = `exchange:${exchangeId}`;
  // What the replacement costs is the core's exchangeTotal: its lines taxed as checkout taxes an
  // order (an overridden price's tax recomputed by the core), not the bare sum of unit prices.
  let replacementTotal = opened.exchangeTotal;
  if (overridden.length) {
    overrideIds.push((await consumeOverride(tx, ctx, input.priceOverrideToken as string, 'price_override', usedFor, 'priceOverrideToken')).id);
    replacementTotal = await overrideExchangeLinePrices(tx, ctx, opened.id, overridden);
  }

  // 4. Approved and received at the counter: the goods back where their line shipped from.
  await audited(ctx, 'approve', await step(() => decideReturn(ctx, opened.id, 'approve', null)));
  const received = await step(() =>
    receiveReturn(ctx, opened.id, {
      lines: opened.lines.map((l) => ({
        lineItemId: l.lineItemId,
        disposition: 'restock' as const,
        warehouseId: (byId.get(l.lineItemId)?.reservations as Array<{ warehouseId?: string }> | null)?.[0]?.warehouseId ?? null,
      })),
      note: input.reason ?? null,
    }),
  );
  await audited(ctx, 'receive', received);

  // 5. The difference, from the core's credit, checked before any money moves.
  const { credit } = await step(async () =>
    exchangeCredit(await lockOrder(tx, ctx, order.id), { id: opened.id, lines: opened.lines.map((l) => ({ lineId: l.lineItemId, quantity: l.quantity })) }),
  );
  const difference = replacementTotal - credit;
  if (difference > 0 && !input.paymentMethodId) {
    throw validationFailed([{ field: 'paymentMethodId', message: `the customer owes ${difference}: a payment method is needed to charge it` }]);
  }
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
    overrideIds.push((await consumeOverride(tx, ctx, input.refundOverrideToken, 'refund_over_cap', usedFor, 'refundOverrideToken')).id);
  }
  if (difference < 0 && !order.paymentIntentId) {
    throw conflict('The original payment has no provider payment to refund the difference to', { reason: 'no_provider_payment' });
  }

  // 6. The core settles: replacement order, credit, charge or refund.
  const refundsBefore = new Set((await tx.orderRefund.findMany({ where: { orderId: order.id }, select: { id: true } })).map((r) => r.id));
  const exchanged = await step(() => exchangeReturn(ctx, opened.id, { method: 'original_payment', paymentMethodId: difference > 0 ? (input.paymentMethodId ?? null) : null }));
  await audited(ctx, 'exchange', exchanged);
  const replacementOrderId = exchanged.exchangeOrderId as string;
  // The refund row that records the returned lines (the credit carried over) is the one the core
  // wrote beside the refund of a negative difference.
  const creditRefund = await tx.orderRefund.findFirstOrThrow({
    where: { orderId: order.id, id: { notIn: [...refundsBefore, ...(exchanged.refundId ? [exchanged.refundId] : [])] } },
    select: { id: true },
  });
  const replacement = await tx.order.findUniqueOrThrow({ where: { id: replacementOrderId }, select: { status: true } });
  if (replacement.status === 'confirmed') {
    // Paid by the credit (and a refund): handed over at the counter.
    await updateOrderStatus(ctx, replacementOrderId, { status: 'processing', reason: 'point-of-sale exchange' });
    await createFulfillment(ctx, replacementOrderId, {});
  }
  let settlement = 'none';
  let providerReference: string | null = null;
  if (exchanged.exchangeDifference > 0 && exchanged.exchangePaymentId) {
    settlement = 'charge';
    providerReference = (await tx.payment.findUniqueOrThrow({ where: { id: exchanged.exchangePaymentId }, select: { providerReference: true } })).providerReference;
  } else if (exchanged.exchangeDifference < 0 && exchanged.refundId) {
    settlement = 'refund';
    // Paid out already when the organization's refund undo window is 0; otherwise when it closes.
    providerReference = (await tx.orderRefund.findUniqueOrThrow({ where: { id: exchanged.refundId }, select: { providerRefundId: true } })).providerRefundId;
  }

  // 7. The counter's record of it.
  const row = await tx.posExchange.create({
    data: {
      id: exchangeId,
      organizationId: org,
      returnId: exchanged.id,
      originalOrderId: order.id,
      replacementOrderId,
      refundId: creditRefund.id,
      currency: order.currency,
      credit: BigInt(exchanged.exchangeCredit),
      replacementTotal: BigInt(exchanged.exchangeTotal),
      difference: BigInt(exchanged.exchangeDifference),
      settlement,
      providerReference,
      idempotencyKey: input.idempotencyKey,
      registerId: input.registerId ?? null,
      overrideIds,
      createdBy: actorRecord(ctx).id,
    },
  });
  return { ...exchangeView(row), replayed: false };
}
