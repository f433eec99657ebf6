// Payment records (the payments table) and the order's payment status derived from them.
//
// A payment's status moves forward only:
//   pending | requires_action → authorized → partially_captured → captured → partially_refunded → refunded
//   pending | requires_action | authorized → voided        (void, cancellation, expiry with nothing captured)
//   pending | requires_action → failed                     (declined, authentication failed or abandoned)
// so an event that arrives late (authorized after captured, failed after captured) changes nothing.
//
// The order's paymentStatus, from its payments (failed ones ignored), when it has any:
//   captured − refunded:   refunded ≥ captured > 0 → refunded;  refunded > 0 → partially_refunded;
//                          captured ≥ grandTotal → paid;  captured > 0 → partially_paid
//   nothing captured:      any authorized → authorized;  all voided → voided;  else awaiting_payment
// An order without payments (nothing to pay, orders from before payment records) keeps its own.
import type { Payment, PaymentRecordStatus, PaymentStatus, Prisma } from '../../generated/prisma/client.js';
import type { Tx } from '../../db/client.js';
import { recordEvent, originOf } from '../../events/outbox.js';
import type { OrdersCtx } from '../orders/shared.js';
import type { PaymentNextAction } from './provider.js';

export type PaymentRow = Payment;

export interface PaymentView {
  id: string;
  orderId: string;
  provider: string;
  method: string | null;
  status: PaymentRecordStatus;
  captureMode: string;
  currency: string;
  amount: number;
  authorizedAmount: number;
  capturedAmount: number;
  refundedAmount: number;
  /** What can still be captured (authorized, not captured, not released). */
  capturableAmount: number;
  providerReference: string | null;
  nextAction: PaymentNextAction | null;
  expiresAt: Date | null;
  expired: boolean;
  failureCode: string | null;
  failureMessage: string | null;
  createdAt: Date;
  updatedAt: Date;
}

const n = (value: bigint | number) => Number(value);

/**
 * Views of payments written in the answering request's own transaction (checkout's): no provider
 * event can name a payment before its row commits, and the answer shows the payment as it was
 * written, so its `events` are the empty list without a read.
 */
const writtenInRequest = new WeakSet<PaymentView>();

/** Marks `view` as written in this request (see writtenInRequest). */
export function paymentWrittenNow(view: PaymentView): PaymentView {
  writtenInRequest.add(view);
  return view;
}

/** Whether `view` is a payment written in this request, whose events are known to be none. */
export function isPaymentWrittenNow(view: PaymentView): boolean {
  return writtenInRequest.has(view);
}

export function capturable(p: Pick<Payment, 'status' | 'authorizedAmount' | 'capturedAmount'>): number {
  return p.status === 'authorized' || p.status === 'partially_captured' ? Math.max(0, n(p.authorizedAmount) - n(p.capturedAmount)) : 0;
}

export function paymentView(p: Payment): PaymentView {
  return {
    id: p.id,
    orderId: p.orderId,
    provider: p.provider,
    method: p.method,
    status: p.status,
    captureMode: p.captureMode,
    currency: p.currency,
    amount: n(p.amount),
    authorizedAmount: n(p.authorizedAmount),
    capturedAmount: n(p.capturedAmount),
    refundedAmount: n(p.refundedAmount),
    capturableAmount: capturable(p),
    providerReference: p.providerReference,
    nextAction: (p.nextAction as PaymentNextAction | null) ?? null,
    expiresAt: p.expiresAt,
    expired: p.expired,
    failureCode: p.failureCode,
    failureMessage: p.failureMessage,
    createdAt: p.createdAt,
    updatedAt: p.updatedAt,
  };
}

export type PaymentPayload = Omit<PaymentView, 'expiresAt' | 'createdAt' | 'updatedAt'> & { expiresAt: string | null; createdAt: string; updatedAt: string };

export function paymentPayload(view: PaymentView): PaymentPayload {
  return { ...view, expiresAt: view.expiresAt?.toISOString() ?? null, createdAt: view.createdAt.toISOString(), updatedAt: view.updatedAt.toISOString() };
}

