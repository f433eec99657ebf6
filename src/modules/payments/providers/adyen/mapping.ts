// Adyen's answers and notifications in our provider-neutral terms (../../provider.ts).
import type { AuthorizeResult, PaymentFailure, PaymentNextAction, PaymentProviderEvent } from '../../provider.js';
import type { AdyenAction, AdyenNotificationItem, AdyenPaymentResponse } from './types.js';

const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
/** Refund references are `refund:<our refund id>`, so a refund notification names our refund. */
export const REFUND_REFERENCE_PREFIX = 'refund:';
const REFUND_RE = new RegExp(`^${REFUND_REFERENCE_PREFIX}(${UUID})$`, 'i');
/** Payment references are our payment id; capture/cancel references are our idempotency keys (`<paymentId>:<op>:<n>`). */
const PAYMENT_RE = new RegExp(`^(${UUID})(?::|$)`, 'i');

export function refundReference(refundId: string): string {
  return `${REFUND_REFERENCE_PREFIX}${refundId}`;
}

/** A manual-capture payment's reference carries `:manual`; an automatic one is the bare payment id. */
const MANUAL_SUFFIX = ':manual';

export function paymentReference(paymentId: string, capture: boolean): string {
  return capture ? paymentId : `${paymentId}${MANUAL_SUFFIX}`;
}

/** Whether the payment with this merchant reference was asked with automatic capture (captureDelayHours 0). */
export function capturesAutomatically(merchantReference: string | undefined): boolean {
  if (!merchantReference) return false;
  return PAYMENT_RE.test(merchantReference) && !merchantReference.endsWith(MANUAL_SUFFIX);
}

/**
 * What the shopper must do. A GET redirect is a plain redirect; everything else (a POST redirect
 * with form data, native 3DS2 fingerprint/challenge, QR codes, vouchers) is handed to Adyen's web
 * SDK, whose `checkout.createFromAction(action)` takes the whole action object (`data`).
 */
export function nextActionOf(action: AdyenAction | undefined): PaymentNextAction | undefined {
  if (!action) return undefined;
  if (action.type === 'redirect' && action.url && (action.method ?? 'GET').toUpperCase() === 'GET') return { type: 'redirect', url: action.url };
  const secret = action.paymentData ?? action.authorisationToken ?? action.token ?? action.url ?? action.type;
  return { type: 'sdk', clientSecret: secret, data: { ...action } };
}

/** Shopper-facing messages for Adyen's refusal reasons (the raw reason stays in declineCode). */
function failureOf(res: AdyenPaymentResponse): PaymentFailure {
  const reason = res.refusalReason ?? res.resultCode;
  const message =
    res.resultCode === 'Error'
      ? 'The payment could not be processed. Try again or use another payment method.'
      : res.resultCode === 'Cancelled'
        ? 'The payment was cancelled.'
        : /3D|authenticat/i.test(reason)
          ? 'The card issuer could not authenticate the payment.'
          : /expired/i.test(reason)
            ? 'Your card has expired.'
            : /not enough balance|insufficient/i.test(reason)
              ? 'Your card has insufficient funds.'
              : 'Your card was declined.';
  return { code: res.resultCode, message, ...(reason ? { declineCode: res.refusalReasonCode ? `${res.refusalReasonCode}:${reason}` : reason } : {}) };
}

/**
 * /payments and /payments/details answers. `capture` is whether the payment was asked with
 * automatic capture: an Authorised card payment is then captured by Adyen on its own.
 */
export function authorizeResultOf(res: AdyenPaymentResponse, capture: boolean, amount: number): AuthorizeResult {
  const providerReference = res.pspReference ?? null;
  switch (res.resultCode) {
    case 'Authorised':
      return capture ? { status: 'captured', providerReference, capturedAmount: res.amount?.value ?? amount } : { status: 'authorized', providerReference };
    case 'RedirectShopper':
    case 'IdentifyShopper':
    case 'ChallengeShopper':
    case 'PresentToShopper': {
      const nextAction = nextActionOf(res.action);
      if (nextAction) return { status: 'requires_action', providerReference, nextAction };
      return {
        status: 'failed',
        providerReference,
        failure: { code: 'Error', message: 'The payment needs a step this store cannot offer. Use another payment method.', declineCode: `no action for ${res.resultCode}` },
      };
    }
    // Asynchronous methods (bank transfers, some wallets): the outcome arrives as AUTHORISATION.
    case 'Pending':
    case 'Received':
    case 'AuthenticationFinished':
    case 'AuthenticationNotRequired':
      return { status: 'pending', providerReference };
    default:
      // Refused, Error, Cancelled — and PartiallyAuthorised, which we never ask for.
      return { status: 'failed', providerReference, failure: failureOf(res) };
  }
}

