// Starting an order's payment at the provider: the one path checkout, draft completion and order
// edits take. The provider authorizes (with capture mode automatic: authorizes and captures) the
// amount under the key `<payment id>:authorize:1`; its answer is recorded as a pending (or
// requires_action) payment row, not trusted as final — the provider's signed event (or, for a
// 3-D Secure / redirect action, POST /api/payments/:id/confirm) moves the payment on and confirms
// the order, and an action abandoned past settings payments.actionExpiryMinutes cancels it.
// A decline is the caller's error (declined); an unreachable provider is `unreachable` (nothing
// was recorded, the caller may retry). A caller whose transaction rolls back after the provider
// answered gives the authorization back with releaseAuthorization.
//
// The payment's id is derived, not random (attempts.ts): the caller names its logical attempt
// (`paymentId`: paymentAttemptRoot of its Idempotency-Key or of what it pays for), and the id is
// that root, the count of its ended attempts and what the provider is asked. A process killed after
// the provider's answer and before COMMIT leaves nothing behind, so the retry derives the same id
// and key and the provider answers the first authorization again instead of making a second. A
// decline or a given-back authorization ends the attempt (recorded outside the transaction): the
// next try asks the provider afresh under a new key.
import type { Tx } from '../../db/client.js';
import type { AppError } from '../../errors.js';
import type { OrdersCtx } from '../orders/shared.js';
import { attemptPaymentId, currentAttempt, type PaymentAttempt } from './attempts.js';
import { paymentKeys } from './keys.js';
import type { PaymentFailure, PaymentProvider } from './provider.js';
import { scheduleActionExpiry } from './tasks.js';

export type CaptureMode = 'automatic' | 'manual' | 'on_fulfilment';

/** A payment row as started (written by the caller: in checkout's order statement, or insertPayment). */
export interface StartedPayment {
  id: string;
  organizationId: string;
  orderId: string;
  provider: string;
  method: string | null;
  currency: string;
  amount: bigint;
  authorizedAmount: bigint;
  status: 'pending' | 'requires_action';
  captureMode: CaptureMode;
  providerReference: string | null;
  nextAction: Record<string, unknown> | null;
  expiresAt: Date | null;
  createdAt: Date;
  /** The logical attempt the id was derived from (attempts.ts); not a column. */
  attempt: PaymentAttempt;
}

export interface AuthorizeOrderInput {
  /**
   * The logical attempt's root (paymentAttemptRoot): the same for every retry of the same request.
   * The payment's id is derived from it (see the header); read it from the answer.
   */
  paymentId: string;
  /** The attempt number of that root when the caller read it in a statement it runs anyway (checkout's cart lock); absent: read here. */
  attemptNumber?: number;
  orderId: string;
  amount: number;
  currency: string;
  methodId: string;
  captureMode: CaptureMode;
  returnUrl: string;
  customerEmail: string | null;
  actionExpiryMinutes: number;
}

export interface AuthorizeErrors {
  declined: (failure: PaymentFailure) => AppError;
  unreachable: () => AppError;
}

/** Where a 3-D Secure / redirect action brings the shopper back when the caller names no page: this server's origin. */
export function defaultReturnUrl(ctx: Pick<OrdersCtx, 'config'> & { request?: Request }): string {
  if (ctx.config.baseUrl) return `${ctx.config.baseUrl.replace(/\/+$/, '')}/`;
  if (ctx.request) return `${new URL(ctx.request.url).origin}/`;
  return 'http://localhost/';
}

