// Refunds paid out through the payments they came from.
//
// `refundOrder` pays one refund (order_refunds row) back: the first time it splits the amount
// over the order's provider payments — REFUND ORDER: the newest captured payment first (gift cards
// and store credit, LEDGER_TENDERS, are given back before this, in the refund's own transaction,
// by orders/refunds.ts through gift-cards/tenders.ts) — into allocations (payment_refunds), then asks each payment's
// provider for its part with the key `<payment>:refund:<refund>:<attempt>` (a refund has one
// allocation per payment; the refund row is committed before any provider call, so a settlement
// rolled back after a lost answer plans the same allocation again under the same key). An allocation the
// provider refused stays `failed`; a retry (the refund retry route) raises its attempt, so the
// provider is asked anew, while a call whose answer was lost (it threw; the transaction rolled
// back) is repeated with the same key and pays out once.
//
// A replacement order's exchange credit (returns/exchange.ts) is planned with it: its part of the
// refund goes back through the original order's payments it came from (exchange-credit.ts), as
// allocations of this refund on those payments ("paybacks": the refund's order is not the
// payment's). A payback to a provider payment is a provider refund like any other; one to a gift
// card or store credit of the original order is a ledger credit. Its success is counted on the
// replacement's exchange_credit payment, not on the original's payment, which counted the
// transfer already.
import type { Tx } from '../../db/client.js';
import type { Payment } from '../../generated/prisma/client.js';
import { restoreForUndoneRefund } from '../gift-cards/revoke.js';
import { creditTenderBack, EXCHANGE_CREDIT_PROVIDER, type TenderRefundPart } from '../gift-cards/tenders.js';
import { restoreRefunded } from '../orders/refund-restore.js';
import type { OrdersCtx } from '../orders/shared.js';
import type { OrderRow } from '../orders/views.js';
import type { Applied } from './apply.js';
import { paymentKeys } from './keys.js';
import type { PaymentProviderEvent } from './provider.js';
import type { PaymentsService } from './service.js';
import { syncOrderPayment, updatePayment } from './records.js';
import { planExchangePayback } from './exchange-credit.js';

/**
 * Tenders kept in our own ledgers, never refunded by a provider call of their own: gift cards,
 * store credit, and the exchange credit a replacement order was paid with (returns/exchange.ts;
 * it goes back through the original order's payments, exchange-credit.ts).
 */
export const LEDGER_TENDERS = new Set(['gift_card', 'store_credit', 'exchange_credit']);

const n = (value: bigint | number) => Number(value);

/** The order in which an order's payments give money back (see the header). */
export function refundSequence<T extends Pick<Payment, 'provider' | 'createdAt' | 'id'>>(payments: readonly T[]): T[] {
  return [...payments].sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || b.id.localeCompare(a.id));
}

export type RefundOrderResult = { ok: true } | { ok: false; code: string; message: string; retryable: boolean };

export interface RefundDeps {
  payments: PaymentsService;
  /** For payments.update events: who is acting (the system in jobs). */
  ctx: Pick<OrdersCtx, 'organization' | 'actor' | 'requestId'>;
}

/**
 * Pays a refund out against the order's payments (the order row is locked by the caller). Throws
 * when a provider cannot be reached (nothing of that call recorded: retry with the same keys).
 */