const EVENTS: Record<string, (success: boolean, item: AdyenNotificationItem) => PaymentProviderEvent['type']> = {
  // An automatic-capture payment is captured with its authorisation (captureDelayHours 0).
  AUTHORISATION: (ok, item) => (!ok ? 'payment.failed' : capturesAutomatically(item.merchantReference) ? 'payment.captured' : 'payment.authorized'),
  CAPTURE: (ok) => (ok ? 'payment.captured' : 'ignored'),
  CANCELLATION: (ok) => (ok ? 'payment.voided' : 'ignored'),
  TECHNICAL_CANCEL: (ok) => (ok ? 'payment.voided' : 'ignored'),
  CANCEL_OR_REFUND: (ok, item) => (!ok ? 'ignored' : item.additionalData?.['modification.action'] === 'refund' ? 'payment.refunded' : 'payment.voided'),
  REFUND: (ok) => (ok ? 'payment.refunded' : 'payment.refund_failed'),
  // Sent after a refund was first acknowledged: the money did not reach the shopper.
  REFUND_FAILED: () => 'payment.refund_failed',
  REFUNDED_REVERSED: () => 'payment.refund_failed',
  // The authorization lapsed before it was captured.
  EXPIRE: (ok) => (ok ? 'payment.expired' : 'ignored'),
  // A redirect / 3-D Secure offer the shopper never completed.
  OFFER_CLOSED: (ok) => (ok ? 'payment.failed' : 'ignored'),
};

const MODIFICATIONS = new Set([
  'CAPTURE',
  'CAPTURE_FAILED',
  'CANCELLATION',
  'TECHNICAL_CANCEL',
  'CANCEL_OR_REFUND',
  'REFUND',
  'REFUND_FAILED',
  'REFUNDED_REVERSED',
  'AUTHORISATION_ADJUSTMENT',
]);
const REFUNDS = new Set(['REFUND', 'REFUND_FAILED', 'REFUNDED_REVERSED']);

/** One verified notification item as our event. Id: pspReference:eventCode:success, unique per Adyen notification. */
export function eventOf(item: AdyenNotificationItem, merchantAccount: string): PaymentProviderEvent {
  const success = item.success === 'true';
  const id = `${item.pspReference}:${item.eventCode}:${item.success}`;
  const base = { id, providerType: item.eventCode };
  // Another merchant account of the same company posting to this URL: verified, not ours.
  if (item.merchantAccountCode !== merchantAccount) return { ...base, type: 'ignored', providerReference: null };
  const modification = MODIFICATIONS.has(item.eventCode);
  const paymentReference = modification ? (item.originalReference ?? null) : item.pspReference;
  const reference = item.merchantReference ?? '';
  const refundId = REFUND_RE.exec(reference)?.[1]?.toLowerCase() ?? null;
  const paymentId = refundId ? null : (PAYMENT_RE.exec(reference)?.[1]?.toLowerCase() ?? null);
  const type = EVENTS[item.eventCode]?.(success, item) ?? 'ignored';
  const occurredAt = item.eventDate ? new Date(item.eventDate) : undefined;
  const event: PaymentProviderEvent = {
    ...base,
    type,
    providerReference: paymentReference,
    paymentId,
    ...(item.amount && Number.isSafeInteger(item.amount.value) ? { amount: item.amount.value, currency: item.amount.currency.toUpperCase() } : {}),
    ...(occurredAt && !Number.isNaN(occurredAt.getTime()) ? { occurredAt } : {}),
  };
  if (REFUNDS.has(item.eventCode) || (item.eventCode === 'CANCEL_OR_REFUND' && type === 'payment.refunded')) {
    event.refundId = refundId;
    event.providerRefundReference = item.pspReference;
  }
  if (type === 'payment.failed' || type === 'payment.refund_failed') {
    event.failure = { code: item.eventCode, message: item.reason || (type === 'payment.failed' ? 'The payment was not authorised.' : 'The refund failed.') };
  }
  return event;
}
