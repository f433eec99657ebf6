// Capture and void of an order's authorized payments (POST /api/orders/:id/capture and /void,
// the on_fulfilment capture job, cancellation).
//
// The order row is locked for the whole call, provider call included, so two captures of one
// order are serialized: the second sees what the first captured. The capture's idempotency key
// is `<payment>:capture:<capture_count + 1>`; the count is written only with the provider's
// answer, so a capture whose answer was lost (the call throws, the transaction rolls back) is
// retried with the same key and the provider moves the money once.
import type { Tx } from '../../db/client.js';
import type { Payment } from '../../generated/prisma/client.js';
import { AppError, conflict, validationFailed } from '../../errors.js';
import { lockOrder, lockOrderForSystem } from '../orders/service.js';
import type { OrdersCtx } from '../orders/shared.js';
import { inTransaction } from '../orders/tx.js';
import { orderView, type OrderView } from '../orders/views.js';
import { ORDER_INCLUDE } from '../orders/views.js';
import { returnTendersOnCancel } from '../gift-cards/tenders.js';
import type { CancellingOrder } from '../orders/payment-port.js';
import { paymentKeys } from './keys.js';
import { capturable, lockPayments, paymentView, syncOrderPayment, updatePayment, type PaymentView } from './records.js';
import type { PaymentProvider } from './provider.js';

export interface CaptureOutcome {
  order: OrderView;
  payments: PaymentView[];
  /** What this call captured. */
  captured: number;
}

export function providerOf(ctx: Pick<OrdersCtx, 'services'>, name: string): PaymentProvider {
  const provider = ctx.services.payments.providers.get(name);
  if (!provider) throw new AppError('SERVICE_UNAVAILABLE', `The payment provider ${name} of this payment is not enabled here`, { reason: 'provider_not_enabled', provider: name });
  return provider;
}

/** A provider that cannot be reached: nothing was recorded, the same call may be retried (same idempotency key). */
function unreachable(ctx: Pick<OrdersCtx, 'logger'>, error: unknown, what: string): AppError {
  ctx.logger.error({ err: error }, `payment provider call failed: ${what}`);
  return new AppError('SERVICE_UNAVAILABLE', `The payment provider could not be reached (${what}); nothing was recorded, try again`, { reason: 'provider_unreachable' });
}

/**
 * Captures `amount` (default: everything still authorized) of the order's authorized payments,
 * oldest payment first. More than is capturable is 422; nothing capturable is 409.
 */
export async function captureOrder(ctx: OrdersCtx, orderId: string, amount: number | null | undefined, options: { system?: boolean } = {}): Promise<CaptureOutcome> {
  return inTransaction(
    ctx.db,
    async (tx) => {
      const order = options.system ? await lockOrderForSystem(tx, ctx.organization.id, orderId) : await lockOrder(tx, ctx, orderId);
      if (!order) throw new AppError('NOT_FOUND', 'Order not found');
      if (order.status === 'cancelled') throw conflict('A cancelled order cannot be captured', { status: order.status });
      const payments = await lockPayments(tx, ctx.organization.id, order.id);
      const open = payments.filter((p) => capturable(p) > 0);
      const available = open.reduce((sum, p) => sum + capturable(p), 0);
      if (available === 0) throw conflict('This order has no authorized amount left to capture', { paymentStatus: order.paymentStatus, capturable: 0 });
      // Without an amount: what the order still owes, when an order edit lowered its total below
      // the authorization (order-edits: authorization_covers); the rest of that authorization is
      // released with the last capture. Otherwise (the usual case) everything authorized.
      const owed = Number(order.grandTotal) - Number(order.capturedAmount);
      const release = amount == null && owed > 0 && owed < available;
      const wanted = amount ?? (release ? owed : available);
      if (wanted > available) throw validationFailed([{ field: 'amount', message: `is above what is authorized and not captured (${available})` }]);
      let left = wanted;
      for (const payment of open) {
        if (left <= 0) break;
        const take = Math.min(left, capturable(payment));
        await capturePayment(tx, ctx, payment, take, release && take === left);
        left -= take;
      }
      const synced = await syncOrderPayment(tx, order);
      const updated = await tx.order.findUniqueOrThrow({ where: { id: order.id }, include: ORDER_INCLUDE });
      const after = await tx.payment.findMany({ where: { orderId: order.id }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] });
      void synced;
      return { order: orderView(updated), payments: after.map(paymentView), captured: wanted };
    },
    { timeout: ctx.services.payments.timeoutMs + 15_000 },
  );
}

/** `releaseRest`: this capture is the order's last, the rest of the authorization is released (final capture). */
async function capturePayment(tx: Tx, ctx: OrdersCtx, payment: Payment, amount: number, releaseRest = false): Promise<void> {
  const provider = providerOf(ctx, payment.provider);
  const remaining = capturable(payment);
  const sequence = payment.captureCount + 1;
  const final = releaseRest || amount >= remaining;
  // Only a payment the provider answered for is capturable (authorized), and that answer carried its reference.
  const providerReference = payment.providerReference;
  if (!providerReference) throw new AppError('CONFLICT', 'This payment has no provider reference to capture', { paymentId: payment.id });
  const result = await provider
    .capture({ paymentId: payment.id, providerReference, amount, currency: payment.currency, idempotencyKey: paymentKeys.capture(payment.id, sequence), final })
    .catch((error: unknown) => {
      throw unreachable(ctx, error, 'capture');
    });
  if (!result.ok) {
    throw new AppError('CONFLICT', `The payment provider refused the capture: ${result.message}`, { reason: result.code, retryable: result.retryable, paymentId: payment.id });
  }
  const captured = Number(payment.capturedAmount) + amount;
  // A final capture released the rest: nothing is left to capture.
  const full = final || captured >= Number(payment.authorizedAmount);
  await updatePayment(tx, ctx, payment.id, { capturedAmount: BigInt(captured), captureCount: sequence, status: full ? 'captured' : 'partially_captured' }, 'captured');
}