export async function refundOrder(
  tx: Tx,
  deps: RefundDeps,
  refund: { id: string; orderId: string; organizationId: string; amount: bigint | number; currency: string },
  metadata: Record<string, string> = {},
  /** The exchange-credit parts of the refund (gift-cards/tenders.ts planTenderRefund), paid back through the original order's payments. */
  exchangeCredit: readonly TenderRefundPart[] = [],
): Promise<RefundOrderResult> {
  let allocations = await tx.paymentRefund.findMany({ where: { refundId: refund.id }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] });
  if (!allocations.length) {
    // Gift cards and store credit are paid back in the refund's own transaction by their module
    // (gift-cards/tenders.ts, called by orders/refunds.ts); provider payments and the exchange
    // credit's paybacks are planned here.
    const payments = await tx.payment.findMany({ where: { orderId: refund.orderId, organizationId: refund.organizationId, provider: { notIn: [...LEDGER_TENDERS] } } });
    // Room held by other refunds of this order (a pending payback of a replacement's refund on one
    // of these payments takes nothing of this order's own room: the transfer counted it).
    const pendingByPayment = await tx.paymentRefund.groupBy({
      by: ['paymentId'],
      where: { paymentId: { in: payments.map((p) => p.id) }, status: 'pending', refund: { orderId: refund.orderId } },
      _sum: { amount: true },
    });
    const reserved = new Map(pendingByPayment.map((r) => [r.paymentId, n(r._sum.amount ?? 0n)]));
    let left = n(refund.amount);
    const plan: Array<{ paymentId: string; amount: number }> = [];
    for (const payment of refundSequence(payments)) {
      if (left <= 0) break;
      const room = n(payment.capturedAmount) - n(payment.refundedAmount) - (reserved.get(payment.id) ?? 0);
      if (room <= 0) continue;
      const take = Math.min(room, left);
      plan.push({ paymentId: payment.id, amount: take });
      left -= take;
    }
    if (left > 0)
      return { ok: false, code: 'no_payment', message: `The order's payments have ${n(refund.amount) - left} left to refund, not ${n(refund.amount)}`, retryable: false };
    const paybacks = new Map<string, bigint>();
    for (const part of exchangeCredit) {
      const credit = await tx.payment.findUniqueOrThrow({ where: { id: part.paymentId } });
      const planned = await planExchangePayback(tx, refund.organizationId, credit, part.amount);
      if (planned.left > 0n) {
        const message = `The original order's payments have ${part.amount - planned.left} of the exchange credit left to give back, not ${part.amount}`;
        return { ok: false, code: 'no_payment', message, retryable: false };
      }
      // One allocation per payment (its idempotency key names the payment and the refund).
      for (const p of planned.parts) paybacks.set(p.paymentId, (paybacks.get(p.paymentId) ?? 0n) + p.amount);
    }
    for (const [paymentId, amount] of paybacks) plan.push({ paymentId, amount: n(amount) });
    for (const [i, part] of plan.entries()) {
      await tx.paymentRefund.create({
        data: { organizationId: refund.organizationId, refundId: refund.id, paymentId: part.paymentId, amount: BigInt(part.amount), createdAt: new Date(Date.now() + i) },
      });
    }
    allocations = await tx.paymentRefund.findMany({ where: { refundId: refund.id }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] });
  }
  for (const allocation of allocations) {
    if (allocation.status !== 'pending') continue;
    const payment = await tx.payment.findUniqueOrThrow({ where: { id: allocation.paymentId } });
    const payback = payment.orderId !== refund.orderId;
    if (payback && LEDGER_TENDERS.has(payment.provider)) {
      // The original order was paid by a gift card or store credit: the credit goes back to it.
      const original = await tx.order.findUniqueOrThrow({ where: { id: payment.orderId }, select: { customerId: true } });
      await creditTenderBack(
        tx,
        { organizationId: refund.organizationId, orderId: payment.orderId, currency: payment.currency, customerId: original.customerId },
        payment,
        allocation.amount,
        {
          note: `refund ${refund.id} of replacement order ${refund.orderId}`,
          reason: 'Refund of an exchange credit',
          sourceType: 'refund',
          sourceId: refund.id,
        },
      );
      await tx.paymentRefund.update({ where: { id: allocation.id }, data: { status: 'succeeded', settledAt: new Date() } });
      await countPayback(tx, deps, refund.orderId, allocation.amount);
      continue;
    }
    const provider = deps.payments.providers.get(payment.provider);
    if (!provider || !payment.providerReference) {
      await tx.paymentRefund.update({
        where: { id: allocation.id },
        data: { status: 'failed', failureCode: 'provider_not_enabled', failureMessage: `The provider ${payment.provider} is not enabled`, settledAt: new Date() },
      });
      return { ok: false, code: 'provider_not_enabled', message: `The payment provider ${payment.provider} is not enabled`, retryable: true };
    }
    const result = await provider.refund({
      paymentId: payment.id,
      refundId: refund.id,
      providerReference: payment.providerReference,
      amount: n(allocation.amount),
      currency: payment.currency,
      idempotencyKey: paymentKeys.refund(payment.id, refund.id, allocation.attempt),
      metadata,
    });
    if (!result.ok) {
      await tx.paymentRefund.update({ where: { id: allocation.id }, data: { status: 'failed', failureCode: result.code, failureMessage: result.message, settledAt: new Date() } });
      return { ok: false, code: result.code, message: result.message, retryable: result.retryable };
    }
    await tx.paymentRefund.update({ where: { id: allocation.id }, data: { status: 'succeeded', providerReference: result.providerReference, settledAt: new Date() } });
    if (payback) {
      await countPayback(tx, deps, refund.orderId, allocation.amount);
      continue;
    }
    const refunded = n(payment.refundedAmount) + n(allocation.amount);
    await updatePayment(
      tx,
      deps.ctx,
      payment.id,
      { refundedAmount: BigInt(refunded), status: refunded >= n(payment.capturedAmount) ? 'refunded' : 'partially_refunded' },
      'refunded',
    );
  }
  return { ok: true };
}