declare module '../../events/registry.js' {
  interface EventPayloads {
    /** A payment changed state: change is authorized, captured, voided, failed, expired, refunded, requires_action. */
    'payments.update': { payment: PaymentPayload; change: string };
  }
}

const RANK: Record<PaymentRecordStatus, number> = {
  pending: 0,
  requires_action: 0,
  authorized: 1,
  partially_captured: 2,
  captured: 3,
  partially_refunded: 4,
  refunded: 5,
  voided: 9,
  failed: 9,
};

/** Whether a payment in `from` may move to `to` (forward only; voided and failed are final). */
export function canMove(from: PaymentRecordStatus, to: PaymentRecordStatus): boolean {
  if (from === 'voided' || from === 'failed') return false;
  if (to === 'failed') return RANK[from] === 0;
  if (to === 'voided') return RANK[from] <= 1;
  return RANK[to] >= RANK[from];
}

export function derivedOrderPaymentStatus(
  grandTotal: number,
  payments: ReadonlyArray<Pick<Payment, 'status' | 'capturedAmount' | 'refundedAmount'>>,
  current: PaymentStatus,
): PaymentStatus {
  const live = payments.filter((p) => p.status !== 'failed');
  if (!payments.length) return current;
  const captured = live.reduce((sum, p) => sum + n(p.capturedAmount), 0);
  const refunded = live.reduce((sum, p) => sum + n(p.refundedAmount), 0);
  if (captured > 0) {
    if (refunded >= captured) return 'refunded';
    if (refunded > 0) return 'partially_refunded';
    return captured >= grandTotal ? 'paid' : 'partially_paid';
  }
  if (live.some((p) => p.status === 'authorized')) return 'authorized';
  if (live.length && live.every((p) => p.status === 'voided')) return 'voided';
  return 'awaiting_payment';
}

/**
 * Recomputes the order's paymentStatus and capturedAmount from its payments (the order row is
 * locked by the caller). Returns what it wrote.
 */
export async function syncOrderPayment(
  tx: Tx,
  order: { id: string; grandTotal: bigint | number; paymentStatus: PaymentStatus; capturedAmount: bigint | number },
): Promise<{ paymentStatus: PaymentStatus; capturedAmount: number }> {
  const payments = await tx.payment.findMany({ where: { orderId: order.id }, select: { status: true, capturedAmount: true, refundedAmount: true } });
  if (!payments.length) return { paymentStatus: order.paymentStatus, capturedAmount: n(order.capturedAmount) };
  const paymentStatus = derivedOrderPaymentStatus(n(order.grandTotal), payments, order.paymentStatus);
  const capturedAmount = payments.filter((p) => p.status !== 'failed').reduce((sum, p) => sum + n(p.capturedAmount), 0);
  if (paymentStatus !== order.paymentStatus || capturedAmount !== n(order.capturedAmount)) {
    await tx.order.update({ where: { id: order.id }, data: { paymentStatus, capturedAmount: BigInt(capturedAmount) } });
  }
  return { paymentStatus, capturedAmount };
}

/** Updates a payment and records payments.update (for webhooks subscribers and the timeline). */
export async function updatePayment(
  tx: Tx,
  ctx: Pick<OrdersCtx, 'organization' | 'actor' | 'requestId'>,
  id: string,
  data: Prisma.PaymentUpdateInput,
  change: string,
): Promise<Payment> {
  const updated = await tx.payment.update({ where: { id }, data });
  await recordEvent(tx, originOf(ctx), 'payments.update', { payment: paymentPayload(paymentView(updated)), change });
  return updated;
}

/** Locks the order's payments (oldest first) for the rest of the transaction. */
export async function lockPayments(tx: Tx, organizationId: string, orderId: string): Promise<Payment[]> {
  await tx.$queryRaw`select id from payments where organization_id = ${organizationId}::uuid and order_id = ${orderId}::uuid order by created_at, id for update`;
  return tx.payment.findMany({ where: { organizationId, orderId }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] });
}
