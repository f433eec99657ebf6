// Starting an order's payment at the provider: the one path checkout, draft completion and order
// edits take. The provider authorizes (with capture mode automatic: authorizes and captures) the
// amount under the key `<payment id>:authorize:1`; its answer is recorded as a pending (or
// requires_action) payment row, not trusted as final — the provider's signed event (or, for a
// 3-D Secure / redirect action, POST /api/payments/:id/confirm) moves the payment on and confirms
// the order, and an action abandoned past settings payments.actionExpiryMinutes cancels it.
// A decline is the caller's error (declined); an unreachable provider is `unreachable` (nothing
// was recorded, the caller may retry). A caller whose transaction rolls back after the provider
// answered gives the authorization back with releaseAuthorization.
import type { Tx } from '../../db/client.js';
import type { AppError } from '../../errors.js';
import type { OrdersCtx } from '../orders/shared.js';
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
}

export interface AuthorizeOrderInput {
  paymentId: string;
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
  const answer = await provider
    .authorize({
      paymentId: input.paymentId,
      orderId: input.orderId,
      organizationId: ctx.organization.id,
      amount: input.amount,
      currency: input.currency,
      method: { id: input.methodId },
      idempotencyKey: paymentKeys.authorize(input.paymentId),
      capture: input.captureMode === 'automatic',
      returnUrl: input.returnUrl,
      customerEmail: input.customerEmail,
    })
    .catch((error: unknown) => {
      ctx.logger.error({ err: error, orderId: input.orderId }, 'payment provider call failed');
      throw errors.unreachable();
    });
  if (answer.status === 'failed') throw errors.declined(answer.failure ?? { code: 'payment_failed', message: 'The payment failed.' });
  const action = answer.status === 'requires_action';
  if (action) await scheduleActionExpiry(tx, ctx, input.paymentId, input.actionExpiryMinutes * 60_000);
  return {
    id: input.paymentId,
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
  };
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

/** Gives back an authorization whose transaction rolled back (best effort: an authorization also lapses by itself). */
export async function releaseAuthorization(ctx: Pick<OrdersCtx, 'logger'>, provider: PaymentProvider, p: StartedPayment | null, what: string): Promise<void> {
  const reference = p?.providerReference;
  if (!p || !reference) return;
  await provider
    .void({ paymentId: p.id, providerReference: reference, amount: Number(p.amount), currency: p.currency, idempotencyKey: paymentKeys.void(p.id) })
    .then((r) => (r.ok ? undefined : ctx.logger.warn({ paymentId: p.id, code: r.code }, `the provider refused to void the payment of a rolled-back ${what}: ${r.message}`)))
    .catch((e: unknown) => ctx.logger.error({ err: e, paymentId: p.id, orderId: p.orderId }, `could not cancel the payment of a rolled-back ${what}`));
}