/** Authorizes at the provider and answers the payment row to write (see the header). */
export async function authorizeOrderPayment(
  tx: Tx,
  ctx: Pick<OrdersCtx, 'organization' | 'services' | 'logger'>,
  provider: PaymentProvider,
  input: AuthorizeOrderInput,
  errors: AuthorizeErrors,
): Promise<StartedPayment> {
  const attempt = input.attemptNumber === undefined ? await currentAttempt(tx, input.paymentId) : { root: input.paymentId, n: input.attemptNumber };
  const paymentId = attemptPaymentId(attempt, {
    provider: provider.name,
    amount: input.amount,
    currency: input.currency,
    methodId: input.methodId,
    captureMode: input.captureMode,
  });
  const answer = await provider
    .authorize({
      paymentId,
      orderId: input.orderId,
      organizationId: ctx.organization.id,
      amount: input.amount,
      currency: input.currency,
      method: { id: input.methodId },
      idempotencyKey: paymentKeys.authorize(paymentId),
      capture: input.captureMode === 'automatic',
      returnUrl: input.returnUrl,
      customerEmail: input.customerEmail,
    })
    .catch((error: unknown) => {
      ctx.logger.error({ err: error, orderId: input.orderId }, 'payment provider call failed');
      throw errors.unreachable();
    });
  if (answer.status === 'failed') {
    // Final for this key: recorded now (the caller's transaction is about to roll back), so a
    // retry asks the provider again instead of being answered this decline.
    await endAttempt(ctx, attempt, 'declined');
    throw errors.declined(answer.failure ?? { code: 'payment_failed', message: 'The payment failed.' });
  }
  const action = answer.status === 'requires_action';
  if (action) await scheduleActionExpiry(tx, ctx, paymentId, input.actionExpiryMinutes * 60_000);
  return {
    id: paymentId,
    organizationId: ctx.organization.id,
    orderId: input.orderId,
    provider: provider.name,
    method: input.methodId,
    currency: input.currency,
    amount: BigInt(input.amount),
    authorizedAmount: 0n,
    status: action ? 'requires_action' : 'pending',
    captureMode: input.captureMode,
    providerReference: answer.providerReference,
    nextAction: action && answer.nextAction ? { ...answer.nextAction } : null,
    expiresAt: answer.expiresAt ?? null,
    createdAt: new Date(),
    attempt,
  };
}

/** Records an ended attempt; a failure is logged (the next try then gets the provider's stored answer for this key). */
async function endAttempt(ctx: Pick<OrdersCtx, 'organization' | 'services' | 'logger'>, attempt: PaymentAttempt, reason: 'declined' | 'released'): Promise<boolean> {
  try {
    await ctx.services.paymentAttempts.end(ctx.organization.id, attempt, reason);
    return true;
  } catch (error) {
    ctx.logger.error({ err: error, root: attempt.root, attempt: attempt.n }, 'could not record the end of a payment attempt');
    return false;
  }
}

/** Writes a started payment outside checkout's order statement (draft-less paths: order edits). */
export async function insertPayment(tx: Tx, p: StartedPayment): Promise<void> {
  await tx.payment.create({
    data: {
      id: p.id,
      organizationId: p.organizationId,
      orderId: p.orderId,
      provider: p.provider,
      method: p.method,
      currency: p.currency,
      amount: p.amount,
      authorizedAmount: p.authorizedAmount,
      status: p.status,
      captureMode: p.captureMode,
      providerReference: p.providerReference,
      nextAction: p.nextAction === null ? undefined : (p.nextAction as object),
      expiresAt: p.expiresAt,
      createdAt: p.createdAt,
      updatedAt: p.createdAt,
    },
  });
}

/**
 * Gives back an authorization whose transaction rolled back (best effort: an authorization also
 * lapses by itself). The attempt is recorded as ended first, so a retry never reuses the key of a
 * voided authorization; when that record cannot be written the authorization is kept instead (the
 * retry then reuses it). A payment that committed under the same id after all (a duplicate request
 * that won) is not touched.
 */
export async function releaseAuthorization(
  ctx: Pick<OrdersCtx, 'organization' | 'services' | 'logger' | 'db'>,
  provider: PaymentProvider,
  p: StartedPayment | null,
  what: string,
): Promise<void> {
  const reference = p?.providerReference;
  if (!p || !reference) return;
  const committed = await ctx.db.payment.findFirst({ where: { id: p.id, organizationId: p.organizationId }, select: { id: true } }).catch(() => null);
  if (committed) return;
  if (!(await endAttempt(ctx, p.attempt, 'released'))) return;
  await provider
    .void({ paymentId: p.id, providerReference: reference, amount: Number(p.amount), currency: p.currency, idempotencyKey: paymentKeys.void(p.id) })
    .then((r) => (r.ok ? undefined : ctx.logger.warn({ paymentId: p.id, code: r.code }, `the provider refused to void the payment of a rolled-back ${what}: ${r.message}`)))
    .catch((e: unknown) => ctx.logger.error({ err: e, paymentId: p.id, orderId: p.orderId }, `could not cancel the payment of a rolled-back ${what}`));
}
