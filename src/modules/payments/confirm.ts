// Completing a payment that waits for the shopper (3-D Secure, a redirect method):
// POST /api/payments/:id/confirm with the parameters the provider put on the return URL. The
// provider is asked (never the parameters trusted): its answer is applied like its event would be
// (apply.ts), so the event arriving before or after changes nothing more. A payment no longer
// waiting answers its current state (a second confirm, or the event was first).
//
// abandonAction (the payments/expire-action job): a payment still waiting when the reservation
// expires is failed (authentication_abandoned), the provider's intent cancelled, and the order
// cancelled with its stock and promotion uses released.
import { AppError, notFound } from '../../errors.js';
import { lockOrderForSystem, runAfterCommit } from '../orders/service.js';
import type { OrdersCtx } from '../orders/shared.js';
import { inTransaction } from '../orders/tx.js';
import { applyOutcome, type Outcome } from './apply.js';
import { providerOf } from './capture.js';
import { paymentKeys } from './keys.js';
import type { AuthorizeResult } from './provider.js';
import { paymentView, type PaymentView } from './records.js';

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A provider's authorize / confirm answer as an outcome for apply.ts. */
export function outcomeOf(result: AuthorizeResult, amount: number): Outcome {
  switch (result.status) {
    case 'captured':
      return { kind: 'captured', amount: result.capturedAmount ?? amount };
    case 'authorized':
      return { kind: 'authorized', amount, ...(result.expiresAt ? { expiresAt: result.expiresAt } : {}) };
    case 'requires_action':
      return { kind: 'requires_action', ...(result.nextAction ? { nextAction: result.nextAction } : {}) };
    case 'failed':
      return { kind: 'failed', ...(result.failure ? { failure: result.failure } : {}) };
    case 'pending':
      return { kind: 'requires_action' };
  }
}

export async function confirmPayment(ctx: OrdersCtx, paymentId: string, params: Record<string, string>): Promise<PaymentView> {
  if (!UUID_RE.test(paymentId)) throw notFound('Payment');
  const result = await inTransaction(
    ctx.db,
    async (tx) => {
      const found = await tx.payment.findFirst({ where: { id: paymentId, organizationId: ctx.organization.id }, select: { orderId: true } });
      if (!found) throw notFound('Payment');
      const order = await lockOrderForSystem(tx, ctx.organization.id, found.orderId);
      if (!order) throw notFound('Payment');
      const payment = await tx.payment.findUniqueOrThrow({ where: { id: paymentId } });
      if (payment.status !== 'requires_action' || !payment.providerReference) return { payment, afterCommit: [] as Array<() => Promise<void>> };
      const provider = providerOf(ctx, payment.provider);
      const answer = await provider
        .confirm({ paymentId, providerReference: payment.providerReference, params, idempotencyKey: paymentKeys.confirm(payment.id) })
        .catch((error: unknown) => {
          ctx.logger.error({ err: error, paymentId }, 'payment provider call failed: confirm');
          throw new AppError('SERVICE_UNAVAILABLE', 'The payment provider could not be reached; nothing was recorded, try again', { reason: 'provider_unreachable' });
        });
      const applied = await applyOutcome(tx, ctx, order, payment, outcomeOf(answer, Number(payment.amount)), `payment ${payment.providerReference} confirmed`);
      return { payment: await tx.payment.findUniqueOrThrow({ where: { id: paymentId } }), afterCommit: applied.afterCommit };
    },
    { timeout: ctx.services.payments.timeoutMs + 15_000 },
  );
  await runAfterCommit(result.afterCommit);
  return paymentView(result.payment);
}

export async function abandonAction(ctx: OrdersCtx, paymentId: string): Promise<string> {
  const result = await inTransaction(ctx.db, async (tx) => {
    const found = await tx.payment.findFirst({ where: { id: paymentId, organizationId: ctx.organization.id }, select: { orderId: true } });
    if (!found) return { outcome: 'skipped: payment not found', afterCommit: [] as Array<() => Promise<void>> };
    const order = await lockOrderForSystem(tx, ctx.organization.id, found.orderId);
    const payment = await tx.payment.findUniqueOrThrow({ where: { id: paymentId } });
    if (!order || payment.status !== 'requires_action') return { outcome: `skipped: payment is ${payment.status}`, afterCommit: [] };
    const applied = await applyOutcome(
      tx,
      ctx,
      order,
      payment,
      { kind: 'failed', failure: { code: 'authentication_abandoned', message: 'The shopper did not complete the payment action in time.' } },
      'the payment action was abandoned',
    );
    const provider = ctx.services.payments.providers.get(payment.provider);
    const reference = payment.providerReference;
    const afterCommit = [...applied.afterCommit];
    if (provider && reference) {
      afterCommit.push(() =>
        provider
          .void({ paymentId, providerReference: reference, amount: Number(payment.amount), currency: payment.currency, idempotencyKey: paymentKeys.void(paymentId) })
          .then(() => undefined)
          .catch((error: unknown) => ctx.logger.warn({ err: error, paymentId }, 'could not cancel an abandoned payment at the provider')),
      );
    }
    return { outcome: applied.outcome, afterCommit };
  });
  await runAfterCommit(result.afterCommit);
  return result.outcome;
}