/** A payback succeeded (or failed after all: -1): the replacement order's exchange_credit payment gave that much back. */
async function countPayback(tx: Tx, deps: Pick<RefundDeps, 'ctx'>, orderId: string, amount: bigint, direction: 1n | -1n = 1n): Promise<void> {
  const credit = await tx.payment.findFirst({ where: { orderId, provider: EXCHANGE_CREDIT_PROVIDER }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] });
  if (!credit) throw new Error(`payments: a payback of order ${orderId}, which has no exchange_credit payment`);
  const refunded = credit.refundedAmount + direction * amount;
  const status = refunded <= 0n ? 'captured' : refunded >= credit.capturedAmount ? 'refunded' : 'partially_refunded';
  await updatePayment(tx, deps.ctx, credit.id, { refundedAmount: refunded, status }, direction > 0n ? 'refunded' : 'refund_failed');
}

/**
 * A refund whose money leaves through no payment provider (paid out as store credit, or the
 * exchange credit carried onto a replacement order) is still recorded against the order's
 * payments — newest first, succeeded allocations without a provider reference — so every refund
 * shows on the payments it came from and the order's paymentStatus is derived from them
 * (records.ts syncOrderPayment) like any other refund's. Room held by pending allocations of
 * other refunds is left to them.
 */
export async function recordRefundWithoutProvider(tx: Tx, input: { organizationId: string; orderId: string; refundId: string; amount: bigint }): Promise<void> {
  const payments = await tx.payment.findMany({ where: { orderId: input.orderId, organizationId: input.organizationId, status: { notIn: ['failed', 'voided'] } } });
  const pending = await tx.paymentRefund.groupBy({
    by: ['paymentId'],
    where: { paymentId: { in: payments.map((p) => p.id) }, status: 'pending', refund: { orderId: input.orderId } },
    _sum: { amount: true },
  });
  const reserved = new Map(pending.map((r) => [r.paymentId, r._sum.amount ?? 0n]));
  let left = input.amount;
  for (const payment of refundSequence(payments)) {
    if (left <= 0n) break;
    const room = payment.capturedAmount - payment.refundedAmount - (reserved.get(payment.id) ?? 0n);
    if (room <= 0n) continue;
    const take = smaller(room, left);
    await tx.paymentRefund.create({
      data: { organizationId: input.organizationId, refundId: input.refundId, paymentId: payment.id, amount: take, status: 'succeeded', settledAt: new Date() },
    });
    const refunded = payment.refundedAmount + take;
    await tx.payment.update({ where: { id: payment.id }, data: { refundedAmount: refunded, status: refunded >= payment.capturedAmount ? 'refunded' : 'partially_refunded' } });
    left -= take;
  }
}

/** Whether some part of the refund was already paid out (a retry must not give its quantities back twice). */
export async function paidOutPart(tx: Tx, refundId: string): Promise<number> {
  const sum = await tx.paymentRefund.aggregate({ where: { refundId, status: 'succeeded' }, _sum: { amount: true } });
  return n(sum._sum.amount ?? 0n);
}

