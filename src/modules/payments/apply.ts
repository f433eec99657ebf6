// What a provider's answer or event does to a payment record and its order (the order row is
// locked by the caller). Shared by checkout's answer, POST /api/payments/:id/confirm and the
// webhook receiver, so a state reached by an answer and then reported again by an event (or the
// other way round, or twice) ends in one place:
//   authorized       payment authorized (authorizedAmount = the event's amount or the payment's);
//                    an order awaiting payment is confirmed.
//   captured         automatic capture (we never sent a capture for this payment): the event's
//                    amount is added to what was captured, capped at what was authorized — two
//                    events for a short and then the rest add up, a repeat of the whole amount
//                    after the answer already counted it does not. A payment we captured
//                    ourselves (capture_count > 0) counted each capture when the provider
//                    accepted it: the event only confirms. An order awaiting payment is
//                    confirmed once its payments cover the total.
//   failed           pending / requires_action → failed; a failed 3-D Secure or redirect action
//                    cancels the order at once (stock and promotion uses released).
//   voided, expired  the authorization is gone: captured nothing → voided; captured part → the
//                    rest is released (captured). expired also sets payments.expired.
// Every change records payments.update; a late event (authorized after captured, failed after
// captured) changes nothing and says why in its outcome.
import type { Tx } from '../../db/client.js';
import type { Payment, Prisma } from '../../generated/prisma/client.js';
import { moveOrder } from '../orders/service.js';
import { SYSTEM_ACTOR, type OrdersCtx } from '../orders/shared.js';
import type { OrderRow } from '../orders/views.js';
import type { PaymentFailure, PaymentNextAction } from './provider.js';
import { canMove, syncOrderPayment, updatePayment } from './records.js';

export type Outcome =
  | { kind: 'authorized'; amount?: number; expiresAt?: Date }
  | { kind: 'captured'; amount?: number }
  | { kind: 'failed'; failure?: PaymentFailure }
  | { kind: 'voided' }
  | { kind: 'expired' }
  | { kind: 'requires_action'; nextAction?: PaymentNextAction };

export interface Applied {
  /** confirmed, paid, partially_paid, authorized, failed, cancelled, voided, expired, recorded, or ignored: <why>. */
  outcome: string;
  afterCommit: Array<() => Promise<void>>;
}

const n = (value: bigint | number) => Number(value);

