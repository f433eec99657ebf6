// Stripe's event types in our terms (for the Stripe and offline providers). Amounts: a
// PaymentIntent's amount_received is what it captured in total, amount_capturable what is
// authorized and not captured; a refund event carries the refund's own amount.
//   payment_intent.succeeded                 → payment.captured (amount = amount_received, cumulative)
//   payment_intent.amount_capturable_updated → payment.authorized (amount = amount_capturable)
//   payment_intent.requires_action           → payment.requires_action
//   payment_intent.payment_failed            → payment.failed (last_payment_error)
//   payment_intent.canceled                  → payment.expired when Stripe cancelled it itself
//                                              (cancellation_reason automatic: the authorization
//                                              lapsed), otherwise payment.voided
//   refund.updated / charge.refund.updated / refund.failed → payment.refunded or payment.refund_failed by the refund's status
//   anything else                            → ignored
import type { PaymentEventType, PaymentProviderEvent } from './provider.js';
import type { StripeEvent } from './signature.js';

const str = (value: unknown): string | null => (typeof value === 'string' && value ? value : null);
const int = (value: unknown): number | undefined => (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value : undefined);

export function mapStripeEvent(event: StripeEvent): PaymentProviderEvent {
  const object = event.data?.object ?? {};
  const metadata = (object.metadata ?? {}) as Record<string, unknown>;
  const base = {
    id: event.id,
    providerType: event.type,
    paymentId: str(metadata.paymentId),
    orderId: str(metadata.orderId),
    currency: typeof object.currency === 'string' ? object.currency.toUpperCase() : undefined,
    ...(typeof event.created === 'number' ? { occurredAt: new Date(event.created * 1000) } : {}),
  };
  const intent = (type: PaymentEventType, amount?: number): PaymentProviderEvent => ({
    ...base,
    type,
    providerReference: str(object.id),
    ...(amount === undefined ? {} : { amount }),
  });
  switch (event.type) {
    case 'payment_intent.succeeded':
      return intent('payment.captured', int(object.amount_received) ?? int(object.amount));
    case 'payment_intent.amount_capturable_updated':
      return intent('payment.authorized', int(object.amount_capturable) ?? int(object.amount));
    case 'payment_intent.requires_action':
      return intent('payment.requires_action');
    case 'payment_intent.payment_failed': {
      const error = (object.last_payment_error ?? {}) as Record<string, unknown>;
      const declineCode = str(error.decline_code);
      return {
        ...intent('payment.failed'),
        failure: { code: str(error.code) ?? 'payment_failed', message: str(error.message) ?? 'The payment failed.', ...(declineCode ? { declineCode } : {}) },
      };
    }
    case 'payment_intent.canceled':
      return intent(object.cancellation_reason === 'automatic' ? 'payment.expired' : 'payment.voided');
    case 'refund.updated':
    case 'refund.failed':
    case 'charge.refund.updated': {
      const failed = object.status === 'failed' || object.status === 'canceled';
      const succeeded = object.status === 'succeeded';
      const amount = int(object.amount);
      return {
        ...base,
        type: failed ? 'payment.refund_failed' : succeeded ? 'payment.refunded' : 'ignored',
        providerReference: str(object.payment_intent),
        refundId: str(metadata.refundId),
        providerRefundReference: str(object.id),
        ...(amount === undefined ? {} : { amount }),
        ...(failed ? { failure: { code: str(object.failure_reason) ?? 'refund_failed', message: `Refund ${String(object.status)}` } } : {}),
      };
    }
    default:
      return intent('ignored');
  }
}