/** A retry: the refused allocations are asked again with a new attempt number (a new idempotency key). */
export async function reopenFailedAllocations(tx: Tx, refundId: string): Promise<void> {
  await tx.paymentRefund.updateMany({
    where: { refundId, status: 'failed' },
    data: { status: 'pending', attempt: { increment: 1 }, failureCode: null, failureMessage: null, settledAt: null },
  });
}

/**
 * A provider's asynchronous refund result (Stripe's refund.updated). A success we recorded
 * already is a confirmation; a failure of an allocation we counted as paid gives its amount back
 * to the payment and marks the allocation failed (the refund can then be retried).
 */
export async function refundEvent(tx: Tx, ctx: OrdersCtx, order: OrderRow, payment: Payment, event: PaymentProviderEvent): Promise<Applied> {
  const allocation = event.providerRefundReference
    ? await tx.paymentRefund.findFirst({ where: { paymentId: payment.id, providerReference: event.providerRefundReference } })
    : event.refundId
      ? await tx.paymentRefund.findFirst({ where: { paymentId: payment.id, refundId: event.refundId } })
      : null;
  if (!allocation) return { outcome: 'ignored: refund not known', afterCommit: [] };
  if (event.type === 'payment.refunded') return { outcome: allocation.status === 'succeeded' ? 'refunded' : `ignored: refund is ${allocation.status}`, afterCommit: [] };
  if (allocation.status !== 'succeeded') return { outcome: `ignored: refund is ${allocation.status}`, afterCommit: [] };
  await tx.paymentRefund.update({
    where: { id: allocation.id },
    data: { status: 'failed', failureCode: event.failure?.code ?? 'refund_failed', failureMessage: event.failure?.message ?? 'The provider could not pay the refund out' },
  });
  const { orderId: refundOrderId } = await tx.orderRefund.findUniqueOrThrow({ where: { id: allocation.refundId }, select: { orderId: true } });
  let owner: Pick<OrderRow, 'id' | 'grandTotal' | 'paymentStatus' | 'capturedAmount'> = order;
  if (refundOrderId === order.id) {
    const refunded = Math.max(0, n(payment.refundedAmount) - n(allocation.amount));
    await updatePayment(tx, ctx, payment.id, { refundedAmount: BigInt(refunded), status: refunded === 0 ? 'captured' : 'partially_refunded' }, 'refund_failed');
  } else {
    // A payback of a replacement order's exchange credit (see the header): the replacement's
    // credit payment counted it, and the replacement's amounts are the ones to restore. Its row
    // is locked after the original's (which the webhook holds); a settlement never locks the original.
    await tx.$queryRaw`select id from orders where id = ${refundOrderId}::uuid for update`;
    owner = await tx.order.findUniqueOrThrow({ where: { id: refundOrderId } });
    await countPayback(tx, { ctx }, refundOrderId, allocation.amount, -1n);
  }
  const refund = await tx.orderRefund.update({
    where: { id: allocation.refundId },
    data: { status: 'failed', failureReason: `${event.failure?.code ?? 'refund_failed'}: ${event.failure?.message ?? 'failed at the provider'}` },
    include: { lines: true },
  });
  // Nothing of the refund paid out any more: the order's amounts and quantities are as before it,
  // and the gift cards it took back are live again (their money was not returned after all).
  if ((await paidOutPart(tx, refund.id)) === 0) {
    await restoreRefunded(tx, refund);
    await restoreForUndoneRefund(tx, refund.organizationId, refund.id, `refund ${refund.id} failed at the provider`);
  } else await tx.order.update({ where: { id: refund.orderId }, data: { refundedAmount: { decrement: allocation.amount } } });
  await syncOrderPayment(tx, owner);
  return { outcome: 'refund_failed', afterCommit: [] };
}

/** min of two bigints (Math.min takes numbers only). */
function smaller(a: bigint, b: bigint): bigint {
  return b < a ? b : a;
}