export async function applyOutcome(tx: Tx, ctx: OrdersCtx, order: OrderRow, payment: Payment, outcome: Outcome, reason: string): Promise<Applied> {
  const systemCtx: OrdersCtx = { ...ctx, actor: null };
  const none: Applied['afterCommit'] = [];
  const ignored = (why: string): Applied => ({ outcome: `ignored: ${why}`, afterCommit: none });

  switch (outcome.kind) {
    case 'requires_action': {
      if (payment.status !== 'pending') return ignored(`payment is ${payment.status}`);
      await updatePayment(
        tx,
        ctx,
        payment.id,
        { status: 'requires_action', ...(outcome.nextAction ? { nextAction: outcome.nextAction as unknown as Prisma.InputJsonObject } : {}) },
        'requires_action',
      );
      return { outcome: 'recorded', afterCommit: none };
    }
    case 'authorized': {
      if (!canMove(payment.status, 'authorized') || n(payment.capturedAmount) > 0) return ignored(`payment is ${payment.status}`);
      if (order.status === 'cancelled') return ignored('order is cancelled');
      const authorized = outcome.amount ?? n(payment.amount);
      await updatePayment(
        tx,
        ctx,
        payment.id,
        { status: 'authorized', authorizedAmount: BigInt(authorized), nextAction: undefined, ...(outcome.expiresAt ? { expiresAt: outcome.expiresAt } : {}) },
        'authorized',
      );
      return confirmIfCovered(tx, systemCtx, order, reason, 'authorized');
    }
    case 'captured': {
      if (payment.status === 'voided' || payment.status === 'failed') {
        if (outcome.amount) ctx.logger.warn({ orderId: order.id, paymentId: payment.id, amount: outcome.amount }, `money captured for a ${payment.status} payment: refund it`);
        return ignored(`payment is ${payment.status}`);
      }
      if (order.status === 'cancelled') {
        ctx.logger.warn({ orderId: order.id, paymentId: payment.id, amount: outcome.amount }, 'payment succeeded for a cancelled order: refund it');
        return ignored('order is cancelled');
      }
      const ceiling = Math.max(n(payment.authorizedAmount), n(payment.amount));
      const captured = payment.captureCount > 0 ? n(payment.capturedAmount) : Math.min(ceiling, n(payment.capturedAmount) + (outcome.amount ?? ceiling));
      if (captured !== n(payment.capturedAmount) || payment.status === 'pending' || payment.status === 'requires_action') {
        const full = captured >= ceiling;
        const status = n(payment.refundedAmount) > 0 ? payment.status : full ? 'captured' : 'partially_captured';
        await updatePayment(
          tx,
          ctx,
          payment.id,
          { capturedAmount: BigInt(captured), authorizedAmount: BigInt(Math.max(n(payment.authorizedAmount), captured)), status, nextAction: undefined },
          'captured',
        );
      }
      return confirmIfCovered(tx, systemCtx, order, reason, 'paid');
    }
    case 'failed': {
      if (!canMove(payment.status, 'failed')) return ignored(`payment is ${payment.status}`);
      const wasAction = payment.status === 'requires_action';
      await updatePayment(
        tx,
        ctx,
        payment.id,
        { status: 'failed', nextAction: undefined, failureCode: outcome.failure?.code ?? 'payment_failed', failureMessage: outcome.failure?.message ?? 'The payment failed.' },
        'failed',
      );
      await syncOrderPayment(tx, order);
      if (wasAction && order.status === 'pending') {
        const moved = await moveOrder(
          tx,
          systemCtx,
          { ...order },
          { trigger: 'patch', to: 'cancelled', actor: SYSTEM_ACTOR, reason: `payment ${outcome.failure?.code ?? 'failed'}: ${reason}` },
        );
        return { outcome: 'cancelled', afterCommit: moved.afterCommit };
      }
      return { outcome: 'failed', afterCommit: none };
    }
    case 'voided':
    case 'expired': {
      const expired = outcome.kind === 'expired';
      if (payment.status === 'voided' || payment.status === 'failed') return ignored(`payment is ${payment.status}`);
      const captured = n(payment.capturedAmount);
      if (captured === 0 && !canMove(payment.status, 'voided')) return ignored(`payment is ${payment.status}`);
      if (captured > 0 && payment.status !== 'partially_captured') {
        if (!expired) return ignored(`payment is ${payment.status}`);
        await updatePayment(tx, ctx, payment.id, { expired: true }, 'expired');
      } else {
        const data: Prisma.PaymentUpdateInput = captured === 0 ? { status: 'voided', nextAction: undefined } : { status: 'captured', authorizedAmount: BigInt(captured) };
        await updatePayment(tx, ctx, payment.id, { ...data, ...(expired ? { expired: true, expiresAt: new Date() } : {}) }, outcome.kind);
      }
      await syncOrderPayment(tx, order);
      return { outcome: outcome.kind, afterCommit: none };
    }
  }
}

/**
 * After a payment moved: the order's payment status from its payments, and an order awaiting
 * payment confirmed once they cover its total (captured, or authorized in full).
 */
async function confirmIfCovered(tx: Tx, ctx: OrdersCtx, order: OrderRow, reason: string, coveredOutcome: 'authorized' | 'paid'): Promise<Applied> {
  const synced = await syncOrderPayment(tx, order);
  const payments = await tx.payment.findMany({ where: { orderId: order.id, status: { notIn: ['failed', 'voided'] } }, select: { authorizedAmount: true, capturedAmount: true } });
  const covered = payments.reduce((sum, p) => sum + Math.max(n(p.authorizedAmount), n(p.capturedAmount)), 0) >= n(order.grandTotal);
  if (!covered) return { outcome: synced.paymentStatus === 'partially_paid' ? 'partially_paid' : 'recorded', afterCommit: [] };
  if (order.status === 'pending') {
    const moved = await moveOrder(tx, ctx, order, {
      trigger: 'payment',
      to: 'confirmed',
      actor: SYSTEM_ACTOR,
      capturedAmount: synced.capturedAmount,
      paymentStatus: synced.paymentStatus,
      reason,
    });
    return { outcome: 'confirmed', afterCommit: moved.afterCommit };
  }
  return { outcome: coveredOutcome, afterCommit: [] };
}