/** Voids the order's payments that hold an authorization and captured nothing. Nothing to void is 409. */
export async function voidOrder(ctx: OrdersCtx, orderId: string): Promise<CaptureOutcome> {
  return inTransaction(
    ctx.db,
    async (tx) => {
      const order = await lockOrder(tx, ctx, orderId);
      const payments = await lockPayments(tx, ctx.organization.id, order.id);
      const open = payments.filter((p) => (p.status === 'authorized' || p.status === 'pending' || p.status === 'requires_action') && Number(p.capturedAmount) === 0);
      if (!open.length) {
        const partial = payments.some((p) => p.status === 'partially_captured');
        throw conflict(partial ? 'A partially captured payment cannot be voided: capture the rest, or refund what was captured' : 'This order has no authorization to void', {
          paymentStatus: order.paymentStatus,
        });
      }
      for (const payment of open) {
        const provider = providerOf(ctx, payment.provider);
        if (payment.providerReference) {
          const result = await provider
            .void({
              paymentId: payment.id,
              providerReference: payment.providerReference,
              amount: Number(payment.authorizedAmount || payment.amount),
              currency: payment.currency,
              idempotencyKey: paymentKeys.void(payment.id),
            })
            .catch((error: unknown) => {
              throw unreachable(ctx, error, 'void');
            });
          if (!result.ok)
            throw new AppError('CONFLICT', `The payment provider refused the void: ${result.message}`, { reason: result.code, retryable: result.retryable, paymentId: payment.id });
        }
        await updatePayment(tx, ctx, payment.id, { status: 'voided', nextAction: undefined }, 'voided');
      }
      await syncOrderPayment(tx, order);
      const updated = await tx.order.findUniqueOrThrow({ where: { id: order.id }, include: ORDER_INCLUDE });
      const after = await tx.payment.findMany({ where: { orderId: order.id }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] });
      return { order: orderView(updated), payments: after.map(paymentView), captured: 0 };
    },
    { timeout: ctx.services.payments.timeoutMs + 15_000 },
  );
}

/**
 * A cancelled order's payments that collected nothing are voided (in the cancellation's
 * transaction); the provider is told after commit (best effort: an authorization lapses by
 * itself). Returns the provider calls for after commit and the order's new payment status, or
 * null when the order has no payment records (then the old rule applies).
 */
export async function voidOnCancel(
  tx: Tx,
  ctx: OrdersCtx,
  order: CancellingOrder,
  options: { returnTenders?: boolean } = {},
): Promise<{ afterCommit: Array<() => Promise<void>>; paymentStatus: import('../../generated/prisma/client.js').PaymentStatus } | null> {
  const payments = await lockPayments(tx, ctx.organization.id, order.id);
  if (!payments.length) return null;
  // Gift cards and store credit go back to their card and account now, in the cancel's transaction
  // (issue 27): a ledger tender has no provider to void, and the shopper's balance must not wait.
  // Order edits void the old payment through here too but keep the tenders: they pass no returnTenders.
  const returned = !options.returnTenders
    ? []
    : await returnTendersOnCancel(tx, {
        organizationId: ctx.organization.id,
        orderId: order.id,
        currency: order.currency,
        customerId: order.customerId,
        payments,
      });
  let returnedTotal = 0n;
  for (const { payment, amount } of returned) {
    await updatePayment(tx, ctx, payment.id, { refundedAmount: payment.refundedAmount + amount, status: 'refunded' }, 'refunded');
    returnedTotal += amount;
  }
  if (returnedTotal > 0n) await tx.order.update({ where: { id: order.id }, data: { refundedAmount: { increment: returnedTotal } } });
  const afterCommit: Array<() => Promise<void>> = [];
  for (const payment of payments) {
    if (!['pending', 'requires_action', 'authorized'].includes(payment.status) || Number(payment.capturedAmount) > 0) continue;
    await updatePayment(tx, ctx, payment.id, { status: 'voided', nextAction: undefined }, 'voided');
    const provider = ctx.services.payments.providers.get(payment.provider);
    const reference = payment.providerReference;
    if (provider && reference) {
      afterCommit.push(() =>
        provider
          .void({
            paymentId: payment.id,
            providerReference: reference,
            amount: Number(payment.authorizedAmount || payment.amount),
            currency: payment.currency,
            idempotencyKey: paymentKeys.void(payment.id),
          })
          .then((r) => (r.ok ? undefined : ctx.logger.warn({ paymentId: payment.id, code: r.code }, `the provider refused to void the payment of a cancelled order: ${r.message}`)))
          .catch((error: unknown) => ctx.logger.warn({ err: error, orderId: order.id }, 'could not void the payment of a cancelled order')),
      );
    }
  }
  const synced = await syncOrderPayment(tx, order);
  // A cancelled order that collected nothing: voided, whatever its failed attempts were.
  return { afterCommit, paymentStatus: synced.paymentStatus === 'awaiting_payment' ? 'voided' : synced.paymentStatus };
}
